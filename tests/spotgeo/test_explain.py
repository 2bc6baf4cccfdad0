"""What the pages will read: per-frame explanations, outcomes, breakdowns, sequence costs and
per-unit statistics — each checked against the reference or against the leaderboard — and
the caching promise (an ε or rule-set change never re-matches)."""

from __future__ import annotations

import numpy as np
import pytest

import scoring.spotgeo as sg
from scoring.core.errors import InputError
from scoring.spotgeo.explain import (
    errors_by_position,
    explain_frame,
    object_outcomes,
    prediction_outcomes,
    sequence_costs,
)
from tests.spotgeo import randomcomp
from tests.spotgeo import reference as ref


def scorer_of(comp) -> sg.Scorer:
    return sg.Scorer(sg.load_competition(comp.ground_truth, comp.submissions))


@pytest.mark.parametrize("seed", range(0, 60, 3))
def test_explain_frame_matches_reference(seed):
    comp = randomcomp.random_competition(seed)
    sc = scorer_of(comp)
    gt = ref.points(comp.ground_truth)
    p = comp.params[seed % 2]
    for name, entries in comp.submissions.items():
        sub = ref.points(entries)
        for (s, f), objs in gt.items():
            ex = explain_frame(sc, name, s, f, **p)
            want = ref.frame_matches(sub[(s, f)], objs, p["tau"], p["rules"])
            got = set(zip(ex["matches"]["prediction"] - 1, ex["matches"]["object"] - 1, strict=True))
            assert got == {(i, j) for i, j, _ in want}, (seed, name, s, f)
            r = ref.frame_result(sub[(s, f)], objs, **p)
            summ = ex["summary"]
            assert (summ["tp"], summ["fp"], summ["fn"]) == (r["tp"], r["fp"], r["fn"])
            assert summ["sse"] == pytest.approx(r["sse"], abs=1e-9)
            assert (ex["objects"]["label"] == "TP").sum() == r["tp"] == (ex["predictions"]["label"] == "TP").sum()
            assert ex["predictions"][["x", "y"]].to_numpy().tolist() == [list(q) for q in sub[(s, f)]]
            c = ex["candidates"]
            assert (c["d"] <= p["tau"]).all() and c["matched"].sum() == r["tp"]


@pytest.mark.parametrize("seed", [1, 4, 9, 16])
def test_outcomes_and_costs_add_up_to_the_leaderboard(seed):
    comp = randomcomp.random_competition(seed)
    sc = scorer_of(comp)
    for p in comp.params:
        lb = sc.leaderboard(**p).set_index("submission")
        for name in sc.names:
            obj, pred = object_outcomes(sc, name, **p), prediction_outcomes(sc, name, **p)
            assert (obj["outcome"] == "TP").sum() == lb.loc[name, "tp"] == (pred["outcome"] == "TP").sum()
            assert (obj["outcome"] == "FN").sum() == lb.loc[name, "fn"]
            assert (pred["outcome"] == "FP").sum() == lb.loc[name, "fp"]
            costs = sequence_costs(sc, name, **p)
            assert costs["contribution"].sum() == pytest.approx(lb.loc[name, "mse"], rel=1e-9, abs=1e-9)
            assert list(costs["contribution"]) == sorted(costs["contribution"], reverse=True)
            grid = errors_by_position(sc, name, cell=100, **p)
            assert grid["fn"].sum() == lb.loc[name, "fn"] and grid["fp"].sum() == lb.loc[name, "fp"]
            assert grid["objects"].sum() == len(obj) and grid["predictions"].sum() == len(pred)


@pytest.mark.parametrize("seed", [2, 5, 11])
def test_unit_stats_reproduce_the_leaderboard(seed):
    comp = randomcomp.random_competition(seed)
    sc = scorer_of(comp)
    for p in comp.params + [{"tau": 25.0, "epsilon": 0.0, "rules": "starter-kit"}]:
        lb = sc.leaderboard(**p).set_index("submission").loc[sc.names]
        us = sc.unit_stats(**p)
        assert us.final == "score" and not us.higher_is_better and us.n_cells == 1
        assert us.n_units == len({e["sequence_id"] for e in comp.ground_truth})
        s = us.scores()
        for col in ("score", "f1", "precision", "recall", "mse"):
            np.testing.assert_allclose(s[col], lb[col].to_numpy(), rtol=1e-9, atol=1e-9)
        np.testing.assert_array_equal(sg.final_ranks(s), lb["rank"].to_numpy())
        # replicates: weights of all ones are the plain sums; a zero weight drops a sequence
        w = np.ones((3, us.n_units))
        w[1, 0] = 0
        rep = us.scores(w)
        np.testing.assert_allclose(rep["score"][0], lb["score"].to_numpy(), rtol=1e-9, atol=1e-12)
        assert sg.final_ranks(rep).shape == (3, len(sc.names))


def test_epsilon_and_rules_never_rematch():
    sc = scorer_of(randomcomp.random_competition(7))
    sc.leaderboard(tau=10)
    misses = sc.cache_info()["match"]["misses"]
    for eps in (0, 1, 2.5, 10):
        for rules in ("seed", "starter-kit"):
            sc.leaderboard(tau=10, epsilon=eps, rules=rules)
            sc.unit_stats(tau=10, epsilon=eps, rules=rules)
    assert sc.cache_info()["match"]["misses"] == misses
    sc.leaderboard(tau=11)
    assert sc.cache_info()["match"]["misses"] == misses + 1


def test_unknown_team_or_frame():
    comp = randomcomp.random_competition(3)
    sc = scorer_of(comp)
    with pytest.raises(InputError, match="^team: expected one of"):
        object_outcomes(sc, "nobody")
    with pytest.raises(InputError, match="^frame: no frame 6 of sequence_id 1"):
        explain_frame(sc, sc.names[0], 1, 6)
