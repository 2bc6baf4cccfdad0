"""Populations with a known truth for the rank-set simulation (docs/robustness.md).

A population is a finite set of scoring units (60,000 by default), each with what every team
earned on it, laid out as the family's own :class:`~scoring.core.family.UnitStats` and scored
by the family's own function from sums to scores (QA ``theme_scores``, difficulty ``eq4``,
Shovel-Ready ``stage_scores``). A team's **true score** is that function on the whole
population; its true rank the "1224" rank of the true scores. A test set is ``n`` units
drawn from it without replacement.

Teams draw their results from a shared unit difficulty ``z`` (so they are correlated, as real
teams are) and their own ability ``a``. Teams **exactly tied** in the population are made by
permuting one team's units within strata of (cell, difficulty): every cell's sums are then
equal, so every true score is equal, while the teams differ unit by unit. An **exact copy**
is the same units twice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import norm

from scoring.core.family import UnitStats
from scoring.core.ranking import rank
from scoring.difficulty.metric import eq4
from scoring.qa.scorer import theme_scores
from scoring.shovel_ready.scorer import softmin_box, stage_scores

N_POP = 60_000


@dataclass
class Population:
    """Units of a population (see the module doc) and the truth."""

    cell: np.ndarray
    n_cells: int
    team: np.ndarray  # (N, K, k)
    shared: np.ndarray  # (N, j)
    score: Callable
    final: str
    kinds: list[str]  # each team's type: leader, tied, near-tie, middle, copy, last
    higher_is_better: bool = True
    #: a unit's split is recomputed from the drawn units (difficulty): ``resplit(units) -> team``
    resplit: Callable[[np.ndarray], np.ndarray] | None = None
    #: the family's score interval from a stage (Shovel-Ready: ``softmin_box``), from a test set's cells
    box: Callable[[np.ndarray], object] | None = None
    #: the stage that checks the letters' close calls (Shovel-Ready: ``segment_score``)
    pooled: str | None = None

    def __post_init__(self):
        sums = UnitStats(units=(), cell=self.cell, n_cells=self.n_cells, team=self.team, shared=self.shared,
                         score=self.score, final=self.final).cell_sums()
        self.truth = np.asarray(self.score(*sums)[self.final], dtype=float)
        self.true_rank = rank(self.truth, higher_is_better=self.higher_is_better)

    def sample(self, n: int, rng: np.random.Generator) -> UnitStats:
        """A test set of ``n`` units, without replacement."""
        idx = np.sort(rng.choice(len(self.cell), n, replace=False))
        team = self.team[idx] if self.resplit is None else self.resplit(idx)
        return UnitStats(units=[str(i) for i in idx], cell=self.cell[idx], n_cells=self.n_cells, team=team,
                         shared=self.shared[idx], score=self.score, final=self.final,
                         higher_is_better=self.higher_is_better, names=[f"t{j}" for j in range(len(self.kinds))],
                         box=None if self.box is None else self.box(self.cell[idx]), pooled=self.pooled)


# ---- designs: each team's ability (a latent z-score shift) and its type ------------------------------
def design(name: str, step: float) -> tuple[list[float], list[str], dict[int, int]]:
    """``(abilities, kinds, ties)`` of a 20-team field; ``ties`` maps a team to the team it
    exactly ties (permuted units) or copies (``kinds == "copy"``). ``step`` is the ability gap
    worth about one standard error of a score difference at the test size.

    - ``tie6``: six teams tied for first, then 14 spread ~1.5 SE apart (one an exact copy).
    - ``leader``: a leader ~10 SE ahead, then near-tied pairs (0.5 SE) 2 SE apart, a last team.
    """
    if name == "tie6":
        a = [0.0] * 6 + [-(1.5 * (i + 1)) * step for i in range(14)]
        kinds = ["tied"] * 6 + ["middle"] * 13 + ["last"]
        ties = {j: 0 for j in range(1, 6)}
        kinds[10] = "copy"
        a[10] = a[9]
        ties[10] = 9
        return a, kinds, ties
    if name == "leader":
        a, kinds = [10 * step], ["leader"]
        for i in range(9):
            base = -2.0 * i * step
            a += [base, base - 0.5 * step]
            kinds += ["near-tie", "near-tie"]
        a.append(a[-1] - 4 * step)
        kinds.append("last")
        return a, kinds, {}
    raise ValueError(name)


def _correct(a: Sequence[float], z: np.ndarray, rng: np.random.Generator, shift=0.0) -> np.ndarray:
    """(N, K) 0/1: team ``t`` right on unit ``u`` with probability Φ(a_t + shift − z_u)."""
    p = norm.cdf(np.asarray(a)[None, :] + shift - z[:, None])
    return (rng.uniform(size=p.shape) < p).astype(float)


def _tie(team: np.ndarray, ties: dict[int, int], strata: np.ndarray, kinds: list[str],
         rng: np.random.Generator) -> np.ndarray:
    """Teams tied to another: its units permuted within each stratum (copies: unpermuted)."""
    for j, src in ties.items():
        if kinds[j] == "copy":
            team[:, j] = team[:, src]
            continue
        perm = np.arange(len(strata))
        for s in np.unique(strata):
            where = np.flatnonzero(strata == s)
            perm[where] = rng.permutation(where)
        team[:, j] = team[perm, src]
    return team


def _strata(cell: np.ndarray, z: np.ndarray, bins: int = 20) -> np.ndarray:
    edges = np.quantile(z, np.linspace(0, 1, bins + 1)[1:-1])
    return cell * bins + np.searchsorted(edges, z)


# ---- QA: questions in four themes; accuracy + F1, times the speed multiplier ---------------------------
def qa(name: str, *, n: int, seed: int = 0, n_pop: int = N_POP, small: int | None = None) -> Population:
    """Four themes of equal weight, a quarter of the questions each, or (``small``) the hardest theme
    (the third) holding ``small`` questions of a test set of ``n`` on average, the others a third of the rest."""
    rng = np.random.default_rng(seed)
    a, kinds, ties = design(name, step=0.045 * np.sqrt(1500 / n))
    cell = rng.integers(0, 4, n_pop) if small is None else rng.choice(4, n_pop, p=_shares(small / n, np.ones(3), at=2))
    z = rng.normal(size=n_pop)
    correct = _correct(a, z, rng, shift=np.array([0.3, 0.0, -0.2, 0.1])[cell][:, None])
    f1 = correct * rng.uniform(0.6, 1.0, correct.shape)
    ms = np.full(correct.shape, 120.0) + rng.normal(0, 20, correct.shape)
    team = _tie(np.stack([correct, f1, ms], axis=2), ties, _strata(cell, z), kinds, rng)
    w = np.full(4, 0.25)

    def score(team_sums, shared_sums):
        cnt = shared_sums[..., 0][..., None, :, None]
        mean = np.swapaxes(team_sums, -3, -2) / cnt
        return {"final_score": theme_scores(mean[..., 0], mean[..., 1], mean[..., 2], 200.0)[1] @ w}

    return Population(cell, 4, team, np.ones((n_pop, 1)), score, "final_score", kinds)


# ---- difficulty: samples in equal-count splits by ease, harder splits weigh more (Eq. 4) --------------
SPLIT_WEIGHTS = np.array([3.0, 2.0, 1.0])  # hardest first


def _splits(ease: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Equal-count splits by ease (hardest first), ties broken by ``key``."""
    order = np.lexsort((key, ease))
    split = np.empty(len(ease), dtype=np.int64)
    split[order] = np.arange(len(ease)) * len(SPLIT_WEIGHTS) // len(ease)
    return split


