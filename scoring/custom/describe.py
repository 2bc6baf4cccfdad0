"""Every choice of a Custom recipe stated in words (the output's notes) and its guardrails."""

from __future__ import annotations

import math

import numpy as np

from .params import ACROSS_LABELS, KEMENY_EXACT_MANY, KEMENY_EXACT_MAX, NONE

_MISSING = {"skip": "skipped: a team is scored on the units it has (HELM's rule)",
            "worst": "set to the unit's worst value", "zero": "set to 0"}
_NORMALISE = {"none": "none (raw values; a lower-is-better unit negated)",
              "minmax": "min–max per unit to [0, 1], best 1",
              "zscore": "z-score per unit (population SD)",
              "rank": "rank per unit: the share of the other teams beaten, ties half (HELM's per-column win rate)"}


def notes(scorer, p: dict) -> list[str]:
    """The recipe's choices, one sentence each, as they apply to this data."""
    comp = scorer.comp
    res = comp.results
    gaps = int(np.isnan(res.values).sum())
    miss = _MISSING.get(p["missing"], f"set to the fixed value {p['missing_value']:g}")
    out = [f"{len(res.teams)} teams × {len(res.units)} units; {gaps} missing cell(s), {miss}"]
    by = [(u, b) for u, b in zip(res.units, comp.missing_by or [], strict=False) if b is not None]
    if by:
        out.append("missing cells, as the recipe says per unit: " + "; ".join(
            f"{u}: {_MISSING[b] if isinstance(b, str) and b in _MISSING else f'set to {b:g}'}" for u, b in by))
    lower = [u for u, s in zip(res.units, comp.sign, strict=True) if s < 0]
    out.append("lower is better on: " + ", ".join(lower) if lower else "higher is better on every unit")
    out.append(f"normalise: {_NORMALISE[p['normalise']]}")
    if p["group_by"] == NONE:
        out.append("items: the units (no grouping)")
    else:
        n_g = len(dict.fromkeys(comp.units.groups[p["group_by"]]))
        how = ("mean" if p["within"] == "mean" else f"size-weighted mean by {p['weight_column']!r}"
               if p["within"] == "size" else
               f"difficulty-split score: units sorted by {p['weight_column']!r} (higher = harder) in {p['splits']} "
               f"split(s) weighing 1…{p['splits']}, a value v earning {p['reward']:g}·v {p['penalty']:+g}·(1 − v), "
               "over what a perfect team earns")
        out.append(f"items: {n_g} groups of {p['group_by']!r}, each the {how} of its units")
    rule = ACROSS_LABELS[p["across"]]
    if p["across"] == "softmin":
        rule += f" with α = {'∞' if math.isinf(p['alpha']) else format(p['alpha'], 'g')} (sizes: units per item)"
    if p["across"] == "kemeny":
        n = len(res.teams)
        rule += (f": exact (dynamic programme; {n} teams ≤ {KEMENY_EXACT_MAX})" if n <= KEMENY_EXACT_MAX else
                 f": APPROXIMATION — local search from the Copeland order ({n} teams > {KEMENY_EXACT_MAX}, the "
                 "exact limit); the score is the number of teams placed below")
        if KEMENY_EXACT_MANY < n <= KEMENY_EXACT_MAX:
            rule += (f"; where many fields are scored at once (bootstrap replicates, shake-up splits) the same "
                     f"APPROXIMATION beyond {KEMENY_EXACT_MANY} teams (the exact one costs 2ⁿ·n² per field)")
    if p["across"] in ("borda", "copeland"):
        rule += " (a team missing from an item gets nothing from it)" if p["across"] == "borda" else \
            " (pairs compared on the items both teams have)"
    out.append(f"across: {rule}")
    if p["efficiency"] == "none":
        out.append("efficiency: none")
    elif comp.runtime is None:
        out.append(f"efficiency: {p['efficiency']} asked, but no teams table was given: nothing changes")
    elif p["efficiency"] == "boost":
        out.append(f"efficiency: boost (band {p['band']:g}, max boost {p['max_boost']:g}, window {p['window']:g}); "
                   "teams without a runtime are never eligible")
    else:
        out.append(f"efficiency: penalty, score × T / time above T = {p['threshold']:g}; no runtime, no penalty")
    return out


def warnings(scorer, p: dict) -> list[str]:
    """What a reader of this leaderboard should know about the recipe on this data."""
    out = []
    res = scorer.comp.results
    if p["normalise"] == "none" and p["across"] in ("mean", "weighted", "softmin", "worst"):
        x = np.abs(res.values[np.isfinite(res.values)])
        spans = [np.nanmax(np.abs(c)) for c in res.values.T if np.isfinite(c).any()]
        if x.size and spans and max(spans) / 10 > max(min(spans), 1e-12):  # / 10: no overflow near 1e308
            out.append("the units' scales differ more than tenfold and nothing normalises them: the largest-scale "
                       "units decide the mean (try min–max, z-score or rank)")
    if p["efficiency"] != "none" and scorer.comp.runtime is not None:
        agg = scorer.stage_scores(**p)[0]["aggregate"]
        if np.nanmin(agg) < 0:
            out.append("some aggregates are negative: the boost and the penalty assume scores >= 0")
    if p["across"] == "kemeny" and KEMENY_EXACT_MANY < len(res.teams) <= KEMENY_EXACT_MAX:
        out.append(f"Kemeny-Young is exact on this leaderboard ({len(res.teams)} teams), but bootstrap replicates, "
                   f"shake-up splits and stability maps use the local-search APPROXIMATION beyond "
                   f"{KEMENY_EXACT_MANY} teams (the exact one costs 2ⁿ·n² per field: ~25 ms at 14 teams)")
    if p["missing"] == "skip" and np.isnan(res.values).any() and p["across"] in ("mean", "weighted", "borda"):
        out.append("missing cells are skipped: teams are compared on different units")
    return out
