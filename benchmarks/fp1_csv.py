"""FP1 end to end from CSV files, and the share of it spent reading them (issue 27 items 7 and 9).

    python -m benchmarks fp1-csv [--dir FOLDER] [--calls 15] [--submissions 4]

On the Shovel-Ready benchmark competition (``python -m benchmarks shovel-ready`` generates it
once), for a few submissions: ``scoring.fp1_score(ground_truth.csv, submission.csv)`` — both files
read, checked and parsed on every call (against the public reference itself, interleaved:
``python -m benchmarks versus``); then the same two files only read (the columns
FP1 uses, through ``scoring.core.tables.read_table``: the limits, then ``pyarrow.csv``), and
``pandas.read_csv`` of the same files as a floor. ``fp1_score`` reads the two files side by side
on two threads, so "reading" (their sum, one after the other) is an upper bound on its share.
Medians of ``--calls``; the numbers are the output (it never fails on a missed target).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import scoring  # noqa: E402
from benchmarks.shovel_ready import ensure_data  # noqa: E402
from scoring.core.tables import read_table  # noqa: E402
from scoring.shovel_ready.data import GT_COLUMNS, SUB_COLUMNS  # noqa: E402


def median_ms(fn, calls: int) -> tuple[float, float]:
    """Median wall time and median CPU time (every thread of the process) of ``calls`` runs of
    ``fn()``, in ms: on a shared machine the CPU time is the steadier measure of the work."""
    wall, cpu = [], []
    for _ in range(calls):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return float(np.median(wall)), float(np.median(cpu))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", type=Path, help="competition folder (ground_truth.csv, submissions/)")
    ap.add_argument("--calls", type=int, default=15, help="calls timed per number (default 15)")
    ap.add_argument("--submissions", type=int, default=4, help="submissions timed (default 4)")
    args = ap.parse_args(argv)
    d = ensure_data(args.dir)
    gt = d / "ground_truth.csv"
    subs = sorted((d / "submissions").glob("*.csv"))[: max(args.submissions, 1)]
    print(f"competition: {d}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs "
          "(other work on the machine slows every number)")
    keep_gt, keep_sub = set(GT_COLUMNS[:3]), set(SUB_COLUMNS)
    t_gt = median_ms(lambda: read_table(gt, gt.name, keep=keep_gt), args.calls)
    f_gt = median_ms(lambda: pd.read_csv(gt), args.calls)
    print(f"\nground truth ({gt.stat().st_size / 1e6:.0f} MB): read_table {t_gt[0]:6.1f} ms, CPU {t_gt[1]:6.1f} ms "
          f"(pandas.read_csv {f_gt[0]:6.1f} ms, CPU {f_gt[1]:6.1f} ms)")
    print("\n  wall time (CPU time of every thread in brackets), medians")
    print(f"  {'submission':<16} {'MB':>3} {'fp1_score':>20} {'read_table':>20} "
          f"{'pandas.read_csv':>20} {'reading share':>14}")
    worst = []
    for s in subs:
        full = median_ms(lambda s=s: scoring.fp1_score(gt, s), args.calls)
        read = median_ms(lambda s=s: read_table(s, s.name, numeric=lambda c: c not in SUB_COLUMNS, keep=keep_sub),
                         args.calls)
        floor = median_ms(lambda s=s: pd.read_csv(s), args.calls)
        share, cpu_share = (t_gt[0] + read[0]) / full[0], (t_gt[1] + read[1]) / full[1]
        worst.append(full[0])
        print(f"  {s.stem[:16]:<16} {s.stat().st_size / 1e6:3.0f} {full[0]:7.1f} ms ({full[1]:6.1f}) "
              f"{read[0]:7.1f} ms ({read[1]:6.1f}) {floor[0]:7.1f} ms ({floor[1]:6.1f}) "
              f"{share:6.0%} ({cpu_share:4.0%})")
    slowest = max(worst)
    print(f"\nFP1 from CSV files at the slowest submission: {slowest:.1f} ms (against the public reference: "
          "python -m benchmarks versus)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
