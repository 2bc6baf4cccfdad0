"""Seeded generator of the synthetic sample competition (and of the large benchmark one).

    python -m sample_data.generate                      # rewrite the committed sample
    python -m sample_data.generate --out DIR [--essays N --submissions K --seed S] [--no-text] [--holes 0.04]

Writes, in the formats of SPEC §1: ``ground_truth.csv``, ``submissions/<team>.csv``,
``demographics.csv``, ``runtimes.csv``, plus ``essays.csv`` (``id``, ``text``; skipped with
``--no-text``) and ``teams.json`` (team name -> one-sentence profile).

How it works. First the essays: each one is a sequence of discourse elements (Lead,
Position, Claims with Evidence, sometimes a Counterclaim and a Rebuttal, a Concluding
Statement) with some unannotated filler between them. In text mode every element is written
from sentences of its type (``sample_data.text``) and its span is where those words land in
``text.split()``; in ``--no-text`` mode only the lengths are drawn (fast, for the benchmark).
Then the teams: every team is a simulated model that, for each ground-truth segment, may miss
it, confuse its class, blunder or jitter its boundaries, split it, and gives effectiveness
probabilities of a given sharpness; some emit extra predictions on filler. The chance events
mix a per-segment "difficulty" shared by all teams with the team's own noise, so that hard
segments are hard for everybody (as in a real competition) and small groups of essays do not
rank the teams at random. Everything after the essays is vectorised with numpy.

Deterministic for a seed: every random stream is ``numpy.random.default_rng([seed, key...])``
with fixed keys, nothing iterates over a set or depends on hashing, and all numbers are
written with a fixed number of decimals.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist

import numpy as np

from sample_data import text as T

CLASSES = ("Lead", "Position", "Claim", "Counterclaim", "Rebuttal", "Evidence", "Concluding Statement")
LEAD, POSITION, CLAIM, COUNTER, REBUTTAL, EVIDENCE, CONCLUDING = range(7)
LABELS = ("Effective", "Ineffective")

# The committed sample's seed. The teams' stories hold for most seeds (26 of seeds 1-40 pass every
# story check); the fragile one is the fast team's, which must land within 5 % of the leader after
# the bias stage but below it. 23 was picked for the widest margins; tests/test_sample_data.py
# asserts every story on the committed files.
DEFAULT_SEED = 23
DEFAULT_ESSAYS = 500
MIN_WORDS, MAX_WORDS = 250, 700
SOFT_WORDS = 260  # essays longer than this are kept less and less often

# Stream keys for default_rng([seed, key, ...]).
K_DEMO, K_STRUCT, K_SHARED, K_TEAM, K_EXTRA_TEAMS, K_IDS, K_HOLES = 1, 2, 3, 4, 5, 6, 7

# How hard each class is to find and to classify (multiplies a team's error rates).
CLASS_DIFFICULTY = np.array([0.6, 1.3, 1.35, 1.5, 1.8, 0.85, 0.7])
# The class a model confuses each class with (two choices each, by CLASSES index).
CONFUSIONS = np.array([
    [POSITION, CLAIM],        # Lead
    [CLAIM, LEAD],            # Position
    [EVIDENCE, POSITION],     # Claim
    [CLAIM, REBUTTAL],        # Counterclaim
    [CLAIM, EVIDENCE],        # Rebuttal
    [CLAIM, REBUTTAL],        # Evidence
    [CLAIM, POSITION],        # Concluding Statement
])
# Length (words) of each class in --no-text mode: mean, sd, min, max (Feedback-Prize-like).
LENGTHS = np.array([
    [48, 16, 12, 110],   # Lead
    [17, 6, 5, 40],      # Position
    [15, 5, 4, 40],      # Claim
    [26, 9, 8, 70],      # Counterclaim
    [26, 9, 8, 70],      # Rebuttal
    [62, 22, 18, 170],   # Evidence
    [42, 15, 10, 110],   # Concluding Statement
], dtype=float)


# --------------------------------------------------------------------------------------
# Teams


@dataclass(frozen=True)
class Team:
    """A simulated model. Rates are per ground-truth segment, before class difficulty."""

    name: str
    profile: str
    runtime: float            # seconds for the (hidden) test-set inference run
    miss: float = 0.12        # segment not predicted at all
    confuse: float = 0.07     # predicted with a confusable class
    blunder: float = 0.06     # boundaries far off (fails the overlap threshold)
    jitter: float = 0.04      # sd of each boundary shift, as a fraction of the segment length
    split: float = 0.03       # a long segment predicted as two pieces
    gap_fp: float = 0.05      # a filler stretch predicted as an element
    dup: float = 0.0          # an extra, shifted copy overlapping the segment (sloppy post-processing)
    eff_mu: float = 1.0       # mean logit of the probability given to the right label
    eff_sd: float = 0.9
    ell_factor: float = 1.15  # error rates are multiplied by this on ELL essays
    ell_eff_drop: float = 0.0  # eff_mu is lowered by this on ELL essays
    shrink: tuple[float, float] = (0.0, 0.0)  # loose spans: fraction of words trimmed / added
    hedge: float = 0.0        # hedges: a second copy (other class or tighter span) of uncertain segments
    blunder_modes: tuple[int, ...] = (0, 1, 2, 3)  # truncate at start/end, run over end/start
    disjoint: bool = True     # post-processing makes the spans disjoint (one tag per word)
    uninformative: bool = False  # effectiveness probabilities carry no information
    trivial: bool = False     # the rule-based baseline


TEAMS: tuple[Team, ...] = (
    Team(
        "deep-ensemble",
        "Ten large transformers averaged together: the most accurate model on the board, and by far "
        "the slowest to run.",
        runtime=8640.0, miss=0.09, confuse=0.05, blunder=0.055, jitter=0.03, eff_mu=1.35, dup=0.01,
    ),
    Team(
        "quick-silver",
        "One distilled model, nearly as accurate as the best and five times faster: the efficiency "
        "boost lifts it to first place.",
        runtime=1710.0, miss=0.097, confuse=0.057, blunder=0.062, jitter=0.032, eff_mu=1.28, dup=0.01,
    ),
    Team(
        "midnight-oil",
        "A careful, solid model with a slow pipeline: close to the top, but too slow for much of a "
        "boost.",
        runtime=5230.0, miss=0.12, confuse=0.07, blunder=0.075, jitter=0.035, eff_mu=1.1, dup=0.015,
    ),
    Team(
        "double-dippers",
        "Overlap exploiter: emits a second copy of every uncertain segment with another class. First "
        "on the original FP1 metric, which rewards the hedge; overlap removal keeps only the first "
        "copy and it drops down the board.",
        runtime=4410.0, miss=0.04, confuse=0.12, blunder=0.10, jitter=0.03, eff_mu=1.1, hedge=0.02,
        blunder_modes=(2, 3), disjoint=False,
    ),
    Team(
        "broad-strokes",
        "Sloppy boundaries: finds the right elements with the right class but trims or pads their "
        "spans. Max-overlap quality barely notices; IoU does.",
        runtime=3050.0, miss=0.08, confuse=0.05, blunder=0.05, jitter=0.02, eff_mu=1.15,
        shrink=(0.2, 0.44), dup=0.01,
    ),
    Team(
        "coin-flippers",
        "Good spans, uninformative effectiveness: every probability is close to a coin flip. Strong "
        "on segmentation alone, it falls as the segmentation weight w decreases.",
        runtime=2620.0, miss=0.09, confuse=0.055, blunder=0.06, jitter=0.03, uninformative=True,
        dup=0.01,
    ),
    Team(
        "narrow-lens",
        "Biased: trained almost only on essays by native speakers. Strong on non-ELL essays, weak on "
        "English-language learners; it falls as the bias temperature alpha grows.",
        runtime=4980.0, miss=0.085, confuse=0.055, blunder=0.055, jitter=0.03, eff_mu=1.25,
        ell_factor=3.0, ell_eff_drop=0.8, dup=0.01,
    ),
    Team(
        "first-timers",
        "A first competition entry: fast-ish and clearly weaker than the rest.",
        runtime=2140.0, miss=0.24, confuse=0.14, blunder=0.14, jitter=0.06, eff_mu=0.6, dup=0.03,
        gap_fp=0.1,
    ),
    Team(
        "print-statement",
        "Trivial baseline: labels the same fixed stretches of every essay (first tenth Lead, last tenth "
        "Concluding Statement...) in seconds. Very fast and very poor, so never eligible for the "
        "efficiency boost -- the memo's safeguard.",
        runtime=38.0, trivial=True,
    ),
)

EXTRA_NAMES = (
    "night-owls", "paper-cranes", "red-pandas", "tensor-tamers", "the-annotators", "byte-sized",
    "grad-students", "steady-eddies", "late-submitters", "tokenizers", "attention-span", "zero-shot", "blue-ridge",
)


def extra_teams(seed: int, k: int) -> list[Team]:
    """Ordinary teams of varied strength and speed, for runs with more than len(TEAMS) teams."""
    rng = np.random.default_rng([seed, K_EXTRA_TEAMS])
    out = []
    for i in range(k):
        skill = rng.uniform(0.0, 1.0)  # 0 strong .. 1 weak
        name = EXTRA_NAMES[i] if i < len(EXTRA_NAMES) else f"team-{i + 1:02d}"
        out.append(Team(
            name, "An ordinary team.",
            runtime=round(float(rng.uniform(1200.0, 9000.0)), 1),
            miss=0.09 + 0.15 * skill, confuse=0.05 + 0.08 * skill, blunder=0.05 + 0.08 * skill,
            jitter=0.03 + 0.03 * skill, eff_mu=1.2 - 0.6 * skill, dup=round(float(rng.uniform(0, 0.03)), 3),
        ))
    return out


def teams_for(seed: int, n_submissions: int) -> list[Team]:
    if n_submissions <= len(TEAMS):
        return list(TEAMS[:n_submissions])
    return list(TEAMS) + extra_teams(seed, n_submissions - len(TEAMS))


# --------------------------------------------------------------------------------------
# Demographics


def _categorical(rng, probs_rows: np.ndarray, choose_row: np.ndarray) -> np.ndarray:
    """Draw one category per item; item i uses the probability row choose_row[i]."""
    cum = np.cumsum(probs_rows, axis=1)
    cum[:, -1] = 1.0
    u = rng.random(len(choose_row))
    return (u[:, None] >= cum[choose_row]).sum(axis=1)


RACES = ("White", "Hispanic/Latino", "Black/African American", "Asian/Pacific Islander",
         "Two or more races/Other", "American Indian/Alaskan Native")
RACE_P = np.array([
    [0.50, 0.20, 0.19, 0.05, 0.05, 0.01],  # not ELL
    [0.08, 0.62, 0.08, 0.18, 0.03, 0.01],  # ELL
])
GRADES = ("6", "7", "8", "9", "10", "11", "12")
GRADE_P = np.array([[0.10, 0.12, 0.25, 0.13, 0.22, 0.10, 0.08]])


@dataclass
class Demographics:
    ell: np.ndarray          # bool per essay (the truth, also for essays with no row)
    has_row: np.ndarray      # bool per essay
    columns: dict = field(default_factory=dict)  # attribute -> array of str values


def make_demographics(seed: int, n: int) -> Demographics:
    rng = np.random.default_rng([seed, K_DEMO])
    ell = rng.random(n) < 0.18
    ell_i = ell.astype(int)
    econ = rng.random(n) < np.where(ell, 0.72, 0.38)
    gender = rng.random(n) < 0.51
    race = _categorical(rng, RACE_P, ell_i)
    grade = _categorical(rng, GRADE_P, np.zeros(n, dtype=int))
    has_row = rng.random(n) >= 0.045
    cols = {
        "ell_status": np.where(ell, "Yes", "No"),
        "economically_disadvantaged": np.where(econ, "Yes", "No"),
        "gender": np.where(gender, "F", "M"),
        "race_ethnicity": np.array(RACES, dtype=object)[race],
        "grade_level": np.array(GRADES, dtype=object)[grade],
    }
    return Demographics(ell=ell, has_row=has_row, columns=cols)


def make_ids(seed: int, n: int) -> list[str]:
    rng = np.random.default_rng([seed, K_IDS])
    ids: list[str] = []
    seen: set[str] = set()
    while len(ids) < n:
        for v in rng.integers(0, 2**48, size=n - len(ids), dtype=np.int64).tolist():
            s = f"{v:012X}"
            if s not in seen:
                seen.add(s)
                ids.append(s)
    return ids


# --------------------------------------------------------------------------------------
# Essay structure and text


def essay_structure(rng, ell: bool) -> list[tuple[int, bool, int]]:
    """The elements of one essay: (class, effective?, paragraph number), in reading order."""
    quality = rng.normal() - (0.45 if ell else 0.0)
    p_eff = 1.0 / (1.0 + math.exp(-(0.45 + 0.9 * quality)))
    elems: list[tuple[int, int]] = []
    para = 0
    if rng.random() < 0.62:
        elems.append((LEAD, para))
    if rng.random() < 0.93:
        elems.append((POSITION, para))
    n_body = int(rng.choice([1, 2, 3, 4], p=[0.12, 0.38, 0.38, 0.12] if not ell else [0.25, 0.45, 0.25, 0.05]))
    for _ in range(n_body):
        para += 1
        elems.append((CLAIM, para))
        if rng.random() < 0.18:
            elems.append((CLAIM, para))
        if rng.random() < 0.88:
            elems.append((EVIDENCE, para))
        if rng.random() < 0.15:
            elems.append((CLAIM, para))
            elems.append((EVIDENCE, para))
    if rng.random() < 0.32:
        para += 1
        elems.append((COUNTER, para))
        if rng.random() < 0.75:
            elems.append((REBUTTAL, para))
    if rng.random() < 0.88:
        para += 1
        elems.append((CONCLUDING, para))
    return [(c, bool(rng.random() < p_eff), p) for c, p in elems]


_SLOTTED = re.compile(r"\{(reason|reason2|opp_reason|stance|question)\}")


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


class _Writer:
    """Writes the sentences of one essay on one topic and side."""

    def __init__(self, rng, topic: dict, pro: bool):
        self.rng = rng
        self.t = topic
        self.stance = topic["pro"] if pro else topic["con"]
        self.reasons = [topic["pro_reasons" if pro else "con_reasons"][i] for i in rng.permutation(4)]
        self.opp = [topic["con_reasons" if pro else "pro_reasons"][i] for i in rng.permutation(4)]
        self.facts = [topic["pro_facts" if pro else "con_facts"][i] for i in rng.permutation(4)]
        self.n_claim = 0
        self.n_fact = 0
        self.n_opp = 0

    def reason(self) -> str:
        return self.reasons[(self.n_claim - 1) % 4] if self.n_claim else self.reasons[0]

    def fact(self) -> str:
        f = self.facts[self.n_fact % 4]
        self.n_fact += 1
        return f

    def fill(self, template: str) -> str:
        slots = {
            "subject": self.t["subject"], "question": self.t["question"], "stance": self.stance,
            "reason": self.reason(), "reason2": self.reasons[1],
            "opp_reason": self.opp[self.n_opp % 4],
        }
        if "{fact}" in template:
            slots["fact"] = self.fact()
        return _cap(template.format(**slots))

    def element(self, cls: int, effective: bool, target: int) -> str:
        if cls == CLAIM:
            self.n_claim += 1
        pools = {
            LEAD: (T.LEAD, T.LEAD_VAGUE), POSITION: (T.POSITION, T.POSITION_VAGUE),
            CLAIM: (T.CLAIM, T.CLAIM_VAGUE), EVIDENCE: (T.EVIDENCE, T.EVIDENCE_VAGUE),
            COUNTER: (T.COUNTERCLAIM, T.EVIDENCE_VAGUE), REBUTTAL: (T.REBUTTAL, T.EVIDENCE_VAGUE),
            CONCLUDING: (T.CONCLUDING, T.CONCLUDING_VAGUE),
        }
        good, vague = pools[cls]
        one_sentence = cls in (POSITION, CLAIM)
        order_good = [int(i) for i in self.rng.permutation(len(good))]
        order_vague = [int(i) for i in self.rng.permutation(len(vague))]
        sentences: list[str] = []
        words = 0
        slotted = False  # at most one sentence restating the stance, a reason or the question
        while True:
            if (not effective) and order_vague and self.rng.random() < 0.5:
                tpl = vague[order_vague.pop()]
            else:
                usable = [i for i in order_good if not (slotted and _SLOTTED.search(good[i]))]
                if not usable:
                    break
                order_good.remove(usable[-1])
                tpl = good[usable[-1]]
            slotted = slotted or bool(_SLOTTED.search(tpl))
            s = self.fill(tpl)
            sentences.append(s)
            words += len(s.split())
            if one_sentence or words >= target:
                break
        if cls == COUNTER:
            self.n_opp += 1
        return " ".join(sentences)


def _length_target(rng, cls: int) -> int:
    mean, sd, lo, hi = LENGTHS[cls]
    return int(np.clip(round(rng.normal(mean, sd)), lo, hi))


def write_essay(rng, ell: bool) -> tuple[str, list[tuple[int, bool, int, int]]]:
    """Text of one essay and its elements (class, effective, start, end) by word index."""
    topic = T.TOPICS[int(rng.integers(len(T.TOPICS)))]
    w = _Writer(rng, topic, pro=bool(rng.random() < 0.6))
    structure = essay_structure(rng, ell)
    paragraphs: list[list[str]] = []
    spans = []
    pos = 0
    last_para = -1
    for cls, eff, para in structure:
        if para != last_para:
            paragraphs.append([])
            last_para = para
        if pos > 0 and rng.random() < 0.5:
            filler = T.FILLER[int(rng.integers(len(T.FILLER)))]
            paragraphs[-1].append(filler)
            pos += len(filler.split())
        s = w.element(cls, eff, _length_target(rng, cls) - 6)
        n = len(s.split())
        paragraphs[-1].append(s)
        spans.append((cls, eff, pos, pos + n))
        pos += n
    text = "\n\n".join(" ".join(p) for p in paragraphs)
    return text, spans


# --------------------------------------------------------------------------------------
# Layout: the ground truth as arrays


@dataclass
class Layout:
    essay: np.ndarray     # essay index per segment (segments sorted by essay, then start)
    start: np.ndarray     # first word index
    end: np.ndarray       # one past the last word index
    cls: np.ndarray
    eff: np.ndarray       # bool: Effective
    n_words: np.ndarray   # per essay
    ell: np.ndarray       # per essay (truth)
    texts: list[str] | None

    @property
    def n(self) -> int:
        return len(self.start)


def build_layout(seed: int, n_essays: int, demo: Demographics, with_text: bool) -> Layout:
    rng = np.random.default_rng([seed, K_STRUCT])
    essay, start, end, cls, eff, n_words, texts = [], [], [], [], [], [], []
    for i in range(n_essays):
        ell = bool(demo.ell[i])
        while True:
            if with_text:
                text, spans = write_essay(rng, ell)
                total = len(text.split())
            else:
                spans, pos = [], 0
                for c, e, _ in essay_structure(rng, ell):
                    if pos > 0 and rng.random() < 0.3:
                        pos += int(rng.integers(2, 9))
                    n = _length_target(rng, c)
                    spans.append((c, e, pos, pos + n))
                    pos += n
                total = pos + (int(rng.integers(0, 6)) if rng.random() < 0.3 else 0)
            # The sample keeps its files small: long essays are accepted less often there
            # (student essays are mostly short with a long tail anyway).
            accept = math.exp(-max(0, total - SOFT_WORDS) / 80.0) if with_text else 1.0
            if MIN_WORDS <= total <= MAX_WORDS and spans and rng.random() < accept:
                break
        if with_text:
            texts.append(text)
        n_words.append(total)
        for c, e, s, t in spans:
            essay.append(i)
            start.append(s)
            end.append(t)
            cls.append(c)
            eff.append(e)
    return Layout(
        essay=np.array(essay), start=np.array(start), end=np.array(end), cls=np.array(cls),
        eff=np.array(eff, dtype=bool), n_words=np.array(n_words), ell=demo.ell.copy(),
        texts=texts if with_text else None,
    )


# --------------------------------------------------------------------------------------
# Predictions


RHO = 0.96  # weight of the shared per-segment difficulty in every chance event
_ND = NormalDist()


def _threshold(rates: np.ndarray) -> np.ndarray:
    """z such that P(Z < z) = rate, elementwise (rates take few distinct values)."""
    rates = np.clip(rates, 1e-6, 1 - 1e-6)
    uniq, inv = np.unique(rates, return_inverse=True)
    return np.array([_ND.inv_cdf(float(r)) for r in uniq])[inv]


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


@dataclass
class Shared:
    """Per-segment draws shared by every team: how hard each segment is (normals, mixed with
    the team's own noise) and the shape of its typical mistakes (uniforms, used as they are)."""

    det: np.ndarray
    cls: np.ndarray
    bs: np.ndarray
    be: np.ndarray
    blunder: np.ndarray
    eff: np.ndarray
    split: np.ndarray
    gap: np.ndarray
    u_alt: np.ndarray
    u_mode: np.ndarray
    u_size: np.ndarray
    u_cut: np.ndarray
    u_cls2: np.ndarray

    @classmethod
    def draw(cls, seed: int, n: int) -> Shared:
        rng = np.random.default_rng([seed, K_SHARED])
        z = rng.standard_normal((8, n))
        u = rng.random((5, n))
        return cls(*z, *u)


@dataclass
class Predictions:
    essay: np.ndarray
    start: np.ndarray
    end: np.ndarray
    cls: np.ndarray
    p_eff: np.ndarray     # probability of "Effective", rounded to 3 decimals


def simulate_team(lay: Layout, shared: Shared, team: Team, rng) -> Predictions:
    if team.trivial:
        return trivial_predictions(lay)
    n = lay.n
    a, b = RHO, math.sqrt(1 - RHO**2)

    def mix(z: np.ndarray) -> np.ndarray:
        return a * z + b * rng.standard_normal(n)

    ell_seg = lay.ell[lay.essay]
    factor = np.where(ell_seg, team.ell_factor, 1.0) * CLASS_DIFFICULTY[lay.cls]
    length = (lay.end - lay.start).astype(float)

    detected = mix(shared.det) >= _threshold(team.miss * factor)
    confused = mix(shared.cls) < _threshold(team.confuse * factor)
    alt = CONFUSIONS[lay.cls, (shared.u_alt < 0.5).astype(int)]
    pcls = np.where(confused, alt, lay.cls)

    # Boundaries: small jitter, loose spans (shrink), or a blunder.
    s = lay.start + np.rint(team.jitter * length * mix(shared.bs)).astype(int)
    e = lay.end + np.rint(team.jitter * length * mix(shared.be)).astype(int)
    lo, hi = team.shrink
    if hi > 0:
        f = rng.uniform(lo, hi, n)
        cut = np.rint(f * length).astype(int)
        left = np.rint(rng.random(n) * cut).astype(int)
        pad = rng.random(n) < 0.3
        s = np.where(pad, lay.start - left, lay.start + left)
        e = np.where(pad, lay.end + (cut - left), lay.end - (cut - left))
    good_s, good_e = s, e
    blunder = mix(shared.blunder) < _threshold(team.blunder * factor)
    modes = np.array(team.blunder_modes)
    mode = modes[np.minimum((shared.u_mode * len(modes)).astype(int), len(modes) - 1)]
    keep = np.rint((0.2 + 0.25 * shared.u_size) * length).astype(int)
    grow = np.rint((0.9 + 0.7 * shared.u_size) * length).astype(int)
    s = np.where(blunder & (mode == 0), lay.start, s)
    e = np.where(blunder & (mode == 0), lay.start + keep, e)
    s = np.where(blunder & (mode == 1), lay.end - keep, s)
    e = np.where(blunder & (mode == 1), lay.end, e)
    e = np.where(blunder & (mode == 2), lay.end + grow, e)
    s = np.where(blunder & (mode == 3), lay.start - grow, s)

    # Splits of long segments into two pieces.
    split = detected & (length >= 25) & (mix(shared.split) < _threshold(np.full(n, team.split)))
    cut_at = s + np.rint((0.3 + 0.4 * shared.u_cut) * (e - s)).astype(int)
    cls2 = np.where(shared.u_cls2 < 0.5, pcls, alt)

    # Effectiveness probability for the right label.
    mu = team.eff_mu - np.where(ell_seg, team.ell_eff_drop, 0.0)
    p_right = _sigmoid(mu + team.eff_sd * mix(shared.eff))
    p_e = np.where(lay.eff, p_right, 1 - p_right)

    idx = np.flatnonzero(detected & ~split)
    sp = np.flatnonzero(split)
    no = np.zeros(n, dtype=bool)
    parts = [
        _cols(lay.essay[idx], s[idx], e[idx], pcls[idx], p_e[idx], lay.cls[idx],
              good_s[idx], good_e[idx], blunder[idx]),
        _cols(lay.essay[sp], s[sp], cut_at[sp], pcls[sp], p_e[sp], lay.cls[sp], s[sp], cut_at[sp], no[sp]),
        _cols(lay.essay[sp], cut_at[sp], e[sp], cls2[sp], p_e[sp], lay.cls[sp], cut_at[sp], e[sp], no[sp]),
    ]
    # Filler stretches predicted as elements.
    first = np.r_[True, lay.essay[1:] != lay.essay[:-1]]
    prev_end = np.where(first, 0, np.r_[0, lay.end[:-1]])
    g = np.flatnonzero((lay.start - prev_end >= 3) & (mix(shared.gap) < _threshold(np.full(n, team.gap_fp))))
    parts.append(_cols(
        lay.essay[g], prev_end[g], lay.start[g],
        np.array([CLAIM, EVIDENCE, POSITION])[rng.integers(0, 3, len(g))],
        _sigmoid(rng.normal(0.3, 1.0, len(g))), np.full(len(g), -1), prev_end[g], lay.start[g], no[g],
    ))
    p = _concat(parts)

    # A model tags each word once: clip to the essay and make the spans disjoint.
    nw = lay.n_words[p["essay"]]
    p["start"] = np.clip(p["start"], 0, nw)
    p["end"] = np.clip(p["end"], 0, nw)
    p = _take(p, np.lexsort((p["end"], p["start"], p["essay"])))
    if team.disjoint:
        big = int(lay.n_words.max()) + 1
        run = np.maximum.accumulate(p["end"] + p["essay"] * big)
        p["start"] = np.maximum(p["start"], np.r_[0, run[:-1]] - p["essay"] * big)
    p = _take(p, p["end"] - p["start"] >= 2)
    m = len(p["start"])
    p["rank"] = np.zeros(m, dtype=int)

    # Overlapping extras. Hedge: a second copy written after the first, for the model's
    # uncertain cases (mostly those where the first is wrong): the other class on the same
    # words, or the right span inside a run-over one.
    wrong = (p["true"] >= 0) & (p["cls"] != p["true"])
    unsure = (wrong | p["blunder"]) & (rng.random(m) < 0.95)
    hedge = (unsure | (rng.random(m) < team.hedge)) if team.hedge > 0 else np.zeros(m, dtype=bool)
    h = _take(p, hedge)
    k = len(h["cls"])
    h["cls"] = np.where(h["cls"] != h["true"], np.maximum(h["true"], 0),
                        np.where(h["blunder"], h["cls"], CONFUSIONS[h["cls"], rng.integers(0, 2, k)]))
    h["start"] = np.where(h["blunder"], h["good_s"], h["start"])
    h["end"] = np.where(h["blunder"], h["good_e"], h["end"])
    h["rank"] = np.full(k, 1)
    # Sloppy post-processing: a duplicate shifted to overlap the next words.
    d = _take(p, rng.random(m) < team.dup)
    shift = np.maximum(2, np.rint((d["end"] - d["start"]) * rng.uniform(0.3, 0.6, len(d["end"]))).astype(int))
    d["start"] = np.minimum(d["start"] + shift, d["end"] - 2)
    d["end"] = np.minimum(d["end"] + shift, lay.n_words[d["essay"]])
    d["rank"] = np.full(len(d["end"]), 2)
    p = _concat([p, h, d])
    nw = lay.n_words[p["essay"]]
    p["start"] = np.clip(p["start"], 0, nw)
    p["end"] = np.clip(p["end"], 0, nw)
    p = _take(p, p["end"] - p["start"] >= 2)
    p = _take(p, np.lexsort((p["rank"], p["start"], p["essay"])))

    pp = p["p_eff"]
    if team.uninformative:
        pp = np.clip(rng.normal(0.5, 0.06, len(pp)), 0.02, 0.98)
    pp = np.round(np.clip(pp, 0.001, 0.999), 3)
    return Predictions(p["essay"], p["start"], p["end"], p["cls"], pp)


def _cols(essay, start, end, cls, p_eff, true, good_s, good_e, blunder) -> dict:
    return {"essay": essay, "start": start, "end": end, "cls": cls, "p_eff": p_eff, "true": true,
            "good_s": good_s, "good_e": good_e, "blunder": blunder}


def _concat(parts: list[dict]) -> dict:
    return {k: np.concatenate([q[k] for q in parts]) for k in parts[0]}


def _take(p: dict, sel) -> dict:
    return {k: v[sel] for k, v in p.items()}


def trivial_predictions(lay: Layout) -> Predictions:
    """The same cut for every essay, by position only: the first tenth is the Lead, a short
    stretch after it the Position, one Claim in the middle, the last tenth the Concluding
    Statement; the same probabilities everywhere."""
    nw = lay.n_words
    cuts = [
        (np.zeros_like(nw), np.rint(0.1 * nw), LEAD),
        (np.rint(0.12 * nw), np.rint(0.16 * nw), POSITION),
        (np.rint(0.45 * nw), np.rint(0.45 * nw) + 12, CLAIM),
        (np.rint(0.9 * nw), nw, CONCLUDING),
    ]
    essays = np.arange(len(nw))
    pe = np.concatenate([essays for _ in cuts])
    ps = np.concatenate([c[0] for c in cuts]).astype(int)
    pt = np.concatenate([c[1] for c in cuts]).astype(int)
    pc = np.concatenate([np.full(len(nw), c[2]) for c in cuts])
    order = np.lexsort((ps, pe))
    return Predictions(pe[order], ps[order], pt[order], pc[order], np.full(len(pe), 0.6))


# --------------------------------------------------------------------------------------
# Writing


class _Ranges:
    """Predictionstrings of contiguous ranges, sliced from one long string of numbers."""

    def __init__(self, n: int):
        parts = [str(i) for i in range(n + 1)]
        self.s = " ".join(parts)
        offs = np.cumsum([0] + [len(p) + 1 for p in parts])
        self.off = offs.tolist()

    def get(self, a: int, b: int) -> str:
        return self.s[self.off[a]: self.off[b] - 1]


def _ps_strings(ranges: _Ranges, start: np.ndarray, end: np.ndarray) -> list[str]:
    return [ranges.get(a, b) for a, b in zip(start.tolist(), end.tolist(), strict=True)]


def punch_holes(ranges: _Ranges, ps: list[str], start: np.ndarray, end: np.ndarray, share: float,
                rng) -> np.ndarray:
    """Give ``share`` of the predictions of 4+ words a hole of 1-3 inner words (``"3 4 7 8"``),
    as real submissions have; rewrites ``ps`` in place and returns the holed positions. Its own
    random stream, so the rest of the competition does not change with ``share``."""
    length = end - start  # end is exclusive
    holed = np.flatnonzero((length >= 4) & (rng.random(len(start)) < share))
    cut = start[holed] + 1 + (rng.random(len(holed)) * (length[holed] - 2)).astype(np.int64)  # first missing word
    resume = np.minimum(cut + rng.integers(1, 4, len(holed)), end[holed] - 1)  # first word after the hole
    for i, a, c, r, b in zip(holed.tolist(), start[holed].tolist(), cut.tolist(), resume.tolist(),
                             end[holed].tolist(), strict=True):
        ps[i] = ranges.get(a, c) + " " + ranges.get(r, b)
    return holed


def _write(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines))
        f.write("\n")


