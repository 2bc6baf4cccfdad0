"""One submission, start to finish, in whichever process scores it: parse and validate, pair
its predictions with the ground truth (raw and after overlap removal), score FP1 both ways,
and pack its match tables. The result (:class:`Prepared`) is small — the tables go to the
competition's cache folder (in memory mode, a worker process hands them over through a file
of their own, which the caller maps into memory and removes), or ride along as one packed buffer when
there is no shared folder (a Dask worker, the caller's own process).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from ..core.arrays import merge_positions, unique_sorted
from ..core.fanout import in_worker
from .data import EssayIds, GroundTruth, parse_submission, row_order_ties
from .fp1 import fp1_from_pairs
from .segments import Segs, overlapping_pairs, remove_overlaps
from .tablestore import SubTables, hand_over, pack, write_tables


@dataclass
class Prepared:
    """What stays in memory of one submission: its FP1 scores, notes, the essays overlap
    removal changed, and where its match tables are (``layout``/``dtypes`` of the packed
    buffer; ``file`` when a worker wrote it, else ``buffer``)."""

    name: str
    source: object
    fp1: float
    overlap_removed: float
    notes: list[str] = field(default_factory=list)
    changed: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))  # essays removal changed
    order_ties: int = 0  # predictions whose fate in overlap removal depends on their row order
    layout: np.ndarray | None = None
    dtypes: str = ""
    buffer: bytes | bytearray | None = None
    file: str | None = None


@dataclass
class Context:
    """What every worker needs once: the ground truth (without its text table) and the folder
    to write tables into (None: send them back). ``handoff``: the folder only hands tables over
    from worker processes (files with names of their own); in this process they stay buffers."""

    gt: GroundTruth
    folder: str | None = None
    handoff: bool = False
    compiled: bool = False  # each process has enough to read to load the compiled pass (.fastscan)


def worker_context(gt: GroundTruth, folder: str | None, handoff: bool = False, compiled: bool = False) -> Context:
    """The context without the ground truth's text table, its essay ids as one arrow array
    (a list of 10,000 ids took 40 ms to write and as much to read in each worker)."""
    essays = gt.essays if gt.essay_values is None else EssayIds(gt.essay_values)
    return Context(replace(gt, table=pd.DataFrame(), essays=essays), folder, handoff, compiled)


def worker_setup() -> None:
    """In a worker process: one parse thread per process (the pool already uses every core)."""
    try:
        pd.set_option("mode.max_threads", 1)
    except (KeyError, pd.errors.OptionError):  # a pandas without parallel CSV reading
        pass


def tables_of(pred: Segs, probs: np.ndarray, gt: GroundTruth) -> SubTables:
    """A submission's predictions and their overlapping pairs with the ground truth."""
    C = len(gt.classes)
    p, g, inter = overlapping_pairs(pred, gt.segs, C, gt.runs)
    d = probs[p, gt.label[g]] if probs.shape[1] else np.zeros(len(p))
    return SubTables(pred.essay, pred.cls, pred.size, pred.wmin, pred.row, p, g, inter, d)


def removed_tables(raw: SubTables, rem: Segs, kept: np.ndarray, trimmed: np.ndarray, probs: np.ndarray,
                   gt: GroundTruth) -> SubTables:
    """The tables after overlap removal, from the raw ones: a kept, untouched prediction keeps
    its pairs; only the ``trimmed`` ones (positions in ``rem``) are paired again. Pairs stay
    ordered by prediction."""
    new_pos = np.full(raw.n, -1, dtype=np.int64)
    new_pos[kept] = np.arange(len(kept))
    is_trim = np.zeros(rem.n, dtype=bool)
    is_trim[trimmed] = True
    np_a = new_pos[raw.p]
    keep = np_a >= 0
    keep[keep] = ~is_trim[np_a[keep]]
    keep = np.flatnonzero(keep)  # positions, found once for the four columns
    a_p, a_g, a_i, a_d = np_a[keep], raw.g[keep], raw.inter[keep], raw.d[keep]
    sub = rem.take(trimmed)
    t = tables_of(sub, probs[trimmed], gt)
    b_p = trimmed[t.p]
    ia, ib = merge_positions(a_p, b_p)  # two lists sorted by prediction; b, the few re-paired, is short
    n = len(a_p) + len(b_p)
    cols = []
    for a, b, dt in ((a_p, b_p, np.int64), (a_g, t.g, np.int64), (a_i, t.inter, np.int64), (a_d, t.d, np.float64)):
        out = np.empty(n, dtype=dt)
        out[ia], out[ib] = a, b
        cols.append(out)
    return SubTables(rem.essay, rem.cls, rem.size, rem.wmin, rem.row, *cols)


def fp1_of(pred: Segs, gt: GroundTruth, t: SubTables) -> float:
    return fp1_from_pairs(pred, gt.segs, gt.groups, len(gt.classes), len(gt.essays), t.p, t.g, t.inter)


def prepare_submission(src, name: str, gt: GroundTruth, folder: str | None = None, handoff: bool = False, *,
                       compiled: bool = False) -> Prepared:
    """Parse one submission and reduce it to its FP1 scores and packed tables (raw, after removal),
    written into ``folder`` if given (under their content hash; ``handoff``: under a name of their own).
    ``compiled``: see :func:`.data.scan_submission`."""
    ps = parse_submission(src, name, gt, compiled=compiled)
    ties = row_order_ties(ps.segs)
    if ties:
        ps.notes.append(f"{name}: {ties} prediction(s) start at the same word of an essay as another one; which "
                        "of them overlap removal keeps depends on their row order (the earlier row wins)")
    raw = tables_of(ps.segs, ps.probs, gt)
    fp1 = fp1_of(ps.segs, gt, raw)
    rem_segs, kept = remove_overlaps(ps.segs)
    touched = np.ones(ps.segs.n, dtype=bool)  # dropped or trimmed by the removal
    touched[kept] = rem_segs.size != ps.segs.size[kept]
    if not touched.any():  # nothing overlapped: both modes are the same
        out = Prepared(name, None, fp1, fp1, ps.notes, order_ties=ties)
        removed = None
    else:
        trimmed = np.flatnonzero(rem_segs.size != ps.segs.size[kept])
        removed = removed_tables(raw, rem_segs, kept, trimmed, ps.probs[kept], gt)
        changed = unique_sorted(ps.segs.essay[touched]).astype(np.int32)
        out = Prepared(name, None, fp1, fp1_of(rem_segs, gt, removed), ps.notes, changed, ties)
    buf, out.layout, out.dtypes = pack(raw, removed)
    if folder is not None:
        out.file = hand_over(folder, buf) if handoff else write_tables(folder, buf)
    else:
        out.buffer = buf
    return out


def prepare_task(ctx: Context, item: tuple) -> Prepared:
    """``fan_out`` task: ``item = (name, source, display name)``."""
    _, src, disp = item
    if ctx.handoff and not in_worker():  # run in the caller's process: nothing to hand over
        return prepare_submission(src, disp, ctx.gt, compiled=ctx.compiled)
    return prepare_submission(src, disp, ctx.gt, ctx.folder, ctx.handoff, compiled=ctx.compiled)
