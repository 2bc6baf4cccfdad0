"""Seeded generator of small random competitions for the randomized comparison tests.

Everything is returned as DataFrames whose cells are all text (the way a CSV is read), plus
plain dicts for convenience.  The generator deliberately produces the awkward inputs the SPEC
must handle: overlapping, duplicated, non-contiguous and unsorted predictionstrings
(``"5 3 4"``, ``"3 3 4"``), ties in overlaps (the memo's Figure 1 shift), cells with stray
outer spaces, essays without demographics or with empty attribute cells, runtimes with some
submissions missing and rows for unknown submissions, submission rows for essays not in the
ground truth, empty predictionstrings, identical submissions under two names, and sometimes
overlapping or duplicated ground truth.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import pandas as pd

CLASS_POOL = ("Lead", "Claim", "Evidence", "Rebuttal", "Position", "Concluding Statement")
LABELS = ("Effective", "Ineffective")
ATTRIBUTES = ("gender", "ell_status")
# "NA", "None" and "0" are plain text values (no NA magic, no type conversion)
ATTRIBUTE_VALUES = {"gender": ("F", "M", "NA"), "ell_status": ("Yes", "No", "None", "0")}


@dataclass
class RandomCompetition:
    seed: int
    ground_truth: pd.DataFrame
    submissions: dict[str, pd.DataFrame]
    demographics: pd.DataFrame | None
    runtimes: pd.DataFrame | None
    runtimes_dict: dict[str, float] = field(default_factory=dict)
    attributes: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()


def _fmt_words(rng: random.Random, words: list[int]) -> str:
    """Write a word list the way a sloppy submitter might (same set of words)."""
    words = sorted(set(words))
    r = rng.random()
    if r < 0.12 and len(words) >= 2:
        shuffled = words[:]
        rng.shuffle(shuffled)
        text = " ".join(map(str, shuffled))  # unsorted, e.g. "5 3 4"
    elif r < 0.2:
        dup = words + [rng.choice(words)]
        rng.shuffle(dup)
        text = " ".join(map(str, dup))  # duplicated index, e.g. "3 3 4"
    else:
        text = " ".join(map(str, words))
    if rng.random() < 0.05:
        text = f" {text} "  # cells are stripped
    return text


def _partition(rng: random.Random, length: int) -> list[tuple[int, int]]:
    """Cut [0, length) into consecutive chunks of 1..8 words."""
    chunks = []
    start = 0
    while start < length:
        size = rng.choice((1, 2, 3, 4, 4, 5, 6, 8))
        chunks.append((start, min(length, start + size)))
        start += size
    return chunks


def _perturb(rng: random.Random, words: list[int], length: int) -> list[int]:
    lo, hi = min(words), max(words)
    kind = rng.random()
    if kind < 0.35:
        return sorted(words)  # exact
    if kind < 0.7:
        lo2 = max(0, lo + rng.randint(-2, 2))
        hi2 = max(0, min(length + 2, hi + rng.randint(-2, 2)))
        if hi2 < lo2:
            lo2, hi2 = hi2, lo2
        return list(range(lo2, hi2 + 1))
    if kind < 0.8 and len(words) >= 3:
        inner = [x for x in words if x not in (lo, hi)]
        drop = rng.choice(inner) if inner else lo
        return [x for x in words if x != drop] or words  # non-contiguous
    if kind < 0.9:
        return [x for x in range(lo, hi + 1) if x % 2 == lo % 2]  # every other word
    return list(range(max(0, lo - 1), hi + 4))


def _probs(rng: random.Random) -> dict[str, str]:
    cents = rng.choice((0, 10, 25, 40, 50, 60, 80, 100, rng.randint(0, 100)))
    return {"Effective": f"{cents / 100:g}", "Ineffective": f"{(100 - cents) / 100:g}"}


def _ground_truth(rng: random.Random, essays: list[str], classes: list[str], lengths: dict[str, int],
                  overlapping: bool) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    for e in essays:
        chunks = _partition(rng, lengths[e])
        picked = [c for c in chunks if rng.random() < 0.55] or [rng.choice(chunks)]
        for lo, hi in picked:
            words = list(range(lo, hi))
            if len(words) >= 4 and rng.random() < 0.05:
                words.remove(words[len(words) // 2])  # a non-contiguous ground truth
            rows.append({"id": e, "discourse_type": rng.choice(classes), "predictionstring": " ".join(map(str, words)),
                         "discourse_effectiveness": rng.choice(LABELS)})
        if overlapping and rows:
            for _ in range(rng.randint(1, 2)):
                base = rng.choice([r for r in rows if r["id"] == e])
                words = [int(x) for x in base["predictionstring"].split()]
                if rng.random() < 0.5:
                    new = words  # an identical duplicate
                else:
                    lo = max(0, min(words) + rng.randint(-3, 3))
                    new = list(range(lo, lo + rng.randint(1, 6)))
                rows.append({"id": e, "discourse_type": base["discourse_type"],
                             "predictionstring": " ".join(map(str, new)),
                             "discourse_effectiveness": rng.choice(LABELS)})
    rng.shuffle(rows)
    # group rows by essay loosely, as real files are, but keep some interleaving
    rows.sort(key=lambda r: (essays.index(r["id"]) if rng.random() < 0.8 else -1))
    return rows


def _submission(rng: random.Random, gt_rows: list[dict[str, str]], essays: list[str], classes: list[str],
                lengths: dict[str, int]) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    skill = rng.random()
    for g in gt_rows:
        if rng.random() > 0.3 + 0.6 * skill:
            continue
        words = [int(x) for x in g["predictionstring"].split()]
        new = _perturb(rng, words, lengths[g["id"]])
        cls = g["discourse_type"] if rng.random() < 0.85 else rng.choice(classes)
        rows.append({"id": g["id"], "class": cls, "predictionstring": _fmt_words(rng, new), **_probs(rng)})
    for e in essays:
        # extra segments, overlaps, the memo's Figure-1 shift (ties at 50 %)
        for _ in range(rng.choice((0, 0, 1, 2))):
            lo = rng.randint(0, lengths[e] - 1)
            new = list(range(lo, lo + rng.randint(1, 7)))
            rows.append({"id": e, "class": rng.choice(classes), "predictionstring": _fmt_words(rng, new),
                         **_probs(rng)})
        if rng.random() < 0.15:
            g_e = [g for g in gt_rows if g["id"] == e]
            g = rng.choice(g_e)
            words = sorted(int(x) for x in g["predictionstring"].split())
            lo = words[0]
            half = max(1, len(words) // 2)
            for start in (lo - half, lo + half):  # two predictions each covering half of the ground truth
                if start >= 0:
                    rows.append({"id": e, "class": g["discourse_type"],
                                 "predictionstring": _fmt_words(rng, list(range(start, start + len(words)))),
                                 **_probs(rng)})
    if rows and rng.random() < 0.3:
        for _ in range(rng.randint(1, 2)):
            dup = dict(rng.choice(rows))  # a duplicated row, sometimes with other probabilities
            if rng.random() < 0.5:
                dup.update(_probs(rng))
            rows.append(dup)
    if rng.random() < 0.1:
        rows.append({"id": "UNKNOWN-ESSAY", "class": rng.choice(classes), "predictionstring": "1 2 3",
                     **_probs(rng)})
    if rng.random() < 0.05:
        rows.append({"id": rng.choice(essays), "class": "NotAClass", "predictionstring": "0 1 2", **_probs(rng)})
    if rng.random() < 0.05:
        rows.append({"id": rng.choice(essays), "class": rng.choice(classes), "predictionstring": "",
                     **_probs(rng)})
    rng.shuffle(rows)
    return rows


def _frame(rows: list[dict[str, str]], columns: list[str]) -> pd.DataFrame:
    df = pd.DataFrame([[r[c] for c in columns] for r in rows], columns=columns, dtype=object)
    return df.astype(str) if len(df) else pd.DataFrame({c: pd.Series([], dtype=object) for c in columns})


def random_competition(seed: int) -> RandomCompetition:
    rng = random.Random(seed)
    n_essays = rng.randint(1, 5)
    essays = [f"E{seed}_{i}" for i in range(n_essays)]
    r = rng.random()
    if r < 0.2:
        essays = [e.lower() + "x" for e in essays]
    elif r < 0.35:
        # text ids that a type-guessing reader would mangle: "NA", "None", leading zeros
        essays = ["NA", "None", "0012", "12", "nan"][:n_essays]
    classes = rng.sample(CLASS_POOL, rng.randint(2, 4))
    lengths = {e: rng.randint(10, 30) for e in essays}
    overlapping = rng.random() < 0.25
    gt_rows = _ground_truth(rng, essays, classes, lengths, overlapping)
    gt = _frame(gt_rows, ["id", "discourse_type", "predictionstring", "discourse_effectiveness"])

    n_subs = rng.randint(1, 4)
    names = rng.sample(["Red", "Blue", "Green", "Yellow", "alpha", "beta", "Zed"], n_subs)
    submissions: dict[str, pd.DataFrame] = {}
    for name in names:
        if submissions and rng.random() < 0.15:
            submissions[name] = next(iter(submissions.values())).copy()  # an identical twin
            continue
        rows = _submission(rng, gt_rows, essays, classes, lengths)
        prob_cols = list(LABELS)
        if rng.random() < 0.3:
            prob_cols.reverse()
        r = rng.random()
        if r < 0.05:
            prob_cols = []  # no probability column at all: d[E] = 0 (a warning, not an error)
        elif r < 0.1:
            prob_cols.append("Adequate")  # an extra probability column that is no label
            for row in rows:
                row["Adequate"] = "0"
        for row in rows:
            if rng.random() < 0.03:
                row["id"] = f" {row['id']}  "  # cells are stripped
        submissions[name] = _frame(rows, ["id", "class", "predictionstring", *prob_cols])

    demographics = None
    attributes: tuple[str, ...] = ()
    if rng.random() < 0.8:
        attributes = ATTRIBUTES
        demo_rows = []
        for e in essays:
            if rng.random() < 0.8:
                row = {"id": e}
                for a in ATTRIBUTES:
                    row[a] = rng.choice(ATTRIBUTE_VALUES[a]) if rng.random() > 0.08 else ""
                demo_rows.append(row)
        if rng.random() < 0.1:
            demo_rows.append({"id": "NOT-IN-GROUND-TRUTH", "gender": "F", "ell_status": "Yes"})
        rng.shuffle(demo_rows)
        demographics = _frame(demo_rows, ["id", *ATTRIBUTES])

    runtimes = None
    runtimes_dict: dict[str, float] = {}
    if rng.random() < 0.8:
        rt_rows = []
        for name in names:
            if rng.random() < 0.8:
                value = rng.choice((40, 45, 48, 50, 50.4, 5, 60, round(rng.uniform(1, 100), 1)))
                runtimes_dict[name] = float(value)
                rt_rows.append({"submission": name, "runtime": f"{value:g}" if rng.random() < 0.9 else f" {value} "})
        if rng.random() < 0.15:
            rt_rows.append({"submission": "Ghost", "runtime": "12"})
        rng.shuffle(rt_rows)
        runtimes = _frame(rt_rows, ["submission", "runtime"])

    return RandomCompetition(seed=seed, ground_truth=gt, submissions=submissions, demographics=demographics,
                             runtimes=runtimes, runtimes_dict=runtimes_dict, attributes=attributes,
                             classes=tuple(classes))


def random_parameters(rng: random.Random, comp: RandomCompetition) -> dict:
    """A random parameter set for ``Scorer.leaderboard`` (and the reference)."""
    if comp.attributes:
        k = rng.choice((0, 1, 1, 2, 2))
        attributes = tuple(rng.sample(comp.attributes, k))  # random order too
    else:
        attributes = ()
    return {
        "w": rng.choice((0.0, 0.3, 0.5, 0.5, 0.75, 1.0)),
        "quality": rng.choice(("binary", "max", "iou")),
        "threshold": rng.choice((0.5, 0.5, 0.51, 0.6, 2 / 3, 0.75, 1.0)),
        "alpha": rng.choice((0.0, 1.0, 50.0, 80.0, 1000.0, math.inf)),
        "attributes": attributes,
        "band": rng.choice((0.0, 0.05, 0.3, 1.0, 10.0)),
        "max_boost": rng.choice((0.0, 0.05, 0.2)),
        "window": rng.choice((0.2, 0.5, 1.0)),
        "overlap_removal": rng.random() < 0.6,
        "exclude_missing": rng.random() < 0.3,
    }
