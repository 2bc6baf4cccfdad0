"""Loading a competition: ground truth, submissions, demographics and runtimes (SPEC §1).

Each submission is parsed, validated and reduced to what the sliders need (its overlapping
prediction/ground-truth pairs, before and after overlap removal, and its two FP1 scores)
one at a time; its raw rows are not kept (``Competition.read_submission`` re-reads them).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property
from itertools import islice

import numpy as np
import pandas as pd

from ..core.sources import expand_submissions, source_name
from .data import (
    GroundTruth,
    load_demographics,
    load_ground_truth_table,
    load_runtimes,
    parse_submission,
    row_order_ties,
)
from .fp1 import fp1_from_pairs
from .segments import Segs, overlapping_pairs, remove_overlaps

LOAD_THREADS = 2  # submissions parsed at once while loading


@dataclass
class Mode:
    """One submission's predictions in one mode (raw or after overlap removal)."""

    essay: np.ndarray
    cls: np.ndarray
    size: np.ndarray
    wmin: np.ndarray
    row: np.ndarray
    p: np.ndarray  # overlapping pairs: prediction position
    g: np.ndarray  # ground-truth position
    inter: np.ndarray  # intersection size
    d: np.ndarray  # probability of the ground truth's label

    @property
    def n(self) -> int:
        return len(self.size)


class Table:
    """Every submission's predictions and overlapping pairs of one mode, concatenated.

    This is all a slider needs (SPEC §3–§6), kept compact: per prediction its submission,
    essay, class, size, smallest word and file row; per pair the (global) prediction id, the
    ground-truth position, the intersection size and the probability of the ground truth's
    label.
    """

    def __init__(self):
        self._parts: list[Mode] = []

    def append(self, m: Mode) -> None:
        small = Mode(m.essay.astype(np.int32), m.cls.astype(np.int16), m.size.astype(np.int32),
                     m.wmin.astype(np.int32), m.row.astype(np.int32), m.p.astype(np.int32),
                     m.g.astype(np.int32), m.inter.astype(np.int32), m.d.astype(np.float64))
        self._parts.append(small)

    def freeze(self) -> None:
        """Concatenate the parts into preallocated arrays, releasing each part once copied, so
        the peak stays near one copy of the tables (not two)."""
        parts, self._parts = self._parts, []
        n_pred = [m.n for m in parts]
        n_pair = [len(m.p) for m in parts]
        offs = np.concatenate(([0], np.cumsum(n_pred))).astype(np.int64)
        poffs = np.concatenate(([0], np.cumsum(n_pair))).astype(np.int64)
        self.n_pred = int(offs[-1])
        per_pred = {"pred_essay": ("essay", np.int32), "pred_cls": ("cls", np.int16), "pred_size": ("size", np.int32),
                    "pred_wmin": ("wmin", np.int32), "pred_row": ("row", np.int32)}
        per_pair = {"g": ("g", np.int32), "inter": ("inter", np.int32), "d": ("d", np.float64)}
        for attr, (_, dt) in per_pred.items():
            setattr(self, attr, np.empty(self.n_pred, dtype=dt))
        for attr, (_, dt) in per_pair.items():
            setattr(self, attr, np.empty(int(poffs[-1]), dtype=dt))
        self.pred_sub = np.empty(self.n_pred, dtype=np.int32)
        self.p = np.empty(int(poffs[-1]), dtype=np.int32 if self.n_pred < 2**31 else np.int64)
        for k in range(len(parts)):
            m, a, b, c, d = parts[k], offs[k], offs[k + 1], poffs[k], poffs[k + 1]
            for attr, (field_, _) in per_pred.items():
                getattr(self, attr)[a:b] = getattr(m, field_)
            for attr, (field_, _) in per_pair.items():
                getattr(self, attr)[c:d] = getattr(m, field_)
            self.pred_sub[a:b] = k
            self.p[c:d] = m.p + a
            parts[k] = None  # release the part

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in vars(self).values() if isinstance(a, np.ndarray))


