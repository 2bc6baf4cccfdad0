"""Many submissions: the on-disk table cache, the process pool and the progress they report.

The on-disk cache and the pool must change nothing but memory and speed: every leaderboard,
group score, per-essay statistic and explanation equals the in-memory, one-process result
exactly (not approximately), and no cache file outlives its competition.
"""

from __future__ import annotations

import gc
import hashlib
import io
import os
import threading
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import scoring
from scoring.core import fanout
from scoring.shovel_ready import competition, rematch
from tests.shovel_ready import randomcomp

SAMPLE = Path(scoring.get("shovel-ready").sample_dir)
SUBS = sorted((SAMPLE / "submissions").glob("*.csv"))
PARAMS = [
    {},
    {"attributes": ("ell_status",), "w": 0.3},
    {"threshold": 0.75, "quality": "max", "attributes": ("ell_status", "gender")},
    {"overlap_removal": False, "quality": "binary", "threshold": 0.3, "alpha": float("inf"),
     "attributes": ("grade_level",)},
]


def _load(**kw):
    return scoring.load_competition(ground_truth=SAMPLE / "ground_truth.csv", submissions=SUBS,
                                    demographics=SAMPLE / "demographics.csv", runtimes=SAMPLE / "runtimes.csv", **kw)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch) -> Path:
    """LAB_CACHE_DIR in a fresh folder, so a test sees every file the engine leaves."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("LAB_CACHE_DIR", str(folder))
    return folder


@pytest.fixture(scope="module")
def reference():
    """The in-memory, one-process leaderboards of the sample."""
    comp = _load(workers=1, cache="memory")
    assert comp.store.where == "memory" and comp.store.folder is None
    scorer = scoring.Scorer(comp)
    return comp, scorer, [scorer.leaderboard(**p) for p in PARAMS]


def _leftovers(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) if folder.exists() else []


def test_disk_cache_gives_identical_results_and_leaves_no_files(reference, cache_dir):
    ref_comp, ref_scorer, ref_lbs = reference
    comp = _load(workers=1, cache="disk")
    folder = Path(comp.store.folder)
    assert folder.parent == cache_dir and folder.name.startswith("lab-tables-")
    files = sorted(folder.glob("*.tables"))
    assert len(files) == len(SUBS)  # one per distinct submission: the sample has no twins
    for f in files:  # each file is named by the SHA-256 of its content
        assert hashlib.sha256(f.read_bytes()).hexdigest() == f.stem
    scorer = scoring.Scorer(comp)
    for params, want in zip(PARAMS, ref_lbs, strict=True):
        pd.testing.assert_frame_equal(scorer.leaderboard(**params), want, check_exact=True)
    kw = {"attributes": ("ell_status",), "threshold": 0.6}
    us, ref_us = scorer.unit_stats(**kw), ref_scorer.unit_stats(**kw)
    assert np.array_equal(us.team, ref_us.team) and np.array_equal(us.shared, ref_us.shared)
    name = comp.submission_names[3]
    essay = comp.removal_changed_essays(name)[0]
    got = scoring.explain_essay(scorer, name, essay, quality="max")
    want = scoring.explain_essay(ref_scorer, name, essay, quality="max")
    for key in want:
        pd.testing.assert_frame_equal(got[key], want[key], check_exact=True)
    del comp, scorer, us, got
    gc.collect()
    assert _leftovers(cache_dir) == []  # released with the competition


def test_context_manager_and_close(cache_dir):
    with _load(workers=1, cache="disk") as comp:
        assert _leftovers(cache_dir)
        lb = scoring.Scorer(comp).leaderboard()
    assert _leftovers(cache_dir) == []
    assert len(lb) == len(SUBS)
    assert comp.submission_names == [f.stem for f in SUBS]  # what is in memory stays usable
    with pytest.raises(RuntimeError, match="closed"):
        comp.tables(0, True)


def test_a_bad_file_leaves_nothing_behind(cache_dir, tmp_path, monkeypatch):
    monkeypatch.setattr(competition, "POOL_MIN_BYTES", 0)  # a process pool even for small files
    bad = tmp_path / "zz-bad.csv"
    bad.write_text("id,class,predictionstring,Effective,Ineffective\nX,Lead,1 2 x,0.5,0.5\n")
    with pytest.raises(scoring.InputError) as err:
        scoring.load_competition(ground_truth=SAMPLE / "ground_truth.csv", submissions=[*SUBS, bad],
                                 workers=2, cache="disk")
    assert (err.value.file, err.value.row) == ("zz-bad.csv", 2) and "'x'" in err.value.problem
    gc.collect()
    assert _leftovers(cache_dir) == []


def test_process_pool_equals_one_process_and_counts_files(reference, cache_dir, monkeypatch):
    monkeypatch.setattr(competition, "POOL_MIN_BYTES", 0)
    monkeypatch.setattr(rematch, "POOL_MIN_SUBMISSIONS", 2)  # re-matches in the pool too
    calls = []
    comp = _load(workers=2, cache="disk", progress=lambda d, t, n: calls.append((d, t, n)))
    # the largest files go first (equal sizes keep their order), so the workers end together
    by_size = sorted(SUBS, key=lambda f: -f.stat().st_size)
    names = [f.stem for f in by_size]
    n = len(names)
    assert names != [f.stem for f in SUBS]  # the sample's files are not in size order: the test tells
    assert calls == [(0, n, names[0])] + [(k, n, names[k]) for k in range(1, n)] + [(n, n, "")]
    assert comp.submission_names == [f.stem for f in SUBS]  # the competition keeps the files' order
    assert len(list(Path(comp.store.folder).glob("*.tables"))) == n  # written by the workers
    seen = []
    scorer = scoring.Scorer(comp, workers=2, progress=lambda d, t, name: seen.append((d, t)))
    for params, want in zip(PARAMS, reference[2], strict=True):
        pd.testing.assert_frame_equal(scorer.leaderboard(**params), want, check_exact=True)
    # every parameter set re-matched or re-summed all n files; w and alpha alone do not
    assert seen.count((n, n)) == len(PARAMS)
    before = len(seen)
    scorer.leaderboard(**{**PARAMS[1], "w": 0.9, "alpha": 5.0, "band": 0.2})
    assert len(seen) == before
    mine = []
    scorer.leaderboard(threshold=0.66, progress=lambda d, t, name: mine.append(d))  # a per-call callback
    assert mine[0] == 0 and mine[-1] == n and len(seen) == before


def test_memory_tables_come_back_from_the_pool_through_files_read_once(cache_dir, monkeypatch):
    # in memory mode a worker process leaves its packed tables in a file of its own, which this
    # process reads into memory and removes; twins (the same bytes twice) get a file each
    monkeypatch.setattr(competition, "POOL_MIN_BYTES", 0)
    twin = cache_dir.parent / "twin.csv"
    twin.write_bytes(SUBS[0].read_bytes())
    kw = {"ground_truth": SAMPLE / "ground_truth.csv", "submissions": [*SUBS, twin], "cache": "memory",
          "demographics": SAMPLE / "demographics.csv"}
    one = scoring.Scorer(scoring.load_competition(**kw, workers=1))
    comp = scoring.load_competition(**kw, workers=2)
    assert comp.store.where == "memory" and comp.store.folder is None
    handoff = [p for p in cache_dir.iterdir() if p.name.startswith("lab-tables-")]
    assert len(handoff) == 1 and list(handoff[0].iterdir()) == []  # every file read and removed
    assert comp.store.nbytes > 0
    scorer = scoring.Scorer(comp)
    for params in PARAMS:
        pd.testing.assert_frame_equal(scorer.leaderboard(**params), one.leaderboard(**params), check_exact=True)
    lb = scorer.leaderboard().set_index("submission")
    assert lb.loc["twin", "final_score"] == lb.loc[SUBS[0].stem, "final_score"]
    comp.close()
    assert _leftovers(cache_dir) == []


def test_memory_tables_come_back_through_the_pipes_without_a_folder(reference, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("LAB_CACHE_DIR", str(blocker / "cache"))  # no folder can be made there
    monkeypatch.setattr(competition, "POOL_MIN_BYTES", 0)
    comp = _load(workers=2, cache="memory")
    pd.testing.assert_frame_equal(scoring.Scorer(comp).leaderboard(**PARAMS[1]), reference[2][1], check_exact=True)


def test_folders_of_killed_processes_are_swept(cache_dir):
    import subprocess
    import sys

    from scoring.shovel_ready import tablestore

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    host = tablestore._prefix().rsplit("-", 2)[0]
    cache_dir.mkdir()
    for name in (f"{host}-{dead}-abc", f"{host}-{os.getppid()}-abc", f"lab-tables-otherhost-{dead}-abc", "unrelated"):
        (cache_dir / name).mkdir()
        (cache_dir / name / "x.tables").write_bytes(b"x")
    store = tablestore.TableStore("disk")
    left = sorted(p.name for p in cache_dir.iterdir() if p.name != Path(store.folder).name)
    assert left == sorted([f"{host}-{os.getppid()}-abc", f"lab-tables-otherhost-{dead}-abc", "unrelated"])
    store.close()


def test_an_unwritable_cache_folder_is_one_line(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("LAB_CACHE_DIR", str(blocker / "cache"))
    with pytest.raises(scoring.InputError, match="LAB_CACHE_DIR: cannot make the match-table cache folder"):
        _load(workers=1, cache="disk")


def test_twin_submissions_share_one_file(cache_dir, tmp_path):
    twin = tmp_path / "twin.csv"
    twin.write_bytes(SUBS[0].read_bytes())
    comp = scoring.load_competition(ground_truth=SAMPLE / "ground_truth.csv", submissions=[SUBS[0], twin],
                                    workers=1, cache="disk")
    assert len(list(Path(comp.store.folder).glob("*.tables"))) == 1
    lb = scoring.Scorer(comp).leaderboard().set_index("submission")
    assert lb.loc[SUBS[0].stem, "final_score"] == lb.loc["twin", "final_score"]


def test_uploaded_bytes_wait_on_disk_for_read_submission(cache_dir):
    uploads = {f.stem: f.read_bytes() for f in SUBS[:2]}
    comp = scoring.load_competition(ground_truth=SAMPLE / "ground_truth.csv", submissions=uploads, workers=1,
                                    cache="disk")
    assert all(isinstance(p.source, Path) and p.source.parent == Path(comp.store.folder) for p in comp.prepared)
    want = scoring.load_competition(ground_truth=SAMPLE / "ground_truth.csv", submissions=uploads, workers=1)
    name = SUBS[1].stem
    pd.testing.assert_frame_equal(comp.read_submission(name), want.read_submission(name))
    comp.close()
    assert _leftovers(cache_dir) == []


def test_this_process_takes_over_where_processes_cannot_start(reference, tmp_path):
    # JOBLIB_MULTIPROCESSING=0: joblib finds no way to start processes (as in a sandbox without
    # semaphores) and runs the items here; the load must not fail, nor change a number
    import subprocess
    import sys

    script = f"""
