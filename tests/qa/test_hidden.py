"""Rank under unknown weights (spec §4) and the exact winner regions, against hand
computations."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.core.ranking import rank_rows
from scoring.qa import hidden
from scoring.qa.hidden import draw_ranks, hidden_weight_ranks, weight_draws, winner_at, winner_regions


def test_draws_are_seeded_points_of_the_simplex():
    a = weight_draws(4, 1000, seed=7)
    assert a.shape == (4, 1000)
    assert np.allclose(a.sum(axis=0), 1.0) and (a >= 0).all()
    assert np.array_equal(a, weight_draws(4, 1000, seed=7))
    assert not np.array_equal(a, weight_draws(4, 1000, seed=8))
    # the documented construction: unit exponentials, each row divided by its sum
    e = np.random.default_rng(7).standard_exponential((1000, 4))
    assert np.allclose(a, (e / e.sum(axis=1, keepdims=True)).T)
    # Dirichlet(1, 1, 1, 1): each coordinate has mean 1/4 and variance (1·3)/(16·5) = 3/80
    big = weight_draws(4, 200_000, seed=1)
    assert np.allclose(big.mean(axis=1), 0.25, atol=0.002)
    assert np.allclose(big.var(axis=1), 3 / 80, atol=0.001)
    assert np.array_equal(weight_draws(1, 3, seed=0), np.ones((1, 3)))


def test_summary_by_hand():
    # scores (theme 1, theme 2): A (1, 0), B (0, 1), C (0.4, 0.4); three draws
    s = np.array([[1.0, 0.0], [0.0, 1.0], [0.4, 0.4]])
    w = np.array([[1.0, 0.7, 0.2], [0.0, 0.3, 0.8]])
    # draw 1: A 1, B 0, C 0.4 -> ranks 1, 3, 2; draw 2: 0.7, 0.3, 0.4 -> 1, 3, 2;
    # draw 3: 0.2, 0.8, 0.4 -> 3, 1, 2
    r = hidden_weight_ranks(s, w)
    assert r["p_first"].tolist() == pytest.approx([2 / 3, 1 / 3, 0.0])
    assert r["best_rank"].tolist() == [1, 1, 2]
    assert r["worst_rank"].tolist() == [3, 3, 2]
    assert r["median_rank"].tolist() == [1.0, 3.0, 2.0]
    assert r["rank_share"][0].tolist() == pytest.approx([2 / 3, 0.0, 1 / 3])


def test_median_can_be_a_half():
    # two draws, each team first once: ranks (1, 2) -> numpy.median 1.5
    r = hidden_weight_ranks(np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[0.9, 0.1], [0.1, 0.9]]))
    assert r["median_rank"].tolist() == [1.5, 1.5]
    assert r["p_first"].tolist() == [0.5, 0.5]


def test_tied_teams_both_count_first():
    s = np.array([[0.5, 0.9], [0.5, 0.9], [0.1, 0.1]])
    r = hidden_weight_ranks(s, weight_draws(2, 50, seed=3))
    assert r["p_first"].tolist() == [1.0, 1.0, 0.0]  # the shares sum to 2
    assert r["worst_rank"].tolist() == [1, 1, 3]
    # within 1e-12 is a tie too
    s[1, 0] += 1e-13
    assert hidden_weight_ranks(s, weight_draws(2, 50, seed=3))["p_first"].tolist() == [1.0, 1.0, 0.0]


def test_one_draw_and_one_team():
    r = hidden_weight_ranks(np.array([[0.3, 0.2]]), weight_draws(2, 1, seed=0))
    assert (r["p_first"].tolist(), r["best_rank"].tolist(), r["median_rank"].tolist()) == ([1.0], [1], [1.0])


def test_blocks_give_the_same_summary(monkeypatch):
    rng = np.random.default_rng(2)
    s = rng.random((7, 3))
    s[3] = s[1]
    w = weight_draws(3, 1001, seed=4)
    whole = hidden_weight_ranks(s, w)
    monkeypatch.setattr(hidden, "BLOCK", 64)
    blocked = hidden_weight_ranks(s, w)
    for key in whole:
        assert np.array_equal(whole[key], blocked[key]), key


def test_draw_ranks_equal_rank_rows():
    rng = np.random.default_rng(0)
    for _ in range(500):
        b, n = rng.integers(1, 30), rng.integers(1, 9)
        v = rng.integers(0, 3, (b, n)) + rng.choice([0, 1e-13, 5e-13, 3e-12], (b, n))
        v[rng.random((b, n)) < 0.05] = np.nan
        assert np.array_equal(draw_ranks(v.T).T, rank_rows(v))


def test_two_theme_regions_by_hand():
    # A (0.55, 2), B (1.5, 0): with w = (λ, 1 − λ), A ≥ B iff 2 − 1.45λ ≥ 1.5λ iff λ ≤ 40/59
    r = winner_regions(np.array([[0.55, 2.0], [1.5, 0.0]]), ["A", "B"])
    assert [x["submission"] for x in r] == ["A", "B"]
    assert r[0]["share"] == pytest.approx(40 / 59) and r[1]["share"] == pytest.approx(19 / 59)
    assert np.allclose(r[0]["vertices"], [[40 / 59, 19 / 59], [0, 1]])
    assert np.allclose(r[1]["vertices"], [[1, 0], [40 / 59, 19 / 59]])


def test_three_theme_regions_by_hand():
    # each team is strong in one theme: it wins where its theme weighs most, a third each
    s = np.eye(3)
    r = winner_regions(np.vstack([s, [[0.2, 0.2, 0.2]]]), ["A", "B", "C", "D"])
    assert [x["share"] for x in r] == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0.0])
    corners = {tuple(np.round(v, 12)) for v in r[0]["vertices"]}
    third = round(1 / 3, 12)
    assert corners == {(1.0, 0.0, 0.0), (0.5, 0.5, 0.0), (third, third, third), (0.5, 0.0, 0.5)}
    assert r[3]["vertices"] == []  # D never ranks first
    # a dominant team takes the whole simplex
    r = winner_regions(np.array([[1.0, 1.0, 1.0], [0.5, 0.9, 0.2]]), ["A", "B"])
    assert [x["share"] for x in r] == pytest.approx([1.0, 0.0])


def test_region_shares_are_what_p_first_estimates():
    rng = np.random.default_rng(12)
    s = rng.random((5, 3))
    shares = np.array([x["share"] for x in winner_regions(s, list("abcde"))])
    assert shares.sum() == pytest.approx(1.0)
    k = 200_000
    p = hidden_weight_ranks(s, weight_draws(3, k, seed=0))["p_first"]
    assert np.all(np.abs(p - shares) <= 4 * np.sqrt(shares * (1 - shares) / k) + 1e-9)
    # and every region's vertices win there
    for i, x in enumerate(winner_regions(s, list("abcde"))):
        if x["vertices"]:
            centre = np.mean(x["vertices"], axis=0)
            assert winner_at(s, centre[None, :])[0, i]


def test_regions_need_two_or_three_themes():
    with pytest.raises(ValueError, match="expected 2 or 3 themes"):
        winner_regions(np.ones((2, 4)), ["a", "b"])


def test_region_slice_keeps_the_other_themes_weights():
    # three themes; the map varies x and y and keeps z at its given weight. Per theme the metric is
    # accuracy + F1: A (2, 0, 0), B (0, 2, 2). With λ the share of x in the slice:
    from scoring.qa import Scorer, load_competition
    gt = ("question_id,theme,paragraph_ids,answers\n"
          'q1,x,"[""p""]","[""a""]"\nq2,y,"[""p""]","[""a""]"\nq3,z,"[""p""]","[""a""]"\n')
    a = "question_id,paragraph_id,answer,inference_ms\nq1,p,a,1\nq2,,,1\nq3,,,1\n"
    b = "question_id,paragraph_id,answer,inference_ms\nq1,,,1\nq2,p,a,1\nq3,p,a,1\n"
    scorer = Scorer(load_competition(ground_truth=gt.encode(), submissions={"A": a.encode(), "B": b.encode()}))
    # weights x 0.3, y 0.1, z 0.6: m = 0.4; A = 0.4·2λ = 0.8λ, B = 0.4·2(1 − λ) + 0.6·2 = 2 − 0.8λ: B everywhere
    out = scorer.winner_regions(themes=["x", "y"], weights={"x": 0.3, "y": 0.1, "z": 0.6})
    assert out["themes"] == ["x", "y"] and out["current"] == pytest.approx([0.75, 0.25])
    assert [r["share"] for r in out["regions"]] == pytest.approx([0.0, 1.0])
    # x 0.4, y 0.4, z 0.1: m = 0.8; A = 1.6λ, B = 1.6(1 − λ) + 0.2: A first for λ >= 9/16, a share of 7/16
    out = scorer.winner_regions(themes=["x", "y"], weights={"x": 0.4, "y": 0.4, "z": 0.1})
    assert [r["share"] for r in out["regions"]] == pytest.approx([7 / 16, 9 / 16])
    # all three themes: A = 2x, B = 2(y + z) = 2(1 − x): A first where x >= 1/2, a quarter of the triangle
    full = scorer.winner_regions()
    assert [r["share"] for r in full["regions"]] == pytest.approx([0.25, 0.75])
    with pytest.raises(Exception, match="expected 2 or 3 distinct themes"):
        scorer.winner_regions(themes=["x", "w"])
