"""The command line and JSON/CSV contract of spec §6, on a competition computed by hand."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

import scoring.spotgeo as sg
from scoring import registry
from scoring.cli import main

# sequence 1 frame 1: the spec's worked example; sequence 2 frame 1: one object
GT = [{"sequence_id": 1, "frame": 1, "num_objects": 3, "object_coords": [[100, 100], [200, 200], [213, 200]]},
      {"sequence_id": 2, "frame": 1, "num_objects": 1, "object_coords": [[50, 50]]}]
A = [{"sequence_id": 1, "frame": 1, "num_objects": 4, "object_coords": [[101, 100], [205, 200], [300, 300], [400, 50]]},
     {"sequence_id": 2, "frame": 1, "num_objects": 1, "object_coords": [[54, 53]]}]  # TP at d = 5
B = [{"sequence_id": 2, "frame": 1, "num_objects": 1, "object_coords": [[50, 50]]},
     {"sequence_id": 1, "frame": 1, "num_objects": 0, "object_coords": []}]
# by hand, τ = 10, ε = 3:
# A: TP 3 (d 1, 5, 5), FP 2, FN 1. P = 3/5, R = 3/4, F1 = 2/3.
#    seed SSE = 25 + 25 + 3·100 = 350 over 6 -> MSE 58.33…; kit: seq 1 (5 + 300)/5 + seq 2 5/1 = 66
# B: TP 1 (d 0), FP 0, FN 3. P = 1, R = 1/4, F1 = 0.4. seed SSE = 300 over 4 -> 75; kit 300/3 + 0 = 100
F1_A, F1_B = 2 * 0.6 * 0.75 / 1.35, 0.4


@pytest.fixture
def comp_dir(tmp_path: Path) -> Path:
    (tmp_path / "subs").mkdir()
    (tmp_path / "gt.json").write_text(json.dumps(GT))
    (tmp_path / "subs" / "A.json").write_text(json.dumps(A))
    (tmp_path / "subs" / "B.json").write_text(json.dumps(B))
    return tmp_path


def run(capsys, *args):
    code = main(list(map(str, args)))
    out = capsys.readouterr()
    return code, out.out, out.err


def lb_args(d: Path, *extra):
    return ["spotgeo", "leaderboard", "--ground-truth", d / "gt.json", "--submissions", d / "subs", *extra]


def test_registered():
    fam = registry.get("spotgeo")
    assert fam is sg.FAMILY and fam.key == "sg" and fam.final.id == "score" and not fam.final.higher_is_better
    assert fam.sample_dir.name == "spotgeo" and (fam.sample_dir / "ground_truth.json").exists()
    assert [i.flag for i in fam.inputs] == ["--ground-truth", "--submissions"]
    assert [p.flag for p in fam.params] == ["--tau", "--epsilon", "--rules"]


def test_csv_columns_order_and_values(comp_dir, capsys):
    code, out, _ = run(capsys, *lb_args(comp_dir))
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["submission", "tp", "fp", "fn", "precision", "recall", "f1", "score", "mse", "rank"]
    a, b = rows[1], rows[2]
    assert a[:4] == ["A", "3", "2", "1"] and b[:4] == ["B", "1", "0", "3"]
    assert float(a[6]) == pytest.approx(F1_A) and float(a[7]) == pytest.approx(1 - F1_A)
    assert float(a[8]) == pytest.approx(350 / 6) and float(b[8]) == pytest.approx(75)
    assert (a[9], b[9]) == ("1", "2")


def test_starter_kit_and_epsilon(comp_dir, capsys):
    code, out, _ = run(capsys, *lb_args(comp_dir, "--rules", "starter-kit", "--format", "json"))
    assert code == 0
    doc = json.loads(out)
    assert list(doc) == ["family", "parameters", "leaderboard"]
    assert doc["family"] == "spotgeo" and doc["parameters"] == {"tau": 10.0, "epsilon": 3.0, "rules": "starter-kit"}
    rows = {r["submission"]: r for r in doc["leaderboard"]}
    assert list(rows["A"]) == ["submission", "tp", "fp", "fn", "precision", "recall", "f1", "score", "mse", "rank"]
    assert rows["A"]["mse"] == pytest.approx(305 / 5 + 5) and rows["B"]["mse"] == pytest.approx(100)
    # ε = 6: A's 5 px errors vanish (seed SSE 300 over 6)
    code, out, _ = run(capsys, *lb_args(comp_dir, "--epsilon", "6", "--format", "json"))
    rows = {r["submission"]: r for r in json.loads(out)["leaderboard"]}
    assert rows["A"]["mse"] == pytest.approx(50)


def test_ties_sorted_by_name(comp_dir, capsys):
    (comp_dir / "subs" / "0-copy.json").write_text(json.dumps(B))
    code, out, _ = run(capsys, *lb_args(comp_dir))
    rows = list(csv.reader(io.StringIO(out)))[1:]
    assert [(r[0], r[9]) for r in rows] == [("A", "1"), ("0-copy", "2"), ("B", "2")]


def test_output_file_and_formula_names(comp_dir, capsys, tmp_path):
    (comp_dir / "subs" / "=cmd.json").write_text(json.dumps(B))
    target = tmp_path / "out.csv"
    code, out, _ = run(capsys, *lb_args(comp_dir, "--output", target))
    assert code == 0 and out == ""
    text = target.read_text()
    assert "'=cmd" in text
    code, out, _ = run(capsys, *lb_args(comp_dir, "--raw-names"))
    assert "\n=cmd," in out


@pytest.mark.parametrize("extra, message", [
    (["--tau", "0"], "error: --tau: expected a number in (0, 50], got '0'"),
    (["--tau", "50.5"], "error: --tau: expected a number in (0, 50], got '50.5'"),
    (["--tau", "abc"], "error: --tau: expected a number in (0, 50], got 'abc'"),
    (["--epsilon", "-1"], "error: --epsilon: expected a number in [0, tau], got '-1'"),
    (["--tau", "5", "--epsilon", "6"], "error: --epsilon: expected a number in [0, tau = 5], got 6.0"),
    (["--rules", "kit"], "error: --rules: expected one of seed, starter-kit, got 'kit'"),
])
def test_bad_parameters_exit_2(comp_dir, capsys, extra, message):
    code, out, err = run(capsys, *lb_args(comp_dir, *extra))
    assert code == 2 and out == ""
    assert [x for x in err.splitlines() if x.startswith("error")] == [message]


def test_missing_file_exit_2(comp_dir, capsys):
    code, _, err = run(capsys, "spotgeo", "leaderboard", "--ground-truth", comp_dir / "nope.json",
                       "--submissions", comp_dir / "subs")
    assert code == 2 and "error: nope.json: file not found" in err


def test_help_lists_every_option_with_default(capsys):
    with pytest.raises(SystemExit):
        main(["spotgeo", "leaderboard", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for flag, default in (("--tau", "(default 10.0)"), ("--epsilon", "(default 3.0)"), ("--rules", "(default seed)")):
        assert flag in text and default in text
    assert "--ground-truth JSON" in text and "--submissions PATH [PATH ...]" in text and "--format {csv,json}" in text


def test_python_api_matches_cli(comp_dir, capsys):
    code, out, _ = run(capsys, *lb_args(comp_dir, "--tau", "12.5", "--epsilon", "0", "--format", "json"))
    doc = json.loads(out)
    comp = sg.load_competition(comp_dir / "gt.json", [comp_dir / "subs"])
    lb = sg.Scorer(comp).leaderboard(tau=12.5, epsilon=0)
    assert sg.leaderboard_document(lb, {"tau": 12.5, "epsilon": 0.0, "rules": "seed"}) == doc
    # the frame carries extra columns the CLI does not write
    assert list(lb.columns) == list(sg.LEADERBOARD_COLUMNS) + list(sg.EXTRA_COLUMNS)
