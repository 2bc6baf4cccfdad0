"""Issue 30's table through the command line, with the peak memory of the process (slow: tens
of MB of generated files; the full sizes are ``python -m benchmarks hostile``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.hostile import RUN, _qa, _sg_file

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

def _run(code: str, *args) -> dict:
    proc = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)
    return {**json.loads(proc.stdout.strip().splitlines()[-1]), "stderr": proc.stderr}


def _sg(tmp: Path, gt: Path) -> list:
    sub = tmp / "A.json"
    sub.write_text(json.dumps([{"sequence_id": 1, "frame": 1, "num_objects": 0, "object_coords": []}]))
    return ["spotgeo", "leaderboard", "--ground-truth", gt, "--submissions", sub]


@pytest.mark.parametrize("kind", ["entry 1 lacks sequence_id", "arrays instead of objects"])
def test_a_bad_spotgeo_file_fails_at_once_in_little_memory(tmp_path, kind):
    """Was: the whole file became Python objects first (~35x the file) before entry 1 was checked."""
    first = {"frame": 1, "num_objects": 0, "object_coords": []} if kind.startswith("entry") else None
    small = _sg_file(tmp_path / "small.json", 0.01, first=first, as_arrays=first is None)
    gt = _sg_file(tmp_path / "gt.json", 40, first=first, as_arrays=first is None)
    base = _run(RUN, *_sg(tmp_path, small))
    got = _run(RUN, *_sg(tmp_path, gt))
    assert base["code"] == got["code"] == 2 and "gt.json: entry 1" in got["stderr"]
    grown = got["peak_mib"] - base["peak_mib"]
    assert grown < 20, f"{grown:.0f} MiB more for a 40 MB file than for a 10 kB one"


def test_a_valid_spotgeo_file_costs_a_small_multiple_of_itself(tmp_path):
    gt = _sg_file(tmp_path / "gt.json", 30)
    size = gt.stat().st_size / 2**20
    read = """
import json, sys
from scoring.spotgeo.stream import read_frames
hwm = lambda: next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM")) / 1024
base = hwm()
fr = read_frames(sys.argv[1], "gt.json", ground_truth=True)
print(json.dumps({"extra": hwm() - base, "frames": fr.n_frames}))
"""
    got = _run(read, gt)
    assert got["frames"] > 100_000
    assert got["extra"] <= 4 * size, f"{got['extra']:.0f} MiB for a {size:.0f} MiB file"  # README: 2.9x measured


def test_qa_with_20000_themes_scores_in_little_memory(tmp_path):
    """Was: no answer in 600 s (a themes x questions one-hot and themes x draws matrices)."""
    got = _run(RUN, *_qa(20_000)(tmp_path))
    assert got["code"] == 0, got["stderr"][-300:]
    assert got["peak_mib"] < 1024


def test_qa_with_100000_themes_is_refused_by_the_limit(tmp_path):
    """Was: 95 s, 9.8 GiB, then MemoryError (74.5 GiB asked for)."""
    got = _run(RUN, *_qa(100_000)(tmp_path))
    assert got["code"] == 2
    assert "gt.csv: 100,000 themes, over the limit of 50,000 (LAB_MAX_THEMES raises it)" in got["stderr"]
    assert got["peak_mib"] < 300
