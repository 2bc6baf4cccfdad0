"""Run one function over many items on every core — joblib's worker processes (loky), a Dask
cluster, threads, or this process — and get the results back in order, counting items as progress.

Any family can use it: ``fan_out(fn, items, shared=context)`` yields ``fn(context, item)``
for each item, in the items' order. ``fn`` must be a module-level function (pickled by
name), ``context`` and the items picklable. The first failing item (in order) raises its
exception, as a plain loop would; the items after it are cancelled and the workers stopped
before the exception reaches the caller.

* **processes** (the default for ``workers > 1``): ``joblib.Parallel`` on its loky backend,
  ``workers`` processes (default: every core this process may use; ``LAB_WORKERS`` overrides;
  never more than those cores: :func:`max_workers`).
  loky starts its workers afresh (never a ``fork`` of a threaded server, never the caller's
  ``__main__``) and keeps them for the next call until they have been idle ``IDLE_SECONDS``.
  ``context`` reaches each worker once per call, not once per item: it is written to a private
  temporary folder (``joblib.dump``) that the workers read it from, removed after the call (or
  by loky's resource tracker when this process is killed).
  Where joblib cannot start processes, it runs the items in this process.
* **dask**: ``scheduler="tcp://host:8786"`` (or a ``distributed.Client``) sends every item to
  a Dask cluster; ``context`` is scattered to every worker once. Dask is imported only then.
* **threads**: ``mode="threads"``, and a call made while another call of this process uses the
  worker processes (loky's workers are one pool per process, and a bad item of one call stops
  them: the two calls must not share them).
* **in-process**: ``workers=1``, fewer than ``min_items`` items (where a pool costs more than
  it saves), or a call made inside a worker.

``readahead(item)`` (a path, or None) lets the pool ask the system to read the next files
from the disk while the workers parse the current ones (``posix_fadvise(WILLNEED)``;
nothing where the system has no such call), so a worker seldom waits for the disk.

``progress(done, total, name)`` is called with 0 before the first item, after each item
(with the next item's name) and with ``total`` at the end — it counts items, e.g. files.
At most ``window`` tasks (default ``2 × workers``) are dispatched ahead of the results.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import shutil
import stat
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from . import limits
from .errors import InputError

DASK_TIMEOUT = os.environ.get("LAB_DASK_TIMEOUT", "20s")  # to connect to a scheduler
#: inputs smaller than this (bytes of submission files in all) load in this process: a pool
#: would cost more than it saves (``LAB_POOL_MIN_BYTES``)
POOL_MIN_BYTES = int(os.environ.get("LAB_POOL_MIN_BYTES", 32 << 20))
IDLE_SECONDS = 60  # a worker process with nothing to do for this long exits
WATCH_SECONDS = 0.5  # how often a worker looks whether its parent is still there


def max_workers() -> int:
    """The most worker processes (or threads) a call starts: the cores this process may run
    on. A count asked for beyond them (``--workers 100000``, ``LAB_WORKERS``, ``workers=``) is
    clamped to this: a worker past the cores adds its memory (~110 MB) and no speed.

    >>> max_workers() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def default_workers() -> int:
    """Worker processes to use: ``LAB_WORKERS``, else the cores this process may run on (never
    more than :func:`max_workers`).

    >>> 1 <= default_workers() <= max_workers()
    True
    """
    try:
        env = int(os.environ.get("LAB_WORKERS", "0"))
    except ValueError:
        env = 0
    if env >= 1:
        return min(env, max_workers())
    return max_workers()


def in_worker() -> bool:
    """True inside a worker process (where no nested pool is started)."""
    return mp.parent_process() is not None


#: in a worker process, freed blocks up to this size are kept for reuse (glibc's ``mallopt``)
KEEP_FREED_BYTES = 256 << 20


