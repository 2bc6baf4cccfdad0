"""Small functional pieces: one pair's fractional TP, overlap removal on plain lists, one
essay explained (read off the scorer's own matching), and FP1 straight from two DataFrames.
They call the same vectorised functions as the :class:`~scoring.Scorer`."""

from __future__ import annotations

import contextvars
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..core.csvread import single_threaded
from ..core.errors import InputError
from ..core.sources import source_name
from .competition import Competition
from .data import (
    SUB_COLUMNS,
    GroundTruth,
    ScannedSubmission,
    finish_ground_truth,
    ground_truth_segments,
    load_ground_truth_table,
    parse_submission,
    scan_ground_truth,
    scan_submission,
)
from .fp1 import fp1_from_pairs
from .matching import check_segment_params, fractional_tp_values, overlaps, quality_values
from .scorer import Scorer
from .segments import overlapping_pairs, segs_from_sets
from .segments import remove_overlaps as _remove_overlaps_segs


def remove_overlaps(segments) -> list[tuple[int, ...] | None]:
    """SPEC §2 overlap removal on the segments of one essay, given in file order.

    Returns, per segment, its kept words as a sorted tuple, or ``None`` when discarded.

    >>> remove_overlaps([range(10, 20), range(15, 25), range(16, 18)])
    [(10, 11, 12, 13, 14, 15, 16, 17, 18, 19), (20, 21, 22, 23, 24), None]
    """
    sets = [set(int(x) for x in s) for s in segments]
    nonempty = [i for i, s in enumerate(sets) if s]
    segs = segs_from_sets([sets[i] for i in nonempty], row=np.arange(len(nonempty)))
    kept, pos = _remove_overlaps_segs(segs)
    out: list[tuple[int, ...] | None] = [None] * len(sets)
    for j, i in enumerate(pos.tolist()):
        out[nonempty[i]] = tuple(kept.words(j))
    return out


def fractional_tp(pred, gt, *, d: float, w: float = 0.5, quality: str = "iou", threshold: float = 0.51) -> float:
    """Fractional true positive of one prediction against one ground truth (SPEC §3).

    ``TP_P = w·q + (1 − w)·d`` when ``o_P ≥ t`` and ``o_G ≥ t``, else 0; ``q`` is 1
    (binary), ``max(o_P, o_G)`` (max) or ``|P ∩ G| / |P ∪ G|`` (iou).

    Memo, Table 1 example (a): 9 of 10 words shared, d = 0.8

    >>> round(fractional_tp(range(0, 10), range(1, 11), d=0.8, quality="max"), 3)
    0.85
    >>> round(fractional_tp(range(0, 10), range(1, 11), d=0.8, quality="iou"), 3)
    0.809
    """
    w, quality, threshold = check_segment_params(w, quality, threshold)
    P, G = set(int(x) for x in pred), set(int(x) for x in gt)
    inter = len(P & G)
    if not P or not G or inter == 0:
        return 0.0
    o_p, o_g, iou = (float(x[0]) for x in overlaps(np.array([inter]), np.array([len(P)]), np.array([len(G)])))
    if o_p < threshold - 1e-12 or o_g < threshold - 1e-12:
        return 0.0
    q = float(quality_values(quality, np.array([o_p]), np.array([o_g]), np.array([iou]))[0])
    return float(fractional_tp_values(w, q, float(d)))


def explain_essay(source: Competition | Scorer, name: str, essay_id: str, *, w: float = 0.5, quality: str = "iou",
                  threshold: float = 0.51, overlap_removal: bool = True, submission: pd.DataFrame | None = None
                  ) -> dict[str, pd.DataFrame]:
    """How one essay of one submission is scored (SPEC §2–§3), read off the scorer's own
    matching (``source`` is a :class:`Scorer`, or a competition to build one for).

    Returns DataFrames ``ground_truth`` (the essay's ground truth), ``predictions`` (its raw
    predictions with ``after_removal``: the kept predictionstring, or '' when discarded) and
    ``matches`` (``class, gt_row, pred_row, o_p, o_g, iou, quality, d, tp``; rows as a
    spreadsheet numbers them). Pass ``submission`` (from :meth:`Competition.read_submission`)
    to avoid re-reading the file.
    """
    scorer = source if isinstance(source, Scorer) else Scorer(source)
    comp = scorer.comp
    w, quality, threshold = check_segment_params(w, quality, threshold)
    if name not in scorer.names:
        raise KeyError(f"unknown submission {name!r}")
    k = scorer.names.index(name)
    sub = comp.read_submission(name) if submission is None else submission
    gtab = comp.ground_truth
    g_rows = gtab[gtab["id"] == essay_id].reset_index(drop=True)
    in_essay = (sub["id"] == essay_id).to_numpy()
    p_rows = sub[in_essay].reset_index(drop=True)
    raw, kept = comp.tables(k, False), comp.tables(k, True)
    # the raw table lists submission k's predictions in the order read_submission gives them
    local = {int(r): i for i, r in enumerate(raw.row)}
    raw_size = raw.size
    e = comp.gt.essay_index.get(essay_id, -1)
    mine = np.flatnonzero(kept.essay == e)
    after = dict.fromkeys(np.flatnonzero(in_essay).tolist(), "")
    strings = sub["predictionstring"].to_numpy()
    for j in mine.tolist():
        i = local[int(kept.row[j])]
        size, lo = int(kept.size[j]), int(kept.wmin[j])
        trimmed = size != int(raw_size[i])
        after[i] = " ".join(map(str, range(lo, lo + size))) if trimmed else strings[i]
    preds = p_rows.assign(after_removal=[after[i] for i in np.flatnonzero(in_essay).tolist()])

    T = kept if overlap_removal else raw
    m = scorer.matched(k, bool(overlap_removal), threshold, quality)
    m = m[T.essay[T.p[m]] == e]
    p, g = T.p[m], T.g[m]
    gsegs = comp.gt.segs
    o_p, o_g, iou = overlaps(T.inter[m], T.size[p], gsegs.size[g])
    q = quality_values(quality, o_p, o_g, iou)
    d = T.d[m]
    rows = sub["row"].to_numpy()
    matches = pd.DataFrame({
        "class": [comp.classes[int(c)] for c in gsegs.cls[g]],
        "gt_row": comp.gt.table["row"].to_numpy()[g],
        "pred_row": [int(rows[local[int(r)]]) for r in T.row[p]],
        "o_p": o_p, "o_g": o_g, "iou": iou, "quality": q, "d": d,
        "tp": fractional_tp_values(w, q, d),
    })
    return {"ground_truth": g_rows, "predictions": preds, "matches": matches}


