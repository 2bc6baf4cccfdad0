"""A slow, obviously-correct reference for the spotGEO metric (specs/spotgeo.md §2–§3).

Plain Python, written from the spec's words; it imports nothing from ``scoring``:

* the definition's matching enumerates **every** partial one-to-one assignment of the pairs
  within τ and keeps the one with the most pairs, then the smallest sum of distances;
* the starter kit's matching enumerates **every** full assignment of the smaller side
  (what ``linear_sum_assignment`` searches) with cost d within τ and 1000 beyond, and keeps
  the cheapest;
* then TP/FP/FN, SSE, MSE (pooled or summed), F1 and the ranking, straight from the formulas.

Only small frames (a handful of points) are feasible — too small for the kit's constant to
matter (that needs ``min(M, N)·τ ≥ 1000``; ``test_matching.py`` covers it with the plain
solver on large frames). ``broken`` names a deliberately wrong variant (see :data:`BROKEN`);
the comparison tests must tell each one apart from the engine.
"""

from __future__ import annotations

import math
from collections import defaultdict
from itertools import permutations

KIT_COST = 1000.0
TIE = 1e-12

#: deliberately wrong variants and what they get wrong
BROKEN = {
    "truncated_cost": "matching by the smallest Σ min(d, τ) (plain truncation, spec §2's warning)",
    "greedy": "greedy nearest pairs first instead of the optimal assignment",
    "strict_tp": "a true positive needs d < τ instead of d ≤ τ",
    "epsilon_inclusive": "π(d) = 0 for d ≤ ε instead of d < ε",
    "sse_tp_typo": "the seed's printed formula: τ² per TP instead of per FP",
    "kit_edge_counts": "starter kit counting d = τ in its error sum",
    "kit_mean": "starter kit MSE as the mean over sequences instead of the sum",
    "seed_per_sequence": "seed MSE summed per sequence instead of pooled",
    "f1_per_frame": "F1 averaged over frames instead of pooled counts",
    "no_mse_tiebreak": "ranking by 1 − F1 alone (MSE not breaking ties)",
}


def dist(a, b) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _partial_matchings(cands: dict[int, list[tuple[int, float]]], n_pred: int):
    """Every set of candidate pairs in which no prediction and no object appears twice."""
    def rec(i, used, acc):
        if i == n_pred:
            yield list(acc)
            return
        yield from rec(i + 1, used, acc)  # prediction i unmatched
        for j, d in cands.get(i, []):
            if j not in used:
                acc.append((i, j, d))
                yield from rec(i + 1, used | {j}, acc)
                acc.pop()
    yield from rec(0, frozenset(), [])


def match_definition(preds, objs, tau: float) -> list[tuple[int, int, float]]:
    """The true-positive pairs: most pairs with d ≤ τ, then smallest Σd."""
    cands = defaultdict(list)
    for i, p in enumerate(preds):
        for j, o in enumerate(objs):
            d = dist(p, o)
            if d <= tau:
                cands[i].append((j, d))
    best, key = [], (0, 0.0)
    for m in _partial_matchings(cands, len(preds)):
        k = (-len(m), sum(d for _, _, d in m))
        if k < key:
            best, key = m, k
    return best


def _full_assignments(n_pred: int, n_obj: int):
    """Every assignment of all points of the smaller side: lists of (pred, obj)."""
    if n_pred <= n_obj:
        for objs in permutations(range(n_obj), n_pred):
            yield list(enumerate(objs))
    else:
        for preds in permutations(range(n_pred), n_obj):
            yield [(p, j) for j, p in enumerate(preds)]


def match_by_cost(preds, objs, tau: float, cost) -> list[tuple[int, int, float]]:
    """The cheapest full assignment under ``cost(d)``; its pairs with d ≤ τ."""
    best, best_cost = None, math.inf
    for a in _full_assignments(len(preds), len(objs)):
        c = sum(cost(dist(preds[i], objs[j])) for i, j in a)
        if c < best_cost:
            best, best_cost = a, c
    out = []
    for i, j in best or []:
        d = dist(preds[i], objs[j])
        if d <= tau:
            out.append((i, j, d))
    return out


def match_greedy(preds, objs, tau: float):
    pairs = sorted((dist(p, o), i, j) for i, p in enumerate(preds) for j, o in enumerate(objs))
    ui, uj, out = set(), set(), []
    for d, i, j in pairs:
        if d <= tau and i not in ui and j not in uj:
            ui.add(i)
            uj.add(j)
            out.append((i, j, d))
    return out


