"""Small random QA competitions (well-formed, as DataFrames of text) and parameter sets for
the engine-vs-reference comparison, built to hit the edge cases: unanswerable questions,
JSON-integer and padded paragraph ids, answers that differ only in case, punctuation,
articles or Unicode, empty predictions, duplicate tokens, tied teams, an average inference
time exactly at the threshold, zero weights and a weights file."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pandas as pd

THEMES = ["history", "science", "Café culture", "zoo"]
WORDS = ["the", "a", "an", "Cat", "cat", "dog", "run", "Paris", "naïve", "Ωmega", "2024", "x-ray", "it's",
         "ΣΑΣ", "Thé", "theory", "and", "of", "DOG", "über", "an't"]
PUNCT = ["", "", "", ".", "!", ",", "?", "'", "\"", "(", ")", "-", "…", "¿"]
PARAGRAPHS = ["p1", "p2", "p3", "p4", "12", "7"]


@dataclass
class RandomCompetition:
    seed: int
    ground_truth: pd.DataFrame
    submissions: dict[str, pd.DataFrame]
    theme_weights: pd.DataFrame | None
    themes: list[str]
    constant_ms: list[float]  # inference times that are some team's exact AIT in some theme


def _words(rng: random.Random, lo: int = 1, hi: int = 4) -> str:
    out = []
    for _ in range(rng.randint(lo, hi)):
        w = rng.choice(WORDS)
        out.append(rng.choice(PUNCT) + w + rng.choice(PUNCT))
    return " ".join(out)


def _perturb(rng: random.Random, answer: str) -> str:
    kind = rng.randrange(8)
    if kind == 0:
        return answer.upper()
    if kind == 1:
        return "The " + answer + "."
    if kind == 2:
        return answer + " " + rng.choice(WORDS)
    if kind == 3:
        parts = answer.split()
        return " ".join(parts[1:]) if len(parts) > 1 else answer.lower()
    if kind == 4:
        parts = answer.split()
        return " ".join(parts + parts[:1])  # a repeated token
    if kind == 5:
        return f"  {answer}!! "
    return answer


def _pid_json(rng: random.Random, pid: str):
    if pid.isdigit() and rng.random() < 0.6:
        return int(pid)
    return f" {pid} " if rng.random() < 0.2 else pid


def random_competition(seed: int) -> RandomCompetition:
    rng = random.Random(seed)
    themes = rng.sample(THEMES, rng.randint(1, 4))
    questions = []
    for t in themes:
        for _ in range(rng.randint(1, 5)):
            questions.append(t)
    rng.shuffle(questions)
    gt_rows, truth = [], []
    for i, t in enumerate(questions):
        qid = str(100 + i) if rng.random() < 0.3 else f"q{i}"
        answerable = rng.random() > 0.25
        paras = rng.sample(PARAGRAPHS, rng.randint(1, 2)) if answerable else []
        answers = [_words(rng) for _ in range(rng.randint(1, 3))] if answerable or rng.random() < 0.2 else []
        if answers and rng.random() < 0.1:
            answers.append(rng.choice(["", "the", "!!!"]))  # an accepted answer that normalises to nothing
        gt_rows.append((qid, t, json.dumps([_pid_json(rng, p) for p in paras], ensure_ascii=rng.random() < 0.5),
                        json.dumps(answers, ensure_ascii=rng.random() < 0.5)))
        truth.append((qid, t, paras, answers))
    gt = pd.DataFrame(gt_rows, columns=["question_id", "theme", "paragraph_ids", "answers"], dtype=object)
    subs: dict[str, pd.DataFrame] = {}
    constant: list[float] = []
    n_teams = rng.randint(1, 6)
    for k in range(n_teams):
        name = f"team{k}"
        if subs and rng.random() < 0.2:  # a copy: tied with another team everywhere
            subs[name] = next(iter(subs.values())).copy()
            continue
        skill = rng.random()
        const = rng.random() < 0.3
        per_theme_ms = {t: rng.choice([0, 50, 150, 200, 250, 400, 1000]) for t in themes}
        if const:
            constant.extend(float(v) for v in per_theme_ms.values())
        rows = []
        for qid, t, paras, answers in truth:
            r = rng.random()
            if r < skill:
                pid = rng.choice(paras) if paras else ""
            elif r < skill + 0.3 * (1 - skill):
                pid = ""
            else:
                pid = rng.choice(PARAGRAPHS + ["p9"])
            r = rng.random()
            if answers and r < skill:
                ans = _perturb(rng, rng.choice(answers))
            elif r < skill + 0.2:
                ans = ""
            else:
                ans = _words(rng, 1, 3)
            if const:
                ms = f"{per_theme_ms[t]:g}"
            else:
                ms = rng.choice([f"{rng.uniform(0, 600):.1f}", str(rng.randint(0, 500)), "0", "199.99", "1e2"])
            rows.append((qid, pid, ans, ms))
        rng.shuffle(rows)
        subs[name] = pd.DataFrame(rows, columns=["question_id", "paragraph_id", "answer", "inference_ms"],
                                  dtype=object)
    weights = None
    if rng.random() < 0.3:
        w = [rng.choice(["0", "1", "0.25", "2", "0.1"]) for _ in themes]
        if all(x == "0" for x in w):
            w[0] = "0.5"
        weights = pd.DataFrame(list(zip(themes, w, strict=True)), columns=["theme", "weight"], dtype=object)
    return RandomCompetition(seed, gt, subs, weights, sorted(themes), constant)


def random_parameters(rng: random.Random, comp: RandomCompetition) -> dict:
    if comp.constant_ms and rng.random() < 0.5:
        threshold = rng.choice([v for v in comp.constant_ms if v > 0] or [200.0])  # AIT == T exactly
    else:
        threshold = rng.choice([200.0, 50.0, 123.4, 1000.0, 0.5])
    weights = None
    if rng.random() < 0.5:
        weights = {t: rng.choice([0.0, 1.0, 0.3, 2.5, 0.05]) for t in comp.themes}
        if not any(weights.values()):
            weights[comp.themes[0]] = 1.0
    return {"time_threshold": threshold, "weights": weights, "weight_draws": rng.choice([1, 2, 5, 64, 101]),
            "seed": rng.randrange(1000)}
