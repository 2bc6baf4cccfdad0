"""The shake-up simulator: splits, both boards, the field's numbers, advice and selection —
with answers worked out by hand in the comments."""

from __future__ import annotations

import io
import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest, kendalltau

import scoring
from scoring.core.errors import InputError
from scoring.core.family import UnitStats
from scoring.core.shakeup import (
    binomial_interval,
    boards,
    check_shakeup,
    every_split,
    kendall_tau_rows,
    n_splits,
    part_sizes,
    shakeup,
    split_masks,
)
from scoring.core.shakeup_selection import read_teams, selection, selection_sentence, teams_by_separator
from scoring.core.shakeup_sweep import advise, entry_steps, nested_shakeups, sweep
from tests.shovel_ready.tiny import TINY_ALPHA, TINY_BETA, TINY_DEMO, TINY_GT, TINY_RUNTIMES


def mean_stats(values, cell=None, names=None) -> UnitStats:
    """A family whose score is each team's mean over the units of the part (one statistic per
    unit and team; ``shared`` counts the units)."""
    v = np.asarray(values, dtype=float).T  # units × teams
    u, t = v.shape

    def score(team_sums, shared_sums):
        tot = team_sums.sum(axis=-3)[..., 0]
        return {"score": tot / shared_sums.sum(axis=-2)[..., :1]}

    cell = np.zeros(u, dtype=np.int64) if cell is None else np.asarray(cell)
    return UnitStats(units=[f"u{i}" for i in range(u)], cell=cell, n_cells=int(cell.max()) + 1, team=v[:, :, None],
                     shared=np.ones((u, 1)), score=score, final="score",
                     names=names or [chr(65 + i) for i in range(t)])


# ---- the hand-worked example: 4 units, 2 teams, half public ---------------------------------------
# A scores 0.9, 0.7, 0.4, 0.2 on the units; B 0.5 on each; a board is the mean over its units.
# f = 0.5: 2 units public, C(4, 2) = 6 splits, each 1/6:
#   public  A pub  A priv   public leader  private winner
#   {1,2}   0.80   0.30     A              B     flip
#   {1,3}   0.65   0.45     A              B     flip
#   {1,4}   0.55   0.55     A              A     holds
#   {2,3}   0.55   0.55     A              A     holds
#   {2,4}   0.45   0.65     B              A     flip
#   {3,4}   0.30   0.80     B              A     flip
# P(winner holds) = 2/6; τ (two teams) = +1 when it holds, -1 otherwise: mean -1/3.
# A's public rank is 1 in 4 splits, its private rank 1 in 4; P(same rank) = 2/6, E|move| = 4/6.
# Joint of A: (1, 1) 2/6 [{1,4},{2,3}], (1, 2) 2/6 [{1,2},{1,3}], (2, 1) 2/6 [{2,4},{3,4}], (2, 2) 0.
HAND = [[0.9, 0.7, 0.4, 0.2], [0.5, 0.5, 0.5, 0.5]]


def test_hand_worked_four_units_two_teams_exact():
    us = mean_stats(HAND)
    assert n_splits(us.cell, 0.5) == 6
    sh = shakeup(us, 0.5, 1000)
    assert sh.exact and sh.splits == 6
    assert sh.p_winner() == pytest.approx(2 / 6, abs=1e-15)
    assert sorted(sh.tau().tolist()) == [-1.0] * 4 + [1.0] * 2
    assert sh.p_top(1) == pytest.approx(2 / 6, abs=1e-15)
    t = sh.team_table().set_index("submission")
    assert t.loc["A", "p_same_rank"] == pytest.approx(2 / 6) and t.loc["B", "p_same_rank"] == pytest.approx(2 / 6)
    assert t.loc["A", "mean_move"] == pytest.approx(4 / 6) and t.loc["A", "p_public_first"] == pytest.approx(4 / 6)
    assert t.loc["A", "p_private_first"] == pytest.approx(4 / 6)
    assert np.allclose(sh.joint(0), [[2 / 6, 2 / 6], [2 / 6, 0]])
    assert np.allclose(sh.joint(1), [[0, 2 / 6], [2 / 6, 2 / 6]])  # B is A's mirror
    assert np.allclose(sh.rank_shares("public"), [[4 / 6, 2 / 6], [2 / 6, 4 / 6]])
    assert np.allclose(sh.rank_shares("private"), [[4 / 6, 2 / 6], [2 / 6, 4 / 6]])
    # the boards themselves: split {1,2} public -> A 0.8 / 0.3
    row = next(i for i, m in enumerate(every_split(us.cell, 0.5)) if m.tolist() == [True, True, False, False])
    assert sh.public_score[row].tolist() == pytest.approx([0.8, 0.5]) and sh.private_score[row][0] == pytest.approx(0.3)
    assert "50% public split" in sh.sentence() and "33% of the time" in sh.sentence() and "all 6 possible" in sh.sentence()