def difficulty(name: str, *, n: int, seed: int = 0, n_pop: int = N_POP, reestimate: bool = False) -> Population:
    """Ease from ten reference models (a "train" source); splits cut on the population (the truth) or on
    the drawn test set (the product: fixed inside the bootstrap replicates)."""
    rng = np.random.default_rng(seed)
    a, kinds, ties = design(name, step=0.05 * np.sqrt(1500 / n))
    z = rng.normal(size=n_pop)
    ease = _correct(np.linspace(-1, 1, 10), z, rng).mean(axis=1)
    key = rng.uniform(size=n_pop)
    split = _splits(ease, key)
    correct = _tie(_correct(a, z, rng)[:, :, None], ties, _strata(split, z), kinds, rng)[..., 0]
    d, e = 1.0, -1.0

    def stats(correct_: np.ndarray, split_: np.ndarray) -> np.ndarray:
        w = SPLIT_WEIGHTS[split_][:, None] * np.ones_like(correct_)
        return np.stack((w * np.where(correct_ > 0, d, e), w * d, w * abs(e), correct_), axis=-1)

    def score(team_sums, shared_sums):
        tot = team_sums.sum(axis=-3)
        return {"score": eq4(tot[..., 0], tot[..., 1], tot[..., 2])}

    def resplit(idx: np.ndarray) -> np.ndarray:  # the product: splits cut on the test set itself
        return stats(correct[idx], _splits(ease[idx], key[idx]))

    pop = Population(np.zeros(n_pop, dtype=np.int64), 1, stats(correct, split), np.ones((n_pop, 1)), score, "score",
                     kinds, resplit=resplit)
    pop.ease, pop.key, pop.correct, pop.stats = ease, key, correct, stats
    return pop


