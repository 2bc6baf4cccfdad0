"""docs/families.md is written from the declarations: the committed page must be current."""

from __future__ import annotations

from pathlib import Path

from scoring.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_committed_families_page_is_current(capsys):
    assert main(["docs"]) == 0
    out = capsys.readouterr().out
    assert out == (ROOT / "docs" / "families.md").read_text(encoding="utf-8"), \
        "docs/families.md is stale: run python -m scoring docs > docs/families.md"
    assert "| `alpha` | 50 |" in out and "`--no-overlap-removal`" in out


def test_help_lists_every_family(capsys):
    from scoring import registry

    try:
        main(["--help"])
    except SystemExit as e:
        assert e.code == 0
    out = capsys.readouterr().out
    for fam in registry.families():
        assert fam.name in out
