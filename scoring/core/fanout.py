"""Run one function over many items on every core — a local process pool, a Dask cluster,
threads, or this process — and get the results back in order, counting items as progress.

Any family can use it: ``fan_out(fn, items, shared=context)`` yields ``fn(context, item)``
for each item, in the items' order. ``fn`` must be a module-level function (pickled by
name), ``context`` and the items picklable. The first failing item (in order) raises its
exception, as a plain loop would; the items after it are cancelled.

* **processes** (the default for ``workers > 1``): a ``ProcessPoolExecutor`` of ``workers``
  processes (default: every core this process may use; ``LAB_WORKERS`` overrides).
  ``context`` is sent once per worker, not once per item. The start method is ``fork``
  when this process runs a single thread (fast: nothing to import), else ``forkserver``
  (safe inside a threaded server such as Streamlit) or ``spawn``; ``LAB_START_METHOD``
  overrides. Where processes cannot start, threads take over.
* **dask**: ``scheduler="tcp://host:8786"`` (or a ``distributed.Client``) sends every item to
  a Dask cluster; ``context`` is scattered to every worker once. Dask is imported only then.
* **threads** / **in-process**: ``mode="threads"``, or ``workers=1`` (also for fewer than
  ``min_items`` items, where a pool costs more than it saves).

``progress(done, total, name)`` is called with 0 before the first item, after each item
(with the next item's name) and with ``total`` at the end — it counts items, e.g. files.
At most ``window`` items (default ``2 × workers``) are in flight, so memory stays bounded
by the window, not by the number of items.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import sys
import threading
import weakref
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .errors import InputError

_context: Any = None  # the shared context, in a pool worker
DASK_TIMEOUT = os.environ.get("LAB_DASK_TIMEOUT", "20s")  # to connect to a scheduler


def default_workers() -> int:
    """Worker processes to use: ``LAB_WORKERS``, else the cores this process may run on.

    >>> default_workers() >= 1
    True
    """
    try:
        env = int(os.environ.get("LAB_WORKERS", "0"))
    except ValueError:
        env = 0
    if env >= 1:
        return env
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


#: the threads of this process's finished pools that are still winding down (a pool's manager
#: and queue threads outlive it by the ~15 ms its workers take to exit)
_ending: weakref.WeakSet = weakref.WeakSet()


def _settle(timeout: float = 2.0) -> None:
    """Wait for the threads of finished pools to end, so that they do not count as threads of
    this process: the next pool's start method would be ``forkserver`` instead of ``fork``
    (starting a fork server costs about half a second)."""
    for t in list(_ending):
        t.join(timeout)
        _ending.discard(t)


# At exit, concurrent.futures wakes the manager thread of every pool once more; a finished
# pool's thread that is closing its pipe at that moment makes Python print "Exception ignored
# ... Bad file descriptor" after a command's output (seen about once in 20 runs). Joining those
# threads first leaves nothing half-closed to wake; these hooks run last-registered first.
if hasattr(threading, "_register_atexit"):
    threading._register_atexit(_settle)


def start_method() -> str:
    """``fork`` for a single-threaded process, else ``forkserver`` or ``spawn`` (``LAB_START_METHOD`` wins)."""
    methods = mp.get_all_start_methods()
    env = os.environ.get("LAB_START_METHOD", "")
    if env in methods:
        return env
    _settle()
    if "fork" in methods and sys.platform == "linux" and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def in_worker() -> bool:
    """True inside a pool worker process (where no nested pool is started)."""
    return mp.parent_process() is not None


#: in a pool worker, freed blocks up to this size are kept for reuse (glibc's ``mallopt``)
KEEP_FREED_BYTES = 256 << 20


def keep_freed_memory(limit: int = KEEP_FREED_BYTES) -> bool:
    """Let this process's allocator keep freed memory (up to ``limit`` bytes at the top of its
    heap, arrays up to ``limit / 4`` from the heap) instead of handing it back to the system at
    once. A worker that scores file after file then reuses its pages: without this, each file's
    large temporary arrays are fresh mappings whose every page faults and is zeroed again
    (about 2,500 faults and 10 ms of system time per FP1-scale file). A pool's processes end
    with their pool, so the memory they keep goes with them. False where there is no glibc."""
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (musl, macOS, Windows): nothing to tune
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3  # glibc's malloc.h
    return bool(mallopt(m_mmap_threshold, max(1, limit // 4))) and bool(mallopt(m_trim_threshold, limit))


def _init(context: Any, setup: Callable[[], None] | None) -> None:
    global _context
    _context = context
    if in_worker():  # a pool's own process (threads share the caller's allocator: left alone)
        keep_freed_memory()
    if setup is not None:
        setup()


def _call(fn: Callable, batch: list) -> list:
    return [fn(_context, item) for item in batch]


def _call_here(fn: Callable, shared: Any, batch: list) -> list:
    return [fn(shared, item) for item in batch]


def _dask_call(fn: Callable, context: Any, item: Any) -> Any:
    return fn(context, item)


def fan_out(fn: Callable[[Any, Any], Any], items: Sequence, *, shared: Any = None,
            progress: Callable[[int, int, str], None] | None = None, names: Sequence[str] | None = None,
            workers: int | None = None, scheduler: Any = None, mode: str | None = None, min_items: int = 2,
            window: int | None = None, setup: Callable[[], None] | None = None, chunk: int = 1) -> Iterator[Any]:
    """Yield ``fn(shared, item)`` for every item, in order (see the module doc).

    Parameters
    ----------
    fn : module-level function ``(shared, item) -> result``.
    items : the items (a sequence: its length is the progress total).
    shared : one context object every call receives (sent to each worker once).
    progress : ``progress(done, total, name)``, counting items; ``names`` label them.
    workers : processes (or threads); default :func:`default_workers`; 1 runs in this process.
    scheduler : a Dask scheduler address or ``distributed.Client``: run on that cluster.
    mode : ``"processes"`` (default), ``"threads"`` or ``"inline"``.
    min_items : fewer items than this run in this process.
    window : items in flight at most (default ``2 × workers``; on Dask, 2 × the cluster's threads).
    setup : called once in each worker process before its first item.
    chunk : items per task in a pool (many small items: one round trip for several).

    >>> list(fan_out(pow, [1, 2, 3], shared=2, workers=1))
    [2, 4, 8]
    """
    items = list(items)
    total = len(items)
    label = (lambda k: str(names[k]) if k < total else "") if names is not None else (lambda k: "")
    if progress:
        progress(0, total, label(0))
    workers = default_workers() if workers is None else max(1, int(workers))
    if scheduler is not None:
        results = _dask(fn, items, shared, scheduler, window)
    elif mode == "inline" or workers <= 1 or total < min_items or in_worker():
        results = (fn(shared, item) for item in items)
    else:
        results = _pooled(fn, items, shared, workers, mode or "processes", window or 2 * workers, setup,
                          max(1, int(chunk)))
    try:
        for k, result in enumerate(results):
            if progress and k + 1 < total:
                progress(k + 1, total, label(k + 1))
            yield result
    finally:
        results.close()  # stops the pool now, also when the caller stops early or raises
    if progress:
        progress(total, total, "")


WORKER_NAME = "lab-worker"


class _WorkerContext:
    """A multiprocessing context whose processes are named ``lab-worker-…``, so that their
    start-up data leaves out the caller's ``__main__`` (see :func:`_no_main_for_workers`)."""

    def __init__(self, ctx):
        self._ctx = ctx

    def __getattr__(self, attr):
        return getattr(self._ctx, attr)

    def Process(self, *args, **kwargs):  # noqa: N802 (the multiprocessing name)
        proc = self._ctx.Process(*args, **kwargs)
        proc.name = f"{WORKER_NAME}-{proc.name}"
        return proc


def _no_main_for_workers() -> None:
    """A spawned or forkserver child re-runs the parent's main script (``__main__``) before its
    first task — under Streamlit that is the app itself, which must not run in a worker (nor a
    user's unguarded script). Our workers need only the task's module, so their start-up data
    drops the main script; other processes are left as they are."""
    from multiprocessing import spawn

    if getattr(spawn.get_preparation_data, "_lab", False):
        return
    original = spawn.get_preparation_data

    def get_preparation_data(name):
        data = original(name)
        if str(name).startswith(WORKER_NAME):
            data.pop("init_main_from_path", None)
            data.pop("init_main_from_name", None)
        return data

    get_preparation_data._lab = True
    spawn.get_preparation_data = get_preparation_data


_env_lock = threading.Lock()


def _start_forkserver(modules: list[str]) -> None:
    """Start the fork server (once per process) where it can import ``modules``. Before Python
    3.12.8 it ignores this process's ``sys.path`` (CPython gh-117378): started from another
    folder than the app's, its preload failed silently and every worker imported numpy and
    pandas afresh (~0.5 s a worker, a pool). Their folders go on its ``PYTHONPATH``."""
    from multiprocessing import forkserver

    folders = []
    for name in modules:
        mod = sys.modules.get(name.partition(".")[0])
        path = getattr(mod, "__file__", None)
        if path:  # a package's folder holds its __init__: the folder to import it from is one up
            folder = os.path.dirname(os.path.dirname(path) if hasattr(mod, "__path__") else path)
            folders.append(os.path.abspath(folder))
    with _env_lock:
        old = os.environ.get("PYTHONPATH")
        os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(folders + ([old] if old else [])))
        try:
            forkserver.ensure_running()
        finally:
            if old is None:
                os.environ.pop("PYTHONPATH", None)
            else:
                os.environ["PYTHONPATH"] = old


