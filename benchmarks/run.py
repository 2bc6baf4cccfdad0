"""Engine benchmark at the Feedback Prize test-set scale (issue 2 §4).

    python -m benchmarks.run [--dir FOLDER] [--calls 30]

Without ``--dir`` it generates (once) the 20-submission competition of
``python -m sample_data.generate --essays 10400 --submissions 20 --no-text`` into
``$TMPDIR/leaderboard-lab-bench`` and reuses it afterwards. Prints every number beside its
target; it never fails on a missed target (the numbers are the output).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import scoring  # noqa: E402


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def ensure_data(folder: Path | None) -> Path:
    if folder is not None:
        return folder
    folder = Path(tempfile.gettempdir()) / "leaderboard-lab-bench"
    if not (folder / "ground_truth.csv").exists():
        print(f"generating the benchmark competition into {folder} ...", flush=True)
        subprocess.run([sys.executable, "-m", "sample_data.generate", "--out", str(folder), "--essays", "10400",
                        "--submissions", "20", "--no-text"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return folder


def verdict(value: float, target: float) -> str:
    return "ok" if value <= target else f"MISSED by {value / target:.1f}x"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", type=Path, help="competition folder (ground_truth.csv, submissions/, ...)")
    ap.add_argument("--calls", type=int, default=30, help="leaderboard calls to time (default 30)")
    args = ap.parse_args(argv)
    d = ensure_data(args.dir)
    files = [d / "ground_truth.csv", *sorted((d / "submissions").glob("*.csv"))]
    size_mb = sum(f.stat().st_size for f in files) / 1e6
    print(f"competition: {d} ({len(files) - 1} submissions, {size_mb:.0f} MB of CSV)")

    t = time.perf_counter()
    frames = [pd.read_csv(f) for f in files]
    floor = time.perf_counter() - t
    n_gt = len(frames[0])
    n_pred = [len(f) for f in frames[1:]]
    del frames
    print(f"  {n_gt} ground-truth segments; predictions per submission {min(n_pred)}-{max(n_pred)}")

    t = time.perf_counter()
    comp = scoring.load_competition(ground_truth=d / "ground_truth.csv", submissions=[d / "submissions"],
                                    demographics=d / "demographics.csv", runtimes=d / "runtimes.csv")
    t_load = time.perf_counter() - t
    t = time.perf_counter()
    scorer = scoring.Scorer(comp)
    t_scorer = time.perf_counter() - t
    print("\nload + validate + Scorer")
    print(f"  pandas read_csv floor      {floor:7.2f} s  (the same {len(files)} files, default options)")
    print(f"  load_competition           {t_load:7.2f} s")
    print(f"  Scorer(...)                {t_scorer:7.2f} s")
    total = t_load + t_scorer
    print(f"  load + Scorer              {total:7.2f} s  = {total / floor:.1f}x the floor "
          f"(target <= 3x: {verdict(total, 3 * floor)})")

    attrs = comp.attributes
    combos = [("ell_status",), ("ell_status", "gender"), (), ("grade_level",), ("race_ethnicity",)]
    combos = [c for c in combos if all(a in attrs for a in c)]
    rng = np.random.default_rng(7)
    times, cold = [], []
    params = dict(scoring.DEFAULTS)
    params["attributes"] = combos[0]
    scorer.leaderboard(**params)  # the first view
    knobs = ["w", "quality", "threshold", "alpha", "attributes", "band"]
    for i in range(args.calls):
        knob = knobs[i % len(knobs)]
        if knob == "w":
            params["w"] = float(rng.choice([0.2, 0.35, 0.5, 0.65, 0.8]))
        elif knob == "quality":
            params["quality"] = str(rng.choice(["binary", "max", "iou"]))
        elif knob == "threshold":
            params["threshold"] = float(rng.choice([0.51, 0.6, 0.75]))
        elif knob == "alpha":
            params["alpha"] = float(rng.choice([0, 20, 50, 80, 200, np.inf]))
        elif knob == "attributes":
            params["attributes"] = combos[int(rng.integers(len(combos)))]
        else:
            params["band"] = float(rng.choice([0.02, 0.05, 0.1]))
        before = scorer.cache_info()["sums"]["misses"]
        t = time.perf_counter()
        scorer.leaderboard(**params)
        dt = time.perf_counter() - t
        times.append(dt)
        cold.append(scorer.cache_info()["sums"]["misses"] != before)
    ms = np.array(times) * 1000
    med = float(np.median(ms))
    print(f"\nScorer.leaderboard, {len(ms)} calls each changing one of {', '.join(knobs)}")
    print(f"  median {med:6.1f} ms  (target <= 50 ms: {verdict(med, 50)})")
    print(f"  p90    {np.percentile(ms, 90):6.1f} ms   max {ms.max():6.1f} ms")
    cm = ms[np.array(cold)]
    wm = ms[~np.array(cold)]
    if len(cm):
        print(f"  calls that re-matched or re-summed:              {len(cm)}, median {np.median(cm):.1f} ms")
    if len(wm):
        print(f"  calls answered from cached sums:                 {len(wm)}, median {np.median(wm):.1f} ms")

    gt_df = pd.read_csv(d / "ground_truth.csv", dtype=str, keep_default_na=False)
    sub_df = pd.read_csv(files[1], dtype=str, keep_default_na=False)
    full, prepared = [], []
    gt_loaded = scoring.load_ground_truth(gt_df)
    for _ in range(5):
        t = time.perf_counter()
        scoring.fp1_score(gt_df, sub_df)
        full.append(time.perf_counter() - t)
        t = time.perf_counter()
        scoring.fp1_score(gt_loaded, sub_df)
        prepared.append(time.perf_counter() - t)
    f_full = float(np.median(full)) * 1000
    f_prep = float(np.median(prepared)) * 1000
    print(f"\nFP1 of one submission ({len(sub_df)} predictions) from in-memory DataFrames, median of 5")
    print(f"  fp1_score(gt_df, sub_df)               {f_full:7.1f} ms  (target <= 67 ms: {verdict(f_full, 67)})")
    print(f"  with the ground truth parsed once      {f_prep:7.1f} ms  (target <= 67 ms: {verdict(f_prep, 67)})")
    print(f"  public reference (SPEC §3): 6700 ms -> {6700 / f_full:.0f}x / {6700 / f_prep:.0f}x faster")

    n_sub = max(len(comp.prepared), 1)
    per_sub = sum(t.nbytes for t in comp.tables.values()) / n_sub
    print("\nmemory")
    print(f"  peak RSS of the whole run  {rss_mib():7.0f} MiB  (target <= 2048 MiB: {verdict(rss_mib(), 2048)})")
    print(f"  match tables kept per submission (both modes) {per_sub / 2**20:.1f} MiB "
          f"-> 1,000 submissions: about {per_sub * 1000 / 2**30:.1f} GiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
