"""The Custom family's sentences (docs/custom.md): the recipe's choices as they apply to the
data (the notes), its guardrails (the warnings), the comparison with each published aggregate,
and the stage words of the takeaway, which follow the recipe (a stage of raw values is not a
"normalised mean")."""

from __future__ import annotations

from typing import Any

import numpy as np

from .registry import claim
from .words import alpha, count, plural

_MISSING = {"skip": "skipped: a team is scored on the units it has (HELM's rule)",
            "worst": "set to the unit's worst value", "zero": "set to 0"}
_NORMALISE = {"none": "none (raw values; a lower-is-better unit negated)",
              "minmax": "min–max per unit to [0, 1], best 1",
              "zscore": "z-score per unit (population SD)",
              "rank": "rank per unit: the share of the other teams beaten, ties half (HELM's per-column win rate)"}

#: the Kemeny–Young order among equally good ones (``scoring.custom.rules.kemeny_exact``), in words
KEMENY_TIES = ("where several orders agree equally well, the order is chosen from the bottom up: the last place "
               "goes to the latest-listed team that ends some best order, the place above it likewise among the "
               "rest, and so on")


@claim("custom.notes", states="the scorer's results and the parameters (Scorer.notes; lb.attrs['notes'], the JSON's "
       "notes)", shown=("page: Custom Leaderboard, What this recipe does", "CLI: custom leaderboard --format json"))
def notes(scorer: Any, p: dict) -> list[str]:
    """The recipe's choices, one sentence each, as they apply to this data."""
    from scoring.custom.params import ACROSS_LABELS, KEMENY_EXACT_MANY, KEMENY_EXACT_MAX, NONE

    comp = scorer.comp
    res = comp.results
    gaps = int(np.isnan(res.values).sum())
    miss = _MISSING.get(p["missing"], f"set to the fixed value {p['missing_value']:g}")
    out = [f"{count(len(res.teams), 'team')} × {count(len(res.units), 'unit')}; {count(gaps, 'missing cell')}"
           + (f", {miss}" if gaps else "")]
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
               f"difficulty-split score: units sorted by {p['weight_column']!r} (higher = harder) in "
               f"{count(p['splits'], 'split')} weighing 1…{p['splits']}, a value v earning {p['reward']:g}·v "
               f"{p['penalty']:+g}·(1 − v), over what a perfect team earns")
        out.append(f"items: {count(n_g, 'group')} of {p['group_by']!r}, each the {how} of its units")
    rule = ACROSS_LABELS[p["across"]]
    if p["across"] == "softmin":
        rule += f" with α = {alpha(p['alpha'])} (sizes: units per item)"
    if p["across"] == "kemeny":
        n = len(res.teams)
        rule += (f": exact (dynamic programme; {n} teams ≤ {KEMENY_EXACT_MAX}); {KEMENY_TIES}" if n <= KEMENY_EXACT_MAX
                 else f": APPROXIMATION — local search from the Copeland order ({n} teams > {KEMENY_EXACT_MAX}, the "
                 "exact limit)")
        if KEMENY_EXACT_MANY < n <= KEMENY_EXACT_MAX:
            rule += (f"; where many fields are scored at once (bootstrap replicates, shake-up splits) the same "
                     f"APPROXIMATION beyond {KEMENY_EXACT_MANY} teams (the exact one costs 2ⁿ·n² per field)")
        rule += "; the score is the number of teams placed below"
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


#: the warning on units of very different scales, and the factor that triggers it
SCALES = 10.0


@claim("custom.warnings", states="the scorer's results, stage scores and the parameters (Scorer.warnings)",
       shown=("page: Custom pages' header", "CLI: custom leaderboard (stderr)"))
