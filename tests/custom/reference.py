"""A slow, independent reference of the Custom family's four stages (docs/custom.md).

Plain Python loops over dicts, written from the definitions, importing nothing from
``scoring``. A table is ``{team: {unit: value or None}}``; ``lower`` the lower-is-better
units; ``groups`` ``{unit: group}`` (None: no grouping); ``unit_weight`` ``{unit: w}``;
``runtime`` ``{team: seconds or None}`` (None: no teams table). Every step is a module-level
function so that a test can swap one for a broken variant and check the comparison notices.
"""

from __future__ import annotations

import itertools
import math

TIE = 1e-12


def orient(table, lower):
    return {t: {u: (None if v is None else (-v if u in lower else v)) for u, v in row.items()}
            for t, row in table.items()}


def fill_missing(x, units, lower, policy, value):
    if policy == "skip":
        return x
    out = {t: dict(row) for t, row in x.items()}
    for u in units:
        present = [row[u] for row in x.values() if row[u] is not None]
        if policy == "worst":
            fill = min(present)
        elif policy == "zero":
            fill = 0.0
        else:
            fill = -value if u in lower else value
        for t in out:
            if out[t][u] is None:
                out[t][u] = fill
    return out


def unit_win_rate(col):
    """{team: share of the other present teams beaten, ties ½}; {} when fewer than 2 present."""
    present = {t: v for t, v in col.items() if v is not None}
    if len(present) < 2:
        return {}
    out = {}
    for t, v in present.items():
        s = 0.0
        for o, w in present.items():
            if o == t:
                continue
            if v > w + TIE:
                s += 1
            elif abs(v - w) <= TIE:
                s += 0.5
        out[t] = s / (len(present) - 1)
    return out


def normalise_unit(col, how):
    present = {t: v for t, v in col.items() if v is not None}
    if how == "none":
        return dict(present)
    if how == "rank":
        return unit_win_rate(col)
    vals = list(present.values())
    if how == "minmax":
        lo, hi = min(vals), max(vals)
        return {t: (1.0 if hi - lo <= TIE else (v - lo) / (hi - lo)) for t, v in present.items()}
    mu = sum(vals) / len(vals)
    sd = math.sqrt(sum((v - mu) ** 2 for v in vals) / len(vals))
    return {t: (0.0 if sd <= TIE else (v - mu) / sd) for t, v in present.items()}


def difficulty_splits(members, difficulty, splits):
    """{unit: split number}: the units sorted by difficulty (ties in order), cut into k parts of
    sizes differing by at most one, the larger ones first."""
    ordered = sorted(members, key=lambda u: (difficulty[u], members.index(u)))
    k = min(splits, len(ordered))
    base, extra = divmod(len(ordered), k)
    out, at = {}, 0
    for x in range(1, k + 1):
        size = base + (1 if x <= extra else 0)
        for u in ordered[at: at + size]:
            out[u] = float(x)
        at += size
    return out


def mean(vals):
    return sum(vals) / len(vals) if vals else math.nan


def wmean(pairs):
    den = sum(w for _, w in pairs)
    return sum(v * w for v, w in pairs) / den if pairs and den > 0 else math.nan


def softmin(pairs, alpha):
    """pairs: (score, size)."""
    if not pairs:
        return math.nan
    lo = min(s for s, _ in pairs)
    if math.isinf(alpha):
        return lo
    ws = [(s, n * math.exp(-alpha * (s - lo))) for s, n in pairs]
    return wmean(ws)


def beats(a, b):
    return a > b + TIE


def borda(items, teams):
    out = {t: 0.0 for t in teams}
    for col in items:
        present = {t: v for t, v in col.items() if v is not None}
        for t, v in present.items():
            for o, w in present.items():
                if o != t:
                    out[t] += 1.0 if beats(v, w) else (0.5 if abs(v - w) <= TIE else 0.0)
    return out


def pairwise(items, teams):
    p = {(a, b): 0 for a in teams for b in teams}
    for col in items:
        for a in teams:
            for b in teams:
                if a != b and col.get(a) is not None and col.get(b) is not None and beats(col[a], col[b]):
                    p[(a, b)] += 1
    return p


def copeland(items, teams):
    p = pairwise(items, teams)
    return {a: sum(1.0 if p[(a, b)] > p[(b, a)] else 0.5 if p[(a, b)] == p[(b, a)] else 0.0
                   for b in teams if b != a) for a in teams}


