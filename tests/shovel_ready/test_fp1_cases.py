"""SPEC §3 "The original FP1 metric": every row of the case table, through
``scoring.fp1_score`` and through the full leaderboard (``fp1`` and ``overlap_removed``).

The TP/FP/FN of each case are the SPEC's; F1 is computed from them here by the formula
``F1 = TP / (TP + ½(FP + FN))``.  The ``overlap_removed`` counts are worked out by hand in the
comments (SPEC §2 applied to the predictions first).
"""

from __future__ import annotations

import pytest

import scoring
from tests.shovel_ready.frames import gt_frame, sub_frame

CLASS = "Claim"
FILLER = "Filler"  # a second class, predicted perfectly in every essay (F1 = 1)


def f1(tp: int, fp: int, fn: int) -> float:
    return tp / (tp + 0.5 * (fp + fn))


# (predictions, ground truths, SPEC (TP, FP, FN), SPEC F1, after-§2 (TP, FP, FN) by hand)
CASES = {
    "exact": ([("a", "1 2 3")], [("a", "1 2 3")], (1, 0, 0), 1.0, (1, 0, 0)),
    "half_both_ways": ([("a", "1 2")], [("a", "2 3")], (1, 0, 0), 1.0, (1, 0, 0)),
    "below_half": ([("a", "1 2 3 4")], [("a", "3 4 5 6 7")], (0, 1, 1), 0.0, (0, 1, 1)),
    "fp_quirk": ([("a", "1 2 3")], [("a", "1 2 3"), ("b", "1 2")], (1, 1, 1), 0.5, (1, 1, 1)),
    "fn_quirk": ([("a", "1 2 3"), ("c", "5 6")], [("a", "1 2 3")], (1, 1, 1), 0.5, (1, 1, 1)),
    "both_quirks": ([("a", "1 2 3"), ("c", "5 6")], [("a", "1 2 3"), ("b", "1 2")], (1, 2, 2), 1 / 3, (1, 2, 2)),
    # after §2 nothing changes for a single prediction
    "one_pred_two_tps": ([("a", "1 2")], [("a", "1"), ("a", "2")], (2, 0, 0), 1.0, (2, 0, 0)),
    "identical_gts": ([("a", "1 2 3")], [("a", "1 2 3"), ("a", "1 2 3")], (1, 0, 0), 1.0, (1, 0, 0)),
    # after §2 the second identical prediction loses all its words and is discarded: TP 1, FP 0
    "identical_both": ([("a", "1 2 3"), ("a", "1 2 3")], [("a", "1 2 3"), ("a", "1 2 3")], (1, 1, 0), 2 / 3,
                       (1, 0, 0)),
    # after §2 "1 2 3 4" (same first word, later row) keeps only {4}: one word, discarded
    "superset_pred": ([("a", "1 2 3"), ("a", "1 2 3 4")], [("a", "1 2 3")], (1, 1, 0), 2 / 3, (1, 0, 0)),
    "no_predictions": ([], [("a", "1 2")], (0, 1, 1), 0.0, (0, 1, 1)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_spec_f1_matches_its_counts(case):
    _preds, _gts, counts, spec_f1, _after = CASES[case]
    assert f1(*counts) == pytest.approx(spec_f1, abs=1e-12)


@pytest.mark.parametrize("case", list(CASES))
def test_fp1_score_function(case):
    preds, gts, counts, _spec_f1, _after = CASES[case]
    gt_df = gt_frame([(e, CLASS, ps) for e, ps in gts])
    sub_df = sub_frame([(e, CLASS, ps) for e, ps in preds])
    assert scoring.fp1_score(gt_df, sub_df) == pytest.approx(f1(*counts), abs=1e-12)


@pytest.mark.parametrize("case", list(CASES))
def test_fp1_through_leaderboard(case):
    """The same case inside a competition whose essays a, b, c all exist in the ground truth.

    Every essay also gets a ground truth and a perfect prediction of a second class far away
    (words 100 101), so the essays of the table are known to the ground truth (the leaderboard
    ignores rows of unknown essays) and the macro mean is (F1 + 1) / 2.
    """
    preds, gts, counts, _spec_f1, after = CASES[case]
    filler = [(e, FILLER, "100 101") for e in ("a", "b", "c")]
    gt_df = gt_frame([(e, CLASS, ps) for e, ps in gts] + filler)
    sub_df = sub_frame([(e, CLASS, ps) for e, ps in preds] + filler)
    comp = scoring.load_competition(ground_truth=gt_df, submissions={"S": sub_df})
    lb = scoring.Scorer(comp).leaderboard()
    row = lb.set_index("submission").loc["S"]
    assert row["fp1"] == pytest.approx((f1(*counts) + 1) / 2, abs=1e-12)
    assert row["overlap_removed"] == pytest.approx((f1(*after) + 1) / 2, abs=1e-12)
    assert row["fp1_rank"] == 1


def test_fp1_several_classes_macro_mean():
    # class Claim: "exact" (F1 1); class Lead: "below_half" (F1 0); class Position: ground truth
    # only, no prediction -> TP 0, FP 0 + 1 (quirk), FN 1 -> F1 0.  Mean over the three: 1/3.
    gt_df = gt_frame([("a", "Claim", "1 2 3"), ("a", "Lead", "3 4 5 6 7"), ("a", "Position", "20 21")])
    sub_df = sub_frame([("a", "Claim", "1 2 3"), ("a", "Lead", "1 2 3 4")])
    assert scoring.fp1_score(gt_df, sub_df) == pytest.approx(1 / 3, abs=1e-12)
    comp = scoring.load_competition(ground_truth=gt_df, submissions={"S": sub_df})
    lb = scoring.Scorer(comp).leaderboard()
    assert lb.loc[0, "fp1"] == pytest.approx(1 / 3, abs=1e-12)


def test_fp1_prediction_class_absent_from_ground_truth_is_not_averaged():
    # a predicted class that never occurs in the ground truth adds no F1 term (mean over GT classes)
    gt_df = gt_frame([("a", "Claim", "1 2 3")])
    sub_df = sub_frame([("a", "Claim", "1 2 3"), ("a", "Lead", "7 8 9")])
    assert scoring.fp1_score(gt_df, sub_df) == pytest.approx(1.0, abs=1e-12)


def test_fp1_canonicalises_predictionstrings():
    # "3 1 2 2" is the set {1, 2, 3}: identical to the ground truth; the two ground truths
    # "1 2 3" and "3 2 1" are the same canonical string, hence one group: TP 1, FP 0, FN 0
    gt_df = gt_frame([("a", "Claim", "1 2 3"), ("a", "Claim", "3 2 1")])
    sub_df = sub_frame([("a", "Claim", "3 1 2 2")])
    assert scoring.fp1_score(gt_df, sub_df) == pytest.approx(1.0, abs=1e-12)


def test_fp1_best_prediction_tie_goes_to_earlier_row():
    # ground truth 10..13 (4 words); predictions X = 10..15 and Y = 8..13 both have
    # o_P = 4/6, o_G = 1 -> max overlap 1: a tie.  The earlier row is the group's best; the
    # other is FP.  TP 1, FP 1, FN 0 either way -> F1 2/3 (the count is tie-independent).
    gt_df = gt_frame([("a", "Claim", "10 11 12 13")])
    sub_df = sub_frame([("a", "Claim", "10 11 12 13 14 15"), ("a", "Claim", "8 9 10 11 12 13")])
    assert scoring.fp1_score(gt_df, sub_df) == pytest.approx(f1(1, 1, 0), abs=1e-12)


def _frames():
    import pandas as pd

    gt = pd.DataFrame({"id": ["a", "a"], "discourse_type": ["Claim", "Lead"], "predictionstring": ["1 2 3", "7 8"]})
    sub = pd.DataFrame({"id": ["a", "zz"], "class": ["Claim", "Lead"], "predictionstring": ["1 2", "7 8"]})
    return gt, sub


def test_fp1_score_reads_both_frames_side_by_side_and_equals_the_loaded_path():
    # Claim: TP 1; Lead: the prediction is for essay zz (not in the ground truth): FP 1 and
    # the ground truth (a, Lead) FN 1, plus the quirks: (a, Lead) has ground truth but no
    # prediction -> FP +1; (zz, Lead) a prediction but no ground truth -> FN +1.
    # Lead F1 = 0 / (0 + ½(2 + 2)) = 0; macro (1 + 0) / 2
    gt, sub = _frames()
    assert scoring.fp1_score(gt, sub) == 0.5
    assert scoring.fp1_score(scoring.load_ground_truth(gt), sub) == 0.5


@pytest.mark.parametrize("gt_bad, sub_bad, blamed", [
    ("column", "token", "ground truth"),  # the ground truth's own read fails
    ("token", "token", "ground truth"),  # it fails while parsing, the submission too
    ("token", None, "ground truth"),
    (None, "token", "submission"),
    (None, "column", "submission"),
])
def test_fp1_score_blames_the_ground_truth_first(gt_bad, sub_bad, blamed):
    gt, sub = _frames()
    if gt_bad == "column":
        gt = gt.rename(columns={"discourse_type": "discourse_typ"})
    if gt_bad == "token":
        gt.loc[1, "predictionstring"] = "7 x"
    if sub_bad == "token":
        sub.loc[0, "predictionstring"] = "1 -2"
    if sub_bad == "column":
        sub = sub.drop(columns="class")
    with pytest.raises(scoring.InputError) as err:
        scoring.fp1_score(gt, sub)
    assert err.value.file == blamed
    if gt_bad == "column":
        assert "did you mean 'discourse_typ'" in str(err.value)