def test_hand_worked_example_by_random_draws_agrees_within_its_interval():
    sh = shakeup(mean_stats(HAND), 0.5, 4000, seed=5, exhaustive=False)
    assert not sh.exact and sh.splits == 4000
    lo, hi = binomial_interval(sh.winner_holds().sum(), sh.splits, 0.999)
    assert lo <= 2 / 6 <= hi


# ---- symmetry, a runaway leader, stratification, seeds --------------------------------------------
def test_identical_teams_shake_up_identically():
    rng = np.random.default_rng(0)
    a, c = rng.random(120), rng.random(120)
    us = mean_stats([a, a, c], cell=np.repeat([0, 1, 2], 40))
    sh = shakeup(us, 0.3, 300, seed=1)
    assert np.array_equal(sh.public_rank[:, 0], sh.public_rank[:, 1])
    assert np.array_equal(sh.private_rank[:, 0], sh.private_rank[:, 1])
    t = sh.team_table().set_index("submission")
    assert t.loc["A"].tolist() == t.loc["B"].tolist()


def test_mirrored_teams_shake_up_symmetrically():
    # B's unit results are A's with units swapped in pairs (an involution of the units): every
    # split of A against B is another equally likely split of B against A, so their rank
    # distributions are equal exactly: 6 units, 3 public -> all 20 splits enumerated
    a = np.array([0.9, 0.1, 0.6, 0.3, 0.8, 0.2])
    b = a[[1, 0, 3, 2, 5, 4]]
    sh = shakeup(mean_stats([a, b]), 0.5, 100)
    assert sh.exact and sh.splits == 20
    assert np.allclose(sh.joint(0), sh.joint(1))
    t = sh.team_table().set_index("submission")
    cols = ["p_same_rank", "mean_move", "p_public_first", "p_private_first"]
    assert np.allclose(t.loc["A", cols].to_numpy(float), t.loc["B", cols].to_numpy(float))


def test_a_team_far_ahead_keeps_rank_one_in_every_split():
    rng = np.random.default_rng(2)
    vals = [0.95 + 0.05 * rng.random(200)] + [0.5 * rng.random(200) for _ in range(4)]
    us = mean_stats(vals, cell=np.repeat([0, 1], 100))
    for f in (0.05, 0.5, 0.95):
        sh = shakeup(us, f, 200, seed=3)
        assert (sh.public_rank[:, 0] == 1).all() and (sh.private_rank[:, 0] == 1).all()
        assert sh.p_winner() == 1.0 and sh.p_top(1) == 1.0


def test_stratification_keeps_every_cell_in_both_parts():
    cell = np.repeat([0, 1, 2, 3], [50, 7, 2, 1])
    # by hand, round(f · n_g) within [1, n_g − 1]; the one-unit cell is public with probability f:
    # f = 0.05: 2.5 -> 3, 0.35 -> 0 -> 1, 0.1 -> 0 -> 1;  f = 0.95: 47.5 -> 48, 6.65 -> 7 -> 6, 1.9 -> 2 -> 1
    for f, want in ((0.05, [3, 1, 1]), (0.3, [15, 2, 1]), (0.95, [48, 6, 1])):
        assert part_sizes(cell, f)[1].tolist() == want + [-1]
        pub, test = split_masks(cell, f, 400, seed=4)
        assert test is None
        for g, k in enumerate(want):
            assert (pub[:, cell == g].sum(axis=1) == k).all(), (f, g)
        share = pub[:, cell == 3].mean()
        assert abs(share - f) < 4 * np.sqrt(f * (1 - f) / 400) + 1e-9


def test_one_cell_only_is_a_plain_random_subset():
    # every unit in one cell: each split is exactly round(f · n) units, every unit equally likely
    cell = np.zeros(40, dtype=np.int64)
    pub, _ = split_masks(cell, 0.25, 2000, seed=0)
    assert (pub.sum(axis=1) == 10).all()
    assert np.abs(pub.mean(axis=0) - 0.25).max() < 4 * np.sqrt(0.25 * 0.75 / 2000)