def warnings(scorer: Any, p: dict) -> list[str]:
    """What a reader of this leaderboard should know about the recipe on this data."""
    out = []
    res = scorer.comp.results
    if p["normalise"] == "none" and p["across"] in ("mean", "weighted", "softmin", "worst"):
        spans = [float(np.nanmax(np.abs(c))) for c in res.values.T if np.isfinite(c).any()]
        if spans and max(spans) / SCALES > max(min(spans), 1e-12):  # / SCALES: no overflow near 1e308
            out.append("the units' scales differ more than tenfold and nothing normalises them: the largest-scale "
                       "units decide the mean (try min–max, z-score or rank)")
    if p["efficiency"] != "none" and scorer.comp.runtime is not None:
        agg = scorer.stage_scores(**p)[0]["aggregate"]
        if np.nanmin(agg) < 0:
            out.append("some aggregates are negative: the boost and the penalty assume scores >= 0")
    if p["across"] == "kemeny":
        from scoring.custom.params import KEMENY_EXACT_MANY, KEMENY_EXACT_MAX

        if KEMENY_EXACT_MANY < len(res.teams) <= KEMENY_EXACT_MAX:
            out.append(f"Kemeny-Young is exact on this leaderboard ({len(res.teams)} teams), but bootstrap replicates, "
                       f"shake-up splits and stability maps use the local-search APPROXIMATION beyond "
                       f"{KEMENY_EXACT_MANY} teams (the exact one costs 2ⁿ·n² per field: ~25 ms at 14 teams)")
    if p["missing"] == "skip" and np.isnan(res.values).any() and p["across"] in ("mean", "weighted", "borda"):
        out.append("missing cells are skipped: teams are compared on different units")
    return out


def _pair(a: float, b: float) -> tuple[str, str]:
    """``a`` and ``b`` with enough significant digits that the printed numbers compare as the
    numbers do (a difference within a bound never reads as above it, nor the other way)."""
    for d in range(2, 12):
        x, y = f"{a:.{d}g}", f"{b:.{d}g}"
        if (float(x) <= float(y)) == (a <= b + 1e-12) and (a <= b + 1e-12 or float(x) != float(y)):
            return x, y
    return repr(a), repr(b)


@claim("custom.published", states="scoring.custom.published.Published (the JSON's published comparisons)",
       shown=("page: Custom Leaderboard, Beside the published aggregate", "CLI: custom leaderboard --format json"))
def published(pb: Any) -> str:
    """This recipe beside one published column: a rank compared as a rank; a score compared by
    number only on the same scale, and "rounding" said only where the computed bound covers
    every team's difference."""
    col = pb.column
    same = f"{pb.moved} of {count(pb.compared, 'team')} {plural(pb.moved, 'ranks', 'rank')} differently here."
    if pb.kind == "rank":
        return f"The published {col} is a rank (1 = best), compared with this recipe's rank: {same}"
    if pb.gap is None:
        return f"This recipe's scores are on another scale than the published {col}: compare the ranks. {same}"
    ok = np.isfinite(pb.gap)
    if not ok.any():
        return f"No team has a published {col} to compare. {same}"
    worst = int(np.nanargmax(np.where(ok, pb.gap, -np.inf)))
    if pb.outside == 0:
        tight = int(np.nanargmax(np.where(ok, pb.gap - pb.bound, -np.inf)))
        g, b = _pair(float(pb.gap[worst]), float(np.nanmax(pb.bound[ok])))
        g2, b2 = _pair(float(pb.gap[tight]), float(pb.bound[tight]))
        return (f"The largest difference between this recipe's final score and the published {col} is {g}; every "
                f"team's difference is within what rounding to the digits shown allows (at most {b}; the closest "
                f"call: {g2} against {b2}), so the two agree up to rounding. {same}")
    over = int(np.nanargmax(np.where(ok, pb.gap - pb.bound, -np.inf)))
    g, b = _pair(float(pb.gap[over]), float(pb.bound[over]))
    return (f"{count(pb.outside, 'team')} of {int(ok.sum())} {plural(pb.outside, 'differs', 'differ')} from the "
            f"published {col} by more than rounding to the digits shown allows (for instance {pb.teams[over]}: "
            f"{g} against at most {b}): the published {col} is not computed the way this recipe computes it. {same}")


def stage_words(p: dict) -> dict[str, tuple[str, str]]:
    """The takeaway's words for the four stages at these parameters: stage 1 is a normalised mean
    only when something normalises the units."""
    first = ("the normalised mean", "normalising the units") if p.get("normalise", "none") != "none" else \
        ("the mean of the raw values", "the mean of the units")
    return {"normalised": first, "grouped": ("the group mean", "grouping the units"),
            "aggregate": ("the aggregate", "the across rule"), "final_score": ("the final score", "the efficiency stage")}


def points_stages(p: dict) -> frozenset[str]:
    """Stages whose scores are points (Borda, Copeland, the Kemeny count): written without
    decimals they do not have."""
    if p.get("across") in ("borda", "copeland", "kemeny"):
        return frozenset({"aggregate", "final_score"} if p.get("efficiency", "none") == "none" else {"aggregate"})
    return frozenset()