def kemeny_best(items, teams):
    """The best agreement over every order (brute force) and one order reaching it."""
    p = pairwise(items, teams)
    best, arg = -1.0, None
    for perm in itertools.permutations(teams):
        a = sum(p[(perm[i], perm[j])] for i in range(len(perm)) for j in range(i + 1, len(perm)))
        if a > best:
            best, arg = a, perm
    return best, arg


def boost(scores, runtime, band, max_boost, window):
    best = max(s for s in scores.values() if not math.isnan(s))
    elig = {t: runtime.get(t) is not None and s > 0 and best / s <= 1 + band + TIE for t, s in scores.items()}
    if not any(elig.values()):
        return {t: 0.0 for t in scores}
    fastest = min(runtime[t] for t in scores if elig[t])
    out = {}
    for t in scores:
        r = runtime.get(t)
        b = 0.0
        if elig[t] and r / fastest <= 1 + window + TIE:
            b = max(0.0, max_boost * (1 - (r / fastest - 1) / window))
        out[t] = b if b >= TIE else 0.0
    return out


def penalty(runtime, threshold, t):
    r = runtime.get(t)
    return threshold / r if r is not None and r > threshold else 1.0


def leaderboard(table, units, lower, groups, unit_weight, runtime, p):
    """{team: {"normalised", "grouped", "aggregate", "final_score"}}."""
    teams = list(table)
    x = fill_missing(orient(table, lower), units, lower, p["missing"], p["missing_value"])
    norm = {u: normalise_unit({t: x[t][u] for t in teams}, p["normalise"]) for u in units}
    normalised = {t: mean([norm[u][t] for u in units if t in norm[u]]) for t in teams}
    if groups is None:
        names = list(units)
        items = [dict(norm[u]) for u in units]
        sizes = [1.0] * len(units)
    else:
        names = list(dict.fromkeys(groups[u] for u in units))
        items, sizes = [], []
        for g in names:
            members = [u for u in units if groups[u] == g]
            if p["within"] == "difficulty":
                w = difficulty_splits(members, unit_weight, p["splits"])
            else:
                w = {u: (1.0 if p["within"] == "mean" else unit_weight[u]) for u in members}
            col = {}
            for t in teams:
                if p["within"] == "difficulty":
                    have = [u for u in members if t in norm[u]]
                    earned = sum(w[u] * (p["reward"] * norm[u][t] + p["penalty"] * (1 - norm[u][t])) for u in have)
                    perfect = sum(w[u] * p["reward"] for u in have)
                    v = earned / perfect if have else math.nan
                else:
                    v = wmean([(norm[u][t], w[u]) for u in members if t in norm[u]])
                if not math.isnan(v):
                    col[t] = v
            items.append(col)
            sizes.append(float(len(members)))
    grouped = {t: mean([c[t] for c in items if t in c]) for t in teams}
    rule = p["across"]
    if rule == "mean":
        agg = dict(grouped)
    elif rule == "weighted":
        ws = p["weights"] or {}
        agg = {t: wmean([(c[t], ws.get(n, 1.0)) for c, n in zip(items, names, strict=True) if t in c]) for t in teams}
    elif rule == "winrate":
        rates = [unit_win_rate(c) for c in items]
        agg = {t: mean([r[t] for r in rates if t in r]) for t in teams}
    elif rule == "softmin":
        agg = {t: softmin([(c[t], n) for c, n in zip(items, sizes, strict=True) if t in c], p["alpha"]) for t in teams}
    elif rule == "worst":
        agg = {t: min([c[t] for c in items if t in c], default=math.nan) for t in teams}
    elif rule == "borda":
        agg = borda(items, teams)
    elif rule == "copeland":
        agg = copeland(items, teams)
    else:
        _, order = kemeny_best(items, teams)
        agg = {t: float(len(teams) - 1 - order.index(t)) for t in teams}
    if p["efficiency"] == "boost" and runtime is not None:
        b = boost(agg, runtime, p["band"], p["max_boost"], p["window"])
        final = {t: agg[t] * (1 + b[t]) for t in teams}
    elif p["efficiency"] == "penalty" and runtime is not None:
        final = {t: agg[t] * penalty(runtime, p["threshold"], t) for t in teams}
    else:
        final = dict(agg)
    return {t: {"normalised": normalised[t], "grouped": grouped[t], "aggregate": agg[t], "final_score": final[t]}
            for t in teams}
