"""SPEC §7 "Reference figures", row by row, through the public API; then the same figures
built as real tiny competitions scored by ``Scorer.leaderboard``; Tables 2 and 3 also through
``python -m scoring boost``.

Expected values are the memo's / SPEC's; where a competition turns a figure into a score the
arithmetic is written out in the test.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import pandas as pd
import pytest

import scoring
from tests.cli import run_cli
from tests.shovel_ready.frames import gt_frame, sub_frame, text, words

REPO = Path(__file__).resolve().parents[2]


def board(gt_df, subs, demographics=None, runtimes=None, **params) -> pd.DataFrame:
    comp = scoring.load_competition(ground_truth=gt_df, submissions=subs, demographics=demographics,
                                    runtimes=runtimes)
    return scoring.Scorer(comp).leaderboard(**params).set_index("submission")


# --------------------------------------------------------------------------------------------
# overlap removal, memo example
# --------------------------------------------------------------------------------------------

# the memo's segments in file order A..F
MEMO_SEGMENTS = {"A": (50, 64), "B": (10, 29), "C": (25, 44), "D": (90, 99), "E": (80, 94), "F": (45, 69)}
MEMO_EXPECTED = {"A": None, "B": (10, 29), "C": (30, 44), "D": (95, 99), "E": (80, 94), "F": (45, 69)}


def test_remove_overlaps_memo_example():
    got = scoring.remove_overlaps([words(*MEMO_SEGMENTS[k]) for k in "ABCDEF"])
    assert len(got) == 6
    for key, seg in zip("ABCDEF", got, strict=True):
        exp = MEMO_EXPECTED[key]
        if exp is None:
            assert seg is None, key
        else:
            assert tuple(seg) == tuple(words(*exp)), key


def test_remove_overlaps_memo_example_in_a_competition():
    """One essay, predictions A..F of one class, ground truth = the memo's result B', C', F', E', D'.

    overlap_removed: after §2 every kept prediction equals a ground truth -> TP 5, FP 0, FN 0 -> 1.
    fp1 (raw): B=B', C~C' (o_P 0.75, o_G 1), E=E', D~D' (o_P 0.5, o_G 1); for F' both A (o_P 1,
    o_G 0.6) and F (exact) have max overlap 1 -- a tie, so the earlier row A is the best and F is
    FP: TP 5, FP 1, FN 0 -> 5 / 5.5.
    segment_score without removal, binary, w = 1, t = 0.51: B-B', C-C', E-E' match; for F' the
    keys of A and F are both 1 and F has the smaller first word (45 < 50), so F-F'; A is FP; D-D'
    has o_P = 0.5 < 0.51 -> D is FP, D' is FN: TP 4, FP 2, FN 1 -> 4 / 5.5.  With removal: 1.
    """
    gt_df = gt_frame([("e", "Claim", text(words(*MEMO_EXPECTED[k]))) for k in "BCFED"])
    sub_df = sub_frame([("e", "Claim", text(words(*MEMO_SEGMENTS[k]))) for k in "ABCDEF"])
    lb = board(gt_df, {"memo": sub_df}, w=1.0, quality="binary", threshold=0.51, overlap_removal=False)
    assert lb.loc["memo", "overlap_removed"] == pytest.approx(1.0, abs=1e-12)
    assert lb.loc["memo", "fp1"] == pytest.approx(5 / 5.5, abs=1e-12)
    assert lb.loc["memo", "segment_score"] == pytest.approx(4 / 5.5, abs=1e-12)
    lb = board(gt_df, {"memo": sub_df}, w=1.0, quality="binary", threshold=0.51, overlap_removal=True)
    assert lb.loc["memo", "segment_score"] == pytest.approx(1.0, abs=1e-12)


# --------------------------------------------------------------------------------------------
# Table 1
# --------------------------------------------------------------------------------------------

# ground truth: words 0..9 (10 words).  example: (prediction, d for the correct label, max, IoU)
TABLE1 = {
    "a": (words(1, 10), "0.8", 0.85, 0.809),  # I 9: o_P = o_G = 0.9, IoU 9/11
    "b": (words(1, 10), "0.4", 0.65, 0.609),
    "c": (words(3, 12), "0.8", 0.75, 0.669),  # I 7: o_P = o_G = 0.7, IoU 7/13
    "d": (words(6, 10), "1", 0.0, 0.0),  # I 4: o_P = 0.8, o_G = 0.4 -> no match
    "e": (words(0, 5), "1", 1.0, 0.8),  # I 6: o_P = 1, o_G = 0.6, IoU 0.6
}
# exact TP_P = 0.5 q + 0.5 d by hand
TABLE1_EXACT = {
    "a": (0.5 * 0.9 + 0.4, 0.5 * 9 / 11 + 0.4),
    "b": (0.5 * 0.9 + 0.2, 0.5 * 9 / 11 + 0.2),
    "c": (0.5 * 0.7 + 0.4, 0.5 * 7 / 13 + 0.4),
    "d": (0.0, 0.0),
    "e": (0.5 * 1 + 0.5, 0.5 * 0.6 + 0.5),
}


@pytest.mark.parametrize("example", sorted(TABLE1))
def test_table1_fractional_tp(example):
    pred, d, exp_max, exp_iou = TABLE1[example]
    gt = words(0, 9)
    got_max = scoring.fractional_tp(pred, gt, d=float(d), w=0.5, quality="max", threshold=0.51)
    got_iou = scoring.fractional_tp(pred, gt, d=float(d), w=0.5, quality="iou", threshold=0.51)
    assert round(got_max, 3) == exp_max
    assert round(got_iou, 3) == exp_iou
    assert got_max == pytest.approx(TABLE1_EXACT[example][0], abs=1e-12)
    assert got_iou == pytest.approx(TABLE1_EXACT[example][1], abs=1e-12)


@pytest.mark.parametrize("example", sorted(TABLE1))
@pytest.mark.parametrize("quality", ["max", "iou"])
def test_table1_as_a_competition(example, quality):
    """One essay, one class, one ground truth, one prediction.

    Matched: TP = TP_P, FN = 1 - TP_P, FP = 0 -> F1 = TP_P / (TP_P + (1 - TP_P) / 2).
    Example d is not a match: TP 0, FP 1, FN 1 -> F1 = 0.
    """
    pred, d, _exp_max, _exp_iou = TABLE1[example]
    tp = TABLE1_EXACT[example][0 if quality == "max" else 1]
    expected = 0.0 if example == "d" else tp / (tp + (1 - tp) / 2)
    gt_df = gt_frame([("essay1", "Claim", text(words(0, 9)), "Effective")])
    sub_df = sub_frame([("essay1", "Claim", text(pred), d)])
    lb = board(gt_df, {"P": sub_df}, w=0.5, quality=quality, threshold=0.51)
    assert lb.loc["P", "segment_score"] == pytest.approx(expected, abs=1e-12)
    assert lb.loc["P", "bias_score"] == pytest.approx(expected, abs=1e-12)  # no demographics
    assert lb.loc["P", "final_score"] == pytest.approx(expected, abs=1e-12)  # no runtimes
    assert not bool(lb.loc["P", "eligible"])
    # FP1 (threshold 0.5, whole matches): a, b, c, e are TPs (F1 1); d is FP + FN (F1 0)
    assert lb.loc["P", "fp1"] == pytest.approx(0.0 if example == "d" else 1.0, abs=1e-12)


def test_table1_label_matters():
    # the ground truth is Ineffective: d[E] is the prediction's Ineffective probability
    # (example a's geometry, Effective 0.8 -> d = 0.2): TP_P = 0.5 * 9/11 + 0.5 * 0.2
    gt_df = gt_frame([("essay1", "Claim", text(words(0, 9)), "Ineffective")])
    sub_df = sub_frame([("essay1", "Claim", text(words(1, 10)), "0.8")])
    tp = 0.5 * 9 / 11 + 0.5 * 0.2
    lb = board(gt_df, {"P": sub_df}, w=0.5, quality="iou", threshold=0.51)
    assert lb.loc["P", "segment_score"] == pytest.approx(tp / (tp + (1 - tp) / 2), abs=1e-12)


# --------------------------------------------------------------------------------------------
# softmin
# --------------------------------------------------------------------------------------------


def test_softmin_equal_sizes():
    nu, betas = scoring.softmin([0.6, 0.8], alpha=0.0)
    assert nu == pytest.approx(0.7, abs=1e-12)
    assert list(betas) == pytest.approx([0.5, 0.5], abs=1e-12)
    nu, _ = scoring.softmin([0.6, 0.8], [1, 1], alpha=math.inf)
    assert nu == pytest.approx(0.6, abs=1e-12)


def test_softmin_sizes_1_3():
    nu, betas = scoring.softmin([0.6, 0.8], [1, 3], alpha=0.0)
    assert nu == pytest.approx(0.75, abs=1e-12)
    assert list(betas) == pytest.approx([0.25, 0.75], abs=1e-12)


def test_softmin_finite_alpha_by_formula():
    # beta_1 = 1 / (1 + e^(-50 * 0.2)), beta_2 = e^(-10) / (1 + e^(-10))
    nu, betas = scoring.softmin([0.6, 0.8], [1, 1], alpha=50.0)
    b2 = math.exp(-10) / (1 + math.exp(-10))
    assert list(betas) == pytest.approx([1 - b2, b2], abs=1e-12)
    assert nu == pytest.approx(0.6 * (1 - b2) + 0.8 * b2, abs=1e-12)
    # huge alpha: no overflow, tends to the minimum
    nu, _ = scoring.softmin([0.6, 0.8], [1, 1], alpha=1e6)
    assert nu == pytest.approx(0.6, abs=1e-12)


def _softmin_competition():
    """Group F (1 essay) scores 0.6 and group M (3 essays) scores 0.8, one class, exact matches.

    f1: 5 ground truths, 3 predicted exactly, 2 far-away extra predictions: TP 3, FP 2, FN 2
        -> 3 / (3 + 2) = 0.6.
    m1: 2 ground truths predicted exactly + 1 extra; m2: 1 exact + 1 extra; m3: 1 exact:
        TP 4, FP 2, FN 0 -> 4 / 5 = 0.8.
    Whole set: TP 7, FP 4, FN 2 -> 7 / 10 = 0.7.
    """
    gt = [("f1", "Claim", text(words(5 * i, 5 * i + 3))) for i in range(5)]
    sub = [("f1", "Claim", text(words(5 * i, 5 * i + 3))) for i in range(3)]
    sub += [("f1", "Claim", "100 101"), ("f1", "Claim", "110 111")]
    gt += [("m1", "Claim", "0 1 2"), ("m1", "Claim", "5 6 7"), ("m2", "Claim", "0 1 2"), ("m3", "Claim", "0 1 2")]
    sub += [("m1", "Claim", "0 1 2"), ("m1", "Claim", "5 6 7"), ("m1", "Claim", "100 101")]
    sub += [("m2", "Claim", "0 1 2"), ("m2", "Claim", "100 101"), ("m3", "Claim", "0 1 2")]
    demo = pd.DataFrame([("f1", "F"), ("m1", "M"), ("m2", "M"), ("m3", "M")], columns=["id", "gender"], dtype=object)
    return gt_frame(gt), sub_frame(sub), demo


@pytest.mark.parametrize(
    "alpha, expected",
    [
        (0.0, (0.6 * 1 + 0.8 * 3) / 4),  # size-weighted mean = 0.75
        (math.inf, 0.6),
        (50.0, (0.6 + 3 * 0.8 * math.exp(-10)) / (1 + 3 * math.exp(-10))),
    ],
)
def test_softmin_through_leaderboard(alpha, expected):
    gt_df, sub_df, demo = _softmin_competition()
    lb = board(gt_df, {"S": sub_df}, demographics=demo, attributes=["gender"], alpha=alpha,
               w=0.5, quality="iou", threshold=0.51)
    assert lb.loc["S", "segment_score"] == pytest.approx(0.7, abs=1e-12)
    assert lb.loc["S", "gender=F"] == pytest.approx(0.6, abs=1e-12)
    assert lb.loc["S", "gender=M"] == pytest.approx(0.8, abs=1e-12)
    assert lb.loc["S", "bias_score"] == pytest.approx(expected, abs=1e-12)


def test_missing_demographics_group_and_cross_product_labels():
    # m3 has no demographics row -> gender=(missing); with two attributes the labels join by " & "
    gt_df, sub_df, demo = _softmin_competition()
    demo = pd.DataFrame([("f1", "F", "Yes"), ("m1", "M", "No"), ("m2", "M", "No")],
                        columns=["id", "gender", "ell_status"], dtype=object)
    lb = board(gt_df, {"S": sub_df}, demographics=demo, attributes=["ell_status", "gender"], alpha=0.0)
    # groups: ell_status=Yes & gender=F {f1} 0.6; ell_status=No & gender=M {m1, m2}: TP 3, FP 2
    # -> 3/4; (missing) & (missing) {m3}: TP 1 -> 1.  alpha 0: (0.6 + 2 * 0.75 + 1) / 4
    assert lb.loc["S", "ell_status=Yes & gender=F"] == pytest.approx(0.6, abs=1e-12)
    assert lb.loc["S", "ell_status=No & gender=M"] == pytest.approx(0.75, abs=1e-12)
    assert lb.loc["S", "ell_status=(missing) & gender=(missing)"] == pytest.approx(1.0, abs=1e-12)
    assert lb.loc["S", "bias_score"] == pytest.approx((0.6 + 2 * 0.75 + 1) / 4, abs=1e-12)


# --------------------------------------------------------------------------------------------
# Tables 2 and 3 (efficiency boost)
# --------------------------------------------------------------------------------------------

TABLE2 = {  # name: (score, runtime, boost by hand, final)
    "Red": (0.6, 50, 0.0, 0.6),  # 50/40 = 1.25 > 1.2
    "Blue": (0.595, 45, 0.05 * (1 - 0.125 / 0.2), 0.60615625),  # 45/40 = 1.125 -> 1.875 %
    "Green": (0.59, 48, 0.0, 0.59),  # 48/40 = 1.2 -> 0
    "Yellow": (0.58, 40, 0.05, 0.609),  # fastest eligible
}
TABLE2_ORDER = ["Yellow", "Blue", "Red", "Green"]
TABLE3 = {
    "Red": (0.6, 50.4, 0.05 * (1 - 0.05 / 0.2), 0.6225),  # 50.4/48 = 1.05 -> 3.75 %
    "Green": (0.59, 48, 0.05, 0.6195),
    "Blue": (0.55, 45, 0.0, 0.55),  # 0.6/0.55 > 1.05: not eligible
    "Yellow": (0.25, 5, 0.0, 0.25),
}
TABLE3_ORDER = ["Red", "Green", "Blue", "Yellow"]
TABLE3_ELIGIBLE = {"Red": True, "Green": True, "Blue": False, "Yellow": False}


@pytest.mark.parametrize("table, order", [(TABLE2, TABLE2_ORDER), (TABLE3, TABLE3_ORDER)], ids=["table2", "table3"])
def test_efficiency_boost_tables(table, order):
    out = scoring.efficiency_boost({k: v[0] for k, v in table.items()}, {k: v[1] for k, v in table.items()})
    assert list(out["submission"]) == order
    assert list(out["rank"]) == [1, 2, 3, 4]
    by = out.set_index("submission")
    for name, (_score, _rt, boost, final) in table.items():
        assert by.loc[name, "boost"] == pytest.approx(boost, abs=1e-12), name
        assert by.loc[name, "final_score"] == pytest.approx(final, abs=1e-12), name
    eligible = TABLE3_ELIGIBLE if table is TABLE3 else dict.fromkeys(table, True)
    assert {k: bool(by.loc[k, "eligible"]) for k in table} == eligible


def _write_csv(path: Path, header, rows) -> Path:
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    return path


@pytest.mark.parametrize("table, order", [(TABLE2, TABLE2_ORDER), (TABLE3, TABLE3_ORDER)], ids=["table2", "table3"])
def test_boost_command_line(tmp_path, table, order):
    scores = _write_csv(tmp_path / "scores.csv", ["submission", "score"], [(k, v[0]) for k, v in table.items()])
    runtimes = _write_csv(tmp_path / "runtimes.csv", ["submission", "runtime"], [(k, v[1]) for k, v in table.items()])
    proc = run_cli("boost", "--scores", str(scores), "--runtimes", str(runtimes), "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert list(rows[0]) == ["submission", "score", "eligible", "boost", "final_score", "rank"]
    assert [r["submission"] for r in rows] == order
    assert [int(r["rank"]) for r in rows] == [1, 2, 3, 4]
    for r in rows:
        _score, _rt, boost, final = table[r["submission"]]
        assert float(r["final_score"]) == pytest.approx(final, abs=1e-9)
        assert float(r["boost"]) == pytest.approx(boost, abs=1e-9)


def test_boost_command_line_bad_input_exits_2(tmp_path):
    scores = _write_csv(tmp_path / "scores.csv", ["submission", "score"], [("Red", "0.6"), ("Red", "0.5")])
    runtimes = _write_csv(tmp_path / "runtimes.csv", ["submission", "runtime"], [("Red", "50")])
    proc = run_cli("boost", "--scores", str(scores), "--runtimes", str(runtimes))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "scores.csv" in (proc.stderr + proc.stdout)


def _table_competition(table):
    """Each submission: one essay, one exact prediction, w = 0, so TP_P = d and
    F1 = d / (d + (1 - d) / 2) = 2d / (1 + d); d = x / (2 - x) gives segment score x."""
    gt_df = gt_frame([("essay1", "Claim", "0 1 2 3", "Effective")])
    subs = {}
    for name, (score, *_rest) in table.items():
        d = score / (2 - score)
        subs[name] = sub_frame([("essay1", "Claim", "0 1 2 3", repr(d))])
    runtimes = pd.DataFrame([(k, repr(float(v[1]))) for k, v in table.items()], columns=["submission", "runtime"],
                            dtype=object)
    return gt_df, subs, runtimes


@pytest.mark.parametrize("table, order", [(TABLE2, TABLE2_ORDER), (TABLE3, TABLE3_ORDER)], ids=["table2", "table3"])
def test_boost_tables_through_leaderboard(table, order):
    gt_df, subs, runtimes = _table_competition(table)
    lb = board(gt_df, subs, runtimes=runtimes, w=0.0, quality="iou", threshold=0.51)
    assert list(lb.index) == order
    for name, (score, _rt, boost, final) in table.items():
        assert lb.loc[name, "segment_score"] == pytest.approx(score, abs=1e-9), name
        assert lb.loc[name, "bias_score"] == pytest.approx(score, abs=1e-9), name
        assert lb.loc[name, "boost"] == pytest.approx(boost, abs=1e-9), name
        assert lb.loc[name, "final_score"] == pytest.approx(final, abs=1e-9), name
    assert list(lb["rank"]) == [1, 2, 3, 4]
    # the bias ranks are the memo's "Metric Score" order
    by_score = sorted(table, key=lambda k: -table[k][0])
    assert [int(lb.loc[k, "bias_score_rank"]) for k in by_score] == [1, 2, 3, 4]
