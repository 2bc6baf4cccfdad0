"""``python -m benchmarks._timed_server <streamlit run arguments>``: ``streamlit run`` with
every script run's start and end (wall clock) and session appended to ``$LAB_RUN_LOG`` as
tab-separated lines, so the load benchmark can tell the server's part of a page's time from
the browser's. Benchmark plumbing only (a leading underscore: not a benchmark of its own)."""

from __future__ import annotations

import os
import sys
import threading
import time

if __name__ == "__main__":
    sys.path.pop(0)  # run as a file: this folder's modules (qa.py, spotgeo.py, …) must not shadow anything

from streamlit.runtime.scriptrunner import script_runner
from streamlit.web import cli

_LOCK = threading.Lock()
_real = script_runner.ScriptRunner._run_script


def _timed(self, rerun_data):
    start = time.time()
    try:
        return _real(self, rerun_data)
    finally:
        line = f"{self._session_id}\t{start:.4f}\t{time.time():.4f}\n"
        with _LOCK, open(os.environ["LAB_RUN_LOG"], "a") as fh:
            fh.write(line)


script_runner.ScriptRunner._run_script = _timed

if __name__ == "__main__":
    sys.argv = ["streamlit", *sys.argv[1:]]
    cli.main()