import sys
sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
from tests.shovel_ready import test_scale
import scoring
print(scoring.Scorer(test_scale._load(workers=2)).leaderboard(**test_scale.PARAMS[2]).to_json())
"""
    env = {**os.environ, "JOBLIB_MULTIPROCESSING": "0", "LAB_POOL_MIN_BYTES": "0", "LAB_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    got = pd.read_json(io.StringIO(out.stdout.strip().splitlines()[-1]))
    want = pd.read_json(io.StringIO(reference[2][2].to_json()))
    pd.testing.assert_frame_equal(got, want, check_exact=True)


@pytest.mark.parametrize("seed", [3, 17, 29])
def test_random_competitions_disk_equals_memory(seed, cache_dir):
    rc = randomcomp.random_competition(seed)
    kw = {"ground_truth": rc.ground_truth, "submissions": rc.submissions, "demographics": rc.demographics,
          "runtimes": rc.runtimes, "workers": 1}
    mem, disk = scoring.load_competition(**kw, cache="memory"), scoring.load_competition(**kw, cache="disk")
    a, b = scoring.Scorer(mem), scoring.Scorer(disk)
    for p in ({}, {"threshold": 0.3, "quality": "max"}, {"overlap_removal": False, "attributes": rc.attributes}):
        pd.testing.assert_frame_equal(a.leaderboard(**p), b.leaderboard(**p), check_exact=True)
    disk.close()
    assert _leftovers(cache_dir) == []


def test_fan_out_keeps_order_and_raises_the_first_failure_in_order():
    for mode in ("threads", "processes"):
        for chunk in (1, 2, 10):
            got = list(fanout.fan_out(_div, [5, 4, 2, 1, 3], shared=20, workers=2, mode=mode, chunk=chunk))
            assert got == [4, 5, 10, 20, 6]
    with pytest.raises(ZeroDivisionError):
        list(fanout.fan_out(_div, [5, 0, 2, 0], shared=20, workers=2))


def _div(shared, item):
    return shared // item


def _loky_workers() -> set[int]:
    from tests.core.test_fanout import _workers

    return _workers()


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="/proc (Linux)")
def test_a_threaded_server_gets_a_process_pool(reference, monkeypatch):
    # Streamlit runs scripts in threads: the pool must still use worker processes there (joblib
    # falls back to one process, with a warning, where it thinks it is nested)
    import warnings

    monkeypatch.setattr(competition, "POOL_MIN_BYTES", 0)
    monkeypatch.setattr(fanout, "IDLE_SECONDS", 31)  # workers of this test's own
    out: dict = {}

    def load():
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            out["lb"] = scoring.Scorer(_load(workers=2)).leaderboard(**PARAMS[1])
        out["warnings"] = [str(w.message) for w in seen]
        out["workers"] = _loky_workers()

    t = threading.Thread(target=load)
    t.start()
    t.join()
    assert out["warnings"] == [] and len(out["workers"]) == 2
    pd.testing.assert_frame_equal(out["lb"], reference[2][1], check_exact=True)


def test_workers_never_run_the_callers_main_script(tmp_path, monkeypatch):
    # under Streamlit ``__main__`` is the app script; a worker must not run it
    import sys
    import types

    script = tmp_path / "app_like.py"
    script.write_text("raise SystemExit('the main script ran in a worker')\n")
    fake = types.ModuleType("__main__")
    fake.__file__ = str(script)
    fake.__spec__ = None
    monkeypatch.setitem(sys.modules, "__main__", fake)
    monkeypatch.setattr(fanout, "IDLE_SECONDS", 32)  # workers started now, under this __main__
    assert list(fanout.fan_out(_div, [5, 4, 2, 1], shared=20, workers=2)) == [4, 5, 10, 20]


def test_the_pool_works_inside_a_streamlit_script(reference, tmp_path):
    # a Streamlit script runs in a thread, with ``__main__`` set to the script: the pool must
    # work there and never run the script in its workers
    from streamlit.testing.v1 import AppTest

    runs = tmp_path / "runs.txt"
    script = f"""
