"""The reference checked against the spec's own figures, then the engine checked against the
reference on a few hundred random small competitions, under both rule sets — and the
comparison shown to be sensitive: each deliberately broken variant of the reference is told
apart from the engine on some of those competitions.

Reference numbers in the first part come from the spec (§5) or hand computations written
out next to them.
"""

from __future__ import annotations

import math

import pytest

import scoring.spotgeo as sg
from tests.spotgeo import randomcomp
from tests.spotgeo import reference as ref

N_COMPETITIONS = 240
COLUMNS = ("precision", "recall", "f1", "score", "mse")

# the spec's worked example (§5)
X = [(101, 100), (205, 200), (300, 300), (400, 50)]
Y = [(100, 100), (200, 200), (213, 200)]


def test_reference_worked_example_both_rules():
    for rules in ("seed", "starter-kit"):
        m = ref.frame_matches(X, Y, 10.0, rules)
        assert sorted((i, j) for i, j, _ in m) == [(0, 0), (1, 1)]
    seed = ref.frame_result(X, Y, tau=10.0, epsilon=3.0, rules="seed")
    kit = ref.frame_result(X, Y, tau=10.0, epsilon=3.0, rules="starter-kit")
    assert (seed["tp"], seed["fp"], seed["fn"]) == (2, 2, 1)
    assert seed["sse"] == 25 + 300  # 0 + d(x2, y2)² + 3τ²
    assert kit["sse"] == 5 + 300


def test_reference_empty_frames():
    assert ref.frame_result([], Y, tau=10.0, epsilon=3.0, rules="seed") == {"tp": 0, "fp": 0, "fn": 3, "sse": 300.0}
    assert ref.frame_result(X, [], tau=10.0, epsilon=3.0, rules="seed") == {"tp": 0, "fp": 4, "fn": 0, "sse": 400.0}
    assert ref.frame_result([], [], tau=10.0, epsilon=3.0, rules="seed")["sse"] == 0


def test_reference_ranking_ties():
    rows = {"a": {"score": 0.2, "mse": 5.0}, "b": {"score": 0.2, "mse": 3.0}, "c": {"score": 0.1, "mse": 9.0},
            "d": {"score": 0.2, "mse": 3.0 + 1e-13}}
    assert ref.ranks(rows) == {"c": 1, "b": 2, "d": 2, "a": 4}
    assert ref.ranks(rows, "no_mse_tiebreak") == {"c": 1, "a": 2, "b": 2, "d": 2}


# --------------------------------------------------------------------------------------------
# engine against reference
# --------------------------------------------------------------------------------------------


def engine_scorer(comp: randomcomp.RandomCompetition) -> sg.Scorer:
    return sg.Scorer(sg.load_competition(ground_truth=comp.ground_truth, submissions=comp.submissions))


def differences(lb, expected: dict) -> list[str]:
    """Every disagreement between an engine leaderboard and the reference's rows."""
    out = []
    if sorted(lb["submission"]) != sorted(expected):
        return ["submissions differ"]
    for row in lb.to_dict("records"):
        exp = expected[row["submission"]]
        for c in ("tp", "fp", "fn", "rank"):
            if int(row[c]) != exp[c]:
                out.append(f"{row['submission']} {c}: {row[c]} != {exp[c]}")
        for c in COLUMNS:
            if not math.isclose(row[c], exp[c], rel_tol=1e-9, abs_tol=1e-9):
                out.append(f"{row['submission']} {c}: {row[c]} != {exp[c]}")
    ranks = list(lb["rank"])
    if ranks != sorted(ranks):
        out.append("rows not sorted by rank")
    return out


def test_generator_covers_what_matters():
    """The random competitions have conflicts, exact-τ and exact-ε pairs, F1 ties and both
    kinds of τ — else the comparison below would prove little."""
    conflicts = at_tau = at_eps = ties = 0
    for seed in range(N_COMPETITIONS):
        comp = randomcomp.random_competition(seed)
        p = comp.params[0]
        gt = ref.points(comp.ground_truth)
        rows = {}
        for name, entries in comp.submissions.items():
            sub = ref.points(entries)
            for key, objs in gt.items():
                ds = [ref.dist(a, b) for a in sub[key] for b in objs]
                at_tau += sum(d == p["tau"] for d in ds)
                at_eps += sum(d == p["epsilon"] and d > 0 for d in ds)
                near = [[ref.dist(a, b) <= p["tau"] for b in objs] for a in sub[key]]
                conflicts += any(sum(r) > 1 for r in near) or any(sum(c) > 1 for c in zip(*near, strict=True))
            rows[name] = ref.score_submission(gt, sub, **p)
        scores = sorted(r["score"] for r in rows.values())
        ties += any(abs(a - b) <= 1e-12 for a, b in zip(scores, scores[1:], strict=False))
    assert conflicts > 300 and at_tau > 50 and at_eps > 50 and ties > 40, (conflicts, at_tau, at_eps, ties)


@pytest.mark.parametrize("block", range(8))
def test_engine_matches_reference(block):
    for seed in range(block, N_COMPETITIONS, 8):
        comp = randomcomp.random_competition(seed)
        scorer = engine_scorer(comp)
        gt = ref.points(comp.ground_truth)
        subs = {n: ref.points(e) for n, e in comp.submissions.items()}
        for p in comp.params:
            expected = ref.leaderboard(gt, subs, **p)
            diff = differences(scorer.leaderboard(**p), expected)
            assert not diff, (seed, p, diff[:5])


def test_broken_variants_are_caught():
    """Each wrong variant of the reference disagrees with the engine on some random
    competitions (the unchanged reference on none: the test above). Stops once every variant
    has been caught twice."""
    caught = {b: 0 for b in ref.BROKEN}
    for seed in range(N_COMPETITIONS):
        todo = [b for b, n in caught.items() if n < 2]
        if not todo:
            break
        comp = randomcomp.random_competition(seed)
        scorer = engine_scorer(comp)
        gt = ref.points(comp.ground_truth)
        subs = {n: ref.points(e) for n, e in comp.submissions.items()}
        for b in todo:
            for p in comp.params[:2]:
                if differences(scorer.leaderboard(**p), ref.leaderboard(gt, subs, **p, broken=b)):
                    caught[b] += 1
                    break
    assert all(n >= 2 for n in caught.values()), caught
