"""The reference implementation checked against the SPEC's own figures, then the engine
checked against the reference on a few hundred random small competitions.

Reference numbers in the first half come from the memo / SPEC tables or from hand
computations written out next to them; nothing is pasted from a program's output.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pandas as pd
import pytest

import scoring
from tests.cli import run_cli
from tests.shovel_ready import randomcomp
from tests.shovel_ready import reference as ref
from tests.shovel_ready.frames import gt_frame, sub_frame, text, words

REPO = Path(__file__).resolve().parents[2]

# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------


def f1(tp, fp, fn) -> float:
    return tp / (tp + 0.5 * (fp + fn))


# --------------------------------------------------------------------------------------------
# the reference against SPEC §7 and the SPEC's FP1 table
# --------------------------------------------------------------------------------------------


def test_reference_overlap_removal_memo_example():
    # memo §1: A 50-64, B 10-29, C 25-44, D 90-99, E 80-94, F 45-69 (file order A..F)
    segs = [words(50, 64), words(10, 29), words(25, 44), words(90, 99), words(80, 94), words(45, 69)]
    a, b, c, d, e, f = ref.remove_overlaps(segs)
    assert a is None
    assert b == frozenset(words(10, 29))
    assert c == frozenset(words(30, 44))
    assert d == frozenset(words(95, 99))
    assert e == frozenset(words(80, 94))
    assert f == frozenset(words(45, 69))


def test_reference_overlap_removal_validity_rule():
    # an untouched one-word segment is kept; a remainder of one word or a gap is discarded
    assert ref.remove_overlaps([[7]]) == [frozenset({7})]
    assert ref.remove_overlaps([[1, 2, 3], [3, 4]]) == [frozenset({1, 2, 3}), None]  # R = {4}
    # order is by smallest word: {0,2,5,6} comes first and is untouched (non-contiguous but whole)
    assert ref.remove_overlaps([[1, 2, 3], [0, 2, 5, 6]]) == [None, frozenset({0, 2, 5, 6})]
    # {4,5} first, then {5,6,7} -> {6,7}
    assert ref.remove_overlaps([[5, 6, 7], [4, 5]]) == [frozenset({6, 7}), frozenset({4, 5})]
    # used grows by all words of S, also when S is discarded: {1,5} kept; {4,5,6} -> {4,6} has a
    # gap, discarded, yet its 6 is used, so {6,7,8} -> {7,8}
    assert ref.remove_overlaps([[4, 5, 6], [1, 5], [6, 7, 8]]) == [None, frozenset({1, 5}), frozenset({7, 8})]
    # ties in the smallest word: file order decides
    assert ref.remove_overlaps([[3, 4, 5], [3, 4, 5, 6, 7]]) == [frozenset({3, 4, 5}), frozenset({6, 7})]
    assert ref.remove_overlaps([[3, 4, 5, 6, 7], [3, 4, 5]]) == [frozenset({3, 4, 5, 6, 7}), None]


# Table 1 geometry (10-word ground truth 0..9) and d for the correct label, with the memo's
# values for max / IoU at w = 0.5, t = 0.51.
TABLE1 = {
    # example: (prediction words, d, expected max, expected IoU)
    "a": (words(1, 10), 0.8, 0.85, 0.809),  # I = 9, o_P = o_G = 0.9, IoU 9/11
    "b": (words(1, 10), 0.4, 0.65, 0.609),
    "c": (words(3, 12), 0.8, 0.75, 0.669),  # I = 7, o = 0.7, IoU 7/13
    "d": (words(6, 10), 1.0, 0.0, 0.0),  # I = 4, o_P = 0.8, o_G = 0.4: no match
    "e": (words(0, 5), 1.0, 1.0, 0.8),  # I = 6, o_P = 1, o_G = 0.6, IoU 0.6
}


@pytest.mark.parametrize("example", sorted(TABLE1))
def test_reference_table1(example):
    pred, d, exp_max, exp_iou = TABLE1[example]
    gt = words(0, 9)
    got_max = ref.fractional_tp(pred, gt, d=d, w=0.5, quality="max", threshold=0.51)
    got_iou = ref.fractional_tp(pred, gt, d=d, w=0.5, quality="iou", threshold=0.51)
    assert round(float(got_max), 3) == exp_max
    assert round(float(got_iou), 3) == exp_iou
    # as a one-essay, one-class competition: FP = 0, FN = 1 - TP, so F1 = TP / (TP + (1 - TP)/2)
    for quality, tp in (("max", got_max), ("iou", got_iou)):
        lb = ref.leaderboard(
            gt_frame([("e1", "Claim", text(gt), "Effective")]),
            {"P": sub_frame([("e1", "Claim", text(pred), d)])},
            w=0.5, quality=quality, threshold=0.51,
        )
        expected = 0.0 if example == "d" else float(tp) / (float(tp) + (1 - float(tp)) / 2)
        assert lb["P"]["segment_score"] == pytest.approx(expected, abs=1e-12)


def test_reference_softmin_figures():
    assert ref.softmin([0.6, 0.8], [1, 1], alpha=0.0) == pytest.approx(0.7, abs=1e-12)
    assert ref.softmin([0.6, 0.8], [1, 1], alpha=math.inf) == 0.6
    assert ref.softmin([0.6, 0.8], [1, 3], alpha=0.0) == pytest.approx(0.75, abs=1e-12)
    # by hand: alpha = ln(3) with sizes (1, 1) and scores (0, 1): weights 1 and 1/3 -> 0.25
    assert ref.softmin([0.0, 1.0], [1, 1], alpha=math.log(3)) == pytest.approx(0.25, abs=1e-12)
    # large alpha does not overflow (shifted exponents)
    assert ref.softmin([0.2, 0.9], [5, 5], alpha=1e6) == pytest.approx(0.2, abs=1e-12)


def test_reference_table2_and_table3():
    t2 = ref.efficiency_boost({"Red": 0.6, "Blue": 0.595, "Green": 0.59, "Yellow": 0.58},
                              {"Red": 50, "Blue": 45, "Green": 48, "Yellow": 40})
    assert t2["Yellow"].final_score == pytest.approx(0.58 * 1.05, abs=1e-12)
    assert t2["Blue"].final_score == pytest.approx(0.60615625, abs=1e-12)
    assert t2["Red"].final_score == pytest.approx(0.6, abs=1e-12)
    assert t2["Green"].final_score == pytest.approx(0.59, abs=1e-12)  # exactly 20 % slower: 0
    assert [k for k, _ in sorted(t2.items(), key=lambda kv: kv[1].rank)] == ["Yellow", "Blue", "Red", "Green"]
    assert all(r.eligible for r in t2.values())

    t3 = ref.efficiency_boost({"Red": 0.6, "Green": 0.59, "Blue": 0.55, "Yellow": 0.25},
                              {"Red": 50.4, "Green": 48, "Blue": 45, "Yellow": 5})
    assert t3["Red"].final_score == pytest.approx(0.6225, abs=1e-12)
    assert t3["Green"].final_score == pytest.approx(0.6195, abs=1e-12)
    assert t3["Blue"].final_score == pytest.approx(0.55, abs=1e-12)
    assert t3["Yellow"].final_score == pytest.approx(0.25, abs=1e-12)
    assert [k for k, _ in sorted(t3.items(), key=lambda kv: kv[1].rank)] == ["Red", "Green", "Blue", "Yellow"]
    assert [t3[k].eligible for k in ("Red", "Green", "Blue", "Yellow")] == [True, True, False, False]


def test_reference_boost_needs_runtime_and_positive_score():
    rows = ref.efficiency_boost({"A": 0.5, "B": 0.5, "C": 0.0}, {"B": 10, "C": 1})
    assert not rows["A"].eligible and rows["B"].eligible and not rows["C"].eligible
    assert rows["B"].boost == pytest.approx(0.05)
    assert ref.efficiency_boost({"A": 0.0}, {"A": 3})["A"].boost == 0.0


def test_reference_ranks():
    assert ref.competition_ranks({"a": 0.9, "b": 0.5, "c": 0.5, "d": 0.1}) == {"a": 1, "b": 2, "c": 2, "d": 4}
    assert ref.competition_ranks({"a": 0.5, "b": 0.5 + 1e-13}) == {"a": 1, "b": 1}


# SPEC §3 "Cases the reference gives": (predictions, ground truths, F1 numerator/denominator via
# TP, FP, FN).  Essays are a, b, c; one class.
FP1_CASES = [
    ([("a", "1 2 3")], [("a", "1 2 3")], (1, 0, 0)),
    ([("a", "1 2")], [("a", "2 3")], (1, 0, 0)),
    ([("a", "1 2 3 4")], [("a", "3 4 5 6 7")], (0, 1, 1)),
    ([("a", "1 2 3")], [("a", "1 2 3"), ("b", "1 2")], (1, 1, 1)),
    ([("a", "1 2 3"), ("c", "5 6")], [("a", "1 2 3")], (1, 1, 1)),
    ([("a", "1 2 3"), ("c", "5 6")], [("a", "1 2 3"), ("b", "1 2")], (1, 2, 2)),
    ([("a", "1 2")], [("a", "1"), ("a", "2")], (2, 0, 0)),
    ([("a", "1 2 3")], [("a", "1 2 3"), ("a", "1 2 3")], (1, 0, 0)),
    ([("a", "1 2 3"), ("a", "1 2 3")], [("a", "1 2 3"), ("a", "1 2 3")], (1, 1, 0)),
    ([("a", "1 2 3"), ("a", "1 2 3 4")], [("a", "1 2 3")], (1, 1, 0)),
    ([], [("a", "1 2")], (0, 1, 1)),
]
FP1_F1 = [1.0, 1.0, 0.0, 0.5, 0.5, 1 / 3, 1.0, 1.0, 2 / 3, 2 / 3, 0.0]


@pytest.mark.parametrize("case", range(len(FP1_CASES)))
def test_reference_fp1_cases(case):
    preds, gts, (tp, fp, fn) = FP1_CASES[case]
    gt_df = gt_frame([(e, "Claim", ps, "Effective") for e, ps in gts])
    sub_df = sub_frame([(e, "Claim", ps, 1.0) for e, ps in preds])
    gt_objs = ref.load_ground_truth(gt_df)
    pred_objs = ref.load_submission(sub_df, {"a", "b", "c"})
    assert ref.fp1_class_counts(gt_objs, pred_objs, "Claim") == (tp, fp, fn)
    assert float(ref.fp1_from_frames(gt_df, sub_df)) == pytest.approx(f1(tp, fp, fn), abs=1e-12)
    assert f1(tp, fp, fn) == pytest.approx(FP1_F1[case], abs=1e-12)


def test_reference_figure1_tie_order():
    # memo Figure 1 at t = 0.5 without overlap removal: P1 = 0..3, P2 = 4..7; G1 = 2..5, G2 = 6..9.
    # P1-G1, P2-G1, P2-G2 are all candidates with equal keys (o = 0.5, IoU = 1/3); the SPEC order
    # takes the ground truth with the smaller first word (G1), then the prediction with the
    # smaller first word (P1): G1-P1, then G2-P2 -> both matched, binary with w = 1: TP = 2, F1 = 1.
    gt = gt_frame([("e", "Claim", "2 3 4 5", "Effective"), ("e", "Claim", "6 7 8 9", "Effective")])
    sub = sub_frame([("e", "Claim", "4 5 6 7", 1.0), ("e", "Claim", "0 1 2 3", 1.0)])
    lb = ref.leaderboard(gt, {"S": sub}, w=1.0, quality="binary", threshold=0.5, overlap_removal=False)
    assert lb["S"]["segment_score"] == 1.0
    # at t = 0.51 nothing is a candidate: TP = 0 -> F1 = 0
    lb = ref.leaderboard(gt, {"S": sub}, w=1.0, quality="binary", threshold=0.51, overlap_removal=False)
    assert lb["S"]["segment_score"] == 0.0


def test_reference_groups_and_softmin_through_leaderboard():
    # two essays, gender F (perfect) and M (missed): per group F1 1 and 0.
    gt = gt_frame([("f1", "Claim", "0 1 2", "Effective"), ("m1", "Claim", "0 1 2", "Effective"),
                   ("m2", "Claim", "0 1 2", "Effective")])
    sub = sub_frame([("f1", "Claim", "0 1 2", 1.0)])
    demo = pd.DataFrame([("f1", "F"), ("m1", "M")], columns=["id", "gender"], dtype=object)
    for alpha, expected in ((0.0, 1 / 3), (math.inf, 0.0)):
        lb = ref.leaderboard(gt, {"S": sub}, demo, None, attributes=["gender"], alpha=alpha)
        # groups: gender=F {f1} -> 1; gender=M {m1} -> 0; gender=(missing) {m2} -> 0
        assert lb["S"]["groups"] == {"gender=F": 1.0, "gender=M": 0.0, "gender=(missing)": 0.0}
        assert lb["S"]["bias_score"] == pytest.approx(expected, abs=1e-12)
        # whole set: TP 1, FP 0, FN 2 -> 1 / (1 + 1) = 0.5
        assert lb["S"]["segment_score"] == pytest.approx(0.5, abs=1e-12)
        assert lb["S"]["eligible"] is False and lb["S"]["final_score"] == lb["S"]["bias_score"]


# --------------------------------------------------------------------------------------------
# the generator covers what the comparison promises
# --------------------------------------------------------------------------------------------

N_COMPETITIONS = 320
PARAMS_PER_COMPETITION = 2


def parameter_sets(seed: int, comp: randomcomp.RandomCompetition) -> list[dict]:
    rng = random.Random(seed * 7919 + 17)
    return [randomcomp.random_parameters(rng, comp) for _ in range(PARAMS_PER_COMPETITION)]


@pytest.mark.slow
def test_generator_covers_the_parameter_space():
    seen = {"quality": set(), "threshold_half": False, "alpha": set(), "n_attr": set(), "removal": set(), "exclude": set(),
            "excluded_essay": False,
            "unknown_essay": False, "missing_demo": False, "missing_runtime": False, "overlapping_gt": False,
            "unsorted": False, "duplicate_index": False, "no_demographics": False}
    for seed in range(N_COMPETITIONS):
        comp = randomcomp.random_competition(seed)
        for p in parameter_sets(seed, comp):
            seen["quality"].add(p["quality"])
            seen["threshold_half"] |= p["threshold"] == 0.5
            seen["alpha"].add("0" if p["alpha"] == 0 else "inf" if math.isinf(p["alpha"]) else "finite")
            seen["n_attr"].add(len(p["attributes"]))
            seen["removal"].add(p["overlap_removal"])
            seen["exclude"].add(p["exclude_missing"])
            seen["excluded_essay"] |= bool(p["exclude_missing"] and p["attributes"] and comp.demographics is not None
                                           and set(comp.ground_truth["id"]) - set(comp.demographics["id"]))
        essays = set(comp.ground_truth["id"])
        for df in comp.submissions.values():
            seen["unknown_essay"] |= bool(set(df["id"]) - essays)
            for ps in df["predictionstring"]:
                ints = [int(x) for x in ps.split()]
                seen["unsorted"] |= ints != sorted(ints) and len(set(ints)) == len(ints)
                seen["duplicate_index"] |= len(set(ints)) < len(ints)
        if comp.demographics is None:
            seen["no_demographics"] = True
        else:
            seen["missing_demo"] |= bool(essays - set(comp.demographics["id"]))
        seen["missing_runtime"] |= set(comp.submissions) != set(comp.runtimes_dict)
        gt = comp.ground_truth
        seen["overlapping_gt"] |= gt.duplicated(["id", "discourse_type", "predictionstring"]).any()
    assert seen.pop("quality") == {"binary", "max", "iou"}
    assert seen.pop("alpha") == {"0", "inf", "finite"}
    assert seen.pop("n_attr") == {0, 1, 2}
    assert seen.pop("removal") == {True, False}
    assert seen.pop("exclude") == {True, False}
    assert all(seen.values()), seen


# --------------------------------------------------------------------------------------------
# the engine against the reference
# --------------------------------------------------------------------------------------------

STAGE_COLUMNS = ["fp1", "overlap_removed", "segment_score", "bias_score", "boost", "final_score"]
RANK_COLUMNS = ["fp1_rank", "overlap_removed_rank", "segment_score_rank", "bias_score_rank", "rank"]
FIXED_COLUMNS = ["submission", "fp1", "fp1_rank", "overlap_removed", "overlap_removed_rank", "segment_score",
                 "segment_score_rank", "bias_score", "bias_score_rank", "eligible", "boost", "final_score", "rank"]


def compare(comp: randomcomp.RandomCompetition, scorer, params: dict) -> None:
    expected = ref.leaderboard(comp.ground_truth, comp.submissions, comp.demographics, comp.runtimes, **params)
    lb = scorer.leaderboard(**params)
    where = f"seed={comp.seed} params={params}"
    assert list(lb.columns[: len(FIXED_COLUMNS)]) == FIXED_COLUMNS, where
    assert sorted(lb["submission"]) == sorted(expected), where
    # rows sorted by rank, then name
    order = sorted(expected, key=lambda k: (expected[k]["rank"], k))
    assert list(lb["submission"]) == order, where
    group_columns = list(lb.columns[len(FIXED_COLUMNS):])
    for _, row in lb.iterrows():
        name = row["submission"]
        exp = expected[name]
        for col in STAGE_COLUMNS:
            assert abs(float(row[col]) - exp[col]) <= 1e-9, f"{where} {name} {col}: {row[col]} != {exp[col]}"
        for col in RANK_COLUMNS:
            assert int(row[col]) == exp[col], f"{where} {name} {col}: {row[col]} != {exp[col]}"
        assert bool(row["eligible"]) == exp["eligible"], f"{where} {name} eligible"
        assert sorted(group_columns) == sorted(exp["groups"]), where  # none without attributes
        for label, value in exp["groups"].items():
            assert abs(float(row[label]) - value) <= 1e-9, f"{where} {name} {label}: {row[label]} != {value}"
    if params["attributes"]:
        gs = scorer.group_scores(w=params["w"], quality=params["quality"], threshold=params["threshold"],
                                 attributes=params["attributes"], overlap_removal=params["overlap_removal"],
                                 exclude_missing=params["exclude_missing"])
        sizes = next(iter(expected.values()))["group_sizes"] if expected else {}
        assert {k: int(v) for k, v in gs.sizes.items()} == sizes, where


QUICK = 40  # seeds below this run in the quick subset (pytest -m "not slow"); the rest are marked slow


def _seeds(seeds):
    return [pytest.param(s, marks=pytest.mark.slow) if s >= QUICK else s for s in seeds]


@pytest.mark.parametrize("seed", _seeds(range(N_COMPETITIONS)))
def test_engine_matches_reference(seed):
    comp = randomcomp.random_competition(seed)
    engine_comp = scoring.load_competition(ground_truth=comp.ground_truth, submissions=comp.submissions,
                                           demographics=comp.demographics, runtimes=comp.runtimes)
    scorer = scoring.Scorer(engine_comp)
    for params in parameter_sets(seed, comp):
        compare(comp, scorer, params)


# --------------------------------------------------------------------------------------------
# the same comparison through CSV files (the reader: text cells, no NA magic) and the CLI
# --------------------------------------------------------------------------------------------


def write_competition(comp: randomcomp.RandomCompetition, folder: Path) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    subs_dir = folder / "submissions"
    subs_dir.mkdir()
    paths = {"ground_truth": folder / "gt.csv", "submissions": [], "demographics": None, "runtimes": None}
    comp.ground_truth.to_csv(paths["ground_truth"], index=False)
    for name, df in comp.submissions.items():
        path = subs_dir / f"{name}.csv"
        df.to_csv(path, index=False)
        paths["submissions"].append(path)
    if comp.demographics is not None:
        paths["demographics"] = folder / "demographics.csv"
        comp.demographics.to_csv(paths["demographics"], index=False)
    if comp.runtimes is not None:
        paths["runtimes"] = folder / "runtimes.csv"
        comp.runtimes.to_csv(paths["runtimes"], index=False)
    return paths


@pytest.mark.parametrize("seed", _seeds(range(1, N_COMPETITIONS, 8)))
def test_engine_matches_reference_from_csv_files(seed, tmp_path):
    comp = randomcomp.random_competition(seed)
    paths = write_competition(comp, tmp_path)
    engine_comp = scoring.load_competition(ground_truth=paths["ground_truth"], submissions=paths["submissions"],
                                           demographics=paths["demographics"], runtimes=paths["runtimes"])
    assert engine_comp.submission_names == list(comp.submissions)
    scorer = scoring.Scorer(engine_comp)
    for params in parameter_sets(seed, comp):
        compare(comp, scorer, params)


@pytest.mark.parametrize("seed", [2, 11, 29, 47])
def test_cli_json_matches_reference(seed, tmp_path):
    comp = randomcomp.random_competition(seed)
    paths = write_competition(comp, tmp_path)
    params = parameter_sets(seed, comp)[0]
    cmd = ["leaderboard", "--ground-truth", str(paths["ground_truth"]),
           "--submissions", str(tmp_path / "submissions"),
           "--w", repr(params["w"]), "--quality", params["quality"], "--threshold", repr(params["threshold"]),
           "--alpha", "inf" if math.isinf(params["alpha"]) else repr(params["alpha"]),
           "--band", repr(params["band"]), "--max-boost", repr(params["max_boost"]),
           "--window", repr(params["window"]), "--format", "json"]
    if paths["demographics"] is not None:
        cmd += ["--demographics", str(paths["demographics"])]
        if params["attributes"]:
            cmd += ["--attributes", ",".join(params["attributes"])]
    if paths["runtimes"] is not None:
        cmd += ["--runtimes", str(paths["runtimes"])]
    if not params["overlap_removal"]:
        cmd.append("--no-overlap-removal")
    proc = run_cli(*cmd)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)  # strict JSON: no NaN/Infinity tokens
    expected = ref.leaderboard(comp.ground_truth, comp.submissions, comp.demographics, comp.runtimes, **params)
    assert sorted(r["submission"] for r in data["leaderboard"]) == sorted(expected)
    for row in data["leaderboard"]:
        exp = expected[row["submission"]]
        for col in STAGE_COLUMNS:
            assert abs(row[col] - exp[col]) <= 1e-9, (seed, row["submission"], col)
        for col in RANK_COLUMNS:
            assert row[col] == exp[col], (seed, row["submission"], col)
        assert row["eligible"] == exp["eligible"]
        assert row["groups"].keys() == exp["groups"].keys()
        for label, value in exp["groups"].items():
            assert abs(row["groups"][label] - value) <= 1e-9, (seed, row["submission"], label)


# --------------------------------------------------------------------------------------------
# the per-essay explanation (pages rely on it) against the reference's matching
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", _seeds(range(3, N_COMPETITIONS, 10)))
def test_explain_essay_matches_reference(seed):
    comp = randomcomp.random_competition(seed)
    params = parameter_sets(seed, comp)[0]
    kw = {k: params[k] for k in ("w", "quality", "threshold", "overlap_removal")}
    engine_comp = scoring.load_competition(ground_truth=comp.ground_truth, submissions=comp.submissions,
                                           demographics=comp.demographics, runtimes=comp.runtimes)
    rc = ref.load(comp.ground_truth, comp.submissions, comp.demographics, comp.runtimes)
    for name, preds in rc.submissions.items():
        removed = ref.remove_overlaps_predictions(preds)
        removed_by_row = {p.row: p for p in removed}
        scored = removed if params["overlap_removal"] else preds
        for essay in rc.essays:
            ex = scoring.explain_essay(engine_comp, name, essay, **kw)
            expected = {}
            for cls in sorted({g.cls for g in rc.ground_truth if g.essay == essay}):
                g_ec = [g for g in rc.ground_truth if g.essay == essay and g.cls == cls]
                p_ec = [p for p in scored if p.essay == essay and p.cls == cls]
                matched, _, _ = ref.match_essay_class(g_ec, p_ec, w=params["w"], quality=params["quality"],
                                                      threshold=params["threshold"])
                for g, p, tp in matched:
                    expected[(cls, g.row, p.row)] = float(tp)
            got = {(m["class"], int(m["gt_row"]), int(m["pred_row"])): float(m["tp"])
                   for _, m in ex["matches"].iterrows()}
            where = f"seed={seed} {name} essay={essay} {kw}"
            assert got.keys() == expected.keys(), where
            for key, tp in expected.items():
                assert abs(got[key] - tp) <= 1e-9, (where, key)
            # after_removal: the canonical string after §2, empty when discarded
            for _, p in ex["predictions"].iterrows():
                kept = removed_by_row.get(int(p["row"]))
                assert p["after_removal"] == ("" if kept is None else ref.canonical(kept.words)), (where, p["row"])
