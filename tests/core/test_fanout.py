"""The fan-out's worker processes: what they are set up with before their first item."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from scoring.core import fanout


def _faults_of_a_second_allocation(_shared, size: int) -> tuple[bool, int]:
    """In the calling process: allocate, free, and allocate the same large array again; the
    page faults of the second allocation (0 when the freed pages were kept for reuse)."""
    a = np.ones(size, dtype=np.uint8)
    del a
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    b = np.ones(size, dtype=np.uint8)  # touches every page
    after = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    del b
    return fanout.in_worker(), after - before


# 48 MiB: above the 32 MiB up to which glibc's own threshold for mapping a block afresh ever
# rises, below the worker's KEEP_FREED_BYTES / 4. A fresh mapping faults at least once per
# 2 MiB (numpy asks for huge pages; 4 KiB pages fault 512 times as often)
SIZE = 48 << 20
FRESH = SIZE // (2 << 20)  # 24: the fewest faults of a fresh mapping


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator (Linux only)")
def test_pool_workers_reuse_freed_pages():
    results = list(fanout.fan_out(_faults_of_a_second_allocation, [SIZE, SIZE], workers=2))
    assert all(in_worker for in_worker, _ in results)
    assert all(faults < FRESH // 2 for _, faults in results), results  # kept pages fault (nearly) none


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator (Linux only)")
def test_the_callers_own_allocator_is_left_alone(monkeypatch):
    # in this process (workers=1) nothing is tuned: the allocator is never asked to keep memory
    tuned = []
    monkeypatch.setattr(fanout, "keep_freed_memory", lambda *a, **k: tuned.append(a) or True)
    (in_worker, _), = fanout.fan_out(_faults_of_a_second_allocation, [SIZE], workers=1)
    assert not in_worker and tuned == []
    # and in a fresh interpreter (this one's heap holds what earlier tests freed, which a 48 MiB
    # block may reuse): the freed mapping goes back to the system, the second allocation faults
    # every page in again
    code = ("from scoring.core import fanout; from tests.core.test_fanout import SIZE, _faults_of_a_second_allocation as f; "
            "(w, faults), = fanout.fan_out(f, [SIZE], workers=1); print(int(w), faults)")
    out = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2], capture_output=True,
                         text=True, timeout=120, check=True).stdout.split()
    assert out[0] == "0" and int(out[1]) >= FRESH, out



def _slow_or_failing(_shared, item: float) -> float:
    import time

    if item < 0:
        time.sleep(-item)
        raise ValueError(f"bad item {item}")
    time.sleep(item)
    return item


def _pids(_shared, _item) -> int:
    return os.getpid()


def _workers() -> set[int]:
    """This process's loky worker processes (from /proc: children whose command runs loky)."""
    me, found = str(os.getpid()), set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmd = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if fields[1] == me and b"popen_loky" in cmd:
            found.add(int(stat.parent.name))
    return found


linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc (Linux)")


@linux
def test_the_workers_stay_for_the_next_call_and_exit_when_idle(monkeypatch):
    import time

    # a distinct idle time makes joblib start workers of their own for this test
    # (5 s: under a loaded full run, 2 s let a worker that got no item time out during the first call)
    monkeypatch.setattr(fanout, "IDLE_SECONDS", 5)
    first = set(fanout.fan_out(_pids, range(8), workers=2))
    assert first and os.getpid() not in first and first <= _workers()
    again = set(fanout.fan_out(_pids, range(8), workers=2))
    assert again <= first  # the same processes: no second start-up (~1-3 s here)
    deadline = time.monotonic() + 30
    while _workers() & first and time.monotonic() < deadline:  # idle workers exit on their own
        time.sleep(0.1)
    assert _workers() & first == set()


@linux
def test_a_failing_item_stops_the_workers_before_the_error_reaches_the_caller():
    # the items running beside the failing one end before fan_out raises: nothing of the pool
    # runs (or writes) after the caller has the error
    with pytest.raises(ValueError, match="bad item"):
        list(fanout.fan_out(_slow_or_failing, [-0.2, 2.0, 2.0, 2.0], workers=2, window=2))
    assert _workers() == set()


def test_the_first_failure_in_order_is_raised_not_the_first_to_happen():
    # item 0 fails after 0.5 s, item 1 at once: a plain loop raises item 0's error
    with pytest.raises(ValueError, match="bad item -0.5"):
        list(fanout.fan_out(_slow_or_failing, [-0.5, -0.01, 0.0], workers=2))
    got = []
    with pytest.raises(ValueError, match="bad item -0.3"):
        for r in fanout.fan_out(_slow_or_failing, [0.2, 0.0, -0.3, -0.01], workers=2, chunk=1):
            got.append(r)
    assert got == [0.2, 0.0]  # the results before it still arrive, in order


def test_the_context_reaches_the_workers_once_and_its_file_goes(tmp_path, monkeypatch):
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    shared = {"big": np.arange(300_000), "n": 3}
    assert list(fanout.fan_out(_context_sum, range(6), shared=shared, workers=2)) == [
        int(shared["big"].sum()) + k for k in range(6)]
    assert list(tmp_path.iterdir()) == []  # the folder the context went through is removed


