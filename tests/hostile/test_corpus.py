"""Every hostile input class of ``corpus.py``: a one-line error naming the file, or a valid
score (with the promised warning) — never a traceback, an assertion or a silent zero."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import scoring
from tests.cli import run_cli
from tests.hostile.corpus import CASES, Case
from tests.shovel_ready.tiny import tiny_files


def build(tmp_path: Path, case: Case) -> Path:
    folder = tmp_path / "comp"
    for rel, data in tiny_files().items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if rel == case.file:
            data = case.make(data)
            if data is None:
                continue
        path.write_bytes(data)
    for rel, data in (case.extra or {}).items():
        (folder / rel).write_bytes(data)
    return folder


def load(folder: Path):
    return scoring.load_competition(ground_truth=folder / "ground_truth.csv", submissions=[folder / "submissions"],
                                    demographics=folder / "demographics.csv", runtimes=folder / "runtimes.csv")


def test_the_corpus_is_large_and_its_ids_unique():
    assert len(CASES) >= 91 and len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_api(tmp_path, case):
    folder = build(tmp_path, case)
    try:
        comp = load(folder)
        attrs = tuple(a for a in ("ell_status",) if a in comp.attributes)
        lb = scoring.Scorer(comp).leaderboard(attributes=attrs)
    except scoring.InputError as err:
        assert case.outcome in ("error", "any"), f"{case.id}: unexpected error {err}"
        text = str(err)
        assert "\n" not in text and text.startswith(err.file)
        assert Path(err.file).name in {p.name for p in folder.rglob("*")} or err.file.startswith(str(folder)), text
        assert case.words in text, (case.id, text)
        return
    assert case.outcome in ("ok", "any"), f"{case.id}: loaded, but it should fail with {case.words!r}"
    assert all(math.isfinite(x) for x in lb["final_score"]), case.id
    if case.words:
        assert any(case.words in line for line in comp.report), (case.id, comp.report)


CLI_CASES = [c for c in CASES if c.id in {"empty-file", "nbsp", "prob-nan", "huge-cell", "too-many-columns",
                                          "unterminated-quote", "zero-width-name", "class-wrong-case",
                                          "runtime-overflow", "demo-literal-missing"}]


@pytest.mark.parametrize("case", CLI_CASES, ids=[c.id for c in CLI_CASES])
def test_command_line(tmp_path, case):
    folder = build(tmp_path, case)
    res = run_cli("leaderboard", "--ground-truth", folder / "ground_truth.csv", "--submissions", folder / "submissions",
                  "--demographics", folder / "demographics.csv", "--runtimes", folder / "runtimes.csv")
    lines = [ln for ln in res.stderr.splitlines() if not ln.startswith("scoring ")]
    assert "Traceback" not in res.stderr and "internal error" not in res.stderr and "Assertion" not in res.stderr
    if case.outcome == "error":
        assert res.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), res.stderr
        assert case.words in lines[0]
    else:
        assert res.returncode == 0, res.stderr
        assert any(case.words in ln for ln in lines)