def test_subsampled_test_set_and_its_public_part_are_nested_per_cell():
    cell = np.repeat([0, 1], [40, 20])
    pub, test = split_masks(cell, 0.5, 50, seed=1, size=0.5)
    assert (test[:, :40].sum(axis=1) == 20).all() and (test[:, 40:].sum(axis=1) == 10).all()
    assert (pub[:, :40].sum(axis=1) == 10).all() and (pub[:, 40:].sum(axis=1) == 5).all()
    assert not (pub & ~test).any()


def test_a_seed_repeats_and_fractions_of_one_seed_are_nested():
    cell = np.repeat([0, 1, 2], [30, 20, 10])
    a, _ = split_masks(cell, 0.3, 100, seed=9)
    assert np.array_equal(a, split_masks(cell, 0.3, 100, seed=9)[0])
    assert not np.array_equal(a, split_masks(cell, 0.3, 100, seed=10)[0])
    small, large = split_masks(cell, 0.1, 100, seed=9)[0], split_masks(cell, 0.6, 100, seed=9)[0]
    assert not (small & ~large).any()
    rng = np.random.default_rng(1)
    us = mean_stats([rng.random(60) for _ in range(5)], cell=cell)
    s1, s2 = shakeup(us, 0.3, 100, seed=9), shakeup(us, 0.3, 100, seed=9)
    assert np.array_equal(s1.public_rank, s2.public_rank) and s1.summary() == s2.summary()


def test_bad_settings_are_named():
    with pytest.raises(InputError, match=r"fraction: expected a number in \[0.05, 0.95\]"):
        check_shakeup(0.01, 100, 0)
    with pytest.raises(InputError, match="splits"):
        check_shakeup(0.3, 0, 0)
    with pytest.raises(InputError, match="seed"):
        check_shakeup(0.3, 10, -1)
    assert check_shakeup("0.3", "200", "4") == (0.3, 200, 4)


# ---- Kendall's τ-b equals scipy's -----------------------------------------------------------------
def test_vectorised_tau_b_equals_scipy_with_ties():
    rng = np.random.default_rng(7)
    a, b = rng.integers(1, 5, size=(200, 7)), rng.integers(1, 5, size=(200, 7))
    a[0], b[1] = 3, 2  # a constant row: NaN, as scipy
    ours = kendall_tau_rows(a, b)
    theirs = np.array([kendalltau(x, y).statistic for x, y in zip(a, b, strict=True)])
    assert np.isnan(ours[0]) and np.isnan(theirs[0]) and np.isnan(ours[1])
    assert np.allclose(ours, theirs, equal_nan=True, atol=1e-12)


def test_clopper_pearson_equals_scipy_binomtest():
    for k, n in ((0, 20), (7, 10), (199, 200), (200, 200)):
        ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
        assert binomial_interval(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12)


# ---- both boards are the family's scores on each part ---------------------------------------------
def _subset(comp_essays: list[str], keep: set[str], subs: dict[str, str]):
    def only(text: str) -> bytes:
        df = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
        return df[df["id"].isin(keep)].to_csv(index=False).encode()
    return scoring.load_competition(ground_truth=only(TINY_GT), submissions={k: only(v) for k, v in subs.items()},
                                    demographics=only(TINY_DEMO), runtimes=TINY_RUNTIMES.encode())


def test_shovel_ready_boards_equal_the_leaderboards_of_each_part_with_the_boost_recomputed():
    # two essays, f = 0.5: the two splits (one essay public, the other private) are enumerated; each
    # board must be the leaderboard of a competition holding only that essay — the efficiency boost
    # there is relative to that board's best score (band 0.5, so both teams may be eligible)
    subs = {"Alpha": TINY_ALPHA, "Beta": TINY_BETA}
    comp = scoring.load_competition(ground_truth=TINY_GT.encode(), submissions={k: v.encode() for k, v in subs.items()},
                                    demographics=TINY_DEMO.encode(), runtimes=TINY_RUNTIMES.encode())
    params = dict(attributes=(), alpha=5.0, band=0.5, max_boost=0.1)
    us = scoring.Scorer(comp).unit_stats(**params)
    sh = shakeup(us, 0.5, 10)
    assert sh.exact and sh.splits == 2
    essays = list(comp.essays)
    boosts = []
    for i, mask in enumerate(every_split(us.cell, 0.5)):
        for part, score, ranks in ((mask, sh.public_score, sh.public_rank), (~mask, sh.private_score, sh.private_rank)):
            lb = scoring.Scorer(_subset(essays, {e for e, m in zip(essays, part, strict=True) if m}, subs)
                                ).leaderboard(**params).set_index("submission")
            assert score[i] == pytest.approx(lb.loc[sh.names, "final_score"].to_numpy(), abs=1e-12)
            assert ranks[i].tolist() == lb.loc[sh.names, "rank"].tolist()
            boosts.append(lb["boost"].to_numpy())
    assert any((b > 0).any() for b in boosts)  # the boost is in play on some board


