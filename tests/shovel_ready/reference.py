"""A slow, independent reference implementation of SPEC §1–§6.

Written straight from the words of ``SPEC.md`` (and the memo it refines) in plain Python:
loops, sets and exact ``fractions.Fraction`` arithmetic for everything up to the segment
scores; floats only where the SPEC itself needs ``exp`` (softmin) or works on runtimes.
It deliberately does not import anything from ``scoring``: the randomized comparison tests
are only worth something if the two implementations are independent.

Inputs are the same as ``scoring.load_competition`` takes as DataFrames (every cell text) and
the same parameters as ``Scorer.leaderboard``.  Only well-formed input is supported (the
generator in ``tests/randomcomp.py`` produces nothing else); bad input raises ``ValueError``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import pandas as pd

TOL = 1e-12  # the SPEC's comparison tolerance (candidates, eligibility, window, ranks)
MISSING = "(missing)"
STAGES = ("fp1", "overlap_removed", "segment_score", "bias_score", "final_score")
QUALITIES = ("binary", "max", "iou")

GT_COLUMNS = ("id", "discourse_type", "predictionstring", "discourse_effectiveness")
SUB_COLUMNS = ("id", "class", "predictionstring")


# --------------------------------------------------------------------------------------------
# §1 Data
# --------------------------------------------------------------------------------------------


def cell_text(value: object) -> str:
    """A cell's value: the stripped text; only an empty cell is missing (returns "")."""
    if value is None:
        return ""
    if isinstance(value, float) and math.isnan(value):
        return ""
    return str(value).strip()


def parse_words(text: str) -> frozenset[int]:
    """The set of word indices of a predictionstring (duplicates collapse)."""
    words: set[int] = set()
    for token in text.split(" "):
        if token == "":
            continue  # only reachable for stray inner spaces; the generator never makes them
        if not (token.isascii() and token.isdigit()):
            raise ValueError(f"not a non-negative integer word index: {token!r}")
        words.add(int(token))
    return frozenset(words)


def canonical(words: Iterable[int]) -> str:
    """Sorted unique integers joined by single spaces."""
    return " ".join(str(i) for i in sorted(set(words)))


@dataclass(eq=False)
class GroundTruth:
    essay: str
    cls: str
    words: frozenset[int]
    label: str
    row: int  # spreadsheet row (header = 1)

    @property
    def text(self) -> str:
        return canonical(self.words)


@dataclass(eq=False)
class Prediction:
    essay: str
    cls: str
    words: frozenset[int]
    probs: dict[str, Fraction]
    row: int  # spreadsheet row in its submission file (header = 1), kept after §2

    def d(self, label: str) -> Fraction:
        """``d[E]``: the probability given for ``label`` (0 when the file has no such column)."""
        return self.probs.get(label, Fraction(0))


@dataclass
class RefCompetition:
    ground_truth: list[GroundTruth]
    essays: list[str]  # ground-truth essays, first-appearance order
    submissions: dict[str, list[Prediction]]  # only rows of known essays, file order
    demographics: dict[str, dict[str, str]] | None  # essay -> attribute -> value
    runtimes: dict[str, float]  # only known submissions
    labels: list[str] = field(default_factory=list)


def _records(df: pd.DataFrame) -> list[dict[str, str]]:
    out = []
    for i in range(len(df)):
        out.append({str(col): cell_text(df.iloc[i][col]) for col in df.columns})
    return out


def load_ground_truth(df: pd.DataFrame) -> list[GroundTruth]:
    missing = [c for c in GT_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"ground truth lacks columns {missing}")
    out = []
    for i, rec in enumerate(_records(df)):
        text = rec["predictionstring"]
        if text == "":
            continue  # an empty predictionstring is not a segment
        out.append(
            GroundTruth(
                essay=rec["id"],
                cls=rec["discourse_type"],
                words=parse_words(text),
                label=rec["discourse_effectiveness"],
                row=i + 2,
            )
        )
    return out


def load_submission(df: pd.DataFrame, known_essays: set[str]) -> list[Prediction]:
    missing = [c for c in SUB_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"submission lacks columns {missing}")
    prob_columns = [str(c) for c in df.columns if str(c) not in SUB_COLUMNS]
    out = []
    for i, rec in enumerate(_records(df)):
        if rec["id"] not in known_essays:
            continue  # rows of essays not in the ground truth are ignored
        text = rec["predictionstring"]
        if text == "":
            continue
        probs = {c: Fraction(rec[c]) for c in prob_columns}
        out.append(Prediction(essay=rec["id"], cls=rec["class"], words=parse_words(text), probs=probs, row=i + 2))
    return out


