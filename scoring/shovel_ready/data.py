"""The four input files of a Shovel-Ready competition (SPEC §1): ground truth, submissions,
demographics and runtimes, read and validated."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..core.arrays import unique_sorted
from ..core.errors import InputError
from ..core.tables import (
    arrow_array,
    cell,
    codes,
    empty_cells,
    factorize,
    first_duplicate,
    first_empty,
    parse_number_column,
    read_named_numbers,
    read_table,
    require_columns,
    row_of,
    text_series,
)
from .fastscan import UsualScan, read_usual
from .fp1 import gt_groups
from .parse import TokenError, canonical_ranges, parse_segs, scan_wordlists
from .segments import RunIndex, Segs, overlapping_pairs, run_index, spans_apart

MISSING = "(missing)"
PROB_SUM_TOL = 0.01 + 1e-9
GT_COLUMNS = ["id", "discourse_type", "predictionstring", "discourse_effectiveness"]
SUB_COLUMNS = ["id", "class", "predictionstring"]


def parse_segments(strings: pd.Series, essay, cls, rows, name: str, lines, ranges=None, words=None) -> Segs:
    """Parse the predictionstring column into :class:`Segs` or raise InputError with the row.

    ``rows`` are the strings' positions in their table (kept as each segment's ``row``),
    ``lines`` the table's spreadsheet row numbers (for messages), ``ranges`` and ``words``
    the strings' :func:`~.parse.canonical_ranges` and :func:`~.parse.scan_wordlists` if known."""
    try:
        return parse_segs(strings, essay, cls, rows, ranges, words)
    except TokenError as e:
        raise InputError(name, int(lines[rows[e.index]]), e.problem, column="predictionstring",
                         value=str(strings.iloc[e.index] if hasattr(strings, "iloc") else strings[e.index])) from None


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
    runs: RunIndex  # the ground truth's runs, sorted for look-ups
    essay_values: pa.Array | None = None  # ``essays`` as one arrow array (for codes)

    @cached_property
    def essay_index(self) -> dict[str, int]:
        """Each essay id's position in :attr:`essays` (built on first use)."""
        return dict(zip(self.essays, range(len(self.essays)), strict=True))


class EssayIds(Sequence):
    """A ground truth's essay ids held as their arrow array: what a worker process is sent
    (one buffer to write and read, where a list of ids is a Python object each)."""

    def __init__(self, values: pa.Array):
        self.values = values

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, i):
        return self.values[i].as_py() if isinstance(i, int) else self.values[i].to_pylist()


@dataclass
class ScannedGroundTruth:
    """A ground truth read, checked and coded, its predictionstrings scanned but not yet parsed:
    what a submission needs of it (``essays``, ``essay_values``, ``classes``, ``labels``)."""

    name: str
    table: pd.DataFrame  # the rows kept (non-empty predictionstring), as text
    rows: np.ndarray  # their positions in the table as read
    lines: np.ndarray  # spreadsheet row of each row of the table as read
    essay: np.ndarray
    essay_values: pa.Array
    essays: list[str]
    cls: np.ndarray
    classes: list[str]
    label: np.ndarray
    labels: list[str]
    ranges: tuple[np.ndarray, np.ndarray, np.ndarray]  # canonical_ranges of the predictionstrings


def scan_ground_truth(src, name: str, report: list[str], effectiveness: bool = True) -> ScannedGroundTruth:
    """Read and check a ground truth (first half of :func:`load_ground_truth_table`)."""
    columns = GT_COLUMNS if effectiveness else GT_COLUMNS[:3]
    df = read_table(src, name, keep=set(columns))
    require_columns(df, columns, name)
    if len(df) == 0:
        raise InputError(name, None, "the ground truth has no rows")
    for c in columns:
        if c != "predictionstring":
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
    df = df[columns]
    essay, essay_values = factorize(df["id"], grouped=True)
    essay_values = essay_values.cast(pa.string())
    cls, classes = factorize(df["discourse_type"], sort=True)
    if effectiveness:
        lab, labels = factorize(df["discourse_effectiveness"], sort=True)
        labels = labels.to_pylist()
    else:
        lab, labels = np.zeros(len(df), dtype=np.int64), []
    return ScannedGroundTruth(name, df, rows, lines, essay, essay_values, essay_values.to_pylist(), cls,
                              classes.to_pylist(), lab, labels, canonical_ranges(df["predictionstring"]))


def ground_truth_segments(scan: ScannedGroundTruth) -> tuple[Segs, RunIndex]:
    """A scanned ground truth's segments, and their runs indexed for pairing."""
    segs = parse_segments(scan.table["predictionstring"], scan.essay, scan.cls, scan.rows, scan.name, scan.lines,
                          scan.ranges)
    return segs, run_index(segs, len(scan.classes))