def test_qa_time_penalty_is_recomputed_on_each_part():
    from lab.data.store import folder_sources
    from scoring.qa.scorer import theme_scores
    fam = scoring.get("qa")
    comp = fam.load(**folder_sources(fam, fam.sample_dir))
    sc = fam.scorer(comp)
    p = sc.check(**fam.params.validate(context=fam.context(comp)))
    us = sc.unit_stats(**p)
    pub, _ = split_masks(us.cell, 0.3, 3, seed=2)
    ps, qs, _, _ = boards(us, pub)
    w = sc.weight_vector(p["weights"])
    penalised = 0
    for i, m in enumerate(pub):
        for part, got in ((m, ps[i]), (~m, qs[i])):
            # by hand from the raw per-question arrays: per theme the part's accuracy, mean F1 and mean
            # inference time, then the penalty T / AIT above the threshold
            cols = []
            for j in range(len(sc.themes)):
                q = part & (comp.theme == j)
                mult, sc_j = theme_scores(comp.correct[:, q].mean(axis=1), comp.f1[:, q].mean(axis=1),
                                          comp.ms[:, q].mean(axis=1), p["time_threshold"])
                penalised += int((mult < 1).sum())
                cols.append(sc_j)
            assert got == pytest.approx(np.stack(cols, axis=1) @ w, abs=1e-12)
    assert penalised > 0  # the penalty is in play on these parts


@pytest.mark.parametrize("family", ["shovel-ready", "spotgeo", "qa", "difficulty"])
def test_every_family_boards_equal_its_unit_stats_scores(family):
    from lab.data.store import folder_sources  # the sample's files as the app finds them (no Streamlit call)
    fam = scoring.get(family)
    comp = fam.load(**folder_sources(fam, fam.sample_dir))
    us = fam.scorer(comp).unit_stats(**fam.params.validate(context=fam.context(comp)))
    pub, _ = split_masks(us.cell, 0.3, 4, seed=0)
    ps, qs, pr, qr = boards(us, pub)
    want_pub = us.scores(pub.astype(float))
    want_priv = us.scores((~pub).astype(float))
    assert np.allclose(ps, want_pub[us.final], atol=1e-9) and np.allclose(qs, want_priv[us.final], atol=1e-9)
    assert np.array_equal(pr, us.final_ranks(want_pub)) and np.array_equal(qr, us.final_ranks(want_priv))


# ---- sweep and advice -------------------------------------------------------------------------------
def test_sweep_rows_and_exact_intervals():
    sw = sweep(mean_stats(HAND), fractions=(0.5,), splits=50)
    row = sw.iloc[0]
    assert row["exact"] and row["p_winner_holds"] == pytest.approx(1 / 3)
    assert row["p_winner_low"] == row["p_winner_high"] == pytest.approx(1 / 3)  # exact: no interval
    assert row["p_tau_at_least"] == pytest.approx(2 / 6)  # τ = 1 ≥ 0.8 in the 2 splits where the winner holds


def test_advice_finds_the_fraction_and_size_that_meet_the_target():
    rng = np.random.default_rng(4)
    # a leader 0.1 ahead of the next team with per-unit noise of 0.3: clear on 400 units, unclear on 20
    vals = [0.6 + 0.3 * rng.standard_normal(400)] + [0.5 + 0.3 * rng.standard_normal(400) for _ in range(3)]
    us = mean_stats(vals)
    grid, rec = advise(us, target="winner", p=0.9, fractions=(0.1, 0.5), sizes=(0.05, 1.0), splits=300, unit="essay")
    assert len(grid) == 4 and set(grid["units"]) == {20, 400}
    small = grid[grid["units"] == 20]
    assert (small["p"] < 0.9).all()  # 10 vs 10 units: the leader is far from sure
    assert rec["size"] == 1.0 and rec["units"] == 400 and 0.5 in rec["fractions"]
    assert "400 essays" in rec["sentence"]
    # an unreachable τ target says so and names the best found
    _, none = advise(us, target="tau", tau=1.0, p=0.99, fractions=(0.5,), sizes=(0.05,), splits=100)
    assert none["size"] is None and none["sentence"].startswith("No test size")
    with pytest.raises(InputError, match="target"):
        advise(us, target="podium")