def _executor(kind: str, workers: int, shared: Any, setup, fn) -> Executor:
    if kind == "processes":
        try:
            ctx = mp.get_context(start_method())
            if ctx.get_start_method() != "fork":
                _no_main_for_workers()
                ctx = _WorkerContext(ctx)
            if ctx.get_start_method() == "forkserver":
                # workers fork from a server that has imported the task's module (numpy, pandas…)
                # once, instead of importing it afresh in every worker of every pool
                modules = sorted({fn.__module__, getattr(setup, "__module__", fn.__module__)})
                ctx.set_forkserver_preload(modules)
                _start_forkserver(modules)
            return ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init, initargs=(shared, setup))
        except (OSError, ValueError, NotImplementedError, ImportError):
            pass  # no processes here (a sandbox, a platform without semaphores): threads
    return ThreadPoolExecutor(workers, initializer=_init, initargs=(shared, None))


def _pooled(fn, items, shared, workers, kind, window, setup, chunk) -> Iterator[Any]:
    batches = [items[i:i + chunk] for i in range(0, len(items), chunk)]
    pool = _executor(kind, min(workers, len(batches)), shared, setup, fn)
    threads = isinstance(pool, ThreadPoolExecutor)
    queue: deque = deque()
    todo = iter(batches)

    def submit(batch):
        if threads:  # threads share this process: call with the context directly
            return pool.submit(_call_here, fn, shared, batch)
        return pool.submit(_call, fn, batch)

    finished = False
    try:
        for batch in todo:
            queue.append(submit(batch))
            if len(queue) >= window:
                break
        while queue:
            try:
                results = queue.popleft().result()
            except BrokenProcessPool as e:
                raise RuntimeError("a worker process died while loading (out of memory?); set LAB_WORKERS=1 "
                                   "to work in one process") from e
            nxt = next(todo, None)
            if nxt is not None:
                queue.append(submit(nxt))
            if not queue:
                finished = True  # every item is back: the workers have nothing left to do
            yield from results
    finally:
        # after the last item, idle workers exit on their own (tearing down a worker's memory
        # takes ~15 ms); stopped early, the caller waits for the running items to end, so
        # none writes anything after it returns
        ending = () if threads else (getattr(pool, "_executor_manager_thread", None),
                                     getattr(getattr(pool, "_call_queue", None), "_thread", None))
        pool.shutdown(wait=not finished, cancel_futures=True)
        _ending.update(t for t in ending if t is not None and t.is_alive())


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
