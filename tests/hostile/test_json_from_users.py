"""JSON a user hands over — a parameter preset on any family's Data page, a custom recipe (file,
app), a report's ``--compare`` — is read with bounded nesting and number length (issue 28):
a 5,000-digit integer or 100,000 levels of nesting is a message naming the file or option,
never a ValueError or RecursionError."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from scoring import registry
from tests.app.helpers import APP, TIMEOUT, plain
from tests.cli import run_cli, run_report

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def samples(monkeypatch):
    """Every family on its built-in sample (no LAB_DATA_DIR* from the environment)."""
    for var in ("LAB_DATA_DIR", "LAB_DATA_DIR_SPOTGEO", "LAB_DATA_DIR_QA", "LAB_DATA_DIR_DIFFICULTY",
                "LAB_DATA_DIR_CUSTOM"):
        monkeypatch.delenv(var, raising=False)


HOSTILE = {"digits": '{"w": ' + "9" * 5000 + "}", "deep": "[" * 100_000 + "]" * 100_000}


@pytest.mark.parametrize("family", [f.name for f in registry.families()])
@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_preset_is_a_message_on_every_familys_data_page(samples, family, kind):
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"family": family})
    at.run()
    at.switch_page("pages/data.py").run()
    fam = registry.get(family)
    at.file_uploader(key=f"data_{fam.key}_preset_file").set_value(
        ("preset.json", HOSTILE[kind].encode(), "application/json")).run()
    assert not at.exception, [e.value for e in at.exception]
    said = " ".join(plain(e.value) for e in at.error)
    assert "preset.json" in said and ("LAB_MAX_JSON_NUMBER_CHARS" in said or "LAB_MAX_JSON_DEPTH" in said), said


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_recipe_file_exits_2_naming_it(tmp_path, kind):
    recipe = tmp_path / "recipe.json"
    recipe.write_text(HOSTILE[kind])
    res = run_cli("custom", "leaderboard", "--results", ROOT / "sample_data/custom/results.tsv", "--recipe", recipe)
    assert res.returncode == 2 and "recipe.json" in res.stderr and "JSON" in res.stderr, res.stderr


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_compare_option_exits_2_naming_it(tmp_path, kind):
    sample = ROOT / "sample_data" / "qa"
    res = run_report("qa", "--ground-truth", sample / "ground_truth.csv", "--submissions",
                     sample / "submissions", "--out", tmp_path / "r.html", "--compare", HOSTILE[kind])
    assert res.returncode == 2 and "--compare" in res.stderr, res.stderr


def test_a_hostile_recipe_in_the_app_is_a_message(samples):
    from lab.families import custom

    for text in HOSTILE.values():
        problem = custom.apply_recipe(text)
        assert problem and "JSON" in plain(problem), problem
