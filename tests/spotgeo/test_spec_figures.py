"""The spec's reference figures (§5) and edge cases (§2–§4) through the engine, each number
computed by hand in the test."""

from __future__ import annotations

import pytest

import scoring.spotgeo as sg
from scoring.core.errors import InputError
from scoring.spotgeo.explain import explain_frame

X = [[101, 100], [205, 200], [300, 300], [400, 50]]  # the spec's x1..x4
Y = [[100, 100], [200, 200], [213, 200]]  # y1..y3 (y3 is 8 px from x2)


def entry(seq, frame, pts):
    return {"sequence_id": seq, "frame": frame, "num_objects": len(pts), "object_coords": pts}


def scorer(gt, **subs) -> sg.Scorer:
    return sg.Scorer(sg.load_competition(gt, subs))


def row(sc, name="A", **params):
    lb = sc.leaderboard(**params)
    return lb.set_index("submission").loc[name]


def test_worked_example_both_rules():
    sc = scorer([entry(1, 1, Y)], A=[entry(1, 1, X)])
    for rules, sse in (("seed", 25 + 300), ("starter-kit", 5 + 300)):
        ex = explain_frame(sc, "A", 1, 1, tau=10, epsilon=3, rules=rules)
        s = ex["summary"]
        assert (s["tp"], s["fp"], s["fn"], s["sse"]) == (2, 2, 1, sse)
        assert sorted(zip(ex["matches"]["prediction"], ex["matches"]["object"], strict=True)) == [(1, 1), (2, 2)]
        assert ex["objects"]["label"].tolist() == ["TP", "TP", "FN"]
        assert ex["predictions"]["label"].tolist() == ["TP", "TP", "FP", "FP"]
        r = row(sc, tau=10, epsilon=3, rules=rules)
        assert (r.tp, r.fp, r.fn) == (2, 2, 1)
        assert r.precision == 0.5 and r.recall == pytest.approx(2 / 3)
        assert r.f1 == pytest.approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3)) and r.score == pytest.approx(1 - r.f1)
        assert r.mse == pytest.approx(sse / 5)  # one sequence: pooled and summed agree
    # x2 is 8 px from y3 too: the candidate pair is shown but not matched
    cand = explain_frame(sc, "A", 1, 1)["candidates"]
    assert cand[(cand.prediction == 2) & (cand.object == 3)]["matched"].tolist() == [False]


def test_empty_frames():
    gt = [entry(1, 1, Y), entry(1, 2, []), entry(2, 1, [])]
    sub = [entry(1, 1, []), entry(1, 2, X), entry(2, 1, [])]
    sc = scorer(gt, A=sub)
    only_objects = explain_frame(sc, "A", 1, 1)["summary"]
    assert (only_objects["fn"], only_objects["sse"]) == (3, 3 * 100)
    only_preds = explain_frame(sc, "A", 1, 2)["summary"]
    assert (only_preds["fp"], only_preds["sse"]) == (4, 4 * 100)
    empty = explain_frame(sc, "A", 2, 1)["summary"]
    assert (empty["tp"], empty["fp"], empty["fn"], empty["sse"]) == (0, 0, 0, 0)
    r = row(sc)
    assert (r.tp, r.fp, r.fn, r.precision, r.recall, r.f1, r.score) == (0, 4, 3, 0, 0, 0, 1)  # 0/0 = 0
    assert r.mse == pytest.approx(700 / 7)
    # starter kit: sequence 1 has MSE_1 = 700 / 7, sequence 2 (all empty) MSE_2 = 0; their sum
    assert row(sc, rules="starter-kit").mse == pytest.approx(100)


def test_nothing_at_all():
    sc = scorer([entry(1, 1, [])], A=[entry(1, 1, [])])
    r = row(sc)
    assert (r.tp, r.fp, r.fn, r.f1, r.score, r.mse) == (0, 0, 0, 0, 1, 0)
    assert row(sc, rules="starter-kit").mse == 0


