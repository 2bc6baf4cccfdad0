"""A slow, obviously-correct reference of the difficulty family (spec §1–§3), written from the
spec's words in plain Python: loops, dicts, ``math.fsum``. It imports nothing from
``scoring`` — the random comparison is only worth something if the two are independent.

Inputs: the samples and predictions as DataFrames of text cells (well-formed only), the
training texts as a list of strings (or None), and the parameters already resolved (the
number of splits ``n``, the thresholds, the weight list; see :func:`resolve`).

``bug`` switches on one deliberately broken variant (:data:`BUGS`); the comparison tests must
catch each of them.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

DELTA = 0.01
TIE = 1e-9

BUGS = (
    "drop_last",  # the prototype: the last sample of every split silently dropped
    "reverse_ties",  # ties in E ordered against the samples file's order
    "smaller_first",  # equal splits with the smaller parts first
    "threshold_ge",  # a sample at a threshold goes to the easier split (E >= t)
    "wmprob_ascending",  # WMProb ordered by ascending confidence (the paper's text)
    "no_fallback",  # penalty only: no |e| denominator
    "no_floor",  # 1/E without the floor δ = 0.01
    "accuracy_scored_only",  # accuracy over the samples that have an E only
    "zero_based_weights",  # linear weights 0, 1, …, n − 1
    "continuous_scaled_once",  # continuous weights with scaling use f, not f·f
    "dense_ranks",  # ranks 1, 2, 2, 3 instead of 1, 2, 2, 4
    "empty_split_zero",  # an empty split scores 0 instead of null
    "top_k_floor",  # top-k % of the training texts rounded down
)


def cell(v) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    return str(v).strip()


def records(df) -> list[dict[str, str]]:
    cols = [str(c).strip() for c in df.columns]
    return [{c: cell(v) for c, v in zip(cols, row, strict=True)} for row in df.itertuples(index=False)]


def resolve(params: dict) -> dict:
    """Fill in the spec's defaults: n = 7 (or from thresholds / a custom weight list), thresholds
    i/n in threshold mode, linear weights."""
    p = {"metric": "wmprob", "ease_column": None, "sts_top": 25, "split_mode": "equal", "splits": None,
         "thresholds": None, "weights": None, "reward": 1.0, "penalty": -1.0, "scale_by_difficulty": False, **params}
    if p["split_mode"] == "continuous":
        p["n"] = None
        return p
    w = p["weights"]
    custom = [float(x) for x in w.split(",")] if isinstance(w, str) and w not in ("linear", "square", "log",
                                                                                   "reverse") else None
    if p["splits"] is not None:
        n = int(p["splits"])
    elif p["thresholds"] is not None:
        n = len(p["thresholds"]) + 1
    elif custom is not None:
        n = len(custom)
    else:
        n = 7
    p["n"] = n
    if p["split_mode"] == "threshold" and p["thresholds"] is None:
        p["thresholds"] = [i / n for i in range(1, n)]
    p["b"] = custom if custom is not None else None
    p["weights"] = w or "linear"
    return p


def split_weight(scheme, x: int, n: int, bug: str | None) -> float:
    if isinstance(scheme, list):
        return scheme[x - 1]
    if scheme == "linear":
        return float(x - 1) if bug == "zero_based_weights" else float(x)
    if scheme == "square":
        return float(x * x)
    if scheme == "log":
        return math.log(1 + x)
    if scheme == "reverse":
        return float(n + 1 - x)
    raise ValueError(scheme)


def tokens(text: str) -> list[str]:
    return re.findall(r"(?u)\b\w\w+\b", text.lower())


def tfidf_vectors(train: list[str], texts: list[str]) -> tuple[list[dict], list[dict]]:
    """TF-IDF as the spec's docs define it: raw counts × (ln((1 + N)/(1 + df)) + 1), unit length."""
    docs = [tokens(t) for t in train]
    n = len(docs)
    df: dict[str, int] = {}
    for d in docs:
        for w in set(d):
            df[w] = df.get(w, 0) + 1
    idf = {w: math.log((1 + n) / (1 + k)) + 1 for w, k in df.items()}

    def vec(words):
        v: dict[str, float] = {}
        for w in words:
            if w in idf:
                v[w] = v.get(w, 0.0) + idf[w]
        norm = math.sqrt(math.fsum(x * x for x in v.values()))
        return {w: x / norm for w, x in v.items()} if norm > 0 else {}

    return [vec(d) for d in docs], [vec(tokens(t)) for t in texts]


def sts(train: list[str], texts: list[str], k: int, bug: str | None = None) -> list[float]:
    tv, sv = tfidf_vectors(train, texts)
    n = len(train)
    top = max(1, math.floor(Fraction(k * n, 100)) if bug == "top_k_floor" else math.ceil(Fraction(k * n, 100)))
    out = []
    for s in sv:
        sims = sorted((math.fsum(x * t.get(w, 0.0) for w, x in s.items()) for t in tv), reverse=True)
        out.append(math.fsum(sims[:top]) / top)
    return out


def factor(e: float, metric: str, bug: str | None) -> float:
    if metric == "wmprob":
        return e
    return 1.0 / max(e, 1e-6 if bug == "no_floor" else DELTA)