def frame_matches(preds, objs, tau: float, rules: str, broken: str | None = None):
    """The true-positive pairs ``(pred, obj, d)`` of one frame."""
    if broken == "greedy":
        return match_greedy(preds, objs, tau)
    if broken == "truncated_cost":
        return match_by_cost(preds, objs, tau, lambda d: min(d, tau))
    if rules == "starter-kit":
        return match_by_cost(preds, objs, tau, lambda d: d if d <= tau else KIT_COST)
    return match_definition(preds, objs, tau)


def frame_result(preds, objs, *, tau: float, epsilon: float, rules: str, broken: str | None = None) -> dict:
    """TP, FP, FN and SSE of one frame."""
    m = frame_matches(preds, objs, tau, rules, broken)
    if broken == "strict_tp":
        m = [x for x in m if x[2] < tau]
    tp = len(m)
    fp, fn = len(preds) - tp, len(objs) - tp
    err = 0.0
    for _, _, d in m:
        below = d <= epsilon if broken == "epsilon_inclusive" else d < epsilon
        if below:
            continue
        if rules == "seed":
            err += d * d
        elif d < tau or (broken == "kit_edge_counts" and d == tau):
            err += d
    if broken == "sse_tp_typo":
        sse = err + tau**2 * (fn + tp)
    else:
        sse = err + tau**2 * (fn + fp)
    if len(preds) == 0 and len(objs) == 0:
        sse = 0.0
    return {"tp": tp, "fp": fp, "fn": fn, "sse": sse}


def ratio(a: float, b: float) -> float:
    return a / b if b else 0.0


def score_submission(gt: dict, sub: dict, *, tau: float, epsilon: float, rules: str, broken: str | None = None):
    """``gt`` and ``sub``: {(sequence_id, frame): [(x, y), ...]}. Returns the leaderboard row."""
    per_seq = defaultdict(lambda: {"tp": 0, "fp": 0, "fn": 0, "sse": 0.0})
    f1_frames = []
    for key, objs in gt.items():
        r = frame_result(sub[key], objs, tau=tau, epsilon=epsilon, rules=rules, broken=broken)
        for k in r:
            per_seq[key[0]][k] += r[k]
        p_, r_ = ratio(r["tp"], r["tp"] + r["fp"]), ratio(r["tp"], r["tp"] + r["fn"])
        f1_frames.append(ratio(2 * p_ * r_, p_ + r_))
    tp = sum(s["tp"] for s in per_seq.values())
    fp = sum(s["fp"] for s in per_seq.values())
    fn = sum(s["fn"] for s in per_seq.values())
    precision, recall = ratio(tp, tp + fp), ratio(tp, tp + fn)
    f1 = ratio(2 * precision * recall, precision + recall)
    if broken == "f1_per_frame":
        f1 = sum(f1_frames) / len(f1_frames)
    pooled = rules == "seed"
    if broken == "seed_per_sequence" and rules == "seed":
        pooled = False
    if pooled:
        mse = ratio(sum(s["sse"] for s in per_seq.values()), tp + fn + fp)
    else:
        per = [ratio(s["sse"], s["tp"] + s["fn"] + s["fp"]) for s in per_seq.values()]
        mse = sum(per) / len(per) if broken == "kit_mean" and rules == "starter-kit" else sum(per)
    return {"tp": tp, "fp": fp, "fn": fn, "precision": precision, "recall": recall, "f1": f1, "score": 1 - f1,
            "mse": mse}


def ranks(rows: dict[str, dict], broken: str | None = None) -> dict[str, int]:
    """1 + the number of teams that beat this one: a smaller score, or (within 1e-12) the same
    score and a smaller MSE."""
    def beats(a, b):
        if a["score"] < b["score"] - TIE:
            return True
        if abs(a["score"] - b["score"]) <= TIE and broken != "no_mse_tiebreak":
            return a["mse"] < b["mse"] - TIE
        return False
    return {n: 1 + sum(beats(o, r) for m, o in rows.items() if m != n) for n, r in rows.items()}


def leaderboard(gt: dict, subs: dict[str, dict], *, tau: float, epsilon: float, rules: str,
                broken: str | None = None) -> dict[str, dict]:
    rows = {n: score_submission(gt, s, tau=tau, epsilon=epsilon, rules=rules, broken=broken)
            for n, s in subs.items()}
    for n, r in ranks(rows, broken).items():
        rows[n]["rank"] = r
    return rows


def points(entries: list[dict]) -> dict:
    """A JSON file's entries as {(sequence_id, frame): [(x, y), ...]}."""
    return {(e["sequence_id"], e["frame"]): [tuple(p) for p in e["object_coords"]] for e in entries}
