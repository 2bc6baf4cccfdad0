"""Random small difficulty competitions and parameter sets, seeded.

The generator makes the awkward inputs the spec must handle: ties in ease (values on a coarse
grid) and at thresholds, empty ease cells, values outside [0, 1] and E = 0, probabilities
that do not sum to 1, a predicted value that is no gold label, two models with identical
predictions (tied ranks), rows in any order, stray spaces around cells, ids such as ``007``,
fewer samples than splits, and a training-text file.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pandas as pd

GRID = [0.0, 0.1, 0.2, 0.25, 0.4, 0.5, 0.6, 0.75, 0.8, 1.0]
WORDS = "good bad movie film plot acting great boring fun story not quite really dull sharp".split()
PRESETS = [(1.0, -1.0), (1.0, 0.0), (0.0, -1.0), (1.0, -0.5), (0.5, -1.0)]


@dataclass
class Case:
    seed: int
    samples: pd.DataFrame
    predictions: pd.DataFrame
    train: list[str] | None
    labels: list[str]

    @property
    def train_bytes(self) -> bytes | None:
        return None if self.train is None else ("\n".join(self.train) + "\n").encode()


def _pad(rng: random.Random, text: str) -> str:
    return f" {text} " if rng.random() < 0.05 else text


def random_case(seed: int) -> Case:
    rng = random.Random(seed)
    n = rng.choice([1, 2, 3, 5, 8, 12, 20, 30])
    labels = rng.choice([["0", "1"], ["neg", "pos"], ["a", "b", "c"]])
    ids = [rng.choice(["s", "0", "x-"]) + str(i) if rng.random() < 0.8 else f"{i:03d}" for i in range(n)]
    ids = list(dict.fromkeys(ids))
    n = len(ids)
    gold = [rng.choice(labels) for _ in range(n)]
    samples = {"sample_id": [_pad(rng, i) for i in ids], "label": gold,
               "text": [" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 6))) for _ in range(n)]}

    def value(kind: str) -> str:
        if rng.random() < 0.15:
            return ""
        if kind == "grid":
            return repr(rng.choice(GRID))
        if rng.random() < 0.1:
            return rng.choice(["-0.3", "1.7", "0", "0.005"])
        return f"{rng.random():.3f}"

    samples["bias_a"] = [value("grid") for _ in range(n)]
    samples["bias_b"] = [value("free") for _ in range(n)]
    m = rng.randint(1, 5)
    models = [f"model-{chr(97 + j)}" for j in range(m)]
    rows = []
    last = None
    for j, model in enumerate(models):
        if j and rng.random() < 0.2:  # a copy of the previous model: tied ranks
            rows.extend({**r, "model": model} for r in last)
            continue
        mine = []
        for i, sid in enumerate(ids):
            if len(labels) == 2 and rng.random() < 0.7:
                top = rng.choice([0.5, 0.6, 0.75, 0.9, 1.0])
                probs = [top, 1 - top] if rng.random() < 0.5 else [1 - top, top]
            else:
                raw = [rng.random() for _ in labels]
                probs = [round(x / sum(raw), 3) for x in raw]
            if rng.random() < 0.05:
                probs = [round(x * 0.8, 3) for x in probs]  # sums to 0.8: a warning, still scored
            best = labels[max(range(len(labels)), key=lambda k: probs[k])]
            pred = best if rng.random() < 0.6 else gold[i] if rng.random() < 0.6 else rng.choice(labels)
            if rng.random() < 0.03:
                pred = "label"  # the SST-2 quirk: not a gold label, counted incorrect
            row = {"model": _pad(rng, model), "sample_id": _pad(rng, sid), "predicted": _pad(rng, pred)}
            row.update({f"p{lab}": repr(p) for lab, p in zip(labels, probs, strict=True)})
            mine.append(row)
        last = mine
        rows.extend(mine)
    if rng.random() < 0.4:
        rng.shuffle(rows)
    predictions = pd.DataFrame(rows, columns=["model", "sample_id", *[f"p{lab}" for lab in labels], "predicted"])
    train = None
    if rng.random() < 0.4:
        train = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 7))) for _ in range(rng.randint(1, 12))]
    return Case(seed, pd.DataFrame(samples), predictions, train, labels)


def random_parameters(rng: random.Random, case: Case) -> dict:
    metric = rng.choice(["wmprob", "wsbias", "wood"])
    p: dict = {"metric": metric}
    if metric == "wsbias" or (metric == "wood" and (case.train is None or rng.random() < 0.4)):
        p["ease_column"] = rng.choice(["bias_a", "bias_b"])
    if metric == "wood" and "ease_column" not in p:
        p["sts_top"] = rng.choice([1, 10, 25, 50, 100, rng.randint(1, 100)])
    mode = rng.choice(["equal", "equal", "threshold", "threshold", "continuous"])
    p["split_mode"] = mode
    if mode != "continuous":
        n = rng.randint(2, 7)
        if rng.random() < 0.7:
            p["splits"] = n
        if mode == "threshold" and rng.random() < 0.6:
            p["thresholds"] = sorted(rng.sample([0.1, 0.2, 0.25, 0.4, 0.5, 0.6, 0.75, 0.8, 0.9, 0.95], n - 1))
        r = rng.random()
        if r < 0.5:
            p["weights"] = rng.choice(["linear", "square", "log", "reverse"])
        elif r < 0.65:
            p["weights"] = ",".join(rng.choice(["0", "1", "2.5", "3", "0.5"]) for _ in range(n))
            p["splits"] = n
    if rng.random() < 0.7:
        p["reward"], p["penalty"] = rng.choice(PRESETS)
    else:
        p["reward"], p["penalty"] = round(rng.uniform(0, 2), 2), round(rng.uniform(-2, 0), 2)
    p["scale_by_difficulty"] = rng.random() < 0.3
    return p