@dataclass
class Prepared:
    name: str
    source: object
    fp1: float
    overlap_removed: float
    notes: list[str] = field(default_factory=list)
    changed: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))  # essays removal changed
    order_ties: int = 0  # predictions whose fate in overlap removal depends on their row order


def mode_of(pred: Segs, probs: np.ndarray, gt: GroundTruth) -> Mode:
    C = len(gt.classes)
    p, g, inter = overlapping_pairs(pred, gt.segs, C, gt.runs)
    d = probs[p, gt.label[g]] if probs.shape[1] else np.zeros(len(p))
    return Mode(pred.essay, pred.cls, pred.size, pred.wmin, pred.row, p, g, inter, d)


def fp1_of(pred: Segs, gt: GroundTruth, mode: Mode) -> float:
    return fp1_from_pairs(pred, gt.segs, gt.groups, len(gt.classes), len(gt.essays), mode.p, mode.g, mode.inter)


def prepare_submission(src, name: str, gt: GroundTruth) -> tuple[Prepared, Mode, Mode]:
    """Parse one submission and reduce it to its FP1 scores and its pairs (raw, after removal)."""
    ps = parse_submission(src, name, gt)
    ties = row_order_ties(ps.segs)
    if ties:
        ps.notes.append(f"{name}: {ties} prediction(s) start at the same word of an essay as another one; which "
                        "of them overlap removal keeps depends on their row order (the earlier row wins)")
    raw = mode_of(ps.segs, ps.probs, gt)
    fp1 = fp1_of(ps.segs, gt, raw)
    rem_segs, kept = remove_overlaps(ps.segs)
    touched = np.ones(ps.segs.n, dtype=bool)  # dropped or trimmed by the removal
    touched[kept] = rem_segs.size != ps.segs.size[kept]
    if not touched.any():  # nothing overlapped: both modes are the same
        return Prepared(name, src, fp1, fp1, ps.notes, order_ties=ties), raw, raw
    removed = mode_of(rem_segs, ps.probs[kept], gt)
    changed = np.unique(ps.segs.essay[touched]).astype(np.int32)
    return Prepared(name, src, fp1, fp1_of(rem_segs, gt, removed), ps.notes, changed, ties), raw, removed


def _prepared_in_order(subs, gt: GroundTruth, workers: int):
    """``prepare_submission`` over ``subs``, yielded in order, at most ``workers`` files in flight.

    Reading, parsing and pairing spend most of their time in pyarrow and numpy, which release
    the GIL, so two threads load about 1.4x faster on two cores; memory stays bounded by the
    window. The first bad file (in order) raises, as in a sequential load.
    """
    if workers <= 1 or len(subs) < 2:
        for _, src, disp in subs:
            yield prepare_submission(src, disp, gt)
        return
    with ThreadPoolExecutor(max_workers=workers) as pool:
        queue: deque = deque()
        items = iter(subs)
        for _, src, disp in islice(items, workers):
            queue.append(pool.submit(prepare_submission, src, disp, gt))
        while queue:
            result = queue.popleft().result()
            nxt = next(items, None)
            if nxt is not None:
                queue.append(pool.submit(prepare_submission, nxt[1], nxt[2], gt))
            yield result