def _context_sum(shared, item: int) -> int:
    return int(shared["big"].sum()) + item


PROBE = """
import os, sys
sys.path.insert(0, {root!r})
from scoring.core import fanout
from tests.core import _preload_probe
print(os.getpid(), sorted(set(fanout.fan_out(_preload_probe.where, range(4), workers=2))))
"""


@linux
def test_workers_import_the_task_module_when_started_from_another_folder(tmp_path):
    # the app may be started from any folder (its package found through sys.path, not the
    # current folder): the workers must still import the task's module
    import ast
    import subprocess

    root = str(Path(__file__).resolve().parents[2])
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", PROBE.format(root=root)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr
    parent, pairs = out.stdout.strip().splitlines()[-1].split(" ", 1)
    pairs = ast.literal_eval(pairs)
    assert pairs and all(worker != int(parent) for worker, _ in pairs), pairs
    assert out.stderr == ""  # nothing printed at exit either


WARNING_PROBE = """
import sys
sys.path.insert(0, {root!r})
from scoring.core import fanout
from tests.core import test_fanout
print(list(fanout.fan_out(test_fanout._overflow, range(4), workers=2)))
"""


def _overflow(_shared, item: int) -> int:
    np.ones(2) * 1e308 * 10  # numpy warns: overflow encountered in multiply
    return item


def test_a_workers_warning_is_one_line_without_a_path(tmp_path):
    # a worker writes to its caller's stderr (the command line's): no source path there either
    import subprocess

    root = str(Path(__file__).resolve().parents[2])
    out = subprocess.run([sys.executable, "-c", WARNING_PROBE.format(root=root)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=180)
    assert out.returncode == 0 and out.stdout.strip() == "[0, 1, 2, 3]", out.stderr
    lines = out.stderr.splitlines()
    assert lines and set(lines) == {"warning: overflow encountered in multiply"}, out.stderr


def test_a_call_while_the_workers_are_busy_runs_in_threads_of_its_own():
    # two loads at once in one server: the second must not share (and, on a bad file, stop)
    # the first one's worker processes
    first = fanout.fan_out(_pids, range(6), workers=2)
    got = [next(first)]  # the first call holds the workers now
    assert set(fanout.fan_out(_pids, range(6), workers=2)) == {os.getpid()}
    got += list(first)
    assert len(got) == 6 and os.getpid() not in got
    assert os.getpid() not in set(fanout.fan_out(_pids, range(6), workers=2))  # the workers are free again


def test_read_ahead_asks_for_the_next_files_in_order_each_once(tmp_path, monkeypatch):
    files = []
    for k in range(12):
        f = tmp_path / f"s{k}.csv"
        f.write_bytes(b"x" * (k + 1))
        files.append(f)
    asked: list = []
    monkeypatch.setattr(fanout, "read_ahead", lambda p: asked.append(p) or True)
    seen_before: list[int] = []
    for _ in fanout.fan_out(_pids, files, workers=2, window=2, readahead=lambda f: f):
        seen_before.append(len(asked))
    assert asked == files  # every file once, in the items' order
    # (window 2 tasks of 1 item + 2 workers) = 4 files ahead of the results, from the start
    assert seen_before[0] >= 4 + 1 and all(b >= min(k + 1 + 4, 12) for k, b in enumerate(seen_before))
    asked.clear()
    seen_before.clear()
    for _ in fanout.fan_out(_pids, files, workers=1, readahead=lambda f: f):  # in this process
        seen_before.append(len(asked))
    # one worker: 2 tasks + 1 = 3 files ahead; the first file is asked for before it is read
    assert asked == files and seen_before[0] >= 1 + 3


def test_read_ahead_is_a_hint_that_never_fails(tmp_path):
    f = tmp_path / "a.csv"
    f.write_bytes(b"id\n")
    assert fanout.read_ahead(f) is hasattr(os, "posix_fadvise")
    assert fanout.read_ahead(tmp_path / "missing.csv") is False
    assert fanout.read_ahead(None) is False
    assert fanout.read_ahead(tmp_path) is False  # a folder
    if hasattr(os, "mkfifo"):  # a pipe: opened without waiting for a writer, and left alone
        import threading

        os.mkfifo(tmp_path / "pipe.csv")
        got: list = []
        t = threading.Thread(target=lambda: got.append(fanout.read_ahead(tmp_path / "pipe.csv")), daemon=True)
        t.start()
        t.join(5)
        assert got == [False]  # (a blocking open would leave the thread waiting for a writer)


def test_a_failing_readahead_leaves_the_pool_free():
    def bad(_item):
        raise RuntimeError("no path for this item")

    with pytest.raises(RuntimeError, match="no path"):
        list(fanout.fan_out(_pids, range(4), workers=2, readahead=bad))
    assert not fanout._busy.locked()  # the next call gets the processes, not threads