def load_demographics(df: pd.DataFrame | None) -> dict[str, dict[str, str]] | None:
    if df is None:
        return None
    attrs = [str(c) for c in df.columns if str(c) != "id"]
    out: dict[str, dict[str, str]] = {}
    for rec in _records(df):
        if rec["id"] in out:
            raise ValueError(f"duplicate id in demographics: {rec['id']}")
        out[rec["id"]] = {a: (rec[a] if rec[a] != "" else MISSING) for a in attrs}
    return out


def load_runtimes(src: pd.DataFrame | Mapping[str, float] | None, names: Sequence[str]) -> dict[str, float]:
    if src is None:
        return {}
    if isinstance(src, pd.DataFrame):
        pairs = [(rec["submission"], float(rec["runtime"])) for rec in _records(src)]
    else:
        pairs = [(str(k), float(v)) for k, v in src.items()]
    out = {}
    for name, runtime in pairs:
        if not runtime > 0:
            raise ValueError(f"bad runtime for {name}")
        if name in names:  # rows of unknown submissions are ignored
            out[name] = runtime
    return out


def load(
    ground_truth: pd.DataFrame,
    submissions: Mapping[str, pd.DataFrame],
    demographics: pd.DataFrame | None = None,
    runtimes: pd.DataFrame | Mapping[str, float] | None = None,
) -> RefCompetition:
    gts = load_ground_truth(ground_truth)
    essays: list[str] = []
    for g in gts:
        if g.essay not in essays:
            essays.append(g.essay)
    known = set(essays)
    subs = {name: load_submission(df, known) for name, df in submissions.items()}
    labels = sorted({g.label for g in gts})
    return RefCompetition(
        ground_truth=gts,
        essays=essays,
        submissions=subs,
        demographics=load_demographics(demographics),
        runtimes=load_runtimes(runtimes, list(subs)),
        labels=labels,
    )


# --------------------------------------------------------------------------------------------
# §2 Overlap removal
# --------------------------------------------------------------------------------------------


def remove_overlaps(segments: Sequence[Iterable[int]]) -> list[frozenset[int] | None]:
    """SPEC §2 for the segments of one essay given in file order; ``None`` = discarded."""
    sets = [frozenset(s) for s in segments]
    order = sorted(range(len(sets)), key=lambda i: (min(sets[i]), i))
    used: set[int] = set()
    result: list[frozenset[int] | None] = [None] * len(sets)
    for i in order:
        s = sets[i]
        r = s - used
        if r == s:
            result[i] = s
        elif len(r) >= 2 and max(r) - min(r) + 1 == len(r):
            result[i] = frozenset(r)
        else:
            result[i] = None
        used |= s  # all words of S as submitted, kept or not
    return result


def remove_overlaps_predictions(preds: list[Prediction]) -> list[Prediction]:
    """Apply §2 per essay across all classes; keeps file rows, drops discarded segments."""
    by_essay: dict[str, list[Prediction]] = {}
    for p in preds:
        by_essay.setdefault(p.essay, []).append(p)
    kept: list[Prediction] = []
    for essay_preds in by_essay.values():
        essay_preds = sorted(essay_preds, key=lambda p: p.row)  # file order
        new_words = remove_overlaps([p.words for p in essay_preds])
        for p, words in zip(essay_preds, new_words, strict=True):
            if words is not None:
                kept.append(Prediction(essay=p.essay, cls=p.cls, words=words, probs=p.probs, row=p.row))
    kept.sort(key=lambda p: p.row)
    return kept


# --------------------------------------------------------------------------------------------
# §3 Segment scoring
# --------------------------------------------------------------------------------------------


@dataclass
class PairStats:
    inter: int
    o_p: Fraction
    o_g: Fraction
    iou: Fraction


def pair_stats(pred: frozenset[int], gt: frozenset[int]) -> PairStats:
    inter = len(pred & gt)
    return PairStats(
        inter=inter,
        o_p=Fraction(inter, len(pred)),
        o_g=Fraction(inter, len(gt)),
        iou=Fraction(inter, len(pred | gt)),
    )


def is_candidate(st: PairStats, threshold: float) -> bool:
    return st.inter > 0 and st.o_p >= threshold - TOL and st.o_g >= threshold - TOL


def quality_value(st: PairStats, quality: str) -> Fraction:
    if quality == "binary":
        return Fraction(1)
    if quality == "max":
        return max(st.o_p, st.o_g)
    if quality == "iou":
        return st.iou
    raise ValueError(f"quality must be binary, max or iou, not {quality!r}")