import os
open({str(runs)!r}, "a").write(str(os.getpid()) + "\\n")  # who runs this script
import streamlit as st
import scoring
from scoring.core import fanout
from scoring.shovel_ready import competition
from pathlib import Path
competition.POOL_MIN_BYTES = 0
fanout.IDLE_SECONDS = 33  # workers started by this script
S = Path({str(SAMPLE)!r})
comp = scoring.load_competition(ground_truth=S / "ground_truth.csv", submissions=sorted((S / "submissions").glob("*.csv")),
                                demographics=S / "demographics.csv", runtimes=S / "runtimes.csv", workers=2)
lb = scoring.Scorer(comp).leaderboard(attributes=("ell_status",), w=0.3)
st.session_state["final"] = lb.set_index("submission")["final_score"].to_dict()
"""
    at = AppTest.from_string(script, default_timeout=120).run()
    assert not at.exception
    assert runs.read_text().split() == [str(os.getpid())]  # the script ran here, never in a worker
    want = reference[2][1].set_index("submission")["final_score"].to_dict()
    assert at.session_state["final"] == want


def _descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (from /proc's children lists)."""
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                kids = [int(k) for k in (task / "children").read_text().split()]
            except OSError:
                continue
            todo.extend(k for k in kids if k not in found)
            found.update(kids)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended (its parent, killed, cannot collect it)