# ---- Shovel-Ready: essays in three demographic groups (one small), two classes, softmin ----------------
GROUP_SHARES = np.array([0.6, 0.35, 0.05])


def _shares(f: float, rest: np.ndarray, *, at: int) -> np.ndarray:
    """Cell shares: ``f`` at position ``at``, the rest ``1 − f`` in the proportions ``rest``."""
    if not 0 < f < 1:
        raise ValueError(f"expected a small share in (0, 1), got {f}")
    return np.insert((1 - f) * rest / rest.sum(), at, f)


def shovel_ready(name: str, *, n: int, seed: int = 0, n_pop: int = N_POP, alpha: float = 50.0,
                 small: int | None = None) -> Population:
    """Three groups of 60/35/5 % of the essays, or (``small``) the smallest (hardest) one holding ``small``
    essays of a test set of ``n`` on average and the other two the rest, 60 : 35."""
    rng = np.random.default_rng(seed)
    a, kinds, ties = design(name, step=0.1 * np.sqrt(1500 / n))
    shares = GROUP_SHARES if small is None else _shares(small / n, GROUP_SHARES[:2], at=2)
    cell = rng.choice(3, n_pop, p=shares)
    z = rng.normal(size=n_pop)
    c = 2
    ng = 1 + rng.poisson(1.0, (n_pop, c)).astype(float)
    k = len(a)
    gap = np.array([0.0, -0.1, -0.25])[cell]  # the small group is harder for everyone
    p = norm.cdf(np.asarray(a)[None, :, None] + gap[:, None, None] - z[:, None, None])  # (N, K, 1)
    m = rng.binomial(ng[:, None, :].astype(np.int64), np.broadcast_to(p, (n_pop, k, c))).astype(float)
    sq = m * rng.uniform(0.8, 1.0, m.shape)
    sd = m * rng.uniform(0.5, 0.9, m.shape)
    npred = m + rng.poisson(0.4, m.shape)
    team = np.stack([m, sq, sd, npred], axis=2).reshape(n_pop, k, 4 * c)
    team = _tie(team, ties, _strata(cell, z), kinds, rng)
    shared = np.concatenate([ng, np.ones((n_pop, 1))], axis=1)
    runtime = np.full(k, np.nan)

    def score(team_sums, shared_sums):
        g, s = team_sums.shape[-3], team_sums.shape[-2]
        t = np.swapaxes(team_sums, -3, -2).reshape(*team_sums.shape[:-3], s, g, 4, c)
        return stage_scores(t[..., 0, :], t[..., 1, :], t[..., 2, :], t[..., 3, :], shared_sums[..., :c],
                            shared_sums[..., :3, c], runtime, grouped=True, w=0.5, alpha=alpha, band=0.05,
                            max_boost=0.05, window=0.2)

    pop = Population(cell, 3, team, shared, score, "final_score", kinds,
                     box=lambda cells: softmin_box(np.bincount(cells, minlength=3), alpha), pooled="segment_score")
    pop.alpha = alpha  # the softmin's, for the guardrail (scoring.shovel_ready.guardrails.letter_flags)
    return pop


FAMILIES = {"qa": qa, "difficulty": difficulty, "shovel-ready": shovel_ready}