# ---- selection by the public board ------------------------------------------------------------------
# Team "t" owns the two submissions of the hand-worked example (t_A = A, t_B = B). With N = 2 and
# keep = 1 it submits the better public one (ties: the first):
#   {1,2}: A .80 chosen, private .30 -> overstates by .50     {1,3}: A .65, private .45 -> .20
#   {1,4}: A .55, .55 -> 0     {2,3}: A .55, .55 -> 0     {2,4}: B .50 > .45, private .50 -> 0     {3,4}: B -> 0
# mean 0.7 / 6. Keeping both (keep = 2): public best minus the better private of the two:
#   .80-.50 = .30, .65-.50 = .15, .55-.55 = 0, 0, .50-.65 = -.15, .50-.80 = -.30 -> mean 0.
# N = 1 (each submission alone): A's gaps .5, .2, 0, 0, -.2, -.5 and B's 0 -> mean 0.
def test_selection_by_the_public_board_by_hand():
    sh = shakeup(mean_stats(HAND, names=["t_A", "t_B"]), 0.5, 100)
    teams = teams_by_separator(sh.names, "_")
    assert teams == ["t", "t"]
    one = selection(sh, teams).set_index("n_submissions")
    assert one.loc[2, "overstatement"] == pytest.approx(0.7 / 6) and one.loc[2, "teams"] == 1
    assert one.loc[1, "overstatement"] == pytest.approx(0.0, abs=1e-12) and one.loc[1, "teams"] == 1
    two = selection(sh, teams, keep=2).set_index("n_submissions")
    assert two.loc[2, "overstatement"] == pytest.approx(0.0, abs=1e-12)
    text = selection_sentence(selection(sh, teams), known=True)
    assert "among 2 submissions" in text and "0.1167" in text


def test_selection_without_membership_is_one_submission_per_team_and_says_so():
    # the public leader of the hand example: A in 4 splits (its public - private: .5, .2, 0, 0), B in 2 (0, 0)
    # -> the leader overstates by 0.7 / 6 on average
    sh = shakeup(mean_stats(HAND), 0.5, 100)
    t = selection(sh)
    assert t["n_submissions"].tolist() == [1] and t.iloc[0]["teams"] == 2
    assert t.iloc[0]["leader_overstatement"] == pytest.approx(0.7 / 6)
    assert "one submission per team" in selection_sentence(t, known=False)


def test_selection_on_a_lower_is_better_score_counts_overstatement_the_same_way():
    # the same example as a loss (1 − score): the chosen submission's public loss is lower than its private
    us = mean_stats(1 - np.array(HAND), names=["t_A", "t_B"])
    us.higher_is_better = False
    sh = shakeup(us, 0.5, 100)
    assert selection(sh, ["t", "t"]).set_index("n_submissions").loc[2, "overstatement"] == pytest.approx(0.7 / 6)


def test_team_csv_errors_name_the_row():
    names = ["a1", "a2", "b1"]
    assert read_teams(b"submission,team\na1,a\na2,a\nb1,b\n", names) == ["a", "a", "b"]
    with pytest.raises(InputError, match=r"teams.csv, row 3: submission 'zz' is not in the competition"):
        read_teams(b"submission,team\na1,a\nzz,a\nb1,b\n", names)
    with pytest.raises(InputError, match="no team for 1 submission"):
        read_teams(b"submission,team\na1,a\na2,a\n", names)
    with pytest.raises(InputError, match="row 3.*duplicate"):
        read_teams(b"submission,team\na1,a\na1,b\n", names)
    with pytest.raises(InputError, match="missing column 'team'"):
        read_teams(b"submission,group\na1,a\n", names)


def test_every_split_enumerates_each_cell_combination_once():
    cell = np.array([0, 0, 0, 1, 1])
    rows = every_split(cell, 0.5)  # cell 0: round(1.5) = 2 of 3; cell 1: 1 of 2 -> 3 × 2 = 6
    assert len(rows) == n_splits(cell, 0.5) == 6
    assert len({tuple(r) for r in rows.tolist()}) == 6
    assert {tuple(np.flatnonzero(r[:3])) for r in rows} == set(itertools.combinations(range(3), 2))


