"""The fan-out's worker processes: what they are set up with before their first item."""

from __future__ import annotations

import resource
import sys

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
def test_the_callers_own_allocator_is_left_alone():
    # in this process (workers=1) nothing is tuned: the freed mapping goes back to the system
    # and the second allocation faults every page in again
    (in_worker, faults), = fanout.fan_out(_faults_of_a_second_allocation, [SIZE], workers=1)
    assert not in_worker
    assert faults >= FRESH



def _slow_or_failing(_shared, item: float) -> float:
    import time

    if item < 0:
        raise ValueError("a bad item")
    time.sleep(item)
    return item


def _children() -> set[int]:
    import multiprocessing as mp

    return {p.pid for p in mp.active_children()}


def test_workers_exit_after_the_last_item_without_being_waited_for():
    import time

    before = _children()  # anything another test left running is not this pool's
    assert list(fanout.fan_out(_slow_or_failing, [0.0, 0.0, 0.0], workers=2)) == [0.0, 0.0, 0.0]
    deadline = time.monotonic() + 10
    while _children() - before and time.monotonic() < deadline:  # idle workers exit on their own
        time.sleep(0.05)
    assert _children() - before == set()


def test_a_failing_item_stops_the_pool_before_the_error_reaches_the_caller():
    # the item running beside the failing one ends before fan_out raises: nothing of the pool
    # runs (or writes) after the caller has the error
    before = _children()
    with pytest.raises(ValueError, match="a bad item"):
        list(fanout.fan_out(_slow_or_failing, [-1.0, 0.5, 0.5, 0.5], workers=2, window=2))
    assert _children() - before == set()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork (Linux)")
def test_a_finished_pools_threads_do_not_rule_out_fork_for_the_next(monkeypatch):
    # a finished pool's manager thread outlives it by the time its workers take to exit; were
    # it counted, a second load right after the first would start a fork server (~0.5 s)
    import threading

    monkeypatch.delenv("LAB_START_METHOD", raising=False)
    before = set(threading.enumerate())
    assert list(fanout.fan_out(_slow_or_failing, [0.0, 0.0, 0.0], workers=2)) == [0.0, 0.0, 0.0]
    fanout.start_method()  # waits for them
    assert set(threading.enumerate()) - before == set()


def test_at_exit_finished_pools_are_joined_before_concurrent_futures_wakes_them():
    # concurrent.futures' exit hook wakes every pool's manager thread; one that is closing its
    # pipe at that moment printed "Exception ignored ... Bad file descriptor" after a command's
    # output. Python runs these hooks last-registered first: ours must come after its hook.
    import threading
    from concurrent.futures import process

    hooks = [getattr(h, "func", h) for h in threading._threading_atexits]
    assert fanout._settle in hooks and process._python_exit in hooks
    assert hooks.index(fanout._settle) > hooks.index(process._python_exit)


PROBE = """
import sys
sys.path.insert(0, {root!r})
from scoring.core import fanout
from tests.core import _preload_probe
print(sorted(set(fanout.fan_out(_preload_probe.where, range(4), workers=2))))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork server (Linux)")
def test_the_fork_server_imports_the_task_module_when_started_from_another_folder(tmp_path):
    # the app may be started from any folder; the fork server must still import the task's
    # module once, so that its workers inherit it (a worker that imported it itself is the
    # process named in IMPORTED_IN)
    import ast
    import os
    import subprocess
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "LAB_START_METHOD": "forkserver"}
    env.pop("PYTHONPATH", None)
    out = subprocess.run([sys.executable, "-c", PROBE.format(root=root)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    pairs = ast.literal_eval(out.stdout.strip().splitlines()[-1])
    assert pairs and all(worker != imported_in for worker, imported_in in pairs), pairs