def selection_key(st: PairStats, quality: str) -> Fraction:
    return st.iou if quality == "iou" else max(st.o_p, st.o_g)


def tp_value(st: PairStats, d: Fraction, w: float, quality: str) -> Fraction:
    """``TP_P = w·q + (1 − w)·d[E]`` (exact, with the float ``w`` taken at its exact value)."""
    wf = Fraction(w)
    return wf * quality_value(st, quality) + (1 - wf) * d


def fractional_tp(pred: Iterable[int], gt: Iterable[int], *, d: float, w: float = 0.5,
                  quality: str = "iou", threshold: float = 0.51) -> Fraction:
    """TP_P of one prediction/ground-truth pair, 0 when they are not a candidate pair."""
    st = pair_stats(frozenset(pred), frozenset(gt))
    if not is_candidate(st, threshold):
        return Fraction(0)
    return tp_value(st, Fraction(d), w, quality)


def match_essay_class(
    gts: list[GroundTruth], preds: list[Prediction], *, w: float, quality: str, threshold: float
) -> tuple[list[tuple[GroundTruth, Prediction, Fraction]], list[GroundTruth], list[Prediction]]:
    """One-to-one deterministic greedy matching for one essay and one class.

    Returns (matched (gt, pred, TP_P) triples, unmatched ground truths, unmatched predictions).
    """
    candidates = []
    for gi, g in enumerate(gts):
        for pi, p in enumerate(preds):
            st = pair_stats(p.words, g.words)
            if is_candidate(st, threshold):
                sort_key = (-selection_key(st, quality), min(g.words), min(p.words), p.row, g.row)
                candidates.append((sort_key, gi, pi, st))
    candidates.sort(key=lambda c: c[0])
    gt_taken: set[int] = set()
    pred_taken: set[int] = set()
    matched = []
    for _key, gi, pi, st in candidates:
        if gi in gt_taken or pi in pred_taken:
            continue
        gt_taken.add(gi)
        pred_taken.add(pi)
        g, p = gts[gi], preds[pi]
        matched.append((g, p, tp_value(st, p.d(g.label), w, quality)))
    unmatched_g = [g for gi, g in enumerate(gts) if gi not in gt_taken]
    unmatched_p = [p for pi, p in enumerate(preds) if pi not in pred_taken]
    return matched, unmatched_g, unmatched_p


@dataclass
class ClassCounts:
    tp: Fraction = Fraction(0)
    fp: Fraction = Fraction(0)
    fn: Fraction = Fraction(0)

    @property
    def f1(self) -> Fraction:
        return self.tp / (self.tp + Fraction(1, 2) * (self.fp + self.fn))


def segment_counts(
    gts: list[GroundTruth], preds: list[Prediction], essays: Iterable[str], *, w: float, quality: str,
    threshold: float,
) -> dict[str, ClassCounts]:
    """TP/FP/FN per class over the given essays, for the classes in their ground truth."""
    essay_set = set(essays)
    gts_in = [g for g in gts if g.essay in essay_set]
    preds_in = [p for p in preds if p.essay in essay_set]
    classes = sorted({g.cls for g in gts_in})
    counts = {}
    for c in classes:
        cc = ClassCounts()
        for e in sorted(essay_set):
            g_ec = [g for g in gts_in if g.essay == e and g.cls == c]
            p_ec = [p for p in preds_in if p.essay == e and p.cls == c]
            matched, un_g, un_p = match_essay_class(g_ec, p_ec, w=w, quality=quality, threshold=threshold)
            for _g, _p, tp in matched:
                cc.tp += tp
                cc.fn += 1 - tp
            cc.fn += len(un_g)
            cc.fp += len(un_p)
        counts[c] = cc
    return counts


def segment_score(
    gts: list[GroundTruth], preds: list[Prediction], essays: Iterable[str], *, w: float, quality: str,
    threshold: float,
) -> Fraction:
    counts = segment_counts(gts, preds, essays, w=w, quality=quality, threshold=threshold)
    if not counts:
        raise ValueError("no ground truth in these essays")
    return sum((cc.f1 for cc in counts.values()), Fraction(0)) / len(counts)


# --------------------------------------------------------------------------------------------
# §3 The original FP1 metric
# --------------------------------------------------------------------------------------------