def test_cells_of_one_unit_are_pooled_so_no_board_is_empty():
    # units 2 and 3 are cells of one unit each: pooled, exactly one of them is public in every split
    cell = np.array([0, 0, 1, 2])
    pub, _ = split_masks(cell, 0.3, 200, seed=0)
    assert (pub[:, 2:].sum(axis=1) == 1).all() and (pub[:, :2].sum(axis=1) == 1).all()
    assert n_splits(cell, 0.3) == 4  # 2 × 2, all enumerable
    with pytest.raises(InputError, match="at least 2 scoring units"):
        split_masks(np.array([0]), 0.3, 5)


@pytest.mark.parametrize("size", [1.0, 0.5])
def test_the_nested_sweep_equals_one_shakeup_per_fraction(size):
    # the sweep's one sparse product gives the same boards as a shake-up per fraction with the same seed
    rng = np.random.default_rng(3)
    cell = np.repeat([0, 1, 2, 3], [30, 17, 12, 1])  # a lone unit too
    us = mean_stats([rng.random(60) + 0.02 * i for i in range(6)], cell=cell)
    fractions = (0.1, 0.35, 0.5, 0.9)
    many = nested_shakeups(us, fractions, 70, seed=8, size=size)
    for f, got in zip(fractions, many, strict=True):
        one = shakeup(us, f, 70, seed=8, size=size, exhaustive=False)
        assert got.fraction == f and got.n_units == one.n_units and got.n_public == one.n_public
        assert np.array_equal(got.public_rank, one.public_rank) and np.array_equal(got.private_rank, one.private_rank)
        assert np.allclose(got.public_score, one.public_score, atol=1e-12)
        assert np.allclose(got.private_score, one.private_score, atol=1e-12)
    steps = entry_steps(cell, fractions, 70, seed=8, size=size)
    for i, f in enumerate(fractions):
        pub, test = split_masks(cell, f, 70, seed=8, size=size)
        assert np.array_equal(steps <= i, pub)
        assert np.array_equal(steps <= len(fractions), np.ones_like(pub) if test is None else test)


def test_selection_among_a_random_subset_matches_a_plain_reference():
    # one team of three submissions choosing among N = 2 of them: the engine draws the pair at random in
    # each split; a plain reference averages over every split (enumerated) and every pair
    vals = [[0.9, 0.7, 0.4, 0.2], [0.5, 0.5, 0.5, 0.5], [0.3, 0.8, 0.6, 0.6]]
    us = mean_stats(vals, names=["t_A", "t_B", "t_C"])
    ref = []
    for mask in every_split(us.cell, 0.5):
        pub = [np.mean(np.array(v)[mask]) for v in vals]
        priv = [np.mean(np.array(v)[~mask]) for v in vals]
        for pair in itertools.combinations(range(3), 2):
            chosen = max(pair, key=lambda j: (pub[j], -j))  # the better public score; a tie: the first
            ref.append(pub[chosen] - priv[chosen])
    want = float(np.mean(ref))
    sh = shakeup(us, 0.5, 6000, seed=1, exhaustive=False)
    got = selection(sh, ["t"] * 3, seed=2).set_index("n_submissions")
    sd = float(np.std(ref))
    assert got.loc[2, "teams"] == 1 and abs(got.loc[2, "overstatement"] - want) < 4 * sd / np.sqrt(6000)


def test_progress_counts_every_board_up_to_its_total():
    from scoring.core.shakeup_sweep import advice_runs
    rng = np.random.default_rng(0)
    us = mean_stats([rng.random(80) for _ in range(3)], cell=np.repeat([0, 1], 40))
    for run in (lambda cb: shakeup(us, 0.3, 600, progress=cb, chunk=250),
                lambda cb: nested_shakeups(us, (0.2, 0.4, 0.6), 50, progress=cb),
                lambda cb: advice_runs(us, fractions=(0.2, 0.5), sizes=(0.5, 1.0), splits=30, progress=cb)):
        seen: list = []
        run(lambda done, total, name, seen=seen: seen.append((done, total)))
        dones = [d for d, _ in seen]
        assert dones == sorted(dones) and seen[-1][0] == seen[-1][1] and len({t for _, t in seen}) == 1
