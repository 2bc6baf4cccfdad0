"""The command line of spec §6 (``python -m scoring qa leaderboard``), in-process, on the
hand-computed competition (``hand.py``)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from scoring.cli import build_parser, main
from scoring.registry import get
from tests.qa import hand

ROOT = Path(__file__).resolve().parents[2]
HEADER = ("submission,final_score,rank,p_first,best_rank,median_rank,worst_rank,"
          "alpha:accuracy,alpha:f1,alpha:ait_ms,alpha:multiplier,alpha:score,"
          "beta:accuracy,beta:f1,beta:ait_ms,beta:multiplier,beta:score")


def run(capsys, *args):
    code = main(["qa", "leaderboard", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def base(files):
    return ["--ground-truth", files["ground_truth"], "--submissions", *files["submissions"]]


def test_options_are_exactly_the_spec(capsys):
    parser = build_parser()
    qa = parser._subparsers._group_actions[0].choices["qa"]
    lb = qa._subparsers._group_actions[0].choices["leaderboard"]
    flags = {s for a in lb._actions for s in a.option_strings}
    # the spec's options, plus the rank sets every family's leaderboard offers (issue 11: the
    # family's own --seed seeds the resampling too; issue 22: simultaneous sets and the top k)
    assert flags == {"-h", "--help", "--ground-truth", "--submissions", "--time-threshold", "--theme-weights",
                     "--weight-draws", "--seed", "--format", "--output", "--raw-names", "--bootstrap", "--confidence",
                     "--simultaneous", "--top-k"}
    assert get("qa").name == "qa" and get("qa").key == "qa"


def test_csv_columns_and_values(tmp_path, capsys):
    code, out, err = run(capsys, *base(hand.write(tmp_path)))
    assert code == 0, err
    assert out.splitlines()[0] == HEADER
    df = pd.read_csv(io.StringIO(out)).set_index("submission")
    assert list(df.index) == ["A", "B"]
    assert df.loc["A", "final_score"] == pytest.approx(hand.EQUAL["A"])
    assert df.loc["B", "final_score"] == pytest.approx(hand.EQUAL["B"])
    assert df.loc["A", "alpha:score"] == pytest.approx(0.55) and df.loc["A", "alpha:multiplier"] == 0.5
    assert df["rank"].tolist() == [1, 2]
    assert "scoring 2/2" in err and "scoring" not in out  # progress on stderr only


def test_themes_come_in_sorted_order(tmp_path, capsys):
    files = hand.write(tmp_path)
    Path(files["ground_truth"]).write_text(hand.GT.replace("alpha", "zeta"), encoding="utf-8")
    code, out, _ = run(capsys, *base(files))
    assert code == 0
    header = out.splitlines()[0].split(",")
    assert header[7:] == [f"{t}:{m}" for t in ("beta", "zeta") for m in ("accuracy", "f1", "ait_ms", "multiplier",
                                                                          "score")]


def test_options_change_the_numbers(tmp_path, capsys):
    files = hand.write(tmp_path, weights=True)
    code, out, _ = run(capsys, *base(files), "--time-threshold", "400")
    assert code == 0
    df = pd.read_csv(io.StringIO(out)).set_index("submission")
    assert df.loc["A", "final_score"] == pytest.approx(hand.T400["A"])
    code, out, _ = run(capsys, *base(files), "--theme-weights", files["theme_weights"])
    df = pd.read_csv(io.StringIO(out)).set_index("submission")
    assert df.loc["A", "final_score"] == pytest.approx(hand.FILE_WEIGHTS["A"])
    assert list(df.index) == ["B", "A"]


def test_json_document(tmp_path, capsys):
    files = hand.write(tmp_path, weights=True)
    code, out, _ = run(capsys, *base(files), "--theme-weights", files["theme_weights"], "--weight-draws", "999",
                       "--seed", "5", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert list(doc) == ["family", "parameters", "leaderboard"] and doc["family"] == "qa"
    assert doc["parameters"] == {"time_threshold": 200.0, "weights": {"alpha": 3.0, "beta": 0.0},
                                 "weight_draws": 999, "seed": 5}
    assert [r["submission"] for r in doc["leaderboard"]] == ["B", "A"]
    row = doc["leaderboard"][1]
    assert list(row) == ["submission", "final_score", "rank", "p_first", "best_rank", "median_rank", "worst_rank",
                         "themes"]
    assert list(row["themes"]) == ["alpha", "beta"]
    assert row["themes"]["alpha"] == pytest.approx({"accuracy": 0.5, "f1": 0.6, "ait_ms": 400.0, "multiplier": 0.5,
                                                    "score": 0.55})
    assert row["final_score"] == pytest.approx(hand.FILE_WEIGHTS["A"]) and row["rank"] == 2
    assert isinstance(row["best_rank"], int) and isinstance(row["median_rank"], float)


def test_json_parameters_without_a_weights_file_are_equal_weights(tmp_path, capsys):
    code, out, _ = run(capsys, *base(hand.write(tmp_path)), "--format", "json")
    assert json.loads(out)["parameters"]["weights"] == {"alpha": 0.5, "beta": 0.5}


def test_output_file(tmp_path, capsys):
    target = tmp_path / "lb.csv"
    code, out, _ = run(capsys, *base(hand.write(tmp_path)), "--output", target)
    assert code == 0 and out == ""
    assert target.read_text(encoding="utf-8").splitlines()[0] == HEADER


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    files = hand.write(tmp_path)
    Path(files["ground_truth"]).write_text(hand.GT.replace('q3,beta,[],[]', "q3,beta,[],[1]"), encoding="utf-8")
    code, out, err = run(capsys, *base(files))
    assert code == 2 and out == ""
    lines = [x for x in err.splitlines() if x.startswith("error")]
    assert lines == ["error: gt.csv, row 4: answers holds 1, expected answer strings"]
    assert "Traceback" not in err


def test_bad_option_names_the_flag(tmp_path, capsys):
    code, _, err = run(capsys, *base(hand.write(tmp_path)), "--time-threshold", "-3")
    assert code == 2
    assert "error: --time-threshold: expected a number in (0, ∞), got '-3'" in err
    code, _, err = run(capsys, *base(hand.write(tmp_path)), "--weight-draws", "0")
    assert code == 2 and "--weight-draws" in err


def test_formula_names_are_escaped(tmp_path, capsys):
    files = hand.write(tmp_path)
    (tmp_path / "subs" / "B.csv").rename(tmp_path / "subs" / "=B.csv")
    code, out, _ = run(capsys, *base(files))
    assert code == 0 and "'=B," in out
    code, out, _ = run(capsys, *base(files), "--raw-names")
    assert "\n=B," in out


def test_module_entry_point(tmp_path):
    files = hand.write(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "scoring", "qa", "leaderboard", *map(str, base(files)),
                           "--weight-draws", "100"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == HEADER
