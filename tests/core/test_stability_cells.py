"""Issue 43: a stability map is scored once per setting of the parameters it does not map
(``map_ranks``: each cell sets the two it maps) and compared with the current ranking apart
(``map_against``, Kendall's τ-b for every cell at once). References: scipy's τ-b cell by cell, and a
map computed the slow, obvious way — a leaderboard per cell, its ranks against the base one's."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau

import scoring
from scoring.core.errors import InputError
from scoring.core.stability import axis, kendall_tau_b, kendall_tau_b_rows, map_ranks, stability_map


def _random_rankings(rng: np.random.Generator):
    n = int(rng.integers(2, 30))
    a = rng.integers(1, n + 1, n).astype(float)  # ties on purpose
    rows = rng.integers(1, n + 1, (int(rng.integers(1, 25)), n)).astype(float)
    if rng.random() < 0.3:
        rows[int(rng.integers(0, len(rows)))] = rng.permutation(n) + 1  # no ties
    if rng.random() < 0.2:
        rows[0, int(rng.integers(0, n))] = np.nan
    if rng.random() < 0.1:
        rows[-1] = 4.0  # constant
    if rng.random() < 0.05:
        a[:] = 2.0
    return a, rows


def test_tau_b_of_many_rows_is_scipys_row_by_row():
    rng = np.random.default_rng(43)
    for _ in range(400):
        a, rows = _random_rankings(rng)
        got = kendall_tau_b_rows(a, rows)
        ref = np.array([kendall_tau_b(a, r) for r in rows])
        assert np.array_equal(got, ref, equal_nan=True), (a, rows)
    assert kendall_tau_b_rows([1.0, np.nan, 2.0], [[1, 2, 3]]).tolist() == [pytest.approx(np.nan, nan_ok=True)]


def test_the_comparison_catches_tau_a():
    """A τ-a (concordant − discordant over all pairs, ties ignored) differs from τ-b whenever
    there are ties: the comparison above would fail on it."""
    rng = np.random.default_rng(1)
    differs = 0
    for _ in range(50):
        a, rows = _random_rankings(rng)
        n = len(a)
        i, j = np.triu_indices(n, k=1)
        tau_a = (np.sign(rows[:, i] - rows[:, j]) @ np.sign(a[i] - a[j])) / (n * (n - 1) / 2)
        ref = np.array([kendall_tau_b(a, r) for r in rows])
        ok = ~np.isnan(ref)
        differs += int(not np.allclose(tau_a[ok], ref[ok]))
    assert differs > 25


@pytest.fixture(scope="module")
def spotgeo():
    fam = scoring.get("spotgeo")
    folder = fam.sample_dir
    comp = fam.load(ground_truth=folder / "ground_truth.json", submissions=[folder / "submissions"])
    return fam, fam.scorer(comp), fam.context(comp)


def slow_map(fam, scorer, base, x, y, ctx) -> pd.DataFrame:
    """A leaderboard per cell; its final ranks, in the base leaderboard's team order, against the
    base ones with scipy's τ-b; the teams ranked 1st."""
    lb0 = scorer.leaderboard(**base)
    teams = [str(t) for t in lb0["submission"]]
    r0 = lb0[fam.final.rank].to_numpy(dtype=float)
    rows = []
    for vy in y.values:
        for vx in x.values:
            try:
                p = fam.params.validate({**base, x.param: vx, y.param: vy}, context=ctx)
            except InputError:
                rows.append((vx, vy, np.nan, "", (), 0, False))
                continue
            lb = scorer.leaderboard(**p).set_index("submission")
            r = np.array([float(lb.loc[t, fam.final.rank]) for t in teams])
            tau = kendalltau(r0, r, variant="b").statistic if len(set(r)) > 1 and len(set(r0)) > 1 else np.nan
            first = sorted(t for t, k in zip(teams, r, strict=True) if k == 1)
            rows.append((vx, vy, float(tau), " & ".join(first), tuple(first), len(first), True))
    return pd.DataFrame(rows, columns=["x", "y", "tau", "winner", "winners", "n_winners", "valid"])


def test_the_map_is_the_slow_map_and_its_cells_ignore_the_mapped_parameters(spotgeo):
    fam, scorer, ctx = spotgeo
    x, y = axis(fam, "tau", values=[4.0, 10.0, 25.0]), axis(fam, "epsilon", values=[1.0, 3.0, 6.0])
    bases = [fam.params.validate(dict(tau=t, epsilon=e), context=ctx) for t, e in [(10.0, 3.0), (7.5, 2.0), (30.0, 9.0)]]
    cells = [map_ranks(fam, scorer, b, x, y, context=ctx) for b in bases]
    for c in cells[1:]:  # the same cells whatever the base's own τ and ε
        assert (c.teams, c.x, c.y, c.valid) == (cells[0].teams, cells[0].x, cells[0].y, cells[0].valid)
        assert np.array_equal(c.ranks, cells[0].ranks, equal_nan=True)
    assert not all(cells[0].valid)  # ε above τ: cells left out
    for b in bases:  # ... but each base's map compares them with its own ranking
        got = stability_map(fam, scorer, b, x, y, context=ctx)
        pd.testing.assert_frame_equal(got, slow_map(fam, scorer, b, x, y, ctx))
    taus = [tuple(stability_map(fam, scorer, b, x, y, context=ctx)["tau"].round(6)) for b in bases]
    assert len(set(taus)) > 1  # the bases rank differently: the comparison has teeth
