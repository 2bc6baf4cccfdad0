"""The efficiency boost (SPEC §5, memo §4) and the competitor's what-if.

``best`` is the best bias-aware score; a submission is eligible when it has a runtime, a
score above 0 and ``best / score ≤ 1 + band`` — i.e. a score of at least
:func:`eligibility_threshold`. With ``s`` the fastest eligible runtime, an eligible run with
``r/s ≤ 1 + window`` gets ``max_boost · (1 − (r/s − 1)/window)``: the boost is piecewise linear
in ``r/s``, which is what lets :func:`what_if` give the overtaking runtime in closed form.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..core.ranking import TIE, rank
from .params import PARAMS


def eligibility_threshold(best: float, band: float) -> float:
    """The smallest score that is eligible when the best score is ``best``: ``best / (1 + band)``.

    >>> round(eligibility_threshold(0.63, 0.05), 12)
    0.6
    """
    return float(best) / (1 + float(band))


def boost_window(table: pd.DataFrame, window: float) -> tuple[float, float] | None:
    """The runtimes over which the boost falls (SPEC §5): from ``s``, the fastest eligible
    runtime of ``table`` (an :func:`efficiency_boost` table), to ``s · (1 + window)``; ``None``
    when no eligible submission has a runtime.

    >>> t = efficiency_boost({"Red": 0.6, "Blue": 0.595, "Slow": 0.5}, {"Red": 50, "Blue": 45, "Slow": 1})
    >>> boost_window(t, 0.2)
    (45.0, 54.0)
    """
    rt = table.loc[table["eligible"].astype(bool), "runtime"].astype(float).dropna()
    if rt.empty:
        return None
    fastest = float(rt.min())
    return fastest, fastest * (1 + float(window))


def check_boost_params(band, max_boost, window) -> tuple[float, float, float]:
    """Validate band ≥ 0, max_boost ≥ 0 and window > 0."""
    return PARAMS.values(band=band, max_boost=max_boost, window=window)


def boost_arrays(scores: np.ndarray, runtimes: np.ndarray, band: float, max_boost: float,
                 window: float) -> tuple[np.ndarray, np.ndarray]:
    """Eligibility and boost of every submission (SPEC §5); runtimes NaN = no runtime.

    ``scores`` may have leading axes (replicates × submissions): each row is one field.
    """
    x = np.asarray(scores, dtype=float)
    r = np.asarray(runtimes, dtype=float)
    if x.shape[-1] == 0:
        return np.zeros(x.shape, dtype=bool), np.zeros(x.shape)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        finite = np.where(np.isfinite(x), x, -np.inf)
        best = finite.max(axis=-1, keepdims=True)
        eligible = (~np.isnan(r)) & (x > 0) & (best / np.where(x > 0, x, 1) <= 1 + band + TIE)
        s = np.where(eligible, r, np.inf).min(axis=-1, keepdims=True)
        ratio = r / s
        b = np.where(eligible & (ratio <= 1 + window + TIE), np.maximum(0.0, max_boost * (1 - (ratio - 1) / window)),
                     0.0)
    b[b < TIE] = 0.0
    return eligible, b


def efficiency_boost(scores, runtimes, *, band: float = 0.05, max_boost: float = 0.05,
                     window: float = 0.2) -> pd.DataFrame:
    """The memo's efficiency boost (SPEC §5) on scores and runtimes.

    Eligible: has a runtime, score > 0 and ``best / score ≤ 1 + band``. With ``s`` the
    fastest eligible runtime, an eligible run with ``r/s ≤ 1 + window`` gets
    ``max_boost · (1 − (r/s − 1)/window)``; final = score · (1 + boost).

    >>> t = efficiency_boost({"Red": 0.6, "Blue": 0.595, "Green": 0.59, "Yellow": 0.58},
    ...                      {"Red": 50, "Blue": 45, "Green": 48, "Yellow": 40})
    >>> t["submission"].tolist()
    ['Yellow', 'Blue', 'Red', 'Green']
    >>> round(float(t.loc[t.submission == "Blue", "final_score"].iloc[0]), 8)
    0.60615625
    """
    band, max_boost, window = check_boost_params(band, max_boost, window)
    sc = pd.Series(scores, dtype=float)
    rt = pd.Series(runtimes, dtype=float).reindex(sc.index)
    if sc.isna().any() or (sc < 0).any() or not np.isfinite(sc.to_numpy()).all():
        raise ValueError("expected finite scores >= 0")
    if (rt.dropna() <= 0).any():
        raise ValueError("expected runtimes > 0")
    eligible, boost = boost_arrays(sc.to_numpy(), rt.to_numpy(), band, max_boost, window)
    final = sc.to_numpy() * (1 + boost)
    out = pd.DataFrame({"submission": [str(i) for i in sc.index], "score": sc.to_numpy(),
                        "runtime": rt.to_numpy(), "eligible": eligible, "boost": boost,
                        "final_score": final, "rank": rank(final)})
    return out.sort_values(["rank", "submission"], kind="stable").reset_index(drop=True)


def _table(scores: Mapping[str, float], runtimes: Mapping[str, float], p: Mapping[str, Any]) -> pd.DataFrame:
    return efficiency_boost(dict(scores), dict(runtimes), band=p["band"], max_boost=p["max_boost"], window=p["window"])


def what_if(scores: Mapping[str, float], runtimes: Mapping[str, float], name: str, score: float, runtime: float,
            *, band: float = 0.05, max_boost: float = 0.05, window: float = 0.2) -> dict[str, Any]:
    """A competitor's what-if on the efficiency stage.

    ``scores``/``runtimes`` are the field (bias-aware scores, seconds); ``name`` (a team of the
    field or a new name; returned as ``name``) gets ``score`` and ``runtime``. Returns eligibility, boost, final
    score and rank, the runtime needed for the full boost, and the runtime needed to
    overtake the team ranked directly above (``None`` when no runtime can do it) — and the
    field as the what-if leaves it, for a chart to draw from the same numbers: ``table``
    (every team's eligibility, boost and final score), ``best`` and ``threshold_score`` (the
    eligibility band) and ``window`` (:func:`boost_window`: the fastest eligible runtime and
    the end of the slowdown window, ``None`` when no eligible run has a runtime).
    """
    band, max_boost, window = check_boost_params(band, max_boost, window)
    p = {"band": band, "max_boost": max_boost, "window": window}
    scores = {str(k): float(v) for k, v in scores.items()}
    runtimes = {str(k): float(v) for k, v in runtimes.items() if v is not None and np.isfinite(v)}
    scores[name] = float(score)
    runtimes[name] = float(runtime)
    table = _table(scores, runtimes, p)
    me = table.loc[table["submission"] == name].iloc[0]
    out: dict[str, Any] = {
        "name": name,
        "table": table,
        "eligible": bool(me["eligible"]),
        "boost": float(me["boost"]),
        "final_score": float(me["final_score"]),
        "rank": int(me["rank"]),
        "best": max(scores.values()),
        "threshold_score": eligibility_threshold(max(scores.values()), band),
        "window": boost_window(table, window),
    }
    # Full boost: no eligible rival may be faster than us (the fastest eligible defines s).
    elig_others = table[(table["eligible"].astype(bool)) & (table["submission"] != name)]
    other_rt = [runtimes[s] for s in elig_others["submission"] if s in runtimes]
    if out["eligible"]:
        out["full_boost_runtime"] = min(other_rt) if other_rt else float(runtime)
    else:
        out["full_boost_runtime"] = None
    # Overtaking the team directly above (in the what-if ranking).
    above = table[(table["final_score"] > me["final_score"] + TIE)]
    if above.empty:
        out["above"] = None
        out["overtake_runtime"] = None
        return out
    target = str(above.iloc[-1]["submission"])
    out["above"] = target
    if not out["eligible"]:
        out["overtake_runtime"] = None
        return out
    rivals = table.set_index("submission")

    def beats(r: float) -> bool:
        rt = dict(runtimes)
        rt[name] = r
        t = _table(scores, rt, p).set_index("submission")
        return float(t.loc[name, "final_score"]) > float(t.loc[target, "final_score"]) + TIE

    # beats(r) is monotone (true below some runtime, false above): solve for that runtime in
    # closed form, confirm it with two engine calls, and only bisect if they disagree.
    fastest_other = min(other_rt) if other_rt else math.inf
    target_rt = runtimes.get(target) if bool(rivals.loc[target, "eligible"]) else None
    r_star = overtake_runtime(float(score), float(rivals.loc[target, "score"]), target_rt, fastest_other, p)
    if r_star is None:
        out["overtake_runtime"] = None if not beats(float(runtime) * 1e-9) else _bisect(beats, runtime)
    elif beats(r_star * (1 - 1e-9)) and not beats(r_star * (1 + 1e-9)):
        out["overtake_runtime"] = r_star
    else:  # safety net: the engine disagrees with the closed form (a rounding edge)
        out["overtake_runtime"] = _bisect(beats, runtime) if beats(float(runtime) * 1e-9) else None
    return out


def _bisect(beats: Callable[[float], bool], runtime: float) -> float:
    """The largest runtime (to 1e-7 relative) with ``beats``; ``beats(runtime · 1e-9)`` holds."""
    lo, hi = float(runtime) * 1e-9, float(runtime)  # beats(lo) is True, beats(hi) is False
    while hi / lo > 1 + 1e-7:  # about 40 halvings of the log-range, each one engine call
        mid = math.sqrt(lo * hi)
        if beats(mid):
            lo = mid
        else:
            hi = mid
    return lo


def overtake_runtime(x: float, y: float, target_rt: float | None, fastest_other: float,
                     p: Mapping[str, Any]) -> float | None:
    """The runtime below which an eligible score ``x`` finishes above score ``y``.

    ``target_rt``: the target's runtime when it is eligible (else it gets no boost);
    ``fastest_other``: the fastest runtime of the other eligible teams (∞ if none). With
    ``s`` the fastest eligible runtime, a run at ratio ``r/s`` gets
    ``max_boost · (1 − (r/s − 1)/window)`` (0 beyond the window): the boost is piecewise
    linear in ``r/s``. While ``r ≤ fastest_other`` we are the fastest (full boost) and only the
    target's boost moves (it falls as ``r`` falls); above it ``s`` is fixed and only ours
    moves. ``None`` when no runtime is fast enough.
    """
    m, window = float(p["max_boost"]), float(p["window"])
    eps = TIE
    if m <= 0 or window <= 0 or x <= 0 or y <= 0:
        return None

    def boost(ratio: float) -> float:
        return max(0.0, m * (1 - (ratio - 1) / window)) if ratio <= 1 + window else 0.0

    # r <= fastest_other: our final is x(1 + m); the target's boost must fall below beta
    beta = (x * (1 + m) - eps) / y - 1
    if beta <= 0:
        return None  # even the full boost against an unboosted target is not enough
    if target_rt is not None and beta <= m:
        # m(1 − (t/r − 1)/window) < beta  <=>  r < t / (1 + window(1 − beta/m))
        r_a = float(target_rt) / (1 + window * (1 - beta / m))
        if r_a < fastest_other:
            return r_a
    if not math.isfinite(fastest_other):
        return None  # we would beat the target at any runtime: not a case the page asks about
    # r > fastest_other: s = fastest_other; the target's final is fixed, ours must stay above it
    target_final = y * (1 + (boost(float(target_rt) / fastest_other) if target_rt is not None else 0.0))
    gamma = (target_final + eps) / x - 1
    if gamma >= m:
        return fastest_other
    if gamma < 0:
        return None  # ahead at any runtime: not a case the page asks about
    # m(1 − (r/s − 1)/window) > gamma  <=>  r < s (1 + window(1 − gamma/m))
    return fastest_other * (1 + window * (1 - gamma / m))