@pytest.mark.skipif(not Path("/proc/self/task").exists() or not any(Path("/proc/self/task").glob("*/children")),
                    reason="/proc children lists (Linux)")
def test_killing_the_command_mid_load_leaves_no_process(tmp_path):
    # kill -9 of the command line (or the server) while its workers score files: the workers
    # and the helpers of the pool (loky's resource tracker) must end with it, within seconds,
    # and the tracker removes the folder the workers read the ground truth from
    import signal
    import subprocess
    import sys
    import time

    subs = tmp_path / "subs"
    subs.mkdir()
    for k in range(30):
        for f in SUBS:
            (subs / f"c{k:02d}-{f.name}").symlink_to(f)
    n = 30 * len(SUBS)
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {**os.environ, "LAB_POOL_MIN_BYTES": "0", "LAB_WORKERS": "2", "LAB_CACHE_DIR": str(tmp_path / "cache"),
           "TMPDIR": str(temp)}
    cmd = [sys.executable, "-m", "scoring", "leaderboard", "--ground-truth", str(SAMPLE / "ground_truth.csv"),
           "--submissions", str(subs)]
    proc = subprocess.Popen(cmd, cwd=Path(__file__).resolve().parents[2], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        done = 0
        for line in proc.stderr:  # "scoring k/n name": wait until the workers are well into the files
            if line.startswith("scoring ") and "/" in line:
                done = int(line.split()[1].split("/")[0])
                if done >= n // 10:
                    break
        assert 0 < done < n, "the load ended before it could be killed: give it more files"
        below = _descendants(proc.pid)
        workers = {p for p in below if b"popen_loky" in Path(f"/proc/{p}/cmdline").read_bytes()}
        assert len(workers) == 2  # the test kills a real pool
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 5
        while any(_alive(p) for p in below) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [p for p in below if _alive(p)] == []
        assert list(temp.glob("lab-fanout-*")) == []  # the folder the ground truth went to the workers through
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stderr.close()