def finish_ground_truth(scan: ScannedGroundTruth, report: list[str], check_overlaps: bool = True,
                        text: bool = True, parsed: tuple[Segs, RunIndex] | None = None) -> GroundTruth:
    """Parse a scanned ground truth's segments and index them (second half of
    :func:`load_ground_truth_table`). ``text=False``: the result's ``table`` holds only each
    segment's ``row`` (FP1 needs no text). ``parsed``: :func:`ground_truth_segments`, if done."""
    name, df = scan.name, scan.table
    segs, runs = ground_truth_segments(scan) if parsed is None else parsed
    # overlapping or duplicate ground truths of one class in one essay: kept, reported
    if check_overlaps and not spans_apart(segs):
        p, g, _ = overlapping_pairs(segs, segs, len(scan.classes), runs)
    else:  # no two spans of an essay meet: nothing to pair
        p = g = np.zeros(0, np.int64)
    other = p != g
    if other.any():
        touched = unique_sorted(np.concatenate((p[other], g[other])))
        report.append(f"{name}: {len(touched)} ground-truth row(s) overlap or duplicate another segment "
                      "of the same class in the same essay (kept and scored)")
    table = pd.DataFrame({**{c: df[c].array for c in df.columns if text and c != "predictionstring"},
                          "row": scan.lines[scan.rows]})
    essays = scan.essays
    return GroundTruth(name, table, segs, essays, scan.classes, scan.labels, scan.label, gt_groups(segs), runs,
                       scan.essay_values)


def load_ground_truth_table(src, name: str, report: list[str], check_overlaps: bool = True,
                            effectiveness: bool = True) -> GroundTruth:
    """Read, validate and parse a ground truth. ``effectiveness=False`` (FP1 needs only the
    segments) neither requires nor reads ``discourse_effectiveness``: the result has no labels
    and its table no text."""
    return finish_ground_truth(scan_ground_truth(src, name, report, effectiveness), report, check_overlaps,
                               text=effectiveness)


@dataclass
class ParsedSubmission:
    segs: Segs  # predictions of known essays (classes not in the ground truth get code C)
    probs: np.ndarray  # (n, n_labels) probability of each ground-truth label
    scan: ScannedSubmission  # the file as read
    kept: np.ndarray  # positions in ``table`` of the kept rows
    notes: list[str]

    @property
    def table(self) -> pd.DataFrame:
        """The file as read (for read_submission)."""
        return self.scan.table


@dataclass
class ScannedSubmission:
    """What a submission gives before any ground truth is known: its table, each essay id and
    class as a code into the values it uses, and its predictionstrings' canonical ranges. So a
    submission can be read while its ground truth loads (:func:`~.explain.fp1_score`).

    ``source`` is the table (a DataFrame), or the :class:`~.fastscan.UsualScan` of a large file
    written the usual way, whose table is built only if :attr:`table` is asked for."""

    name: str
    source: pd.DataFrame | UsualScan
    essay: np.ndarray  # row -> position in essay_values
    essay_values: pa.Array
    cls: np.ndarray  # row -> position in cls_values
    cls_values: pa.Array
    ranges: tuple[np.ndarray, np.ndarray, np.ndarray]
    words: tuple | TokenError  # scan_wordlists of the other non-empty predictionstrings

    @property
    def table(self) -> pd.DataFrame:
        if isinstance(self.source, UsualScan):
            self.source = self.source.table()
        return self.source

    @property
    def n(self) -> int:
        return self.source.n if isinstance(self.source, UsualScan) else len(self.source)

    @property
    def columns(self) -> list[str]:
        return self.source.columns if isinstance(self.source, UsualScan) else list(self.source.columns)

    @property
    def rows(self) -> np.ndarray:
        """The spreadsheet row (header = 1) of each record."""
        return self.source.rows if isinstance(self.source, UsualScan) else self.source.attrs["rows"]

    def column(self, c: str) -> pd.Series:
        """A probability column (numbers), without building the table of a usual scan."""
        return self.source.numbers[c] if isinstance(self.source, UsualScan) else self.source[c]

    def strings(self):
        """The predictionstrings (cells of a usual scan are read only for a message)."""
        return self.source.strings if isinstance(self.source, UsualScan) else self.source["predictionstring"]

    def empty_strings(self) -> np.ndarray | None:
        """The mask of empty predictionstrings, None when none is (a usual scan has none)."""
        return None if isinstance(self.source, UsualScan) else empty_cells(self.source["predictionstring"])


