"""The Custom leaderboard: four optional stages over a team × unit results table.

With ``x`` the results oriented so that higher is better (a lower-is-better unit negated):

1. **missing + normalise** — a missing cell is skipped, or the unit's worst value, 0, or a
   fixed value; then per unit none, min–max, z-score or rank (HELM's per-column win rate).
   Stage ``normalised``: the mean over the units a team has.
2. **within groups** — the units table's ``group_by`` column groups the units; a group's
   value is the mean (or the mean weighted by a numeric column) of its units. Without
   groups every unit is its own item. Stage ``grouped``: the mean over the items.
3. **across** — the items combine into one score: mean, weighted, mean win rate, softmin α,
   worst, Borda, Copeland or Kemeny–Young (:mod:`.rules`). Stage ``aggregate``.
4. **efficiency** — none, the Shovel-Ready boost, or the QA penalty ``score·T/time`` above
   ``T``. Stage ``final_score``.

Stages 2–4 only see per-item values and how often each item counts, so the leaderboard and
:meth:`Scorer.unit_stats` (a bootstrap replicate over the units) share :func:`finish`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..core import limits
from ..core.cache import LRU
from ..core.errors import InputError
from ..core.family import UnitStats
from ..core.params_typed import given
from ..core.ranking import order, rank
from ..shovel_ready.efficiency import boost_arrays
from . import rules
from .competition import Competition
from .params import KEMENY_EXACT_MANY, KEMENY_EXACT_MAX, NONE, PARAMS, STAGES
from .published import comparisons

RANK_RULES = ("winrate", "borda", "copeland", "kemeny")
#: ungrouped units a bootstrap keeps apart (one statistic per unit and team: memory grows as units²)
MAX_UNGROUPED_BOOTSTRAP = 200
#: and the numbers it holds for them, 2 × units² × teams (128 MiB: 64 units × 2,000 teams)
MAX_UNGROUPED_NUMBERS = 1 << 24


def _across_one(g: np.ndarray, mult: np.ndarray, size: np.ndarray, w_item: np.ndarray, p: dict,
                k: int = 0) -> np.ndarray:
    """The across rule on one field: ``g`` (teams × items) in units of ``2^k`` (the value rules
    answer in those units; the rank rules compare the values themselves), ``mult`` (items) how
    often each counts."""
    rule = p["across"]
    if rule == "mean":
        return rules.weighted_mean(g, mult)
    if rule == "weighted":
        return rules.weighted_mean(g, mult * w_item)
    if rule == "softmin":  # α acts on the values themselves: α · 2^k on the scaled ones
        alpha = p["alpha"] if not k or np.isinf(p["alpha"]) else float(np.ldexp(p["alpha"], k))
        return rules.softmin(np.where(mult > 0, g, np.nan), size, alpha)
    if rule == "worst":
        live = np.where(mult > 0, g, np.nan)
        with np.errstate(invalid="ignore"):
            lo = np.min(np.where(np.isnan(live), np.inf, live), axis=-1)
        return np.where(np.isfinite(lo), lo, np.nan)
    if k:
        g = np.ldexp(g, k)  # ranks compare the values themselves (ties within TIE)
    if rule == "winrate":
        return rules.weighted_mean(rules.win_rates(g), mult)
    if rule == "borda":
        return rules.borda(g, mult)
    pw = rules.pairwise(g, mult)
    cope = rules.copeland(pw)
    if rule == "copeland":
        return cope
    n = g.shape[0]
    if n <= (KEMENY_EXACT_MANY if p.get("_many") else KEMENY_EXACT_MAX):
        return rules.order_scores(p.get("_exact", rules.kemeny_exact)(pw))
    wins = pw.sum(axis=1)  # Copeland order, its ties broken by pairwise wins, then by position
    start = order([str(i).zfill(8) for i in range(n)], rank(cope + 1e-6 * wins / max(1.0, float(pw.sum()))))
    return rules.order_scores(rules.kemeny_local(pw, np.asarray(start)))


def finish(plain_sum, plain_n, g, mult, size, w_item, p: dict, runtime, k: int = 0) -> dict[str, np.ndarray]:
    """Stage scores from per-item values (stages 2–4; module doc), vectorised over leading axes.

    ``plain_sum``/``plain_n`` (…, teams): the sum and count of a team's normalised unit values;
    ``g`` (…, teams, items): item values (NaN missing); both in units of ``2^k`` (values near the
    largest float come scaled down by a power of two: :func:`rules.scale_exponent`); ``mult``
    (…, items): how often each item counts; ``size`` (…, items): units per item (softmin sizes);
    ``w_item`` (items): the weighted rule's weights; ``runtime`` (teams) or None.
    """
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        normalised = np.ldexp(np.where(plain_n > 0, plain_sum / np.where(plain_n > 0, plain_n, 1), np.nan), k)
        kg = rules.scale_exponent(g)  # item values far from 1 (a difficulty shift of 1e300): scaled again
        g = np.ldexp(g, -kg) if kg else g
        k += kg
        w_item = np.ldexp(w_item, -rules.scale_exponent(w_item, down_only=False))  # only their ratios count
        grouped = np.ldexp(rules.weighted_mean(g, mult), k)
        lead = g.shape[:-2]
        if lead:
            flat_g = g.reshape(-1, *g.shape[-2:])
            flat_m = np.broadcast_to(mult, (*lead, g.shape[-1])).reshape(-1, g.shape[-1])
            flat_s = np.broadcast_to(size, (*lead, g.shape[-1])).reshape(-1, g.shape[-1])
            many = {**p, "_many": True}  # many fields (replicates, splits): Kemeny's exact bound is lower
            agg = np.stack([_across_one(flat_g[r], flat_m[r], flat_s[r], w_item, many, k)
                            for r in range(flat_g.shape[0])]).reshape(*lead, g.shape[-2])
        else:
            agg = _across_one(g, mult, size, w_item, p, k)
        factor = np.ones_like(agg)
        if p["efficiency"] != "none" and runtime is not None:
            r = np.broadcast_to(runtime, agg.shape)
            if p["efficiency"] == "boost":  # scale-free: eligibility by ratio to the best, boost by runtime
                factor = 1.0 + boost_arrays(agg, r, p["band"], p["max_boost"], p["window"])[1]
            else:
                factor = np.where(r > p["threshold"], p["threshold"] / r, 1.0)
        final = agg * factor
        if p["across"] not in RANK_RULES:  # a value rule answers in units of 2^k
            agg, final = np.ldexp(agg, k), np.ldexp(final, k)
    return {"normalised": normalised, "grouped": grouped, "aggregate": agg, "final_score": final,
            "efficiency_factor": factor}


def split_weights(item: np.ndarray, difficulty: np.ndarray, splits: int) -> np.ndarray:
    """Per unit, the weight of its difficulty split within its group: the group's units sorted by
    difficulty (easiest first; ties in table order) and cut into ``min(splits, units)`` parts whose
    sizes differ by at most one, larger first (as ``numpy.array_split``); split x weighs x.

    >>> split_weights(np.array([0, 0, 0, 0, 1]), np.array([0.9, 0.1, 0.5, 0.3, 2.0]), 2).tolist()
    [2.0, 1.0, 2.0, 1.0, 1.0]
    """
    w = np.ones(len(item))
    for g in np.unique(item):
        idx = np.flatnonzero(item == g)
        ordered = idx[np.argsort(difficulty[idx], kind="stable")]
        for x, part in enumerate(np.array_split(ordered, min(splits, len(idx))), start=1):
            w[part] = float(x)
    return w


class Scorer:
    """Precomputes a :class:`Competition`; :meth:`leaderboard` runs the recipe's stages."""

    def __init__(self, competition: Competition):
        self.comp = competition
        self.names = list(competition.submission_names)
        self.context = competition.context()
        res = competition.results
        self.x = res.values * competition.sign  # oriented: higher is better
        finite = np.abs(self.x[np.isfinite(self.x)])
        self._top = float(finite.max(initial=0.0))  # the largest |value|: bounds every stage's (_check_range)
        self._cache = LRU(16)
        self._orders = LRU(64)  # exact Kemeny orders by pairwise counts: a stability map's cells share them

    # ---- parameters ------------------------------------------------------------------------
    def check(self, p: Mapping[str, Any] | None = None, /, **params) -> dict:
        """Validated, complete parameters (``weights`` resolved to every item: 1 when not named)."""
        p = PARAMS.validate(given(p, params), context=self.context)
        if p["within"] != "mean" and p["group_by"] != NONE and p["weight_column"] == NONE:
            raise InputError("weight_column", None, f"expected a numeric column of the units table for the "
                                                    f"{p['within']}-weighted mean, got none")
        self._check_range(p)
        self._check_pairwise(p)
        if p["across"] == "weighted" and p["weights"]:
            names = self.items(p)[1]
            if not (self.item_weights(p, names) > 0).any():  # an item the weights do not name weighs 1
                raise InputError("weights", None, f"expected at least one item weight > 0 (an item not named "
                                                  f"weighs 1), got 0 for all {len(names)} items")
        return p

    def _check_pairwise(self, p: Mapping[str, Any]) -> None:
        """Copeland and Kemeny–Young compare every pair of teams on every item and hold teams ×
        teams numbers: refused, naming ``across``, past ``limits.MAX_PAIRWISE_TEAMS`` teams or
        teams² × items past ``limits.MAX_PAIRWISE_WORK`` — before any work (Borda and the mean
        win rate sort each item once: no such limit)."""
        if p["across"] not in ("copeland", "kemeny"):
            return
        n, items = len(self.names), self.n_items(p)
        rule = "Copeland" if p["across"] == "copeland" else "Kemeny-Young"
        if n > limits.MAX_PAIRWISE_TEAMS:
            raise InputError("across", None, f"{rule} compares every pair of teams: {n:,} teams, over the limit of "
                                             f"{limits.MAX_PAIRWISE_TEAMS:,} (LAB_MAX_PAIRWISE_TEAMS raises it); "
                                             "Borda or the mean win rate rank every item once, for any number")
        if n * n * items > limits.MAX_PAIRWISE_WORK:
            raise InputError("across", None, f"{rule} compares every pair of teams on every item: {n:,}² teams × "
                                             f"{items:,} items = {n * n * items:,}, over the limit of "
                                             f"{limits.MAX_PAIRWISE_WORK:,} (LAB_MAX_PAIRWISE_WORK raises it); group "
                                             "the units, or use Borda or the mean win rate")

    def _exact_order(self, pw: np.ndarray) -> np.ndarray:
        """The exact Kemeny order of pairwise counts ``pw``, computed once per distinct ``pw`` (a
        stability map over α and the band leaves them unchanged in every cell: ~25 ms each at
        14 teams, 441 cells)."""
        return self._orders.get(pw.tobytes(), lambda: rules.kemeny_exact(pw))

    def n_items(self, p: Mapping[str, Any]) -> int:
        """How many items the grouping of ``p`` makes (groups, else units)."""
        if p["group_by"] == NONE or self.comp.units is None:
            return len(self.comp.unit_names)
        return len(dict.fromkeys(self.comp.units.groups[p["group_by"]]))

    def field_cost(self, p: Mapping[str, Any], per_unit: int) -> float:
        """The work of scoring one field (a bootstrap replicate, a shake-up board), in steps of
        about a nanosecond: summing the drawn units (``per_unit`` numbers per unit and team), the
        across rule's arithmetic (pairwise rules: teams² × items) and its calls from Python (~10 µs
        each: one per item for the rank rules, one per team and pass of Kemeny's local search)."""
        n, items, units = len(self.names), self.n_items(p), len(self.comp.unit_names)
        rule = 50_000.0 + 20.0 * n * items  # a field's stages, and a value rule
        if p["across"] in ("winrate", "borda"):
            rule += 5_000.0 * items
        if p["across"] in ("copeland", "kemeny"):
            rule += n * n * items + 10_000.0 * items
        if p["across"] == "kemeny":
            rule += 200_000.0 * n if n > KEMENY_EXACT_MANY else 2.0 ** n * n * n
        return float(units * n * per_unit + rule)

    def _check_range(self, p: Mapping[str, Any]) -> None:
        """Refuse, naming the parameter, choices whose scores could pass the largest float
        (±1.8e308) on this data: a difficulty shift ``penalty / reward`` beyond it, or a bound on
        a group's value (``|a| + (1 + |a|)·M``, ``M`` the largest stage-1 value) or on a boosted
        score (× ``1 + max_boost``) beyond it. Everything within is computed without overflow
        (values scaled by powers of two: :func:`rules.scale_exponent`)."""
        top = {"minmax": 1.0, "rank": 1.0, "zscore": math.sqrt(max(len(self.names), 1))}.get(p["normalise"])
        if top is None:
            fills = [abs(p["missing_value"])] if p["missing"] == "fixed" else []
            fills += [abs(v) for v in self.comp.missing_by if isinstance(v, float)]
            top = max([self._top, *fills])
        a = 0.0
        if p["within"] == "difficulty" and p["group_by"] != NONE:
            a = p["penalty"] / p["reward"]
            if not math.isfinite(a):
                raise InputError("penalty", None, f"penalty / reward = {p['penalty']:g} / {p['reward']:g} is beyond the "
                                                  "largest number (±1.8e308): a group's value lies between penalty / "
                                                  "reward and 1; bring the two closer")
        bound = abs(a) + (1 + abs(a)) * top
        if not math.isfinite(bound):
            raise InputError("penalty", None, f"with penalty / reward = {a:g} and values up to {top:g}, a group's "
                                              "value could pass the largest number (±1.8e308)")
        if p["efficiency"] == "boost" and not math.isfinite(bound * (1 + p["max_boost"])):
            raise InputError("max_boost", None, f"a boost of up to {p['max_boost']:g} on scores up to {bound:g} could "
                                                "pass the largest number (±1.8e308)")

    # ---- stage 1 ---------------------------------------------------------------------------
    def unit_values(self, *, missing: str = "skip", missing_value: float = 0.0, normalise: str = "none") -> np.ndarray:
        """Stage 1 (teams × units): missing cells as the policy says, then normalised."""
        def run():
            x = self.x.copy()
            policy = [missing if by is None else by for by in (self.comp.missing_by or [None] * x.shape[1])]
            for j, pol in enumerate(policy):
                gaps = np.isnan(x[:, j])
                if not gaps.any() or pol == "skip":
                    continue
                if pol == "worst":
                    x[gaps, j] = np.nanmin(x[:, j])
                else:
                    value = 0.0 if pol == "zero" else missing_value if pol == "fixed" else float(pol)
                    x[gaps, j] = value * self.comp.sign[j]
            return rules.normalise(x, normalise)
        return self._cache.get(("unit", missing, float(missing_value), normalise), run)

    def items(self, p: dict) -> tuple[np.ndarray, list[str], np.ndarray]:
        """``(item of each unit, item names, unit weights)`` for the grouping of ``p``."""
        units = self.comp.units
        n_u = len(self.comp.unit_names)
        if p["group_by"] == NONE:
            return np.arange(n_u), list(self.comp.unit_names), np.ones(n_u)
        labels = units.groups[p["group_by"]]
        names = list(dict.fromkeys(labels))
        item = np.array([names.index(g) for g in labels], dtype=np.int64)
        w = np.ones(n_u)
        if p["within"] != "mean":
            col = units.numbers[p["weight_column"]]
            bad = ~np.isfinite(col) | (((col < 0) | (col == 0)) & (p["within"] == "size"))
            if bad.any():
                u = self.comp.unit_names[int(np.flatnonzero(bad)[0])]
                raise InputError("weight_column", None, f"the units table's {p['weight_column']!r} gives unit {u!r} "
                                                        f"no usable value (missing, or not > 0 for a size)")
            # sizes count by their ratios only: scaled by a power of two (1e308 each no longer sums to ∞)
            w = (np.ldexp(col, -rules.scale_exponent(col, down_only=False)) if p["within"] == "size"
                 else split_weights(item, col, p["splits"]))
        return item, names, w

    def shift(self, p: dict) -> float:
        """Difficulty splits: a group's value is ``a + (1 − a)·m`` with ``m`` the split-weighted
        mean and ``a = penalty / reward`` (Σ b·(d·v + e·(1 − v)) / Σ b·d); else 0 (no change)."""
        return p["penalty"] / p["reward"] if p["within"] == "difficulty" and p["group_by"] != NONE else 0.0

    def item_weights(self, p: dict, names: list[str]) -> np.ndarray:
        given = p["weights"] or {}
        return np.array([float(given.get(n, 1.0)) for n in names])

    # ---- the leaderboard --------------------------------------------------------------------
    def stage_scores(self, p: Mapping[str, Any] | None = None, /,
                     **params) -> tuple[dict[str, np.ndarray], np.ndarray, list[str], dict]:
        """``(stage scores, item values (teams × items), item names, parameters)``."""
        p = self.check(p, **params)
        v, k = self.scaled_values(p)
        item, names, w = self.items(p)
        present = ~np.isnan(v)
        vz = np.where(present, v, 0.0)
        onehot = (item[None, :] == np.arange(len(names))[:, None]).astype(float)  # items × units
        num = (vz * w) @ onehot.T
        den = (present * w) @ onehot.T
        a = self.shift(p)
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            g = math.ldexp(a, -k) + (1 - a) * np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)
            scores = finish(vz.sum(axis=1), present.sum(axis=1), g, np.ones(len(names)), onehot.sum(axis=1),
                            self.item_weights(p, names), {**p, "_exact": self._exact_order}, self.comp.runtime, k)
            g = np.ldexp(g, k)  # the item values as shown (item:<name>), in the values' own units
        return scores, g, names, p

    def scaled_values(self, p: Mapping[str, Any]) -> tuple[np.ndarray, int]:
        """Stage 1's values divided by ``2^k`` (``(values, k)``): values near the largest float
        (1e308) scaled down by a power of two — no bit of them changes, and no sum of them
        overflows (:func:`rules.scale_exponent`); values under 1 as they are (``k = 0``)."""
        v = self.unit_values(missing=p["missing"], missing_value=p["missing_value"], normalise=p["normalise"])
        k = rules.scale_exponent(v)
        return (np.ldexp(v, -k) if k else v), k

    def leaderboard(self, p: Mapping[str, Any] | None = None, /, **params) -> pd.DataFrame:
        """The leaderboard: ``submission``, each stage's score and rank, ``runtime``,
        ``efficiency_factor``, ``final_score``, ``rank``, then ``item:<name>`` per item and
        ``published:<column>`` per published aggregate; rows by rank, then name. ``lb.attrs``:
        ``items``, ``notes`` (every choice stated in words), ``parameters``."""
        scores, g, names, p = self.stage_scores(p, **params)
        data: dict = {"submission": self.names}
        for s in STAGES:
            data[s.id] = scores[s.id]
            data[s.rank] = rank(scores[s.id])
            if s.id == "aggregate":
                rt = self.comp.runtime
                data["runtime"] = rt if rt is not None else np.full(len(self.names), np.nan)
                data["efficiency_factor"] = scores["efficiency_factor"]
        for j, n in enumerate(names):
            data[f"item:{n}"] = g[:, j]
        kinds = self.comp.results.published_kind
        for c, vals in sorted(self.comp.results.published.items(), key=lambda cv: kinds.get(cv[0]) == "rank"):
            data[f"published:{c}"] = vals  # the published scores first, then the published ranks
        df = pd.DataFrame(data).iloc[order(self.names, data["rank"])].reset_index(drop=True)
        df.attrs.update(items=list(names), notes=self.notes(p), parameters=dict(p), published_kind=dict(kinds),
                        recipe=self.comp.recipe.document(p), published=comparisons(self, df, p))
        return df

    def final_ranks(self, p: Mapping[str, Any] | None = None, /, **params) -> np.ndarray:
        """The leaderboard's final ranks alone, in the order of :attr:`names` (a stability map's
        cell: no table built)."""
        return rank(self.stage_scores(p, **params)[0]["final_score"])

    def notes(self, p: dict) -> list[str]:
        """Every choice of the recipe in words, for the output."""
        from ..claims.custom import notes
        return notes(self, p)

    def warnings(self, p: Mapping[str, Any] | None = None, /, **params) -> list[str]:
        """Guardrails: what the chosen recipe does to this data that a reader should know."""
        from ..claims.custom import warnings
        try:
            p = self.check(p, **params)
        except InputError:  # the page says why these parameters cannot be scored
            return []
        return warnings(self, p)

    # ---- per-unit statistics ----------------------------------------------------------------
    def unit_stats(self, p: Mapping[str, Any] | None = None, /, **params) -> UnitStats:
        """Per-unit additive statistics (:class:`UnitStats`); units are the results' columns.

        With groups, a unit's cell is its group and a team's statistics are (value, present,
        w·value, w·present): a replicate resamples units within each group, and the group
        values are the weighted means of the drawn units. Without groups every unit is its own
        item, all in one cell, and the statistics keep each unit apart (one value and one
        presence slot per unit): a unit drawn k times is one item counted k times — a mean
        weighs it k times, a rank rule (win rate, Borda, Copeland, Kemeny) counts it as k voters.
        Per-unit normalisation depends on the unit's column only, so it is the same in every
        replicate.
        """
        p = self.check(p, **params)
        v, k = self.scaled_values(p)
        item, names, w = self.items(p)
        present = ~np.isnan(v)
        vz = np.where(present, v, 0.0)
        n_u, n_t = len(item), len(self.names)
        w_item = self.item_weights(p, names)
        runtime = self.comp.runtime
        if p["group_by"] != NONE:
            a = self.shift(p)
            team = np.stack([vz.T, present.T, (vz * w).T, (present * w).T], axis=2)
            shared = np.ones((n_u, 1))

            def score(team_sums, shared_sums, teams=None):
                t = np.swapaxes(team_sums, -3, -2)  # (…, teams, items, 4)
                with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
                    gg = math.ldexp(a, -k) + (1 - a) * np.where(t[..., 3] > 0, t[..., 2] / np.where(t[..., 3] > 0, t[..., 3], 1),
                                                                np.nan)
                size = shared_sums[..., 0]
                rt = runtime if runtime is None or teams is None else runtime[teams]
                return finish(t[..., 0].sum(-1), t[..., 1].sum(-1), gg, (size > 0).astype(float), size, w_item, p, rt,
                              k)
            return UnitStats(units=list(self.comp.unit_names), cell=item, n_cells=len(names), team=team,
                             shared=shared, score=score, final="final_score", names=list(self.names),
                             cost=self.field_cost(p, 4))
        if n_u > MAX_UNGROUPED_BOOTSTRAP:
            raise InputError("bootstrap", None, f"{n_u} ungrouped units: a bootstrap keeps each apart, up to "
                                                f"{MAX_UNGROUPED_BOOTSTRAP}; group them (a units table and group_by)")
        if 2 * n_u * n_u * n_t > MAX_UNGROUPED_NUMBERS:
            raise InputError("bootstrap", None, f"{n_u} ungrouped units x {n_t:,} teams: a bootstrap keeps each unit "
                                                f"apart, 2 x units² x teams = {2 * n_u * n_u * n_t:,} numbers, over "
                                                f"the limit of {MAX_UNGROUPED_NUMBERS:,}; group the units (a units "
                                                "table and group_by)")
        team = np.zeros((n_u, n_t, 2 * n_u))
        idx = np.arange(n_u)
        team[idx, :, idx] = vz.T
        team[idx, :, n_u + idx] = present.T
        shared = np.eye(n_u)

        def score(team_sums, shared_sums, teams=None):
            t = team_sums.sum(axis=-3)  # one cell: (…, teams, 2U)
            val, cnt = t[..., :n_u], t[..., n_u:]
            with np.errstate(invalid="ignore", divide="ignore"):
                gg = np.where(cnt > 0, val / np.where(cnt > 0, cnt, 1), np.nan)
            mult = shared_sums.sum(axis=-2)
            rt = runtime if runtime is None or teams is None else runtime[teams]
            return finish(val.sum(-1), cnt.sum(-1), gg, mult, mult, w_item, p, rt, k)
        return UnitStats(units=list(self.comp.unit_names), cell=np.zeros(n_u, dtype=np.int64), n_cells=1, team=team,
                         shared=shared, score=score, final="final_score", names=list(self.names),
                         cost=self.field_cost(p, 2 * n_u))


__all__ = ["Scorer", "finish", "split_weights"]
