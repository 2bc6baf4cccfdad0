"""The social-choice rules and HELM's win rate on hand-worked profiles, and Kemeny–Young
against brute force. A profile is a team × item table (an item votes by its scores)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from scoring.custom import load_competition, rules
from scoring.custom.params import KEMENY_EXACT_MAX
from scoring.custom.scorer import Scorer

# 3 items vote A > B > C and 2 vote B > C > A (scores 3, 2, 1 in the voter's order)
CONDORCET = np.array([[3, 3, 3, 1, 1],   # A
                      [2, 2, 2, 3, 3],   # B
                      [1, 1, 1, 2, 2]], dtype=float)  # C
# a Condorcet cycle: A > B > C, B > C > A, C > A > B
CYCLE = np.array([[3, 1, 2], [2, 3, 1], [1, 2, 3]], dtype=float)
ONES5 = np.ones(5)


def test_condorcet_winner_by_hand():
    # pairwise: A beats B on 3 items, C on 3; B beats A on 2, C on 5; C beats A on 2
    p = rules.pairwise(CONDORCET, ONES5)
    assert p.tolist() == [[0, 3, 3], [2, 0, 5], [2, 0, 0]]
    # Copeland: A wins both majorities (2), B one (1), C none
    assert rules.copeland(p).tolist() == [2.0, 1.0, 0.0]
    # Borda (teams beaten per item): A 3·2 + 2·0 = 6, B 3·1 + 2·2 = 7, C 0 + 2·1 = 2 — Borda
    # elects B although A is the Condorcet winner
    assert rules.borda(CONDORCET, ONES5).tolist() == [6.0, 7.0, 2.0]
    # mean win rate: A (1+1+1+0+0)/5, B (½+½+½+1+1)/5, C (0+0+0+½+½)/5
    assert rules.weighted_mean(rules.win_rates(CONDORCET), ONES5).tolist() == pytest.approx([0.6, 0.7, 0.2])
    # Kemeny: A>B>C agrees on 3 + 3 + 5 = 11 pairs, the best of the six orders (B>A>C: 10)
    order = rules.kemeny_exact(p)
    assert order.tolist() == [0, 1, 2] and rules.agreement(p, order) == 11


def test_condorcet_cycle_by_hand():
    p = rules.pairwise(CYCLE, np.ones(3))
    assert p.tolist() == [[0, 2, 1], [1, 0, 2], [2, 1, 0]]
    assert rules.copeland(p).tolist() == [1.0, 1.0, 1.0]  # each wins one majority, loses one
    assert rules.borda(CYCLE, np.ones(3)).tolist() == [3.0, 3.0, 3.0]
    # three orders tie at 2 + 1 + 2 = 5 (A>B>C, B>C>A, C>A>B); chosen from the bottom up: C, the
    # latest-listed team that ends an optimal order, goes last, then A > B above it
    order = rules.kemeny_exact(p)
    assert rules.agreement(p, order) == 5
    assert order.tolist() == [0, 1, 2]


def test_ties_count_half():
    x = np.array([[0.5, 0.9], [0.5, 0.1], [0.2, 0.1]])
    # item 1: A and B tie above C; item 2: A, then B and C tie
    assert rules.win_rates(x).tolist() == [[0.75, 1.0], [0.75, 0.25], [0.0, 0.25]]
    assert rules.borda(x, np.ones(2)).tolist() == [3.5, 2.0, 0.5]
    p = rules.pairwise(x, np.ones(2))
    assert p.tolist() == [[0, 1, 2], [0, 0, 1], [0, 0, 0]]
    # A beats both; B beats C (1–0); a 0–0 pair would be a tie worth ½
    assert rules.copeland(p).tolist() == [2.0, 1.0, 0.0]
    assert rules.copeland(np.zeros((2, 2))).tolist() == [0.5, 0.5]


def test_a_missing_team_is_compared_only_where_present():
    x = np.array([[0.9, np.nan], [0.5, 0.4], [0.1, 0.8]])
    # item 2 has B and C only: C beats B; A gets no win rate there
    wr = rules.win_rates(x)
    assert np.isnan(wr[0, 1]) and wr[:, 0].tolist() == [1.0, 0.5, 0.0] and wr[1:, 1].tolist() == [0.0, 1.0]
    assert rules.borda(x, np.ones(2)).tolist() == [2.0, 1.0, 1.0]
    assert rules.pairwise(x, np.ones(2)).tolist() == [[0, 1, 1], [0, 0, 1], [0, 1, 0]]


def _brute(p: np.ndarray) -> float:
    return max(rules.agreement(p, np.array(perm)) for perm in itertools.permutations(range(p.shape[0])))


@pytest.mark.parametrize("seed", range(60))
def test_kemeny_exact_equals_brute_force_on_random_profiles(seed):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(2, 7)), int(rng.integers(1, 8))
    x = rng.integers(0, 4, size=(n, k)).astype(float)  # few values: many ties
    x[rng.random((n, k)) < 0.15] = np.nan
    w = rng.integers(1, 3, size=k).astype(float)  # an item drawn twice counts twice
    p = rules.pairwise(x, w)
    order = rules.kemeny_exact(p)
    assert sorted(order.tolist()) == list(range(n))
    assert rules.agreement(p, order) == pytest.approx(_brute(p))
    # the local search never beats the optimum, and from the optimum it stays there
    local = rules.kemeny_local(p, np.arange(n))
    assert rules.agreement(p, local) <= rules.agreement(p, order) + 1e-9
    assert rules.agreement(p, rules.kemeny_local(p, order)) == pytest.approx(rules.agreement(p, order))


def _table(n_teams: int, n_units: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    return {"team": [f"t{i:02d}" for i in range(n_teams) for _ in range(n_units)],
            "unit": [f"u{j}" for _ in range(n_teams) for j in range(n_units)],
            "value": [f"{v:.3f}" for v in rng.random(n_teams * n_units)]}


def test_kemeny_is_exact_up_to_the_limit_and_labelled_beyond():
    import pandas as pd
    for n, word in ((KEMENY_EXACT_MAX, "exact"), (KEMENY_EXACT_MAX + 1, "APPROXIMATION")):
        comp = load_competition(results=pd.DataFrame(_table(n, 4, n)))
        lb = Scorer(comp).leaderboard(across="kemeny")
        note = next(x for x in lb.attrs["notes"] if x.startswith("across"))
        assert word in note
        # the score is the number of teams placed below: a permutation of 0 … n−1
        assert sorted(lb["aggregate"].tolist()) == list(range(n))
