"""``python benchmarks/_stats_server.py run app.py …``: ``streamlit run`` as the README starts it, plus
what the crowd benchmark reads from inside the server, written to ``$LAB_STATS_DIR/<pid>.json`` (JSON,
replaced once a second): the hits and misses of every cache of the project's one LRU class
(``scoring.core.cache.LRU``), grouped by who made it — the results shared by every session
(``lab.data.shared``: computed results, built figures), the scorers' caches (``scoring.*``) and the
data store — and each script run's wall and CPU time (the run's own thread). Benchmark plumbing only
(a leading underscore: not a benchmark of its own); nothing else in the server changes.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import weakref
from pathlib import Path

if __name__ == "__main__":
    sys.path[0] = os.getcwd()  # run as a file from the app's root: its modules, not this folder's (qa.py, …)

from streamlit.runtime.scriptrunner import script_runner  # noqa: E402
from streamlit.web import cli  # noqa: E402

from scoring.core import cache  # noqa: E402

_caches: list[tuple[str, weakref.ref]] = []
_runs: list[tuple[float, float, float]] = []  # (end, wall seconds, CPU seconds of the run's thread)
_lock = threading.Lock()
_init = cache.LRU.__init__
_run = script_runner.ScriptRunner._run_script


def kind(module: str, *, weighed: bool) -> str:
    """What a cache made in ``module`` holds, in the benchmark's words."""
    if module == "lab.data.shared":
        return "shared results" if weighed else "shared figures"
    if module.startswith("scoring."):
        return "scorers"
    if module == "lab.data.store":
        return "data store"
    return module


def _tracked(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    made_by = sys._getframe(1).f_globals.get("__name__", "?")
    with _lock:
        _caches.append((kind(made_by, weighed=kwargs.get("max_bytes") is not None), weakref.ref(self)))


def _timed(self, rerun_data):
    t0, c0 = time.perf_counter(), time.thread_time()
    try:
        return _run(self, rerun_data)
    finally:
        with _lock:
            _runs.append((time.time(), time.perf_counter() - t0, time.thread_time() - c0))


def snapshot() -> dict:
    """Every cache kind's hits and misses (caches since freed are counted at their last values:
    the counts only grow), and every run so far."""
    out: dict[str, dict[str, int]] = {}
    with _lock:
        caches = list(_caches)
        runs = list(_runs)
    for name, ref in caches:
        lru = ref()
        if lru is None:
            continue
        s = out.setdefault(name, {"hits": 0, "misses": 0, "caches": 0})
        s["hits"] += lru.hits
        s["misses"] += lru.misses
        s["caches"] += 1
    return {"caches": out, "runs": runs}


def _writer(path: Path) -> None:
    while True:
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(snapshot()))
        os.replace(tmp, path)
        time.sleep(1.0)


cache.LRU.__init__ = _tracked
script_runner.ScriptRunner._run_script = _timed

if __name__ == "__main__":
    if os.environ.get("LAB_STATS_DIR"):
        threading.Thread(target=_writer, args=(Path(os.environ["LAB_STATS_DIR"]) / f"{os.getpid()}.json",),
                         daemon=True).start()
    sys.argv = ["streamlit", *sys.argv[1:]]
    cli.main()
