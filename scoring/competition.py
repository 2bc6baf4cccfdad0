"""Loading a competition: ground truth, submissions, demographics and runtimes (SPEC §1).

Each submission is parsed, validated and reduced to what the sliders need (its overlapping
prediction/ground-truth pairs, before and after overlap removal, and its two FP1 scores)
one at a time; its raw rows are not kept (``Competition.read_submission`` re-reads them).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property
from itertools import islice
from pathlib import Path

import numpy as np
import pandas as pd

from .errors import InputError
from .fp1 import fp1_from_pairs, gt_groups
from .io import (
    GT_COLUMNS,
    SUB_COLUMNS,
    cell,
    codes,
    empty_cells,
    first_duplicate,
    first_empty,
    parse_number_column,
    parse_segments,
    read_named_numbers,
    read_table,
    require_columns,
    row_of,
    source_bytes,
    source_name,
)
from .segments import RunIndex, Segs, overlapping_pairs, remove_overlaps, run_index

MISSING = "(missing)"
LOAD_THREADS = 2  # submissions parsed at once while loading
PROB_SUM_TOL = 0.01 + 1e-9


@dataclass
class GroundTruth:
    name: str
    table: pd.DataFrame  # id, discourse_type, discourse_effectiveness, row (+ raw predictionstring)
    segs: Segs
    essays: list[str]
    classes: list[str]
    labels: list[str]
    label: np.ndarray  # label code per segment
    groups: np.ndarray  # FP1 group per segment
    essay_index: dict[str, int]
    runs: RunIndex  # the ground truth's runs, sorted for look-ups


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


def _load_ground_truth(src, name: str, report: list[str], check_overlaps: bool = True) -> GroundTruth:
    df = read_table(src, name)
    require_columns(df, GT_COLUMNS, name)
    if len(df) == 0:
        raise InputError(name, None, "the ground truth has no rows")
    for c in ("id", "discourse_type", "discourse_effectiveness"):
        first_empty(df, c, name)
    rows = np.arange(len(df))
    lines = df.attrs["rows"]
    empty = empty_cells(df["predictionstring"])
    if empty is not None:
        report.append(f"{name}: {int(empty.sum())} row(s) with an empty predictionstring dropped "
                      f"(first: row {row_of(df, int(np.flatnonzero(empty)[0]))})")
        df, rows = df[~empty].reset_index(drop=True), rows[~empty]
    if len(df) == 0:
        raise InputError(name, None, "every predictionstring is empty")
    essay_codes, essays = pd.factorize(df["id"], sort=False)
    essays = [str(e) for e in essays.tolist()]
    classes = sorted(df["discourse_type"].unique().tolist())
    labels = sorted(df["discourse_effectiveness"].unique().tolist())
    cls = codes(df["discourse_type"], classes)
    lab = codes(df["discourse_effectiveness"], labels)
    segs = parse_segments(df["predictionstring"], essay_codes, cls, rows, name, lines)
    # overlapping or duplicate ground truths of one class in one essay: kept, reported
    runs = run_index(segs, len(classes))
    p, g, _ = overlapping_pairs(segs, segs, len(classes), runs) if check_overlaps else (np.zeros(0, int),) * 3
    other = p != g
    if other.any():
        touched = np.unique(np.concatenate((p[other], g[other])))
        report.append(f"{name}: {len(touched)} ground-truth row(s) overlap or duplicate another segment "
                      "of the same class in the same essay (kept and scored)")
    table = pd.DataFrame({"id": df["id"].reset_index(drop=True),
                          "discourse_type": df["discourse_type"].reset_index(drop=True),
                          "discourse_effectiveness": df["discourse_effectiveness"].reset_index(drop=True),
                          "row": lines[rows]})
    return GroundTruth(name, table, segs, essays, classes, labels, lab,
                       gt_groups(segs), {e: i for i, e in enumerate(essays)}, runs)


@dataclass
class ParsedSubmission:
    segs: Segs  # predictions of known essays (classes not in the ground truth get code C)
    probs: np.ndarray  # (n, n_labels) probability of each ground-truth label
    table: pd.DataFrame  # the file as read (for read_submission)
    kept: np.ndarray  # positions in ``table`` of the kept rows
    notes: list[str]


def parse_submission(src, name: str, gt: GroundTruth) -> ParsedSubmission:
    """Validate one submission file and parse its predictions (SPEC §1)."""
    df = read_table(src, name, numeric=lambda c: c not in SUB_COLUMNS)
    require_columns(df, SUB_COLUMNS, name)
    first_empty(df, "id", name)
    first_empty(df, "class", name)
    notes: list[str] = []
    prob_cols = [c for c in df.columns if c not in SUB_COLUMNS]
    n_lab = len(gt.labels)
    if prob_cols:
        for lab in gt.labels:
            if lab not in prob_cols:
                found = ", ".join(repr(c) for c in prob_cols)
                raise InputError(name, 1, f"no probability column for the ground-truth label {lab!r} "
                                 f"(probability columns found: {found})")
        total = np.zeros(len(df))
        parsed = {}
        for c in prob_cols:
            v = parse_number_column(df[c], name, f"probability in column {c!r}", df.attrs["rows"])
            bad = (v < 0) | (v > 1)
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                raise InputError(name, row_of(df, i),
                                 f"probability {cell(df[c], i)} in column {c!r} is outside [0, 1]")
            total += v
            parsed[c] = v
        off = np.abs(total - 1.0) > PROB_SUM_TOL
        if off.any():
            i = int(np.flatnonzero(off)[0])
            raise InputError(name, row_of(df, i), f"probabilities sum to {total[i]:.6g}, expected 1 (within 0.01)")
        probs_all = np.column_stack([parsed[lab] for lab in gt.labels]) if n_lab else np.zeros((len(df), 0))
    else:
        notes.append(f"{name}: no probability columns; every effectiveness probability counts as 0, "
                     "so only w·quality scores")
        probs_all = np.zeros((len(df), n_lab))
    empty = empty_cells(df["predictionstring"])
    if empty is not None:
        notes.append(f"{name}: {int(empty.sum())} row(s) with an empty predictionstring dropped")
    else:
        empty = np.zeros(len(df), dtype=bool)
    essay_all = codes(df["id"], gt.essays)
    unknown = (essay_all < 0) & ~empty
    if unknown.any():
        notes.append(f"{name}: {int(unknown.sum())} row(s) for essays not in the ground truth ignored "
                     f"(first: row {row_of(df, int(np.flatnonzero(unknown)[0]))})")
    C = len(gt.classes)
    cls_all = codes(df["class"], gt.classes)
    cls_all[cls_all < 0] = C
    if empty.any():
        idx = np.flatnonzero(~empty)
        strings = df["predictionstring"].iloc[idx]
    else:
        idx = np.arange(len(df))
        strings = df["predictionstring"]
    segs = parse_segments(strings, essay_all[idx], cls_all[idx], idx, name, df.attrs["rows"])
    known = np.flatnonzero(essay_all[idx] >= 0)
    if len(known) != segs.n:
        segs = segs.take(known)
    kept_idx = idx[known]
    return ParsedSubmission(segs, probs_all[kept_idx], df, kept_idx, notes)


def _mode(pred: Segs, probs: np.ndarray, gt: GroundTruth) -> Mode:
    C = len(gt.classes)
    p, g, inter = overlapping_pairs(pred, gt.segs, C, gt.runs)
    d = probs[p, gt.label[g]] if probs.shape[1] else np.zeros(len(p))
    return Mode(pred.essay, pred.cls, pred.size, pred.wmin, pred.row, p, g, inter, d)


def fp1_of(pred: Segs, gt: GroundTruth, mode: Mode) -> float:
    return fp1_from_pairs(pred, gt.segs, gt.groups, len(gt.classes), len(gt.essays), mode.p, mode.g, mode.inter)


def prepare_submission(src, name: str, gt: GroundTruth) -> tuple[Prepared, Mode, Mode]:
    """Parse one submission and reduce it to its FP1 scores and its pairs (raw, after removal)."""
    ps = parse_submission(src, name, gt)
    raw = _mode(ps.segs, ps.probs, gt)
    fp1 = fp1_of(ps.segs, gt, raw)
    rem_segs, kept = remove_overlaps(ps.segs)
    touched = np.ones(ps.segs.n, dtype=bool)  # dropped or trimmed by the removal
    touched[kept] = rem_segs.size != ps.segs.size[kept]
    if not touched.any():  # nothing overlapped: both modes are the same
        return Prepared(name, src, fp1, fp1, ps.notes), raw, raw
    removed = _mode(rem_segs, ps.probs[kept], gt)
    changed = np.unique(ps.segs.essay[touched]).astype(np.int32)
    return Prepared(name, src, fp1, fp1_of(rem_segs, gt, removed), ps.notes, changed), raw, removed


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


def _is_stream(src) -> bool:
    return not isinstance(src, (str, Path, bytes, bytearray, memoryview, pd.DataFrame)) and hasattr(src, "read")


def _expand_submissions(submissions) -> list[tuple[str, object, str]]:
    """(name, source, display file) for every submission; folders expand to their *.csv."""
    out: list[tuple[str, object, str]] = []
    if isinstance(submissions, Mapping):
        for k, v in submissions.items():
            out.append((str(k), v, source_name(v, f"{k}.csv") if not isinstance(v, pd.DataFrame) else f"{k}"))
    else:
        if isinstance(submissions, (str, Path)):
            submissions = [submissions]
        for item in submissions:
            if isinstance(item, tuple) and len(item) == 2:
                out.append((str(item[0]), item[1], source_name(item[1], str(item[0]))))
            elif isinstance(item, (str, Path)):
                p = Path(item)
                if p.is_dir():
                    files = sorted(p.glob("*.csv"))
                    if not files:
                        raise InputError(str(p), None, "the submissions folder contains no .csv file")
                    out.extend((f.stem, f, f.name) for f in files)
                elif not p.exists():
                    raise InputError(str(p), None, "file not found")
                else:
                    out.append((p.stem, p, p.name))
            else:
                nm = source_name(item, "")
                if not nm:
                    raise InputError("submissions", None, f"a submission without a name ({type(item).__name__}); "
                                     "pass a dict {name: source}")
                out.append((Path(nm).stem, item, nm))
    # a file handle can be read once: keep its bytes, so the submission can be re-read later
    out = [(n, source_bytes(src, disp) if _is_stream(src) else src, disp) for n, src, disp in out]
    seen: dict[str, str] = {}
    for name, _, disp in out:
        if name in seen:
            raise InputError(disp, None, f"duplicate submission name {name!r} (also from {seen[name]})")
        seen[name] = disp
    return out


def _load_demographics(src, name: str, gt: GroundTruth, report: list[str]) -> tuple[pd.DataFrame, list[str]]:
    df = read_table(src, name)
    require_columns(df, ["id"], name)
    first_empty(df, "id", name)
    first_duplicate(df, "id", name, "id")
    attrs = [c for c in df.columns if c != "id"]
    if not attrs:
        report.append(f"{name}: no attribute columns besides 'id'")
    d = df.set_index("id")
    known = d.index.isin(gt.essays)
    if (~known).any():
        report.append(f"{name}: {int((~known).sum())} row(s) for essays not in the ground truth ignored")
    d = d.reindex(pd.Index(gt.essays, name="id"))
    missing = d[attrs].isna().all(axis=1) if attrs else pd.Series(False, index=d.index)
    if len(attrs) and missing.any():
        report.append(f"{name}: {int(missing.sum())} ground-truth essay(s) have no demographics row; "
                      f"they fall into the group {MISSING}")
    for c in attrs:
        d[c] = d[c].fillna("").astype(str).replace("", MISSING)
    return d, attrs


def _load_runtimes(src, name: str, names: list[str], report: list[str]) -> dict[str, float]:
    rt = read_named_numbers(src, name, "runtime", positive=True)
    unknown = [k for k in rt if k not in names]
    if unknown:
        report.append(f"{name}: {len(unknown)} row(s) for unknown submissions ignored ({', '.join(unknown[:5])})")
    missing = [n for n in names if n not in rt]
    if missing:
        report.append(f"{name}: {len(missing)} submission(s) have no runtime and are never eligible for the "
                      f"boost ({', '.join(missing[:5])}{', …' if len(missing) > 5 else ''})")
    return {k: v for k, v in rt.items() if k in names}


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
    gt = _load_ground_truth(ground_truth, source_name(ground_truth, "ground truth"), report)
    subs = _expand_submissions(submissions)
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
        demo, attrs = _load_demographics(demographics, source_name(demographics, "demographics"), gt, report)
    else:
        demo, attrs = pd.DataFrame(index=pd.Index(gt.essays, name="id")), []
    names = [p.name for p in prepared]
    rt = _load_runtimes(runtimes, source_name(runtimes, "runtimes"), names, report) if runtimes is not None else {}
    for t in tables.values():
        t.freeze()
    return Competition(gt, prepared, tables, demo, attrs, rt, report)
