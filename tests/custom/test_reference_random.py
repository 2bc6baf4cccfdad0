"""The engine against the slow reference (``reference.py``) on random small tables with ties,
missing cells, both directions, groups and every stage's choices; and broken variants of the
reference that the comparison must catch."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from scoring.custom import Scorer, load_competition
from scoring.custom.params import ACROSS_RULES, EFFICIENCY, MISSING, NORMALISE
from scoring.custom.rules import agreement, pairwise
from tests.custom import reference as ref


def random_case(seed: int):
    rng = np.random.default_rng(seed)
    n_t, n_u = int(rng.integers(2, 7)), int(rng.integers(1, 6))
    teams = [f"team{i}" for i in range(n_t)]
    units = [f"u{j}" for j in range(n_u)]
    vals = rng.choice([0.1, 0.25, 0.5, 0.75, 0.9, 1.5, 3.0], size=(n_t, n_u))
    gaps = rng.random((n_t, n_u)) < 0.15
    gaps[0] = False  # no column empty
    gaps[:, 0] = False  # no team empty
    table = {t: {u: (None if gaps[i, j] else float(vals[i, j])) for j, u in enumerate(units)}
             for i, t in enumerate(teams)}
    lower = {u for u in units if rng.random() < 0.3}
    grouped = rng.random() < 0.5
    groups = {u: f"g{int(rng.integers(0, 3))}" for u in units} if grouped else None
    unit_weight = {u: float(rng.choice([0.5, 1.0, 2.0, 3.0])) for u in units}
    runtime = {t: (None if rng.random() < 0.2 else float(rng.choice([1.0, 1.1, 1.3, 2.0]))) for t in teams} \
        if rng.random() < 0.7 else None
    p = {"missing": str(rng.choice(MISSING)), "missing_value": float(rng.choice([0.0, 0.5])),
         "normalise": str(rng.choice(NORMALISE)), "within": str(rng.choice(["mean", "size", "difficulty"])),
         "across": str(rng.choice(ACROSS_RULES)), "alpha": float(rng.choice([0.0, 2.0, 50.0, math.inf])),
         "efficiency": str(rng.choice(EFFICIENCY)), "band": float(rng.choice([0.0, 0.1, 0.5])),
         "max_boost": 0.1, "window": float(rng.choice([0.2, 0.5])), "threshold": float(rng.choice([0.5, 1.2])),
         "weights": None, "splits": int(rng.integers(1, 4)), "reward": float(rng.choice([1.0, 0.5, 2.0])),
         "penalty": float(rng.choice([-1.0, 0.0, -0.5]))}
    if p["across"] == "weighted":
        names = sorted(set(groups.values())) if groups else units
        p["weights"] = {n: float(rng.choice([0.0, 0.5, 2.0])) for n in names}
        if not any(p["weights"].values()):
            p["weights"][names[0]] = 1.0
    return teams, units, table, lower, groups, unit_weight, runtime, p


def engine(case):
    teams, units, table, lower, groups, unit_weight, runtime, p = case
    results = pd.DataFrame({"team": [t for t in teams for _ in units], "unit": [u for _ in teams for u in units],
                            "value": ["-" if table[t][u] is None else repr(table[t][u]) for t in teams for u in units]})
    kw = {"results": results, "recipe": {"inputs": {"results": {"lower_is_better": sorted(lower)}}}}
    if groups is not None:
        kw["units"] = pd.DataFrame({"unit": units, "group": [groups[u] for u in units],
                                    "w": [repr(unit_weight[u]) for u in units]})
    if runtime is not None:
        kw["teams"] = pd.DataFrame({"team": teams, "runtime": ["" if runtime[t] is None else repr(runtime[t])
                                                              for t in teams]})
    comp = load_competition(**kw)
    params = dict(p)
    if groups is not None:
        params.update(group_by="group", weight_column="w")
    else:
        params["within"] = "mean"
    return Scorer(comp).leaderboard(**params).set_index("submission"), comp


def compare(case, module=ref) -> list[str]:
    teams, units, table, lower, groups, unit_weight, runtime, p = case
    lb, comp = engine(case)
    expected = module.leaderboard(table, units, lower, groups, unit_weight, runtime,
                                  {**p, "within": p["within"] if groups is not None else "mean"})
    bad = []
    stages = ("normalised", "grouped", "aggregate", "final_score")
    if p["across"] == "kemeny":  # several orders may be optimal: compare the agreement reached
        stages = ("normalised", "grouped")
        items = lb[[c for c in lb.columns if c.startswith("item:")]].loc[teams].to_numpy()
        pw = pairwise(items, np.ones(items.shape[1]))
        order = np.argsort(-lb.loc[teams, "aggregate"].to_numpy(), kind="stable")
        best, _ = module.kemeny_best([{t: (None if math.isnan(v) else v) for t, v in zip(teams, col, strict=True)}
                                      for col in items.T], teams)
        if abs(agreement(pw, order) - best) > 1e-9:
            bad.append("kemeny agreement")
    for t in teams:
        for s in stages:
            a, b = float(lb.loc[t, s]), float(expected[t][s])
            if not (math.isnan(a) and math.isnan(b)) and not abs(a - b) <= 1e-9 * max(1.0, abs(b)):
                bad.append(f"{t} {s}: engine {a!r}, reference {b!r}")
    return bad


@pytest.mark.parametrize("seed", range(300))
def test_engine_equals_reference(seed):
    case = random_case(seed)
    assert compare(case) == [], case


_ORIGINAL = {name: getattr(ref, name) for name in ("borda", "softmin", "fill_missing", "pairwise",
                                                   "difficulty_splits")}


def _win_rate_ties_zero(col):
    present = {t: v for t, v in col.items() if v is not None}
    if len(present) < 2:
        return {}
    return {t: sum(1.0 for o, w in present.items() if o != t and v > w + ref.TIE) / (len(present) - 1)
            for t, v in present.items()}


def _borda_missing_scores_last(items, teams):  # a missing team counted as beaten by everyone present
    out = _ORIGINAL["borda"](items, teams)
    for col in items:
        present = [t for t in teams if col.get(t) is not None]
        for t in present:
            out[t] += sum(1 for o in teams if col.get(o) is None)
    return out


def _softmin_no_sizes(pairs, alpha):
    return _ORIGINAL["softmin"]([(s, 1.0) for s, _ in pairs], alpha)


def _penalty_always(runtime, threshold, t):
    r = runtime.get(t)
    return threshold / r if r is not None else 1.0


def _no_orient(table, lower):
    return {t: dict(row) for t, row in table.items()}


def _worst_as_zero(x, units, lower, policy, value):
    return _ORIGINAL["fill_missing"](x, units, lower, "zero" if policy == "worst" else policy, value)


def _copeland_ties_zero(items, teams):
    p = _ORIGINAL["pairwise"](items, teams)
    return {a: sum(1.0 for b in teams if b != a and p[(a, b)] > p[(b, a)]) for a in teams}


def _splits_reversed(members, difficulty, splits):  # the hardest units in split 1
    out = _ORIGINAL["difficulty_splits"](members, difficulty, splits)
    k = max(out.values())
    return {u: k + 1 - x for u, x in out.items()}


BROKEN = {"difficulty_splits": _splits_reversed, "unit_win_rate": _win_rate_ties_zero, "borda": _borda_missing_scores_last, "softmin": _softmin_no_sizes,
          "penalty": _penalty_always, "orient": _no_orient, "fill_missing": _worst_as_zero,
          "copeland": _copeland_ties_zero}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_reference_variants_are_caught(name, monkeypatch):
    monkeypatch.setattr(ref, name, BROKEN[name])
    caught = any(compare(random_case(seed), ref) for seed in range(200))  # stops at the first catch
    assert caught, f"the broken {name} went unnoticed on 200 random cases"