class Competition:
    """A loaded, validated competition (see :func:`load_competition`)."""

    def __init__(self, gt: GroundTruth, prepared: list[Prepared], tables: dict[bool, Table],
                 demographics: pd.DataFrame, attributes: list[str], runtimes: dict[str, float], report: list[str]):
        self.gt = gt
        self.prepared = prepared
        self.tables = tables  # {overlap_removal: Table}
        self.demographics = demographics
        self.attributes = attributes
        self.runtimes = runtimes
        self.report = report
        self._sources = {p.name: p.source for p in prepared}

    @property
    def submission_names(self) -> list[str]:
        return [p.name for p in self.prepared]

    @property
    def classes(self) -> list[str]:
        return list(self.gt.classes)

    @property
    def labels(self) -> list[str]:
        return list(self.gt.labels)

    @property
    def essays(self) -> list[str]:
        return list(self.gt.essays)

    @cached_property
    def ground_truth(self) -> pd.DataFrame:
        t = self.gt.table
        return pd.DataFrame({"id": t["id"], "discourse_type": t["discourse_type"],
                             "predictionstring": self.gt.segs.strings(),
                             "discourse_effectiveness": t["discourse_effectiveness"], "row": t["row"]})

    @property
    def row_order_ties(self) -> dict[str, int]:
        """Per submission: predictions that start at the same word of an essay as another one,
        so that overlap removal keeps one of them by row order (0 for most submissions)."""
        return {p.name: p.order_ties for p in self.prepared}

    def removal_changed_essays(self, name: str) -> list[str]:
        """Essay ids in which overlap removal dropped or trimmed a prediction of ``name``."""
        pr = self.prepared[self.submission_names.index(name)]
        return [self.gt.essays[e] for e in pr.changed.tolist()]

    def read_submission(self, name: str) -> pd.DataFrame:
        """Re-read one submission: ``id, class, predictionstring`` (canonical), ``row``, label columns."""
        if name not in self._sources:
            raise KeyError(f"unknown submission {name!r}")
        ps = parse_submission(self._sources[name], name, self.gt)
        kept = ps.table.iloc[ps.kept]
        out = pd.DataFrame({"id": kept["id"].to_numpy(), "class": kept["class"].to_numpy(),
                            "predictionstring": ps.segs.strings(), "row": ps.table.attrs["rows"][ps.segs.row]})
        for j, lab in enumerate(self.gt.labels):
            out[lab] = ps.probs[:, j]
        return out

    def __repr__(self) -> str:
        return (f"Competition({len(self.gt.essays)} essays, {self.gt.segs.n} ground truths, "
                f"{len(self.prepared)} submissions, attributes={self.attributes})")


def load_competition(*, ground_truth, submissions, demographics=None, runtimes=None,
                     progress: Callable[[int, int, str], None] | None = None) -> Competition:
    """Load and validate a competition (SPEC §1); raise :class:`InputError` on bad input.

    Sources are paths, bytes, file-likes or DataFrames; ``submissions`` is a list of files
    and/or folders (every ``*.csv`` inside), or a dict ``{name: source}``.
    """
    report: list[str] = []
    gt = load_ground_truth_table(ground_truth, source_name(ground_truth, "ground truth"), report)
    subs = expand_submissions(submissions)
    prepared: list[Prepared] = []
    tables = {True: Table(), False: Table()}
    if progress:
        progress(0, len(subs), subs[0][0] if subs else "")
    workers = min(LOAD_THREADS, os.cpu_count() or 1)
    for k, (pr, raw, removed) in enumerate(_prepared_in_order(subs, gt, workers)):
        pr.name = subs[k][0]
        tables[False].append(raw)
        tables[True].append(removed)
        report.extend(pr.notes)
        prepared.append(pr)
        if progress and k + 1 < len(subs):
            progress(k + 1, len(subs), subs[k + 1][0])
    if progress:
        progress(len(subs), len(subs), "")
    if demographics is not None:
        demo, attrs = load_demographics(demographics, source_name(demographics, "demographics"), gt, report)
    else:
        demo, attrs = pd.DataFrame(index=pd.Index(gt.essays, name="id")), []
    names = [p.name for p in prepared]
    rt = load_runtimes(runtimes, source_name(runtimes, "runtimes"), names, report) if runtimes is not None else {}
    for t in tables.values():
        t.freeze()
    return Competition(gt, prepared, tables, demo, attrs, rt, report)