def generate(out: Path, *, n_essays: int = DEFAULT_ESSAYS, n_submissions: int = len(TEAMS),
             seed: int = DEFAULT_SEED, with_text: bool = True, teams_json: Path | None = None,
             holes: float = 0.0, log=None) -> dict:
    """Write one competition into ``out``; returns a small summary (counts). ``holes``: the
    share of predictions (of 4+ words) written with a hole (non-contiguous)."""
    t0 = time.perf_counter()
    out = Path(out)
    demo = make_demographics(seed, n_essays)
    ids = make_ids(seed, n_essays)
    lay = build_layout(seed, n_essays, demo, with_text)
    if log:
        log(f"layout: {n_essays} essays, {lay.n} segments ({time.perf_counter() - t0:.1f}s)")
    ranges = _Ranges(int(lay.n_words.max()) + 2)
    ids_arr = np.array(ids, dtype=object)
    cls_arr = np.array(CLASSES, dtype=object)

    gt_ps = _ps_strings(ranges, lay.start, lay.end)
    gt_lines = ["id,discourse_type,predictionstring,discourse_effectiveness"]
    gt_lines += [
        f"{i},{c},{p},{'Effective' if e else 'Ineffective'}"
        for i, c, p, e in zip(ids_arr[lay.essay], cls_arr[lay.cls], gt_ps, lay.eff.tolist(), strict=True)
    ]
    _write(out / "ground_truth.csv", gt_lines)

    attrs = list(demo.columns)
    demo_lines = [",".join(["id"] + attrs)]
    for i in np.flatnonzero(demo.has_row).tolist():
        demo_lines.append(",".join([ids[i]] + [str(demo.columns[a][i]) for a in attrs]))
    _write(out / "demographics.csv", demo_lines)

    if with_text:
        buf = io.StringIO(newline="")
        wr = csv.writer(buf, lineterminator="\n")
        wr.writerow(["id", "text"])
        for i, t in zip(ids, lay.texts, strict=True):
            wr.writerow([i, t])
        (out / "essays.csv").write_text(buf.getvalue(), encoding="utf-8", newline="")

    teams = teams_for(seed, n_submissions)
    shared = Shared.draw(seed, lay.n)
    sub_dir = out / "submissions"
    sub_dir.mkdir(parents=True, exist_ok=True)
    n_rows, n_holed = {}, {}
    for k, team in enumerate(teams):
        rng = np.random.default_rng([seed, K_TEAM, k])
        pr = simulate_team(lay, shared, team, rng)
        ps = _ps_strings(ranges, pr.start, pr.end)
        if holes > 0:
            holed = punch_holes(ranges, ps, pr.start, pr.end, holes, np.random.default_rng([seed, K_HOLES, k]))
            n_holed[team.name] = (len(holed), len(np.unique(pr.essay[holed])))
        pe = [f"{p:.3f}" for p in pr.p_eff.tolist()]
        pi = [f"{1 - p:.3f}" for p in pr.p_eff.tolist()]
        lines = ["id,class,predictionstring,Effective,Ineffective"]
        lines += [
            f"{i},{c},{p},{a},{b}"
            for i, c, p, a, b in zip(ids_arr[pr.essay], cls_arr[pr.cls], ps, pe, pi, strict=True)
        ]
        _write(sub_dir / f"{team.name}.csv", lines)
        n_rows[team.name] = len(ps)
        if log:
            extra = (f", {n_holed[team.name][0]} with a hole in {n_holed[team.name][1]} of {n_essays} essays"
                     if holes > 0 else "")
            log(f"{team.name}: {len(ps)} predictions{extra} ({time.perf_counter() - t0:.1f}s)")

    _write(out / "runtimes.csv", ["submission,runtime"] + [f"{t.name},{t.runtime:.1f}" for t in teams])
    profiles = {t.name: t.profile for t in teams}
    (teams_json or out / "teams.json").write_text(
        json.dumps(profiles, indent=2, ensure_ascii=False) + "\n", encoding="utf-8", newline="\n"
    )
    return {"essays": n_essays, "segments": lay.n, "predictions": n_rows, "holed": n_holed,
            "seconds": time.perf_counter() - t0}


def main(argv: list[str] | None = None) -> int:
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(prog="python -m sample_data.generate", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, help="output folder (default: rewrite the committed sample)")
    ap.add_argument("--essays", type=int, default=DEFAULT_ESSAYS)
    ap.add_argument("--submissions", type=int, default=len(TEAMS))
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--no-text", action="store_true", help="skip essay text (fast; for benchmarks)")
    ap.add_argument("--holes", type=float, default=0.0, metavar="SHARE",
                    help="share of predictions written with a hole, e.g. 0.04 (default 0: all contiguous)")
    args = ap.parse_args(argv)
    if not 0 <= args.holes <= 1:
        ap.error("--holes must be in [0, 1]")
    if args.essays < 1 or args.submissions < 1:
        ap.error("--essays and --submissions must be at least 1")
    if args.out is None:
        out, teams_json = here / "competition", here / "teams.json"
    else:
        out, teams_json = args.out, None

    def log(msg: str) -> None:
        print(msg, file=sys.stderr)

    summary = generate(out, n_essays=args.essays, n_submissions=args.submissions, seed=args.seed,
                       with_text=not args.no_text, teams_json=teams_json, holes=args.holes, log=log)
    log(f"wrote {out} in {summary['seconds']:.1f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
