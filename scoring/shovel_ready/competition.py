"""Loading a competition: ground truth, submissions, demographics and runtimes (SPEC §1).

Each submission is parsed, validated and reduced to what the sliders need — its two FP1
scores and the essays overlap removal changed — in a process pool across every core (or on
a Dask cluster, ``scheduler=``), one file per task. Its match tables (the overlapping
prediction/ground-truth pairs, raw and after removal) go to a :class:`TableStore`: in memory
for a small competition, else memory-mapped files in a cache folder, so memory stays flat in
the number of submissions. Raw rows are never kept (``Competition.read_submission`` re-reads
the file).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cached_property

import pandas as pd

from ..core import fanout
from ..core.fanout import fan_out
from ..core.sources import expand_submissions, path_of, source_name, source_size
from . import fastscan
from .data import (
    GroundTruth,
    load_demographics,
    load_ground_truth_table,
    load_runtimes,
    parse_submission,
)
from .prepare import Prepared, prepare_task, worker_context, worker_setup
from .tablestore import MEMORY_BYTES, SubTables, TableStore

#: inputs smaller than this (bytes of submissions) load in this process: a pool would cost more
POOL_MIN_BYTES = fanout.POOL_MIN_BYTES  # (set here for this family alone in tests)
TABLE_SHARE = 0.5  # match tables per byte of submission CSV, about (FP1 scale: 0.43)


def _processes(workers: int | None, scheduler, n: int) -> int:
    """How many processes will read the ``n`` submissions (a Dask cluster's workers where its
    client can tell, else one)."""
    if scheduler is not None:
        try:
            return max(1, min(n, len(scheduler.scheduler_info()["workers"])))
        except Exception:  # an address, or a client that cannot tell
            return 1
    return max(1, min(n, fanout.default_workers() if workers is None else int(workers)))


def _size(src) -> int:
    """A submission's size for the pool and memory choices: a table's memory, else
    :func:`~scoring.core.sources.source_size` (sources here are paths, bytes or tables:
    :func:`~scoring.core.sources.expand_submissions` keeps a stream's bytes)."""
    if isinstance(src, pd.DataFrame):
        return int(src.memory_usage(index=False, deep=True).sum())
    return source_size(src)


class Competition:
    """A loaded, validated competition (see :func:`load_competition`)."""

    def __init__(self, gt: GroundTruth, prepared: list[Prepared], store: TableStore,
                 demographics: pd.DataFrame, attributes: list[str], runtimes: dict[str, float], report: list[str]):
        self.gt = gt
        self.prepared = prepared
        self.store = store  # every submission's match tables (memory or a cache folder)
        self.demographics = demographics
        self.attributes = attributes
        self.runtimes = runtimes
        self.report = report
        self._sources = {p.name: p.source for p in prepared}

    def tables(self, k: int, removal: bool) -> SubTables:
        """Submission ``k``'s predictions and overlapping pairs, raw or after overlap removal
        (read back from memory or from the cache folder)."""
        return self.store.get(k, removal)

    def close(self) -> None:
        """Remove the on-disk tables now (they also go when the competition is released, and
        at exit); afterwards only what is kept in memory (names, FP1, reports) is usable."""
        self.store.close()

    def __enter__(self) -> Competition:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

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
        src = self._sources[name]
        ps = parse_submission(io.BytesIO(src) if isinstance(src, (bytes, bytearray)) else src, name, self.gt)
        kept = ps.table.iloc[ps.kept]
        out = pd.DataFrame({"id": kept["id"].to_numpy(), "class": kept["class"].to_numpy(),
                            "predictionstring": ps.segs.strings(), "row": ps.table.attrs["rows"][ps.segs.row]})
        for j, lab in enumerate(self.gt.labels):
            out[lab] = ps.probs[:, j]
        return out

    def __repr__(self) -> str:
        return (f"Competition({len(self.gt.essays)} essays, {self.gt.segs.n} ground truths, "
                f"{len(self.prepared)} submissions, attributes={self.attributes})")


def _side_inputs(gt: GroundTruth, demographics, runtimes, names: list[str]):
    """Demographics and runtimes: ``(demographics, attributes, runtimes, notes)``."""
    notes: list[str] = []
    if demographics is not None:
        demo, attrs = load_demographics(demographics, source_name(demographics, "demographics"), gt, notes)
    else:
        demo, attrs = pd.DataFrame(index=pd.Index(gt.essays, name="id")), []
    rt = load_runtimes(runtimes, source_name(runtimes, "runtimes"), names, notes) if runtimes is not None else {}
    return demo, attrs, rt, notes


def load_competition(*, ground_truth, submissions, demographics=None, runtimes=None,
                     progress: Callable[[int, int, str], None] | None = None, workers: int | None = None,
                     scheduler=None, cache: str | None = None) -> Competition:
    """Load and validate a competition (SPEC §1); raise :class:`InputError` on bad input.

    Parameters
    ----------
    ground_truth, submissions, demographics, runtimes
        Sources: paths, bytes, file-likes or DataFrames; ``submissions`` is a list of files
        and/or folders (every ``*.csv`` inside), or a dict ``{name: source}``.
    progress : callable, optional
        ``progress(done, total, name)``, counting submission files.
    workers : int, optional
        Processes scoring files at once (default: every core; ``LAB_WORKERS``); 1 loads in
        this process. Inputs under ``LAB_POOL_MIN_BYTES`` (32 MiB) always load in this process.
    scheduler : str or distributed.Client, optional
        A Dask scheduler address: every file is scored on that cluster (its workers read the
        paths, so they must see the same files) and its tables come back to this machine.
    cache : {"memory", "disk"}, optional
        Where the match tables go; default: memory up to ``LAB_MEMORY_TABLES`` bytes (512
        MiB, about 1 GiB of submission CSV), else a cache folder under ``LAB_CACHE_DIR``.
    """
    report: list[str] = []
    gt = load_ground_truth_table(ground_truth, source_name(ground_truth, "ground truth"), report)
    subs = expand_submissions(submissions)
    sizes = [_size(src) for _, src, _ in subs]
    size = sum(sizes)
    where = cache or ("disk" if size * TABLE_SHARE > MEMORY_BYTES else "memory")
    if workers is None and size < POOL_MIN_BYTES:
        workers = 1
    store = TableStore(where)
    names = [name for name, _, _ in subs]
    side = ThreadPoolExecutor(1)  # demographics and runtimes, read while the workers score files
    try:
        later = side.submit(_side_inputs, gt, demographics, runtimes, names)
        # a local worker writes its tables into the cache folder (in memory mode, a folder they
        # are handed over through); a Dask worker sends them back
        folder = store.handoff_folder() if scheduler is None and workers != 1 else None
        # the compiled pass where each process has enough to read to repay loading it
        ctx = worker_context(gt, folder, handoff=folder is not None and where == "memory",
                             compiled=size >= fastscan.COMPILED_MIN_VOLUME * _processes(workers, scheduler, len(subs)))
        # the largest files first: the last file a worker takes is then a small one, so the
        # workers finish close together (the results go back to the files' own order)
        order = sorted(range(len(subs)), key=lambda k: -sizes[k])
        done: list[Prepared | None] = [None] * len(subs)
        for i, pr in enumerate(fan_out(prepare_task, [subs[k] for k in order], shared=ctx, progress=progress,
                                       names=[names[k] for k in order], workers=workers, scheduler=scheduler,
                                       setup=worker_setup, readahead=path_of)):
            k = order[i]
            name, src, _ = subs[k]
            pr.name = name
            store.put(k, pr.layout, pr.dtypes, buffer=pr.buffer, file=pr.file)
            pr.buffer = pr.file = None
            if where == "disk" and isinstance(src, (bytes, bytearray)):
                src = store.spill(src)  # an upload's bytes wait on disk for read_submission
            pr.source = src
            done[k] = pr
        prepared: list[Prepared] = [pr for pr in done if pr is not None]
        for pr in prepared:
            report.extend(pr.notes)
        subs = done = None  # the sources' bytes (uploads) are not kept twice
        # their errors and notes come after the submissions', as if read one after the other
        demo, attrs, rt, notes = later.result()
        report.extend(notes)
    except BaseException:
        store.close()
        raise
    finally:
        side.shutdown(wait=True, cancel_futures=True)
    return Competition(gt, prepared, store, demo, attrs, rt, report)