def eq4(kw: list[float], dw: list[float], ew: list[float], bug: str | None) -> float | None:
    num, den = math.fsum(kw), math.fsum(dw)
    if den == 0 and bug != "no_fallback":
        den = math.fsum(ew)
    if den == 0:
        return None
    return 100 * num / den


def leaderboard(samples_df, predictions_df, train: list[str] | None = None, *, bug: str | None = None,
                **params) -> dict[str, dict]:
    """name -> {accuracy, accuracy_rank, score, rank, splits: [{n, correct, score}]}"""
    p = resolve(params)
    samples = records(samples_df)
    ids = [s["sample_id"] for s in samples]
    gold = {s["sample_id"]: s["label"] for s in samples}
    preds: dict[str, dict[str, dict]] = {}
    for r in records(predictions_df):
        preds.setdefault(r["model"], {})[r["sample_id"]] = r
    metric, n, d0, e0 = p["metric"], p["n"], float(p["reward"]), float(p["penalty"])
    shared_e: dict[str, float | None] = {}
    if metric != "wmprob":
        if p["ease_column"] is not None:
            for s in samples:
                shared_e[s["sample_id"]] = float(s[p["ease_column"]]) if s[p["ease_column"]] != "" else None
        else:
            values = sts(train, [s.get("text", "") for s in samples], p["sts_top"], bug)
            shared_e = dict(zip(ids, values, strict=True))
    out = {}
    for model, rows in preds.items():
        correct = {sid: rows[sid]["predicted"] == gold[sid] for sid in ids}
        if metric == "wmprob":
            ease = {sid: max(float(v) for c, v in rows[sid].items() if c.startswith("p") and c != "predicted")
                    for sid in ids}
        else:
            ease = shared_e
        scored = [i for i, sid in enumerate(ids) if ease[sid] is not None]
        descending = not (metric == "wmprob" and bug == "wmprob_ascending")
        tie = -1 if bug == "reverse_ties" else 1
        scored.sort(key=lambda i: ((-ease[ids[i]] if descending else ease[ids[i]]), tie * i))
        split_of: dict[str, int] = {}
        if p["split_mode"] == "equal":
            m = len(scored)
            sizes = [m // n + (1 if x < m % n else 0) for x in range(n)]
            if bug == "smaller_first":
                sizes = sizes[::-1]
            at = 0
            for x in range(n):
                part = scored[at:at + sizes[x]]
                if bug == "drop_last" and part:
                    part = part[:-1]
                for i in part:
                    split_of[ids[i]] = x + 1
                at += sizes[x]
        elif p["split_mode"] == "threshold":
            t = [-math.inf, *p["thresholds"], math.inf]  # t[0] = −∞, t[n] = +∞
            for i in scored:
                e = ease[ids[i]]
                for j in range(1, n + 1):  # split j holds t_{n−j} < E <= t_{n−j+1}
                    lo, hi = t[n - j], t[n - j + 1]
                    inside = (lo <= e < hi) if bug == "threshold_ge" else (lo < e <= hi)
                    if inside:
                        split_of[ids[i]] = j
                        break
        else:
            for i in scored:
                split_of[ids[i]] = 0
        kw, dw, ew = {}, {}, {}
        for sid, x in split_of.items():
            f = factor(ease[sid], metric, bug)
            if x == 0:
                w = f
            else:
                w = split_weight(p["b"] if p["b"] is not None else p["weights"], x, n, bug)
            if p["scale_by_difficulty"] and not (x == 0 and bug == "continuous_scaled_once"):
                d, e = d0 * f, e0 * f
            else:
                d, e = d0, e0
            k = d if correct[sid] else e
            kw.setdefault(x, []).append(k * w)
            dw.setdefault(x, []).append(d * w)
            ew.setdefault(x, []).append(abs(e) * w)
        everything = sorted(kw)
        score = eq4([v for x in everything for v in kw[x]], [v for x in everything for v in dw[x]],
                    [v for x in everything for v in ew[x]], bug)
        splits = []
        for x in range(1, (n or 0) + 1):
            members = [sid for sid, y in split_of.items() if y == x]
            s = eq4(kw.get(x, []), dw.get(x, []), ew.get(x, []), bug)
            if s is None and bug == "empty_split_zero" and not members:
                s = 0.0
            splits.append({"n": len(members), "correct": sum(correct[sid] for sid in members), "score": s})
        counted = [sid for sid in ids if bug != "accuracy_scored_only" or ease[sid] is not None]
        accuracy = sum(correct[sid] for sid in counted) / len(counted) if counted else 0.0
        out[model] = {"accuracy": accuracy, "score": score, "splits": splits}
    for key, rank_key in (("accuracy", "accuracy_rank"), ("score", "rank")):
        values = {name: r[key] for name, r in out.items()}
        for name, v in values.items():
            if bug == "dense_ranks":
                better = {w for w in values.values() if w is not None and (v is None or w > v + TIE)}
                out[name][rank_key] = 1 + len(better)
            else:
                out[name][rank_key] = 1 + sum(1 for w in values.values()
                                              if w is not None and (v is None or w > v + TIE))
    return out


def order(result: dict[str, dict]) -> list[str]:
    """Rows in rank order, then by name."""
    return sorted(result, key=lambda name: (result[name]["rank"], name))
