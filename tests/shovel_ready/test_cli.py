"""The command line and Python API contract of SPEC §8 on a competition computed by hand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import scoring
from tests.cli import run_cli

ROOT = Path(__file__).resolve().parents[2]

# e1: Claim 0..9 (Effective, ell=Yes); e2: Claim 0..3 (Ineffective, ell=No)
GT = "id,discourse_type,predictionstring,discourse_effectiveness\n" \
     "e1,Claim,0 1 2 3 4 5 6 7 8 9,Effective\n" \
     "e2,Claim,0 1 2 3,Ineffective\n"
A = "id,class,predictionstring,Effective,Ineffective\n" \
    "e1,Claim,1 2 3 4 5 6 7 8 9 10,0.8,0.2\n" \
    "e2,Claim,3 2 1 0 0,0.4,0.6\n"  # unsorted, with a duplicate: the set {0,1,2,3}
B = "id,class,predictionstring,Effective,Ineffective\n" \
    "e1,Claim,0 1 2 3 4 5 6 7 8 9,1,0\n"
DEMO = "id,ell_status\ne1,Yes\ne2,No\n"
RT = "submission,runtime\nA,10\nB,100\n"

# hand computation, w = 0.5, IoU, t = 0.51
TP_A1 = 0.5 * 9 / 11 + 0.5 * 0.8          # 9 shared words, union 11
F1_A1 = TP_A1 / (TP_A1 + 0.5 * (1 - TP_A1))
TP_A2 = 0.5 * 1 + 0.5 * 0.6               # exact span, p(Ineffective) = 0.6
F1_A2 = TP_A2 / (TP_A2 + 0.5 * (1 - TP_A2))
TP_A = TP_A1 + TP_A2
SEG_A = TP_A / (TP_A + 0.5 * (2 - TP_A))
SEG_B = 1 / (1 + 0.5 * 1)                  # e1 perfect (TP 1), e2 missed (FN 1)
FP1_B = 1 / (1 + 0.5 * (1 + 1))            # TP 1, FP 0 + quirk 1, FN 1


@pytest.fixture
def comp_dir(tmp_path):
    (tmp_path / "subs").mkdir()
    (tmp_path / "gt.csv").write_text(GT)
    (tmp_path / "subs" / "A.csv").write_text(A)
    (tmp_path / "subs" / "B.csv").write_text(B)
    (tmp_path / "demo.csv").write_text(DEMO)
    (tmp_path / "rt.csv").write_text(RT)
    return tmp_path


def run(*args):
    return run_cli(*args)


def test_python_dash_m_runs_the_same_command_line(comp_dir):
    """The one real subprocess: ``python -m scoring`` exits 0 with CSV on stdout, 2 with one line."""
    ok = subprocess.run([sys.executable, "-m", "scoring", *leaderboard_args(comp_dir)], capture_output=True,
                        text=True, cwd=ROOT, timeout=120)
    assert ok.returncode == 0 and ok.stdout.splitlines()[0] == ",".join(scoring.LEADERBOARD_COLUMNS)
    bad = subprocess.run([sys.executable, "-m", "scoring", *leaderboard_args(comp_dir, "--w", "2")],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    lines = [ln for ln in bad.stderr.splitlines() if not ln.startswith("scoring ")]
    assert bad.returncode == 2 and lines == ["error: --w: expected a number in [0, 1], got '2'"]


def leaderboard_args(d: Path, *extra):
    return ["leaderboard", "--ground-truth", str(d / "gt.csv"), "--submissions", str(d / "subs"),
            "--demographics", str(d / "demo.csv"), "--attributes", "ell_status", "--runtimes", str(d / "rt.csv"),
            *extra]


def test_csv_columns_order_and_values(comp_dir):
    res = run(*leaderboard_args(comp_dir, "--alpha", "inf"))
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0] == ",".join(scoring.LEADERBOARD_COLUMNS)
    df = pd.read_csv(pd.io.common.StringIO(res.stdout)).set_index("submission")
    assert list(df.index) == ["A", "B"]
    assert df.loc["A", "fp1"] == pytest.approx(1.0)
    assert df.loc["B", "fp1"] == pytest.approx(FP1_B)
    assert df.loc["A", "segment_score"] == pytest.approx(SEG_A, abs=1e-9)
    assert df.loc["B", "segment_score"] == pytest.approx(SEG_B, abs=1e-9)
    assert df.loc["A", "bias_score"] == pytest.approx(min(F1_A1, F1_A2), abs=1e-9)  # alpha = inf: the minimum
    assert df.loc["B", "bias_score"] == pytest.approx(0.0)  # nothing on e2
    assert bool(df.loc["A", "eligible"]) and not bool(df.loc["B", "eligible"])  # B scores 0: never eligible
    assert df.loc["A", "boost"] == pytest.approx(0.05)
    assert df.loc["A", "final_score"] == pytest.approx(min(F1_A1, F1_A2) * 1.05, abs=1e-9)
    assert df["rank"].tolist() == [1, 2]
    assert "scoring" not in res.stdout and "scoring 2/2" in res.stderr  # progress on stderr only (plain lines: not a terminal)


def test_json_shape_and_inf(comp_dir):
    res = run(*leaderboard_args(comp_dir, "--alpha", "inf", "--format", "json"))
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)  # strict JSON: no Infinity/NaN tokens
    assert "Infinity" not in res.stdout
    assert doc["parameters"]["alpha"] == "inf"
    assert doc["parameters"]["attributes"] == ["ell_status"]
    rows = doc["leaderboard"]
    assert [r["submission"] for r in rows] == ["A", "B"]
    assert list(rows[0])[: len(scoring.LEADERBOARD_COLUMNS)] == scoring.LEADERBOARD_COLUMNS
    assert set(rows[0]["groups"]) == {"ell_status=No", "ell_status=Yes"}
    assert rows[0]["groups"]["ell_status=Yes"] == pytest.approx(F1_A1, abs=1e-9)
    assert rows[0]["groups"]["ell_status=No"] == pytest.approx(F1_A2, abs=1e-9)
    assert rows[0]["eligible"] is True


def test_output_file_and_alpha_zero(comp_dir, tmp_path):
    out = tmp_path / "lb.csv"
    res = run(*leaderboard_args(comp_dir, "--alpha", "0", "--output", str(out)))
    assert res.returncode == 0 and res.stdout == ""
    df = pd.read_csv(out).set_index("submission")
    # alpha = 0: size-weighted mean of the group scores (one essay each)
    assert df.loc["A", "bias_score"] == pytest.approx((F1_A1 + F1_A2) / 2, abs=1e-9)


def test_no_overlap_removal_flag(tmp_path):
    (tmp_path / "subs").mkdir()
    (tmp_path / "gt.csv").write_text("id,discourse_type,predictionstring,discourse_effectiveness\n"
                                     "e1,Claim,0 1 2 3,Effective\ne1,Claim,4 5 6 7,Effective\n")
    # two predictions: 0..3 exact, and 2..7 which overlaps it; after removal 4..7 (exact)
    (tmp_path / "subs" / "S.csv").write_text("id,class,predictionstring,Effective,Ineffective\n"
                                             "e1,Claim,0 1 2 3,1,0\ne1,Claim,2 3 4 5 6 7,1,0\n")
    base = ["leaderboard", "--ground-truth", str(tmp_path / "gt.csv"), "--submissions", str(tmp_path / "subs")]
    on = pd.read_csv(pd.io.common.StringIO(run(*base).stdout))
    off = pd.read_csv(pd.io.common.StringIO(run(*base, "--no-overlap-removal").stdout))
    assert on["segment_score"].iloc[0] == pytest.approx(1.0)
    # raw: 2..7 vs 4..7: o_P = 4/6, o_G = 1, IoU = 4/6 -> TP = 0.5*(4/6) + 0.5*1
    tp = 1 + (0.5 * 4 / 6 + 0.5)
    assert off["segment_score"].iloc[0] == pytest.approx(tp / (tp + 0.5 * (2 - tp)), abs=1e-9)
    # stage 2 is always FP1 after removal; stage 1 the raw FP1 (both 1.0 here: every GT found)
    assert off["overlap_removed"].iloc[0] == pytest.approx(1.0)


def test_boost_memo_tables(tmp_path):
    (tmp_path / "s.csv").write_text("submission,score\nRed,0.6\nBlue,0.595\nGreen,0.59\nYellow,0.58\n")
    (tmp_path / "r.csv").write_text("submission,runtime\nRed,50\nBlue,45\nGreen,48\nYellow,40\n")
    res = run("boost", "--scores", str(tmp_path / "s.csv"), "--runtimes", str(tmp_path / "r.csv"))
    assert res.returncode == 0, res.stderr
    df = pd.read_csv(pd.io.common.StringIO(res.stdout))
    assert list(df.columns) == ["submission", "score", "eligible", "boost", "final_score", "rank"]
    assert df["submission"].tolist() == ["Yellow", "Blue", "Red", "Green"]  # memo Table 2
    assert df["final_score"].tolist() == pytest.approx([0.609, 0.60615625, 0.6, 0.59])


@pytest.mark.parametrize("scores, runtimes, words", [
    ("submission,score\nA,0.5\nA,0.6\n", "submission,runtime\nA,1\n", ["s.csv, row 3", "duplicate"]),
    ("submission,score\nA,-0.5\n", "submission,runtime\nA,1\n", ["s.csv, row 2", ">= 0"]),
    ("submission,score\nA,nan\n", "submission,runtime\nA,1\n", ["s.csv, row 2", "not a number"]),
    ("submission,score\nA,0.5\n", "submission,runtime\nA,0\n", ["r.csv, row 2", "> 0"]),
    ("submission,points\nA,0.5\n", "submission,runtime\nA,1\n", ["s.csv, row 1", "missing column 'score'"]),
])
def test_boost_bad_input(tmp_path, scores, runtimes, words):
    (tmp_path / "s.csv").write_text(scores)
    (tmp_path / "r.csv").write_text(runtimes)
    res = run("boost", "--scores", str(tmp_path / "s.csv"), "--runtimes", str(tmp_path / "r.csv"))
    assert res.returncode == 2
    assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr
    for w in words:
        assert w in res.stderr


def test_help_lists_every_option_with_default():
    res = run("leaderboard", "--help")
    assert res.returncode == 0
    text = " ".join(res.stdout.split())
    for opt, default in [("--w", "0.5"), ("--quality", "iou"), ("--threshold", "0.51"), ("--alpha", "50"),
                         ("--band", "0.05"), ("--max-boost", "0.05"), ("--window", "0.2"),
                         ("--format", "csv")]:
        assert opt in text and f"default {default}" in text, opt
    assert "--no-overlap-removal" in text and "--attributes" in text and "--output" in text


def test_python_api_matches_cli(comp_dir):
    comp = scoring.load_competition(ground_truth=comp_dir / "gt.csv", submissions=[comp_dir / "subs"],
                                    demographics=comp_dir / "demo.csv", runtimes=comp_dir / "rt.csv")
    scorer = scoring.Scorer(comp)
    lb = scorer.leaderboard(w=0.5, quality="iou", threshold=0.51, alpha=float("inf"), attributes=("ell_status",),
                            band=0.05, max_boost=0.05, window=0.2, overlap_removal=True)
    assert list(lb.columns) == scoring.LEADERBOARD_COLUMNS + ["ell_status=No", "ell_status=Yes"]
    assert lb.set_index("submission").loc["A", "ell_status=Yes"] == pytest.approx(F1_A1, abs=1e-9)
    # the canonical predictionstring of A's e2 row: sorted, unique
    sub = comp.read_submission("A")
    assert sub["predictionstring"].tolist() == ["1 2 3 4 5 6 7 8 9 10", "0 1 2 3"]
    assert sub["row"].tolist() == [2, 3]
    # repeated calls with other parameters give other numbers, and back again the same
    w1 = scorer.leaderboard(w=1.0, attributes=("ell_status",))
    assert w1.set_index("submission").loc["A", "segment_score"] != pytest.approx(SEG_A)
    again = scorer.leaderboard(w=0.5, alpha=float("inf"), attributes=("ell_status",))
    assert again.equals(lb)


def test_explain_essay(comp_dir):
    comp = scoring.load_competition(ground_truth=comp_dir / "gt.csv", submissions=[comp_dir / "subs"])
    ex = scoring.explain_essay(comp, "A", "e1")
    m = ex["matches"]
    assert len(m) == 1
    assert m["o_p"].iloc[0] == pytest.approx(0.9) and m["o_g"].iloc[0] == pytest.approx(0.9)
    assert m["iou"].iloc[0] == pytest.approx(9 / 11)
    assert m["tp"].iloc[0] == pytest.approx(TP_A1)
    assert m["gt_row"].iloc[0] == 2 and m["pred_row"].iloc[0] == 2
