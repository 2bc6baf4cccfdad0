"""Whole-number options given digits that are not ASCII ('²' passes ``str.isdigit`` but not
``int``), and an ``a/b`` cell of a custom results table holding a number past the largest
float: each a one-line error (exit 2), never an internal error or an infinite score."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli import run_cli

ROOT = Path(__file__).resolve().parents[2]
QA = ROOT / "sample_data" / "qa"
BASE = ("--ground-truth", QA / "ground_truth.csv", "--submissions", QA / "submissions")


@pytest.mark.parametrize(("command", "extra", "flag"), [
    ("leaderboard", ("--bootstrap", "²"), "--bootstrap"),
    ("leaderboard", ("--bootstrap", "10", "--top-k", "²"), "--top-k"),
    ("shakeup", ("--splits", "²"), "--splits"),
    ("shakeup", ("--keep", "²"), "--keep"),
])
def test_superscript_digits_are_refused_in_one_line(command, extra, flag):
    res = run_cli("qa", command, *BASE, *extra)
    assert res.returncode == 2, res.stderr
    assert "internal error" not in res.stderr and flag.lstrip("-") in res.stderr.splitlines()[-1], res.stderr


@pytest.mark.parametrize("cell", ["1e999/3", "3/-1e999"])
def test_a_pair_cell_past_the_largest_float_is_refused(tmp_path, cell):
    results = tmp_path / "r.csv"
    results.write_text(f"team,u1,u2\na,{cell},0.5\nb,0.2/0.3,0.4\n")
    recipe = tmp_path / "recipe.json"
    recipe.write_text('{"inputs": {"results": {"split": "mean"}}}')
    res = run_cli("custom", "leaderboard", "--results", results, "--recipe", recipe)
    assert res.returncode == 2 and "r.csv, row 2" in res.stderr and "finite" in res.stderr, res.stderr


def test_a_pair_cell_near_the_largest_float_has_a_finite_mean(tmp_path):
    results = tmp_path / "r.csv"
    results.write_text("team,u1\na,1.5e308/1.5e308\nb,1e308/1e308\n")
    recipe = tmp_path / "recipe.json"
    recipe.write_text('{"inputs": {"results": {"split": "mean"}}}')
    res = run_cli("custom", "leaderboard", "--results", results, "--recipe", recipe, "--format", "json")
    assert res.returncode == 0, res.stderr
    scores = {row["submission"]: row["final_score"] for row in json.loads(res.stdout)["leaderboard"]}
    assert scores == {"a": 1.5e308, "b": 1e308}


def test_a_toml_recipe_nested_too_deep_is_refused(tmp_path):
    recipe = tmp_path / "recipe.toml"
    recipe.write_text("a = " + "[" * 20_000 + "]" * 20_000 + "\n")
    res = run_cli("custom", "leaderboard", "--results", ROOT / "sample_data/custom/results.tsv", "--recipe", recipe)
    assert res.returncode == 2 and "recipe.toml" in res.stderr and "nested deeper" in res.stderr, res.stderr