def scan_submission(src, name: str, keep=None, *, compiled: bool = False) -> ScannedSubmission:
    """Read one submission and do what needs no ground truth (``keep``: see :func:`read_table`).
    ``compiled``: a large file may load the compiled pass (:mod:`.fastscan`), which it uses
    anyway where this process holds it."""
    got = read_usual(src, name, keep, load=compiled)
    if isinstance(got, UsualScan):  # a large file written the usual way: one compiled pass
        return ScannedSubmission(name, got, got.essay, got.essay_values, got.cls, got.cls_values, got.ranges,
                                 got.words)
    df = read_table(got, name, numeric=lambda c: c not in SUB_COLUMNS, keep=keep)
    require_columns(df, SUB_COLUMNS, name)
    first_empty(df, "id", name)
    first_empty(df, "class", name)
    essay, essay_values = factorize(df["id"], grouped=True)
    cls, cls_values = factorize(df["class"])
    strings = df["predictionstring"]
    ranges = canonical_ranges(strings)
    return ScannedSubmission(name, df, essay, essay_values, cls, cls_values, ranges,
                             scan_wordlists(strings, ranges[0]))


def parse_submission(src, name: str, gt: GroundTruth | ScannedGroundTruth, *, compiled: bool = False
                     ) -> ParsedSubmission:
    """Validate one submission file and parse its predictions (SPEC §1). ``src`` may be
    a :class:`ScannedSubmission`; of ``gt`` only its essays, classes and labels are used.
    ``compiled``: see :func:`scan_submission`."""
    scan = src if isinstance(src, ScannedSubmission) else scan_submission(src, name, compiled=compiled)
    notes: list[str] = []
    prob_cols = [c for c in scan.columns if c not in SUB_COLUMNS]
    n_lab = len(gt.labels)
    n = scan.n
    lines = scan.rows
    if prob_cols:
        for lab in gt.labels:
            if lab not in prob_cols:
                found = ", ".join(repr(c) for c in prob_cols)
                raise InputError(name, 1, f"no probability column for the ground-truth label {lab!r} "
                                 f"(probability columns found: {found})", column=lab)
        total = np.zeros(n)
        parsed = {}
        for c in prob_cols:
            col = scan.column(c)
            v = parse_number_column(col, name, f"probability in column {c!r}", lines)
            bad = (v < 0) | (v > 1)
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                raise InputError(name, int(lines[i]), f"probability {cell(col, i)} in column {c!r} is outside [0, 1]",
                                 column=c, value=str(col.iloc[i]))
            total += v
            parsed[c] = v
        off = np.abs(total - 1.0) > PROB_SUM_TOL
        if off.any():
            i = int(np.flatnonzero(off)[0])
            raise InputError(name, int(lines[i]), f"probabilities sum to {total[i]:.6g}, expected 1 (within 0.01)",
                             column=", ".join(prob_cols), value=", ".join(str(scan.column(c).iloc[i]) for c in prob_cols))
        probs_all = np.column_stack([parsed[lab] for lab in gt.labels]) if n_lab else np.zeros((n, 0))
    else:
        notes.append(f"{name}: no probability columns; every effectiveness probability counts as 0, "
                     "so only w·quality scores")
        probs_all = np.zeros((n, n_lab))
    empty = scan.empty_strings()
    if empty is not None:
        notes.append(f"{name}: {int(empty.sum())} row(s) with an empty predictionstring dropped")
    else:
        empty = np.zeros(n, dtype=bool)
    essay_all = codes(scan.essay_values, gt.essays if gt.essay_values is None else gt.essay_values)[scan.essay]
    unknown = (essay_all < 0) & ~empty
    if unknown.any():
        notes.append(f"{name}: {int(unknown.sum())} row(s) for essays not in the ground truth ignored "
                     f"(first: row {int(lines[int(np.flatnonzero(unknown)[0])])})")
    C = len(gt.classes)
    cls_all = codes(scan.cls_values, gt.classes)[scan.cls]
    _note_unknown_classes(scan, cls_all < 0, name, gt.classes, notes)
    cls_all[cls_all < 0] = C
    if n == 0:
        notes.append(f"{name}: the file has a header but no rows: it predicts nothing and scores 0")
    ranges, words = scan.ranges, scan.words
    strings = scan.strings()
    if empty.any():  # positions among the non-empty strings
        idx = np.flatnonzero(~empty)
        strings = strings.iloc[idx]
        ranges = tuple(r[idx] for r in ranges)
        words = TokenError(int(np.searchsorted(idx, words.index)), words.problem) if isinstance(words, TokenError) \
            else (np.searchsorted(idx, words[0]), *words[1:])
    else:
        idx = np.arange(n)
    segs = parse_segments(strings, essay_all[idx], cls_all[idx], idx, name, lines, ranges, words)
    known = np.flatnonzero(essay_all[idx] >= 0)
    if len(known) != segs.n:
        segs = segs.take(known)
    kept_idx = idx[known]
    probs = probs_all if len(kept_idx) == n else probs_all[kept_idx]  # every row kept: no copy
    return ParsedSubmission(segs, probs, scan, kept_idx, notes)


