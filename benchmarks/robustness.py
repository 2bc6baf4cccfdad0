"""How sure is the ranking — measured: ``python -m benchmarks robustness [--dir FOLDER] [--b 1000]``.

Prints, beside each target: bootstrap intervals with B replicates on the sample and on the
FP1-scale benchmark competition (10,400 essays × 20 submissions, generated once, shared with
``python -m benchmarks``) with the extra memory they take, and a 21 × 21 stability map of
parameters that need no re-match (α × w, band × maximum boost) on the sample, plus one that
does (threshold × w), for reference.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from pathlib import Path

import scoring
from benchmarks._common import verdict
from benchmarks.shovel_ready import ensure_data
from scoring.core.robustness import bootstrap, leave_one_out
from scoring.core.stability import axis, stability_map

ROOT = Path(__file__).resolve().parents[1]


def _load(folder: Path):
    return scoring.load_competition(ground_truth=folder / "ground_truth.csv", submissions=[folder / "submissions"],
                                    demographics=folder / "demographics.csv", runtimes=folder / "runtimes.csv")


def _bootstrap(comp, b: int, label: str, target: float) -> None:
    scorer = scoring.Scorer(comp)
    scorer.leaderboard(attributes=("ell_status",))
    for attrs in [(), ("ell_status",)]:
        tracemalloc.start()
        t = time.perf_counter()
        us = scorer.unit_stats(attributes=attrs)
        iv = bootstrap(us, b=b)
        took = time.perf_counter() - t
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        groups = ", ".join(attrs) or "no groups"
        print(f"  {label:9s} B = {b:,} ({groups:10s}) {took:6.2f} s  extra memory {peak:6.0f} MiB  "
              f"(target <= {target:g} s: {verdict(took, target)}; <= 1024 MiB: {verdict(peak, 1024)})  "
              f"tier 1: {int((iv['tier'] == 1).sum())} teams")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", type=Path, help="the FP1-scale competition (default: generated once)")
    ap.add_argument("--b", type=int, default=1000, help="bootstrap replicates (default 1000)")
    args = ap.parse_args(argv)
    sample = _load(ROOT / "sample_data" / "competition")
    print("bootstrap intervals (units: essays, stratified by group when groups are chosen)")
    _bootstrap(sample, args.b, "sample", 1.0)
    big = _load(ensure_data(args.dir))
    _bootstrap(big, args.b, "FP1 scale", 5.0)
    t = time.perf_counter()
    moved = leave_one_out(scoring.Scorer(big).unit_stats(attributes=("ell_status",)))
    print(f"  leave one team out (FP1 scale, 20 teams)  {time.perf_counter() - t:6.2f} s  ({len(moved)} moves)")

    print("\nstability maps on the sample, 21 x 21 cells")
    fam = scoring.get("shovel-ready")
    scorer = scoring.Scorer(sample)
    ctx = fam.context(sample)
    base = fam.params.validate(attributes=("ell_status",), context=ctx)
    for x, y, target in [("alpha", "w", 3.0), ("band", "max_boost", 3.0), ("threshold", "w", None)]:
        scorer = scoring.Scorer(sample)  # cold caches: each map pays its own matching
        t = time.perf_counter()
        grid = stability_map(fam, scorer, base, axis(fam, x), axis(fam, y), context=ctx)
        took = time.perf_counter() - t
        note = (f"target <= {target:g} s: {verdict(took, target)}" if target
                else "re-matches 21 thresholds: no target")
        print(f"  {x} x {y:10s} {took:6.2f} s  ({note}); {grid['winner'].nunique()} winners")
    return 0