def test_pooled_versus_summed_mse():
    # sequence 1: one object found 5 px off (TP, π = 25 / 5); sequence 2: an object missed and
    # a false point (FN + FP: 2τ² = 200)
    gt = [entry(1, 1, [[100, 100]]), entry(2, 1, [[300, 300]])]
    sub = [entry(1, 1, [[103, 104]]), entry(2, 1, [[500, 400]])]
    sc = scorer(gt, A=sub)
    assert row(sc, rules="seed").mse == pytest.approx((25 + 200) / 3)  # ΣSSE / Σ(TP + FN + FP)
    assert row(sc, rules="starter-kit").mse == pytest.approx(5 / 1 + 200 / 2)  # Σ_k SSE_k / n_k
    # one difference at a time
    assert sc.totals(tau=10, epsilon=3, rules=sg.SEED.with_kit("pooled"))["mse"][0] == pytest.approx(25 + 100)
    assert sc.totals(tau=10, epsilon=3, rules=sg.SEED.with_kit("squared"))["mse"][0] == pytest.approx(205 / 3)


def test_edges_at_tau_and_epsilon():
    # (6, 8) from its object: d = 10 exactly = τ; (3, 0): d = 3 exactly = ε
    gt = [entry(1, 1, [[100, 100], [300, 300]])]
    sub = [entry(1, 1, [[106, 108], [303, 300]])]
    sc = scorer(gt, A=sub)
    seed, kit = row(sc, tau=10, epsilon=3), row(sc, tau=10, epsilon=3, rules="starter-kit")
    assert seed.tp == kit.tp == 2  # d ≤ τ is a true positive under both
    assert seed.mse == pytest.approx((100 + 9) / 2)  # d = τ adds τ²; d = ε adds ε² (not < ε)
    assert kit.mse == pytest.approx((0 + 3) / 2)  # the kit drops d = τ; d = ε adds d
    assert row(sc, tau=10, epsilon=3.5).mse == pytest.approx(100 / 2)
    # just inside τ = 9.99: the (6, 8) point is a false positive and its object a false negative
    r = row(sc, tau=9.99, epsilon=3)
    assert (r.tp, r.fp, r.fn) == (1, 1, 1) and r.mse == pytest.approx((9 + 2 * 9.99**2) / 3)


def test_ranking_by_f1_then_mse_with_shared_ranks():
    gt = [entry(1, 1, [[100, 100], [300, 300]])]
    near = [entry(1, 1, [[101, 100], [300, 301]])]  # 2 TP, no error (d < ε)
    far = [entry(1, 1, [[105, 100], [300, 305]])]  # 2 TP, 25 each
    half = [entry(1, 1, [[100, 100]])]  # 1 TP, 1 FN
    sc = scorer(gt, near=near, far=far, half=half, twin=near)
    lb = sc.leaderboard()
    assert lb["submission"].tolist() == ["near", "twin", "far", "half"]  # by rank, then name
    assert lb["rank"].tolist() == [1, 1, 3, 4]  # "1224": near and twin share rank 1
    assert lb.set_index("submission").loc["far", "mse"] == pytest.approx(25)
    # ranked by 1 − F1 first: 'half' has the smallest MSE of all but the worst F1
    assert lb.set_index("submission").loc["half", "mse"] == pytest.approx(100 / 2)
    assert lb.set_index("submission").loc["near", "mse"] == 0


def test_parameter_checks():
    sc = scorer([entry(1, 1, Y)], A=[entry(1, 1, X)])
    for bad, where in ((dict(tau=0), "tau"), (dict(tau=50.5), "tau"), (dict(tau=-1), "tau"),
                       (dict(epsilon=-0.1), "epsilon"), (dict(tau=5, epsilon=6), "epsilon"),
                       (dict(rules="kit"), "rules"), (dict(alpha=1), "alpha"), (dict(tau="x"), "tau")):
        with pytest.raises(InputError) as e:
            sc.leaderboard(**bad)
        assert e.value.file == where
    assert row(sc, tau=50, epsilon=50).tp == 2  # both ends of the ranges are allowed
    assert row(sc, tau=5, epsilon=5).tp == 2  # d(x2, y2) = 5 ≤ τ
    assert row(sc, tau=4.9, epsilon=4.9).tp == 1
    assert row(sc, tau="10", epsilon="3", rules="Starter-Kit").tp == 2  # text as on a link
