"""A slow, independent reference implementation of the QA spec (§1–§4).

Written straight from the words of ``/work/shared/specs/qa.md`` in plain Python: loops,
``collections.Counter`` and exact ``fractions.Fraction`` arithmetic for everything up to the
final score; floats only for the hidden-weight draws, whose definition (numpy's
``default_rng(seed).standard_exponential((K, n_themes))``, rows divided by their sums) is part
of the documented contract. It imports nothing from ``scoring``.

Inputs are DataFrames of text cells (as ``scoring.qa.load_competition`` takes them) and the
parameters of ``Scorer.leaderboard``. Only well-formed input is supported.

Every step is a small module-level function, so that the tests can swap one for a
deliberately broken variant and check that the comparison with the engine notices.
"""

from __future__ import annotations

import json
import re
import statistics
import string
from collections import Counter
from fractions import Fraction

import numpy as np

TOL = 1e-12


# ---- §2 one question ----------------------------------------------------------------------

def normalize(s: str) -> str:
    """SQuAD v1.1's normalize_answer, step by step."""
    s = s.lower()
    s = "".join(ch for ch in s if ch not in set(string.punctuation))
    s = re.sub(r"\b(a|an|the)\b", " ", s)
    return " ".join(s.split())


def answer_tokens(s: str) -> list[str]:
    return normalize(s).split()


def token_f1(pred: list[str], gold: list[str]) -> Fraction:
    if not pred and not gold:
        return Fraction(1)
    if not pred or not gold:
        return Fraction(0)
    common = Counter(pred) & Counter(gold)
    c = sum(common.values())
    if c == 0:
        return Fraction(0)
    precision = Fraction(c, len(pred))
    recall = Fraction(c, len(gold))
    return 2 * precision * recall / (precision + recall)


def question_f1(prediction: str, answers: list[str]) -> Fraction:
    p = answer_tokens(prediction)
    if not answers:
        return token_f1(p, [])
    return max(token_f1(p, answer_tokens(a)) for a in answers)


def paragraph_correct(predicted: str, accepted: list[str]) -> bool:
    if accepted:
        return predicted in accepted
    return predicted == ""


# ---- §1 data --------------------------------------------------------------------------------

def read_ground_truth(df) -> list[dict]:
    out = []
    for _, row in df.iterrows():
        ids = []
        for x in json.loads(str(row["paragraph_ids"])):
            ids.append(x.strip() if isinstance(x, str) else str(x))
        out.append({"id": str(row["question_id"]).strip(), "theme": str(row["theme"]).strip(),
                    "paragraphs": ids, "answers": json.loads(str(row["answers"]))})
    return out


def read_submission(df) -> dict[str, dict]:
    out = {}
    for _, row in df.iterrows():
        out[str(row["question_id"]).strip()] = {
            "paragraph": str(row["paragraph_id"]).strip(), "answer": str(row["answer"]),
            "ms": Fraction(str(row["inference_ms"]).strip())}
    return out


def default_weights(themes: list[str], weights_df) -> dict[str, Fraction]:
    if weights_df is None:
        return {t: Fraction(1, len(themes)) for t in themes}
    return {str(r["theme"]).strip(): Fraction(str(r["weight"]).strip()) for _, r in weights_df.iterrows()}


# ---- §3 themes and the final score ----------------------------------------------------------

def multiplier(ait: Fraction, threshold: Fraction) -> Fraction:
    return threshold / ait if ait > threshold else Fraction(1)


def theme_stats(questions: list[dict], preds: dict[str, dict], threshold: Fraction) -> dict:
    n = len(questions)
    acc = Fraction(sum(paragraph_correct(preds[q["id"]]["paragraph"], q["paragraphs"]) for q in questions), n)
    f1 = sum((question_f1(preds[q["id"]]["answer"], q["answers"]) for q in questions), Fraction(0)) / n
    ait = sum((preds[q["id"]]["ms"] for q in questions), Fraction(0)) / n
    m = multiplier(ait, threshold)
    return {"accuracy": acc, "f1": f1, "ait_ms": ait, "multiplier": m, "score": m * (f1 + acc)}


def final_score(scores: dict[str, Fraction], weights: dict[str, Fraction]) -> Fraction:
    return sum((weights[t] * s for t, s in scores.items()), Fraction(0))


def ranks(values: dict[str, float]) -> dict[str, int]:
    """1 + the number of teams more than TOL better."""
    return {k: 1 + sum(1 for o in values.values() if float(o - v) > TOL) for k, v in values.items()}


# ---- §4 hidden weights ----------------------------------------------------------------------

def draws(n_themes: int, k: int, seed: int) -> list[list[float]]:
    e = np.random.default_rng(seed).standard_exponential((k, n_themes))
    return [[float(x) / float(sum(row)) for x in row] for row in e.tolist()]


def draw_ranks(theme_scores: dict[str, list[float]], w: list[float]) -> dict[str, int]:
    values = {}
    for name, s in theme_scores.items():
        total = 0.0
        for x, y in zip(s, w, strict=True):
            total += x * y
        values[name] = total
    return ranks(values)


def median(values: list[int]) -> float:
    return float(statistics.median(values))


def hidden(theme_scores: dict[str, list[float]], k: int, seed: int) -> dict[str, dict]:
    n_themes = len(next(iter(theme_scores.values())))
    per = {name: [] for name in theme_scores}
    for w in draws(n_themes, k, seed):
        for name, r in draw_ranks(theme_scores, w).items():
            per[name].append(r)
    return {name: {"p_first": sum(1 for r in rs if r == 1) / k, "best_rank": min(rs),
                   "median_rank": median(rs), "worst_rank": max(rs)} for name, rs in per.items()}


# ---- the leaderboard ------------------------------------------------------------------------

def leaderboard(gt_df, submissions: dict, weights_df=None, *, time_threshold=200.0, weights=None,
                weight_draws=10000, seed=0) -> dict[str, dict]:
    """{team: {final_score, rank, p_first, best_rank, median_rank, worst_rank, themes: {theme:
    {accuracy, f1, ait_ms, multiplier, score}}}} — numbers as exact Fractions where the spec
    allows, else floats."""
    gt = read_ground_truth(gt_df)
    themes = sorted({q["theme"] for q in gt})
    w = default_weights(themes, weights_df) if weights is None else {t: Fraction(weights[t]) for t in themes}
    threshold = Fraction(time_threshold)
    out = {}
    for name, df in submissions.items():
        preds = read_submission(df)
        stats = {t: theme_stats([q for q in gt if q["theme"] == t], preds, threshold) for t in themes}
        out[name] = {"themes": stats, "final_score": final_score({t: s["score"] for t, s in stats.items()}, w)}
    for name, r in ranks({k: v["final_score"] for k, v in out.items()}).items():
        out[name]["rank"] = r
    scores = {name: [float(v["themes"][t]["score"]) for t in themes] for name, v in out.items()}
    for name, h in hidden(scores, weight_draws, seed).items():
        out[name].update(h)
    return out