def load_ground_truth(src) -> GroundTruth:
    """Parse and validate a ground truth once (path, bytes, file or DataFrame), e.g. to score
    many submissions with :func:`fp1_score`. FP1 needs no ``discourse_effectiveness``: it is not read."""
    return load_ground_truth_table(src, source_name(src, "ground truth"), [], check_overlaps=False,
                                   effectiveness=False)


def fp1_score(ground_truth, submission) -> float:
    """The original Feedback Prize 2021 metric (SPEC §3), as its public reference computes it.

    ``ground_truth`` is a DataFrame (or any source) or the result of
    :func:`load_ground_truth`; ``submission`` a DataFrame or source. Only the columns FP1
    uses are read (``id``, ``discourse_type``/``class``, ``predictionstring``). A ground
    truth that is not loaded yet loads on a second thread while the submission is read.

    >>> gt = pd.DataFrame({"id": ["a"], "discourse_type": ["Claim"], "predictionstring": ["1 2 3"],
    ...                    "discourse_effectiveness": ["Effective"]})
    >>> fp1_score(gt, pd.DataFrame({"id": ["a"], "class": ["Claim"], "predictionstring": ["1 2"]}))
    1.0
    """
    if isinstance(ground_truth, GroundTruth):
        return fp1_for(ground_truth, submission)
    gt_name = source_name(ground_truth, "ground truth")
    # Neither file needs the other until the pairing, so they are read side by side (numpy
    # and arrow release the GIL: the two overlap on two cores). A bad ground truth is
    # reported first, as when read one after the other.
    # (each file on one parse thread: the two files already keep two cores busy)
    with ThreadPoolExecutor(1, thread_name_prefix="fp1-ground-truth") as pool, single_threaded():
        job = pool.submit(contextvars.copy_context().run, scan_ground_truth, ground_truth, gt_name, [],
                          effectiveness=False)
        try:
            scan = scan_submission(submission, source_name(submission, "submission"), keep=set(SUB_COLUMNS))
            gscan = job.result()
            job = pool.submit(ground_truth_segments, gscan)
            essays = _with_unknown_essays(gscan, scan)
            ps = parse_submission(scan, scan.name, replace(gscan, essays=essays[0], essay_values=essays[1]))
        except InputError:
            job.result()
            raise
        segs, runs = job.result()
        # the pairing needs only the runs: it overlaps the rest of the ground truth's indexing
        job = pool.submit(finish_ground_truth, gscan, [], check_overlaps=False, text=False, parsed=(segs, runs))
        pairs = overlapping_pairs(ps.segs, segs, len(gscan.classes), runs)
        gt = job.result()
    return _fp1_of_parsed(gt, essays, ps, pairs)


def fp1_for(gt: GroundTruth, submission, name: str = "submission") -> float:
    """FP1 of one submission (DataFrame, source or :class:`ScannedSubmission`) against a
    loaded ground truth.

    As in the public reference, predictions for essays absent from the ground truth are
    kept here (they trigger the +1 FN quirk); the leaderboard ignores them (SPEC §1).
    """
    scan = submission if isinstance(submission, ScannedSubmission) else \
        scan_submission(submission, name, keep=set(SUB_COLUMNS))
    essays = _with_unknown_essays(gt, scan)
    ps = parse_submission(scan, scan.name, replace(gt, labels=[], essays=essays[0], essay_values=essays[1]))
    return _fp1_of_parsed(gt, essays, ps, overlapping_pairs(ps.segs, gt.segs, len(gt.classes), gt.runs))


def _with_unknown_essays(gt, scan: ScannedSubmission) -> tuple[list[str], pa.Array]:
    """The ground truth's essays followed by those only the submission names (FP1 keeps them)."""
    ids = scan.essay_values
    known = gt.essay_values if gt.essay_values is not None else pa.array(gt.essays, type=pa.string())
    unknown = pc.is_null(pc.index_in(ids, value_set=known.cast(ids.type)))
    if not pc.any(unknown).as_py():
        return gt.essays, known
    essays = list(gt.essays) + pc.filter(ids, unknown).to_pylist()
    return essays, pa.array(essays, type=pa.string())


def _fp1_of_parsed(gt: GroundTruth, essays: tuple[list[str], pa.Array], ps, pairs) -> float:
    """FP1 from the pairs (:func:`overlapping_pairs`) of a parsed submission; ``essays`` may
    extend the ground truth's with essays only the submission names."""
    p, g, inter = pairs
    return fp1_from_pairs(ps.segs, gt.segs, gt.groups, len(gt.classes), len(essays[0]), p, g, inter)
