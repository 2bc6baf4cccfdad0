"""What the command line prints on stderr when numpy (or anything) warns: one line per
distinct warning, ``warning: <message>``, never a source path or the warning's class (issue 31).
Run as subprocesses: in-process, pytest would catch the warnings before they reach stderr."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import scoring

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, code: str | None = None) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-c", code] if code else [sys.executable, "-m", "scoring", *args]
    env = {**os.environ, "LAB_WORKERS": "1"}
    env.pop("PYTHONWARNINGS", None)
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def test_an_extreme_inference_time_gives_no_source_path(tmp_path):
    # every inference time 1e308 ms: their per-theme sum overflowed in numpy, and stderr showed
    # ".../scoring/qa/scorer.py:56: RuntimeWarning: overflow encountered in matmul" and the code line
    qa = Path(scoring.get("qa").sample_dir)
    subs = tmp_path / "subs"
    subs.mkdir()
    for f in sorted((qa / "submissions").glob("*.csv")):
        rows = list(csv.reader(f.open(newline="", encoding="utf-8")))
        col = rows[0].index("inference_ms")
        with (subs / f.name).open("w", newline="", encoding="utf-8") as out:
            w = csv.writer(out)
            w.writerow(rows[0])
            for r in rows[1:]:
                w.writerow(r[:col] + ["1e308"] + r[col + 1:])
    res = _run("qa", "leaderboard", "--ground-truth", str(qa / "ground_truth.csv"), "--submissions", str(subs))
    assert res.returncode in (0, 2), res.stderr
    assert ".py:" not in res.stderr and "RuntimeWarning" not in res.stderr, res.stderr
    assert all(line.startswith(("scoring ", "note: ", "warning: ", "error: ")) for line in res.stderr.splitlines()), res.stderr


WARNS = """
import sys, warnings
import numpy as np
import scoring.cli as cli

def docs(_families):
    np.ones(3) * 1e308 * 10  # numpy: overflow encountered in multiply
    np.ones(3) * 1e308 * 10  # the same warning again: shown once
    warnings.warn("two\\nlines")
    return "done\\n"

cli.families_markdown = docs
sys.exit(cli.main(["docs"]))
"""


def test_every_warning_is_one_line_without_a_path():
    res = _run(code=WARNS)
    assert res.returncode == 0 and res.stdout == "done\n"
    assert res.stderr.splitlines() == ["warning: overflow encountered in multiply", "warning: two lines"]