def fp1_class_counts(gts: list[GroundTruth], preds: list[Prediction], cls: str) -> tuple[int, int, int]:
    """(TP, FP, FN) of the original FP1 metric for one class, quirks included."""
    g_c = [g for g in gts if g.cls == cls]
    p_c = [p for p in preds if p.cls == cls]
    half = Fraction(1, 2)

    def cand(p: Prediction, g: GroundTruth) -> bool:
        if p.essay != g.essay:
            return False
        st = pair_stats(p.words, g.words)
        return st.inter > 0 and st.o_p >= half and st.o_g >= half

    # ground truths grouped by (essay, predictionstring text)
    groups: dict[tuple[str, str], list[GroundTruth]] = {}
    for g in g_c:
        groups.setdefault((g.essay, g.text), []).append(g)

    tp = 0
    best_preds: set[int] = set()  # indices into p_c
    for members in groups.values():
        g = members[0]  # identical strings: the same candidates for every member
        best = None
        for pi, p in enumerate(p_c):
            if cand(p, g):
                st = pair_stats(p.words, g.words)
                key = (max(st.o_p, st.o_g), -p.row)
                if best is None or key > best[0]:
                    best = (key, pi)
        if best is not None:
            tp += 1
            best_preds.add(best[1])
    fp = sum(1 for pi in range(len(p_c)) if pi not in best_preds)
    fn = sum(1 for g in g_c if not any(cand(p, g) for p in p_c))

    essays_with_pred = {p.essay for p in p_c}
    essays_with_gt = {g.essay for g in g_c}
    if any(g.essay not in essays_with_pred for g in g_c):
        fp += 1  # quirk: a ground truth in an essay with no prediction of this class
    if any(p.essay not in essays_with_gt for p in p_c):
        fn += 1  # quirk: a prediction in an essay with no ground truth of this class
    return tp, fp, fn


def fp1_score(gts: list[GroundTruth], preds: list[Prediction]) -> Fraction:
    classes = sorted({g.cls for g in gts})
    if not classes:
        raise ValueError("empty ground truth")
    total = Fraction(0)
    for c in classes:
        tp, fp, fn = fp1_class_counts(gts, preds, c)
        total += Fraction(tp) / (tp + Fraction(fp + fn, 2))
    return total / len(classes)


def fp1_from_frames(gt_df: pd.DataFrame, sub_df: pd.DataFrame, *, keep_unknown_essays: bool = True) -> Fraction:
    """FP1 straight from two DataFrames.

    ``keep_unknown_essays=True`` keeps predictions of essays absent from the ground truth (they
    trigger the +1 FN quirk, as in the public reference); the leaderboard ignores such rows.
    """
    gts = load_ground_truth(gt_df)
    known = {g.essay for g in gts}
    if keep_unknown_essays:
        known |= {cell_text(v) for v in sub_df["id"]}
    return fp1_score(gts, load_submission(sub_df, known))


# --------------------------------------------------------------------------------------------
# §4 Bias aggregation
# --------------------------------------------------------------------------------------------


def softmin(scores: Sequence[float], sizes: Sequence[float] | None = None, *, alpha: float) -> float:
    """ν = Σ β_i s_i with β_i ∝ n_i e^(−α s_i); α = ∞ is the minimum."""
    scores = [float(s) for s in scores]
    sizes = [1.0] * len(scores) if sizes is None else [float(n) for n in sizes]
    if not scores:
        raise ValueError("no scores")
    if math.isinf(alpha):
        return min(scores)
    s_min = min(scores)
    weights = [n * math.exp(-alpha * (s - s_min)) for s, n in zip(scores, sizes, strict=True)]
    return math.fsum(wt * s for wt, s in zip(weights, scores, strict=True)) / math.fsum(weights)


def group_label(essay: str, demographics: dict[str, dict[str, str]] | None, attributes: Sequence[str]) -> str:
    row = (demographics or {}).get(essay, {})
    return " & ".join(f"{a}={row.get(a, MISSING)}" for a in attributes)


def groups_of(comp: RefCompetition, attributes: Sequence[str], exclude_missing: bool = False) -> dict[str, list[str]]:
    """Non-empty groups of the cross product of the attributes: label -> essays. With
    ``exclude_missing`` an essay lacking a value for any of the attributes is in no group."""
    out: dict[str, list[str]] = {}
    for e in comp.essays:
        row = (comp.demographics or {}).get(e, {})
        if exclude_missing and any(row.get(a, MISSING) == MISSING for a in attributes):
            continue
        out.setdefault(group_label(e, comp.demographics, attributes), []).append(e)
    return out


