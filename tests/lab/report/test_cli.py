"""``python -m lab.report <family> --out FILE``: every family's sample writes a report; bad
input is one line and exit 2, as with the other commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoring import get
from tests.app.helpers import write_competition
from tests.cli import run_report


def _sample_args(name: str) -> list[str]:
    fam = get(name)
    args = []
    for inp in fam.inputs:
        path = Path(fam.sample_dir) / inp.path
        if path.exists():
            args += [inp.flag, str(path)]
    return args + (["--metric", "wmprob"] if name == "difficulty" else [])  # its one required option


@pytest.mark.parametrize("family", ["shovel-ready", "spotgeo", "qa", "difficulty"])
def test_every_familys_sample_writes_a_report(family, tmp_path):
    out = tmp_path / "report.html"
    res = run_report(family, "--out", out, *_sample_args(family))
    assert res.returncode == 0, res.stderr
    assert res.stdout == "" and f"wrote {out}" in res.stderr
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and f"family <code>{family}</code>" in html
    assert f"python -m scoring {family} leaderboard" in html
    # the family's own section is there
    own = {"shovel-ready": "Demographic groups", "spotgeo": "Both rule sets", "qa": "Hidden weights",
           "difficulty": "Splits"}[family]
    assert f"<h2>{own}</h2>" in html


def test_bootstrap_adds_the_rank_intervals(tmp_path):
    d = write_competition(tmp_path / "c")
    out = tmp_path / "r.html"
    res = run_report("shovel-ready", "--out", out, "--ground-truth", d / "ground_truth.csv", "--submissions",
                     d / "submissions", "--bootstrap", "30", "--seed", "4")
    assert res.returncode == 0, res.stderr
    html = out.read_text(encoding="utf-8")
    assert "<h2>Rank confidence sets</h2>" in html and "30 resamples, seed 4" in html
    assert "--bootstrap 30 --confidence 0.95 --seed 4" in html  # the command that reproduces it
    assert "Who could have won?" in html and "rank_low_all" not in html.split("Rank confidence sets")[1]


def test_simultaneous_sets_and_top_k_as_the_leaderboard_command_takes_them(tmp_path):
    d = write_competition(tmp_path / "c")
    out = tmp_path / "r.html"
    res = run_report("shovel-ready", "--out", out, "--ground-truth", d / "ground_truth.csv", "--submissions",
                     d / "submissions", "--bootstrap", "30", "--simultaneous", "--top-k", "2")
    assert res.returncode == 0, res.stderr
    html = out.read_text(encoding="utf-8").split("Rank confidence sets")[1]
    assert 'data-key="rank_low_all"' in html and "Could be in the top 2:" in html
    assert "--simultaneous --top-k 2" in out.read_text(encoding="utf-8")
    bad = run_report("shovel-ready", "--out", out, "--ground-truth", d / "ground_truth.csv", "--submissions",
                     d / "submissions", "--top-k", "2")
    assert bad.returncode == 2 and "--top-k: needs --bootstrap B" in bad.stderr


@pytest.mark.parametrize("extra, problem", [
    (["--compare", "{not json"], "--compare: expected a JSON object"),
    (["--compare", '{"alpha": -1}'], "--compare: parameter alpha"),
    (["--compare", '{"nope": 1}'], "--compare: parameter nope: unknown parameter"),
    (["--bootstrap", "0"], "bootstrap"),
    (["--alpha", "x"], "--alpha"),
])
def test_bad_input_is_one_line_and_exit_2(extra, problem, tmp_path):
    d = write_competition(tmp_path / "c")
    out = tmp_path / "r.html"
    res = run_report("shovel-ready", "--out", out, "--ground-truth", d / "ground_truth.csv", "--submissions",
                     d / "submissions", *extra)
    errors = [line for line in res.stderr.splitlines() if line.startswith("error:")]
    assert res.returncode == 2 and len(errors) == 1 and problem in errors[0], res.stderr
    assert "Traceback" not in res.stderr and not out.exists()


def test_a_missing_file_and_a_bad_destination_exit_2(tmp_path):
    d = write_competition(tmp_path / "c")
    res = run_report("shovel-ready", "--out", tmp_path / "r.html", "--ground-truth", tmp_path / "none.csv",
                     "--submissions", d / "submissions")
    assert res.returncode == 2 and "none.csv" in res.stderr and "Traceback" not in res.stderr
    for out, problem in ((tmp_path, "is a folder"), (tmp_path / "no" / "r.html", "no folder")):
        res = run_report("shovel-ready", "--out", out, "--ground-truth", d / "ground_truth.csv",
                         "--submissions", d / "submissions")
        assert res.returncode == 2 and problem in res.stderr, res.stderr
    res = run_report("shovel-ready", "--ground-truth", d / "ground_truth.csv", "--submissions", d / "submissions")
    assert res.returncode == 2 and "--out" in res.stderr  # required


@pytest.mark.parametrize("argv", [["qa", "report", "--out", "r.html"], ["report", "--out", "r.html", "--x"],
                                  ["spotgeo", "report", "--help"]])
def test_the_engines_old_report_command_points_at_the_new_one(argv):
    """``python -m scoring <family> report``: one line naming ``python -m lab.report <family>``, exit 2."""
    from tests.cli import run_cli

    family = argv[0] if argv[0] != "report" else "shovel-ready"
    res = run_cli(*argv)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.strip().splitlines() == [
        f"error: the report is written by python -m lab.report {family} --out FILE ... (same options)"]