def keep_freed_memory(limit: int = KEEP_FREED_BYTES) -> bool:
    """Let this process's allocator keep freed memory (up to ``limit`` bytes at the top of its
    heap, arrays up to ``limit / 4`` from the heap) instead of handing it back to the system at
    once. A worker that scores file after file then reuses its pages: without this, each file's
    large temporary arrays are fresh mappings whose every page faults and is zeroed again
    (about 2,500 faults and 10 ms of system time per FP1-scale file). The memory a worker keeps
    goes with it when it exits (after ``IDLE_SECONDS`` idle). False where there is no glibc."""
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (musl, macOS, Windows): nothing to tune
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3  # glibc's malloc.h
    return bool(mallopt(m_mmap_threshold, max(1, limit // 4))) and bool(mallopt(m_trim_threshold, limit))


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)  # the parent is gone (killed): nothing will ever collect this worker's results


def _one_line(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"warning: {' '.join(str(message).split())}", file=sys.stderr if file is None else file)


def _init_worker() -> None:
    """loky's initializer, once in each worker process: keep freed memory, print a warning as one
    line (no source path: a worker writes to its caller's stderr), and end with the parent. A
    killed parent leaves loky's workers running until their idle time is up (a busy one longer);
    this thread ends them within ``WATCH_SECONDS``."""
    keep_freed_memory()
    warnings.showwarning = _one_line
    threading.Thread(target=_watch_parent, args=(os.getppid(),), name="lab-parent-watch", daemon=True).start()


class _Shared:
    """The context of one call, as the workers see it: a file they read once (``path``)."""

    def __init__(self, path: str):
        self.path = path


_loaded: tuple[str, Any] = ("", None)  # in a worker: the last context read, by path
_set_up: set = set()  # in a worker: the setup functions already run


class _Failed:
    """An item's exception, carried back as a result so that the first failure *in order* is
    the one raised (joblib raises whichever failure it sees first)."""

    def __init__(self, error: BaseException):
        self.error = error
        self.trace = traceback.format_exc()


class _RemoteTraceback(Exception):
    def __str__(self) -> str:
        return self.args[0]


def _run(fn: Callable, shared: Any, setup: Callable[[], None] | None, batch: list) -> list:
    """A worker's task: ``fn`` over a batch (``shared``: the context, or a :class:`_Shared`)."""
    global _loaded
    out: list = []
    try:
        if setup is not None and setup not in _set_up:
            setup()
            _set_up.add(setup)
        if isinstance(shared, _Shared):
            if _loaded[0] != shared.path:
                import joblib

                _loaded = ("", None)  # the last call's context goes first
                _loaded = (shared.path, joblib.load(shared.path))
            shared = _loaded[1]
        for item in batch:
            out.append(fn(shared, item))
    except Exception as e:
        out.append(_Failed(e))
    return out


class _Readahead:
    """Asks the system to read, from the disk into its page cache, the files of the items
    ``lead`` places ahead of the last result, so the workers find them there."""

    def __init__(self, items: list, path_of: Callable[[Any], Any], lead: int):
        self.items, self.path_of, self.lead, self.next = items, path_of, max(1, lead), 0
        self._advance(self.lead)

    def passed(self, k: int) -> None:
        self._advance(k + 1 + self.lead)

    def _advance(self, until: int) -> None:
        while self.next < min(until, len(self.items)):
            read_ahead(self.path_of(self.items[self.next]))
            self.next += 1


def read_ahead(path) -> bool:
    """``posix_fadvise(WILLNEED)`` on a regular file, up to ``MAX_FILE_BYTES`` (a longer file
    is refused when read): the system starts reading it into its page cache and returns.
    False (and nothing done) for None, a missing file, anything but a regular file (a pipe is
    opened without waiting for a writer), or a system without the call."""
    if path is None or not hasattr(os, "posix_fadvise"):
        return False
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, TypeError, ValueError):
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        os.posix_fadvise(fd, 0, limits.MAX_FILE_BYTES, os.POSIX_FADV_WILLNEED)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


_busy = threading.Lock()  # held while a call uses the worker processes


def fan_out(fn: Callable[[Any, Any], Any], items: Sequence, *, shared: Any = None,
            progress: Callable[[int, int, str], None] | None = None, names: Sequence[str] | None = None,
            workers: int | None = None, scheduler: Any = None, mode: str | None = None, min_items: int = 2,
            window: int | None = None, setup: Callable[[], None] | None = None, chunk: int = 1,
            readahead: Callable[[Any], str | os.PathLike | None] | None = None) -> Iterator[Any]:
    """Yield ``fn(shared, item)`` for every item, in order (see the module doc).

    Parameters
    ----------
    fn : module-level function ``(shared, item) -> result``.
    items : the items (a sequence: its length is the progress total).
    shared : one context object every call receives (read by each worker once).
    progress : ``progress(done, total, name)``, counting items; ``names`` label them.
    workers : processes (or threads); default :func:`default_workers`; 1 runs in this process.
    scheduler : a Dask scheduler address or ``distributed.Client``: run on that cluster.
    mode : ``"processes"`` (default), ``"threads"`` or ``"inline"``.
    min_items : fewer items than this run in this process.
    window : tasks (of ``chunk`` items; on Dask, items) dispatched ahead of the results at most
        (default ``2 × workers``; on Dask, 2 × the cluster's threads).
    setup : called once in each worker process, before its first item.
    chunk : items per task (many small items: one round trip for several).
    readahead : ``readahead(item)`` gives the file an item will read (or None): this process
        asks the system to read the files of the next ``window × chunk + workers`` items ahead
        (module doc; not on a Dask cluster, whose workers read the files where they are).

    >>> list(fan_out(pow, [1, 2, 3], shared=2, workers=1))
    [2, 4, 8]
    """
    items = list(items)
    total = len(items)
    label = (lambda k: str(names[k]) if k < total else "") if names is not None else (lambda k: "")
    if progress:
        progress(0, total, label(0))
    workers = default_workers() if workers is None else min(max(1, int(workers)), max_workers())  # clamped
    mode = mode or "processes"
    lock = None
    if scheduler is not None:
        results = _dask(fn, items, shared, scheduler, window)
    elif mode == "inline" or workers <= 1 or total < min_items or in_worker():
        results = (fn(shared, item) for item in items)
    elif mode == "threads" or not _busy.acquire(blocking=False):
        results = _joblib(fn, items, shared, workers, "threading", window or 2 * workers, None, max(1, int(chunk)))
    else:
        lock = _busy
        results = _joblib(fn, items, shared, workers, "loky", window or 2 * workers, setup, max(1, int(chunk)))
    try:
        # (on a Dask cluster the workers read the files where they are: nothing to ask here)
        ahead = _Readahead(items, readahead, (window or 2 * workers) * max(1, int(chunk)) + workers) \
            if readahead is not None and scheduler is None else None
        for k, result in enumerate(results):
            if ahead is not None:
                ahead.passed(k)
            if progress and k + 1 < total:
                progress(k + 1, total, label(k + 1))
            yield result
    finally:
        try:
            results.close()  # stops the workers now, also when the caller stops early or raises
        finally:
            if lock is not None:
                lock.release()
    if progress:
        progress(total, total, "")


def _joblib(fn, items, shared, workers, backend, window, setup, chunk) -> Iterator[Any]:
    from joblib import Parallel, delayed

    batches = [items[i:i + chunk] for i in range(0, len(items), chunk)]
    folder = tracker = None
    if backend == "loky" and shared is not None:
        import joblib
        from joblib.externals.loky.backend import resource_tracker as tracker

        folder = tempfile.mkdtemp(prefix="lab-fanout-")  # private (0700)
        tracker.register(folder, "folder")  # loky's tracker removes it should this process be killed
    results = None
    try:  # from here on the folder goes whatever fails (a context that cannot be written, a pool that cannot start)
        if folder is not None:
            path = os.path.join(folder, "shared.joblib")
            joblib.dump(shared, path)
            shared = _Shared(path)
        kw = {"initializer": _init_worker, "idle_worker_timeout": IDLE_SECONDS} if backend == "loky" else {}
        parallel = Parallel(n_jobs=workers, backend=backend, return_as="generator", batch_size=1,
                            pre_dispatch=str(max(1, window)), max_nbytes=None, **kw)
        results = parallel(delayed(_run)(fn, shared, setup, batch) for batch in batches)
        for out in results:
            for r in out:
                if isinstance(r, _Failed):
                    raise r.error from _RemoteTraceback(r.trace)
                yield r
    except BrokenProcessPool as e:
        raise RuntimeError("a worker process died while loading (out of memory?); set LAB_WORKERS=1 "
                           "to work in one process") from e
    finally:
        if results is not None:
            with warnings.catch_warnings():  # stopped early, joblib warns of the items left undone
                warnings.simplefilter("ignore")
                results.close()  # stopped early: joblib kills the workers and waits for them to end
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
            tracker.unregister(folder, "folder")


def _dask_call(fn: Callable, context: Any, item: Any) -> Any:
    return fn(context, item)


def _dask(fn, items, shared, scheduler, window) -> Iterator[Any]:
    try:
        from distributed import Client
    except ImportError:  # an optional requirement
        raise InputError("scheduler", None, "a Dask scheduler was given but dask.distributed is not installed "
                         "(pip install -r requirements-dask.txt)") from None
    own = isinstance(scheduler, str)
    try:
        client = Client(scheduler, set_as_default=False, timeout=DASK_TIMEOUT) if own else scheduler
    except (OSError, TimeoutError, ValueError) as e:
        raise InputError("scheduler", None, f"cannot reach the Dask scheduler at {scheduler!r} ({e})") from None
    queue: deque = deque()
    try:
        # keep every thread of the cluster busy, and a second item queued for each
        window = window or max(4, 2 * sum(client.nthreads().values()))
        ctx = client.scatter([shared], broadcast=True)[0] if shared is not None else None
        todo = iter(items)
        for item in todo:
            queue.append(client.submit(_dask_call, fn, ctx, item, pure=False))
            if len(queue) >= window:
                break
        while queue:
            result = queue.popleft().result()
            nxt = next(todo, None)
            if nxt is not None:
                queue.append(client.submit(_dask_call, fn, ctx, nxt, pure=False))
            yield result
    finally:
        for f in queue:
            f.cancel()
        if own:
            client.close()