# --------------------------------------------------------------------------------------------
# §5 Efficiency boost and §6 ranks
# --------------------------------------------------------------------------------------------


def competition_ranks(values: Mapping[str, float]) -> dict[str, int]:
    """Higher is better; scores within 1e-12 share the better rank (1, 2, 2, 4)."""
    return {k: 1 + sum(1 for j in values if values[j] > values[k] + TOL) for k in values}


@dataclass
class BoostRow:
    score: float
    runtime: float | None
    eligible: bool
    boost: float
    final_score: float
    rank: int = 0


def efficiency_boost(
    scores: Mapping[str, float], runtimes: Mapping[str, float], *, band: float = 0.05,
    max_boost: float = 0.05, window: float = 0.2,
) -> dict[str, BoostRow]:
    best = max(scores.values())
    eligible = {
        k: (k in runtimes and x > 0 and best / x <= 1 + band + TOL) for k, x in scores.items()
    }
    eligible_runtimes = [runtimes[k] for k in scores if eligible[k]]
    fastest = min(eligible_runtimes) if eligible_runtimes else None
    rows = {}
    for k, x in scores.items():
        boost = 0.0
        if eligible[k] and fastest is not None:
            ratio = runtimes[k] / fastest
            if ratio <= 1 + window + TOL:
                boost = max(0.0, max_boost * (1 - (ratio - 1) / window))
                if boost < TOL:
                    boost = 0.0
        rows[k] = BoostRow(score=x, runtime=runtimes.get(k), eligible=eligible[k], boost=boost,
                           final_score=x * (1 + boost))
    ranks = competition_ranks({k: r.final_score for k, r in rows.items()})
    for k, r in rows.items():
        r.rank = ranks[k]
    return rows


# --------------------------------------------------------------------------------------------
# §6 The leaderboard
# --------------------------------------------------------------------------------------------


def leaderboard(
    ground_truth: pd.DataFrame,
    submissions: Mapping[str, pd.DataFrame],
    demographics: pd.DataFrame | None = None,
    runtimes: pd.DataFrame | Mapping[str, float] | None = None,
    *,
    w: float = 0.5,
    quality: str = "iou",
    threshold: float = 0.51,
    alpha: float = 50.0,
    attributes: Sequence[str] = (),
    band: float = 0.05,
    max_boost: float = 0.05,
    window: float = 0.2,
    overlap_removal: bool = True,
    exclude_missing: bool = False,
) -> dict[str, dict]:
    """Per submission: every stage score and rank, eligibility, boost and group scores."""
    if quality not in QUALITIES:
        raise ValueError(f"quality must be one of {QUALITIES}")
    if not (0 <= w <= 1) or not (0 < threshold <= 1) or not (alpha >= 0):
        raise ValueError("parameter out of range")
    comp = load(ground_truth, submissions, demographics, runtimes)
    attributes = list(attributes)
    if attributes and comp.demographics is None:
        raise ValueError("attributes need demographics")
    groups = groups_of(comp, attributes, exclude_missing) if attributes else {}

    out: dict[str, dict] = {}
    for name, preds in comp.submissions.items():
        removed = remove_overlaps_predictions(preds)
        scored = removed if overlap_removal else preds
        kw = {"w": w, "quality": quality, "threshold": threshold}
        seg = segment_score(comp.ground_truth, scored, comp.essays, **kw)
        group_scores = {
            label: float(segment_score(comp.ground_truth, scored, members, **kw))
            for label, members in groups.items()
        }
        if group_scores:
            labels = list(group_scores)
            bias = softmin([group_scores[lb] for lb in labels], [len(groups[lb]) for lb in labels], alpha=alpha)
        else:
            bias = float(seg)
        out[name] = {
            "fp1": float(fp1_score(comp.ground_truth, preds)),
            "overlap_removed": float(fp1_score(comp.ground_truth, removed)),
            "segment_score": float(seg),
            "bias_score": bias,
            "groups": group_scores,
            "group_sizes": {label: len(members) for label, members in groups.items()},
        }
    for stage in ("fp1", "overlap_removed", "segment_score", "bias_score"):
        ranks = competition_ranks({k: v[stage] for k, v in out.items()})
        for k in out:
            out[k][f"{stage}_rank"] = ranks[k]
    if out:
        boosted = efficiency_boost({k: v["bias_score"] for k, v in out.items()}, comp.runtimes,
                                   band=band, max_boost=max_boost, window=window)
        for k, row in boosted.items():
            out[k].update(eligible=row.eligible, boost=row.boost, final_score=row.final_score, rank=row.rank)
    return out
