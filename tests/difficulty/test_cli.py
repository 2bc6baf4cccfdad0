"""The command line and JSON/CSV contract of spec §5, in process (``scoring.cli.main``)."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.cli import main
from scoring.difficulty import sample_datasets
from tests.difficulty.test_hand_cases import PREDICTIONS, SAMPLES

ROOT = Path(__file__).resolve().parents[2]
LEADING = ["submission", "accuracy", "accuracy_rank", "score", "rank"]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "s.csv").write_text(SAMPLES)
    (tmp_path / "p.csv").write_text(PREDICTIONS)
    (tmp_path / "train.txt").write_text("good movie\nbad plot\n")
    return tmp_path


def run(capsys, *args) -> tuple[int, str, str]:
    code = main(["difficulty", "leaderboard", *args])
    out, err = capsys.readouterr()
    return code, out, err


def base(d: Path) -> list[str]:
    return ["--samples", str(d / "s.csv"), "--predictions", str(d / "p.csv")]


def test_csv_columns_exactly(capsys, files):
    code, out, _ = run(capsys, *base(files), "--metric", "wsbias", "--ease-column", "bias", "--splits", "2")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == LEADING + ["split_1", "split_2"]
    # hand computation (test_hand_cases): B 100, A 400/6; split 1 of A 0, split 2 100
    assert [r[0] for r in rows[1:]] == ["B", "A"]
    assert rows[2][1:5] == ["0.6", "2", "66.66666667", "2"]
    assert rows[2][5:] == ["0", "100"]


def test_csv_default_has_seven_splits_and_continuous_none(capsys, files):
    _, out, _ = run(capsys, *base(files), "--metric", "wmprob")
    assert out.splitlines()[0] == ",".join(LEADING + [f"split_{x}" for x in range(1, 8)])
    _, out, _ = run(capsys, *base(files), "--metric", "wmprob", "--split-mode", "continuous")
    assert out.splitlines()[0] == ",".join(LEADING)


def test_json_document(capsys, files):
    code, out, _ = run(capsys, *base(files), "--metric", "wsbias", "--ease-column", "bias", "--split-mode",
                       "threshold", "--thresholds", "0.7,0.95", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert list(doc) == ["family", "parameters", "leaderboard"] and doc["family"] == "difficulty"
    assert doc["parameters"] == {"metric": "wsbias", "ease_column": "bias", "sts_top": None, "split_mode": "threshold",
                                 "splits": 3, "thresholds": [0.7, 0.95], "weights": "linear", "reward": 1.0,
                                 "penalty": -1.0, "scale_by_difficulty": False}
    a = doc["leaderboard"][1]
    assert list(a) == LEADING + ["splits"] and a["submission"] == "A"
    # split 1 (E > 0.95) is empty: n 0, correct 0, score null; A's score 500/11 (test_hand_cases)
    assert a["splits"][0] == {"n": 0, "correct": 0, "score": None}
    assert a["splits"][1] == {"n": 1, "correct": 1, "score": 100.0}
    assert a["splits"][2]["n"] == 3 and a["splits"][2]["correct"] == 2
    assert a["score"] == pytest.approx(500 / 11) and a["rank"] == 2
    assert [r["rank"] for r in doc["leaderboard"]] == [1, 2]


def test_json_continuous_has_no_splits(capsys, files):
    _, out, _ = run(capsys, *base(files), "--metric", "wmprob", "--split-mode", "continuous", "--format", "json")
    doc = json.loads(out)
    assert all(r["splits"] == [] for r in doc["leaderboard"])
    p = doc["parameters"]
    assert (p["splits"], p["thresholds"], p["weights"], p["ease_column"]) == (None, None, None, None)


def test_every_option_of_the_spec_command_line(capsys, files):
    out_file = files / "out.json"
    code, out, err = run(capsys, *base(files), "--train", str(files / "train.txt"), "--metric", "wood", "--sts-top",
                         "50", "--split-mode", "equal", "--splits", "3", "--weights", "1,2,3", "--reward", "1",
                         "--penalty", "-1", "--scale-by-difficulty", "--format", "json", "--output", str(out_file))
    assert code == 0 and out == "", err
    doc = json.loads(out_file.read_text())
    assert doc["parameters"]["sts_top"] == 50 and doc["parameters"]["scale_by_difficulty"] is True
    assert doc["parameters"]["weights"] == "1,2,3"
    # WOOD from train at k = 50 %: E = 1, 1, 0.5, 0, 0.5 (test_hand_cases); splits [s1, s2], [s3, s5], [s4];
    # scaled by 1/max(E, 0.01): A: K·W = (1 − 1)·1 + 2·(2 − 2) + 3·100 = 300; Σd·W = 2 + 2·4 + 300 = 310
    a = next(r for r in doc["leaderboard"] if r["submission"] == "A")
    assert a["score"] == pytest.approx(100 * 300 / 310)


def test_thresholds_with_a_negative_value(capsys, files):
    code, out, _ = run(capsys, *base(files), "--metric", "wsbias", "--ease-column", "bias", "--split-mode",
                       "threshold", "--thresholds=-0.5,0.5")
    assert code == 0 and out.splitlines()[0].endswith("split_3")


def test_metric_is_required(capsys, files):
    with pytest.raises(SystemExit) as e:
        run(capsys, *base(files))
    assert e.value.code == 2
    assert "the following arguments are required: --metric" in capsys.readouterr().err


@pytest.mark.parametrize("args, message", [
    (["--metric", "wsbias"], "error: --ease-column: required with metric wsbias"),
    (["--metric", "wmprob", "--split-mode", "continuous", "--splits", "7"],
     "error: --splits: not used with split mode continuous"),
    (["--metric", "wmprob", "--weights", "1,2,3", "--splits", "2"], "error: --weights: expected 2 weights for 2"),
    (["--metric", "wsbias", "--ease-column", "text"], "error: s.csv, row 1: column 'text' is the samples' text"),
    (["--metric", "wood"], "error: ease_column: required with metric wood unless a training-text file"),
    # issue 31: these gave every score NaN and every model rank 1, exit 0
    (["--metric", "wmprob", "--weights", "0,0,0"], "error: --weights: expected at least one split weight above 0"),
    (["--metric", "wmprob", "--reward", "0", "--penalty", "0"], "error: --reward: reward 0 and penalty 0"),
    (["--metric", "wsbias", "--ease-column", "bias", "--split-mode", "threshold", "--thresholds", "0.95,0.99",
      "--weights", "1,2,0"], "error: weights: no sample of any model is in a split with a weight above 0"),
    # issue 28: decreasing thresholds, the same words on every entry point (test_inputs)
    (["--metric", "wmprob", "--split-mode", "threshold", "--thresholds", "0.9,0.1"],
     "error: --thresholds: expected increasing thresholds t1 < t2 < …, got 0.9,0.1"),
])
def test_errors_are_one_line_exit_2(capsys, files, args, message):
    code, out, err = run(capsys, *base(files), *args)
    assert code == 2 and out == ""
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and errors[0].startswith(message), err
    assert err.strip().splitlines()[-1] == errors[0]  # the last word, after progress and load warnings


def test_an_all_empty_ease_column_is_refused(capsys, files):
    (files / "s.csv").write_text("sample_id,label,bias,blank\ns1,1,0.9,\ns2,0,0.6,\ns3,1,0.4,\ns4,0,0,\ns5,1,,\n")
    code, out, err = run(capsys, *base(files), "--metric", "wsbias", "--ease-column", "blank")
    assert code == 2 and out == ""
    assert err.strip().splitlines()[-1] == ("error: s.csv: column 'blank' is empty in every row, so no sample has an "
                                            "ease value and no score can be computed with it as the ease column")


def test_bad_file_names_file_and_row(capsys, files):
    (files / "p.csv").write_text(PREDICTIONS.replace("A,s4,0.95,0.05,0", "A,s4,0.95,x,0"))
    code, _, err = run(capsys, *base(files), "--metric", "wmprob")
    assert code == 2 and err.strip().splitlines()[-1] == "error: p.csv, row 5: p1 'x' is not a number"


def test_warnings_go_to_stderr(capsys):
    d = sample_datasets()["sst-2"]
    code, out, err = run(capsys, "--samples", str(d / "samples.csv"), "--predictions", str(d / "predictions.csv"),
                         "--metric", "wmprob", "--splits", "2")
    assert code == 0
    assert "warning: predictions.csv: 5 rows with a predicted value that is not a gold label" in err
    assert "warning: predictions.csv: 882 rows" in err
    bert = next(r for r in csv.DictReader(io.StringIO(out)) if r["submission"] == "bert-base")
    assert round(float(bert["score"]), 3) == 73.089  # spec §4


def test_help_lists_the_spec_options():
    proc = subprocess.run([sys.executable, "-m", "scoring", "difficulty", "leaderboard", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    for flag in ("--samples", "--predictions", "--metric", "--ease-column", "--train", "--sts-top", "--split-mode",
                 "--splits", "--thresholds", "--weights", "--reward", "--penalty", "--scale-by-difficulty", "--format",
                 "--output"):
        assert flag in proc.stdout, flag


def test_huge_weights_score_exactly_without_warnings(files):
    """Issue 31: --weights 1e308,1e308 gave NaN scores all ranked 1 and numpy RuntimeWarning lines
    with source paths on stderr. In a fresh process, as a user runs it: the scores of weights 1, 1
    (hand computation in test_hand_cases: A 50, B 100) and a quiet stderr."""
    proc = subprocess.run([sys.executable, "-m", "scoring", "difficulty", "leaderboard", *base(files), "--metric",
                           "wsbias", "--ease-column", "bias", "--splits", "2", "--weights", "1e308,1e308",
                           "--reward", "1e308", "--penalty=-1e308"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Warning" not in proc.stderr and ".py" not in proc.stderr, proc.stderr
    rows = {r["submission"]: r for r in csv.DictReader(io.StringIO(proc.stdout))}
    assert (rows["A"]["score"], rows["A"]["rank"], rows["B"]["score"], rows["B"]["rank"]) == ("50", "2", "100", "1")
