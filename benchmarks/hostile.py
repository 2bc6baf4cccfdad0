"""Hostile inputs, measured: ``python -m benchmarks hostile [--repo DIR]``.

Runs the command line (``python -m scoring leaderboard``) of the checkout in ``--repo``
(default: this one) on generated hostile files and prints, for each, the wall time, the peak
memory of the process and the first line of its answer. ``--repo`` pointed at an older
checkout gives the "before" figures.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADER = "id,discourse_type,predictionstring,discourse_effectiveness\n"
SUB = "id,class,predictionstring,Effective,Ineffective\ne1,Lead,0 1 2,0.5,0.5\n"
RUN = """
import json, sys, time
sys.argv = ["scoring"] + sys.argv[1:]
from scoring.cli import main
t0 = time.perf_counter()
code = main(sys.argv[1:])
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM"))  # reset by exec
print(json.dumps({"code": code, "seconds": time.perf_counter() - t0, "peak_mib": hwm / 1024}), file=sys.__stdout__)
"""


def cases(tmp: Path) -> dict[str, Path]:
    out = {}
    p = tmp / "cell_range.csv"
    p.write_text(HEADER + "e1,Lead," + " ".join(map(str, range(7_000_000))) + ",Effective\n")
    out["50 MB cell, a valid range"] = p
    p = tmp / "cell_junk.csv"
    p.write_text(HEADER + "e1,Lead,0 " + "x " * 25_000_000 + ",Effective\n")
    out["50 MB cell, junk tokens"] = p
    for n in (20_000, 100_000, 1_000_000):
        p = tmp / f"wide_{n}.csv"
        p.write_text(",".join(f"c{i}" for i in range(n)) + "\n" + ",".join("x" * 1 for _ in range(n)) + "\n")
        out[f"{n:,}-column header"] = p
    p = tmp / "nbsp.csv"
    p.write_text(HEADER + "e1,Lead,0\u00a01 2,Effective\n")
    out["NBSP inside a predictionstring"] = p
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks hostile", description=__doc__.splitlines()[0])
    ap.add_argument("--repo", default=str(ROOT), help="the checkout whose command line runs (default: this one)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds before a case is stopped (default 600)")
    ap.add_argument("--only", default="", help="run only the cases whose name contains this text")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        (tmp / "subs").mkdir()
        (tmp / "subs" / "A.csv").write_text(SUB)
        print(f"command line of {args.repo}")
        for name, gt in cases(tmp).items():
            if args.only and args.only not in name:
                continue
            cmd = [sys.executable, "-c", RUN, "leaderboard", "--ground-truth", str(gt), "--submissions",
                   str(tmp / "subs")]
            try:
                proc = subprocess.run(cmd, cwd=args.repo, capture_output=True, text=True, timeout=args.timeout)
                stats = json.loads(proc.stdout.strip().splitlines()[-1])
                answer = next((ln for ln in proc.stderr.splitlines() if ln.startswith("error")), "(no error)")
                print(f"{name:34s} {stats['seconds']:8.2f} s {stats['peak_mib']:9.0f} MiB  exit {stats['code']}  "
                      f"{answer[:110]}")
            except subprocess.TimeoutExpired:
                print(f"{name:34s} over {args.timeout:.0f} s (stopped)")
            sys.stdout.flush()
    return 0