def _note_unknown_classes(scan: ScannedSubmission, unknown: np.ndarray, name: str, classes: list[str],
                          notes: list[str]) -> None:
    """Warn about classes the ground truth does not have: they can only be false positives
    (a submission spelling ``claim`` for ``Claim`` would otherwise score 0 in silence)."""
    if not unknown.any():
        return
    values = scan.cls_values.take(pa.array(pd.unique(scan.cls[unknown]))).to_pylist()  # in order of first row
    lower = {c.lower(): c for c in classes}
    hints = [f"{v!r} (did you mean {lower[v.lower()]!r}?)" if v.lower() in lower else repr(v) for v in values[:5]]
    more = f" and {len(values) - 5} more" if len(values) > 5 else ""
    notes.append(f"{name}: {int(unknown.sum())} row(s) with classes the ground truth does not have — "
                 f"{', '.join(hints)}{more} — count only as false positives (class names are case-sensitive; "
                 f"first: row {int(scan.rows[int(np.flatnonzero(unknown)[0])])})")


def row_order_ties(segs: Segs) -> int:
    """How many predictions start at the same word of the same essay as another one: which of
    them overlap removal keeps depends on their row order (SPEC §2: the earlier row wins)."""
    if segs.n < 2:
        return 0
    key = segs.essay * (int(segs.wmin.max()) + 1) + segs.wmin
    if not bool((key[1:] >= key[:-1]).all()):  # a file in reading order is sorted already
        key = np.sort(key)
    same = key[1:] == key[:-1]  # a prediction starting where the one before it in key order does
    in_tie = np.zeros(len(key), dtype=bool)
    in_tie[1:] |= same
    in_tie[:-1] |= same
    return int(in_tie.sum())


def load_demographics(src, name: str, gt: GroundTruth, report: list[str]) -> tuple[pd.DataFrame, list[str]]:
    df = read_table(src, name)
    require_columns(df, ["id"], name)
    first_empty(df, "id", name)
    first_duplicate(df, "id", name, "id")
    attrs = [c for c in df.columns if c != "id"]
    if not attrs:
        report.append(f"{name}: no attribute columns besides 'id'")
    for c in attrs:
        literal = np.asarray(pc.equal(arrow_array(df[c]), MISSING), dtype=bool)
        if literal.any():
            raise InputError(name, row_of(df, int(np.flatnonzero(literal)[0])),
                             f"the value {MISSING!r} in column {c!r} is the group of essays without demographics; "
                             "leave the cell empty for that, or use another word", column=c, value=MISSING)
    ids = arrow_array(df["id"])
    gt_ids = gt.essay_values if gt.essay_values is not None else pa.array(gt.essays, type=ids.type)
    # each ground-truth essay's row (ids are unique), -1 for none; an empty cell and a missing
    # row are both the group MISSING (pandas' reindex/isin on arrow text builds a Python string
    # per id: 50 ms for 10^4 essays)
    row = codes(gt_ids, ids)
    missing = row < 0
    unknown = len(df) - int((~missing).sum())  # rows no ground-truth essay took
    if unknown:
        report.append(f"{name}: {unknown} row(s) for essays not in the ground truth ignored")
    if len(attrs) and missing.any():
        report.append(f"{name}: {int(missing.sum())} ground-truth essay(s) have no demographics row; "
                      f"they fall into the group {MISSING}")
    take = pa.array(np.maximum(row, 0), mask=missing)
    index = pd.Index(gt.essays, name="id")
    cols = {}
    for c in attrs:
        v = arrow_array(df[c]).take(take) if len(df) else pa.nulls(len(row), type=ids.type)
        v = pc.fill_null(pc.if_else(pc.equal(v, ""), MISSING, v), MISSING)
        cols[c] = text_series(v, index)
    return pd.DataFrame(cols, index=index), attrs


def load_runtimes(src, name: str, names: list[str], report: list[str]) -> dict[str, float]:
    rt = read_named_numbers(src, name, "runtime", positive=True)
    unknown = [k for k in rt if k not in names]
    if unknown:
        report.append(f"{name}: {len(unknown)} row(s) for unknown submissions ignored ({', '.join(unknown[:5])})")
    missing = [n for n in names if n not in rt]
    if missing:
        report.append(f"{name}: {len(missing)} submission(s) have no runtime and are never eligible for the "
                      f"boost ({', '.join(missing[:5])}{', …' if len(missing) > 5 else ''})")
    return {k: v for k, v in rt.items() if k in names}


