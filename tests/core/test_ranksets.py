"""Paired max-t comparisons, confidence sets for ranks, who could have won, and letters.

The coverage of the sets against a known population truth is measured by the slow
simulation suite (tests/simulation); here: the construction, by hand and by its properties.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from scoring.core.pairwise import marginal, paired, simultaneous
from scoring.core.ranksets import letters, rank_sets


def _same(a, b) -> bool:
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in
               ("rank_low", "rank_high", "rank_low_all", "rank_high_all", "letters", "confidence"))


# ---- the max-t critical value, by hand --------------------------------------------------------
def test_two_teams_marginal_is_the_studentised_difference_against_the_quantile_of_its_absolute_value():
    rng = np.random.default_rng(1)
    b = 400
    full = np.array([0.60, 0.64])
    common = rng.normal(0, 0.05, b)  # a large shared noise: the pair moves together
    reps = full + common[:, None] + rng.normal(0, 0.01, (b, 2))
    # by hand: d = 0.04, se = sd over the replicates of (rep_1 - rep_0), t* = (d* - d) / se; with two
    # teams, team 0's family is {"1 is not better", "1 is not worse"}: the max-t is |t*|
    d = reps[:, 1] - reps[:, 0]
    se = d.std(ddof=1)
    tstar = np.abs(d - 0.04) / se
    c = np.sort(tstar)[int(np.ceil(0.95 * b)) - 1]  # the 95 % order statistic
    p = paired(full, reps)
    assert p.diff[0, 1] == pytest.approx(0.04) and p.se[0, 1] == pytest.approx(se)
    better, worse = marginal(p, 0.95)
    assert better[0, 1] == (0.04 / se > c) and worse[1, 0] == (0.04 / se > c)
    assert 0.04 / se > c  # the pairing makes 0.04 clear (se ≈ 0.014) ...
    lo0, hi0 = np.percentile(reps[:, 0], [2.5, 97.5])
    lo1, hi1 = np.percentile(reps[:, 1], [2.5, 97.5])
    assert lo1 < hi0  # ... although the two marginal intervals overlap widely
    rs = rank_sets(full, reps)
    assert (rs.rank_low.tolist(), rs.rank_high.tolist()) == ([2, 1], [2, 1])
    assert rs.letters == ["b", "a"] and rs.top(1).tolist() == [1]


def test_step_down_rejects_what_one_step_would_not():
    # team 0 far ahead of 1 and 2; 2 behind 1 by a t between the critical value over all six
    # ordered pairs and the one over the four left once "0 is not better" has fallen twice
    rng = np.random.default_rng(3)
    b = 2000
    z = rng.normal(size=(b, 3))
    se = (z[:, 1] - z[:, 2]).std(ddof=1)
    tstar = {(j, k): (z[:, k] - z[:, j]) / (z[:, k] - z[:, j]).std(ddof=1) for j in range(3) for k in range(3) if j != k}
    q = int(np.ceil(0.95 * b)) - 1
    c1 = np.sort(np.max(list(tstar.values()), axis=0))[q]
    c2 = np.sort(np.max([tstar[0, 1], tstar[0, 2], tstar[1, 2], tstar[2, 1]], axis=0))[q]
    assert c2 < c1
    full = np.array([30.0, 0.0, -(c1 + c2) / 2 * se])
    p = paired(full, full + z)
    assert c2 < p.t[2, 1] < c1  # one step would not separate 1 and 2 ...
    better = simultaneous(p, 0.95)
    assert better[2, 1] and better[1, 0] and better[2, 0]  # ... the step-down does
    assert not better[1, 2] and not better[0, 1] and not better[0, 2]


def test_copies_have_zero_standard_error_and_are_never_separated():
    rng = np.random.default_rng(0)
    reps = rng.normal(0.5, 0.01, (300, 3))
    reps[:, 2] = reps[:, 0]
    reps[:, 1] -= 0.2
    full = np.array([0.5, 0.3, 0.5])
    p = paired(full, reps)
    assert p.se[0, 2] == 0 and p.t[0, 2] == 0
    rs = rank_sets(full, reps)
    for col in ("rank_low", "rank_high", "rank_low_all", "rank_high_all"):
        assert getattr(rs, col)[0] == getattr(rs, col)[2]
    assert rs.letters[0] == rs.letters[2] and rs.letters[0] != rs.letters[1]
    # a difference that is the same in every replicate and not zero is certain
    reps2 = np.column_stack([reps[:, 0], reps[:, 0] - 0.1])
    p2 = paired([0.5, 0.4], reps2)
    assert p2.se[0, 1] == 0 and p2.t[1, 0] == np.inf
    assert rank_sets([0.5, 0.4], reps2).rank_high.tolist() == [1, 2]


def test_lower_is_better_is_the_mirror_and_nan_is_compared_with_no_one():
    rng = np.random.default_rng(5)
    full = np.array([0.1, 0.5, 0.52, 0.9])
    reps = full + rng.normal(0, 0.02, (500, 4))
    hi = rank_sets(full, reps)
    lo = rank_sets(-full, -reps, higher_is_better=False)
    assert _same(hi, lo)
    assert (hi.rank_low.tolist(), hi.rank_high.tolist()) == ([4, 2, 2, 1], [4, 3, 3, 1])
    reps[7, 1] = np.nan
    rs = rank_sets(full, reps)
    assert (rs.rank_low[1], rs.rank_high[1]) == (1, 4)  # no comparison of a team with a NaN replicate
    assert (rs.rank_low[0], rs.rank_high[0]) == (3, 4)  # the others still compare with each other


def test_blocks_do_not_change_the_answer():
    rng = np.random.default_rng(11)
    full = np.sort(rng.normal(0, 1, 30))
    reps = full + rng.normal(0, 0.4, (200, 30))
    big = rank_sets(full, reps)
    small = rank_sets(full, reps, block=200 * 30 * 2)  # two rows a block
    assert _same(big, small)


def test_sets_are_nested_contain_the_point_rank_and_winners():
    rng = np.random.default_rng(2)
    for _ in range(20):
        k = int(rng.integers(2, 12))
        full = rng.normal(0, 1, k).round(1)  # rounding makes exact ties
        reps = full + rng.normal(0, rng.uniform(0.05, 1), (300, k))
        rs = rank_sets(full, reps, confidence=float(rng.choice([0.8, 0.95])))
        r = 1 + (full[None, :] > full[:, None]).sum(axis=1)
        assert (rs.rank_low_all <= rs.rank_low).all() and (rs.rank_low <= r).all()
        assert (r <= rs.rank_high).all() and (rs.rank_high <= rs.rank_high_all).all()
        assert set(np.flatnonzero(r == 1)) <= set(rs.top(1).tolist())
        for j in range(1, k):
            assert set(rs.top(j)) <= set(rs.top(j + 1))


# ---- letters -----------------------------------------------------------------------------------
def _check_display(d: np.ndarray, lets: list[str]) -> None:
    sets = [set(x.split(" ")) if " " in x else set(x) for x in lets]
    for i, j in itertools.combinations(range(len(d)), 2):
        assert bool(sets[i] & sets[j]) == (not d[i, j]), (i, j, lets)


@pytest.mark.parametrize("seed", range(30))
def test_letters_share_one_exactly_when_not_distinct(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 14))
    if seed % 2:  # ordered teams with a reach (the usual shape)
        x = np.sort(rng.normal(0, 1, k))
        d = np.abs(x[:, None] - x[None, :]) > rng.uniform(0.2, 1.5)
    else:  # any symmetric relation
        d = rng.uniform(size=(k, k)) < 0.4
        d = np.triu(d, 1)
        d = d | d.T
    lets = letters(d)
    _check_display(d, lets)
    # twins (equal rows) get equal letters
    for i, j in itertools.combinations(range(k), 2):
        if np.array_equal(d[i], d[j]):
            assert lets[i] == lets[j]


def test_letters_by_hand_and_in_the_order_of_the_best_team():
    # A > C, A > D, B > D; B ~ C, C ~ D: letters a (A, B), b (B, C), c (C, D)
    d = np.zeros((4, 4), dtype=bool)
    for i, j in [(0, 2), (0, 3), (1, 3)]:
        d[i, j] = d[j, i] = True
    assert letters(d) == ["a", "ab", "bc", "c"]
    assert letters(d, order=[3, 2, 1, 0]) == ["c", "bc", "ab", "a"]
    # sixty distinct teams: past z and Z the letters read a2, b2, …, separated by spaces
    many = letters(~np.eye(60, dtype=bool))
    assert many[:2] == ["a", "b"] and many[51] == "Z" and many[52] == "a2" and len(set(many)) == 60


def test_a_team_five_standard_errors_ahead_of_every_other_gets_first_place_only():
    rng = np.random.default_rng(8)
    k, b = 20, 1000
    noise = rng.normal(0, 1, (b, k))
    full = np.concatenate([[0.0], -np.sort(rng.uniform(0.0, 3.0, k - 1))])
    se = (noise[:, 1:] - noise[:, :1]).std(axis=0, ddof=1)  # of each difference with team 0
    full[0] = (full[1:] + 5 * se).max()  # 5 standard errors above every other team, and no more
    p = paired(full, full + noise)
    assert p.t[1:, 0].min() == pytest.approx(5.0)
    rs = rank_sets(full, full + noise)
    assert (rs.rank_low[0], rs.rank_high[0], rs.rank_low_all[0], rs.rank_high_all[0]) == (1, 1, 1, 1)
    assert rs.top(1).tolist() == [0] and not set(rs.letters[0]) & set("".join(rs.letters[1:]))


def test_progress_counts_the_blocks_of_a_big_field():
    rng = np.random.default_rng(0)
    full = np.sort(rng.normal(0, 1, 60))
    reps = full + rng.normal(0, 0.05, (50, 60))
    calls: list = []
    quiet = rank_sets(full, reps)
    chunked = rank_sets(full, reps, block=50 * 240, progress=lambda d, t, n: calls.append((d, t, n)))
    marg = [c for c in calls if c[2] == "marginal"]
    assert marg[-1] == (60, 60, "marginal") and all(d <= t for d, t, _ in calls)  # one row a block
    assert _same(quiet, chunked)


def test_the_marginal_shortcut_equals_the_general_step_down():
    """``marginal`` skips the statistics ≤ 0 after the first step; the general way sorts all."""
    from scoring.core.pairwise import _marginal_sorted

    rng = np.random.default_rng(0)
    for it in range(120):
        k, b = int(rng.integers(2, 25)), int(rng.integers(20, 300))
        full = rng.normal(0, 1, k).round(1)
        reps = full + rng.normal(0, rng.uniform(0.05, 1), (b, k)) + rng.normal(0, 0.3, (b, 1))
        if it % 3 == 0:
            reps[:, -1], full[-1] = reps[:, 0], full[0]
        p = paired(full, reps)
        conf = float(rng.choice([0.5, 0.8, 0.95]))
        fast, general = marginal(p, conf), _marginal_sorted(p, p.t, slice(0, k), conf)
        assert np.array_equal(fast[0], general[0]) and np.array_equal(fast[1], general[1]), it


def test_letters_past_the_limit_are_left_empty():
    # a noisy boundary: "within reach" decided by a random threshold per pair -> letters multiply
    rng = np.random.default_rng(1)
    x = np.sort(rng.normal(0, 1, 300))
    reach = rng.uniform(0.3, 0.5, (300, 300))
    reach = np.triu(reach, 1) + np.triu(reach, 1).T
    d = np.abs(x[:, None] - x[None, :]) > reach
    np.fill_diagonal(d, False)
    assert letters(d, limit=900) is None
    full = letters(d)
    assert len(set(" ".join(full).split())) > 900  # the limit was real
    # a rank-set table with too many letters keeps its sets and leaves the letters empty
    from scoring.core.ranksets import max_letters

    assert max_letters(300) == 900


# ---- close calls: pairs that share a letter although 2 or more paired SEs apart -------------------
def test_close_calls_are_the_pairs_sharing_a_letter_two_or_more_paired_standard_errors_apart():
    rng = np.random.default_rng(3)
    b, sd = 1000, 0.01
    # teams 0, 1, 2 close together (1 is 2.5 paired SEs above 0, 2 is 1 SE above 0); seven more 0.1 apart
    gap = sd * np.sqrt(2)  # the SE of a difference of two independent teams
    full = np.array([0.50, 0.50 + 2.5 * gap, 0.50 + gap] + [0.70 + 0.1 * i for i in range(7)])
    reps = full + rng.normal(0, sd, (b, len(full)))
    rs = rank_sets(full, reps, confidence=0.95)
    # by hand: the paired SE of teams 1 and 0 from the replicates, and the studentised difference
    se_10 = (reps[:, 1] - reps[:, 0]).std(ddof=1)
    t_10 = (full[1] - full[0]) / se_10
    t_20 = (full[2] - full[0]) / (reps[:, 2] - reps[:, 0]).std(ddof=1)
    assert 2.2 < t_10 < 2.8 and t_20 < 2  # (the draw is what the construction says)
    assert set(rs.letters[0]) & set(rs.letters[1])  # 2.5 SEs: not established among 45 pairs (max-t ≈ 3.2)
    assert rs.close.tolist() == [[1, 0]]  # the better one first; (2, 0) and (1, 2) are under 2 SEs
    assert rs.close_t[0] == pytest.approx(t_10)


def test_close_calls_by_hand_on_a_matrix_of_studentised_differences():
    from scoring.core.ranksets import close_calls

    # t[j, k]: k ahead of j by t SEs; a pair counts once, from the better team's side, largest t first
    t = np.array([[0.0, 2.0, 3.0, np.inf], [-2.0, 0.0, 1.9, 0.0], [-3.0, -1.9, 0.0, 0.0], [-np.inf, 0.0, 0.0, 0.0]])
    together = np.ones((4, 4), dtype=bool)
    together[0, 2] = together[2, 0] = False  # 2 is established better than 0: not sharing a letter
    pairs, tt = close_calls(t, together)
    assert pairs.tolist() == [[1, 0]] and tt.tolist() == [2.0]  # 2.0 counts (>=); 1.9 does not; inf never
    assert close_calls(t, together, t_min=1.5)[0].tolist() == [[1, 0], [2, 1]]


def test_no_close_calls_where_the_letters_are_left_empty(monkeypatch):
    # the same field as above, but a display that may use no letter: no pair "shares a letter",
    # so none is a close call (a warning would name letters the table does not show)
    import scoring.core.ranksets as rsm

    rng = np.random.default_rng(3)
    gap = 0.01 * np.sqrt(2)
    full = np.array([0.50, 0.50 + 2.5 * gap, 0.50 + gap] + [0.70 + 0.1 * i for i in range(7)])
    reps = full + rng.normal(0, 0.01, (1000, len(full)))
    assert rsm.rank_sets(full, reps).close.tolist() == [[1, 0]]
    monkeypatch.setattr(rsm, "max_letters", lambda k: 0)
    rs = rsm.rank_sets(full, reps)
    assert rs.letters == [""] * len(full)
    assert rs.close.shape == (0, 2) and rs.close_t.shape == (0,)
