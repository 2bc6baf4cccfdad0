"""Kaggle-size finals (issue 14): thousands of Feedback-Prize-scale submissions.

    python -m benchmarks scale [--submissions 2000] [--holed] [--workers N] [--scheduler ADDRESS]

Builds (once) a competition of N submissions out of the 20-file benchmark competition of
``python -m benchmarks shovel-ready``: the N files are **symbolic links** to those 20 files
under other names (``s0001-attention-span.csv`` …), because N distinct files of ~15 MB would
take N × 15 MB of disk. Every link is read, parsed, validated and scored in its own right — the
engine computes nothing once for two names — but the table cache stores identical content once
(its files are named by content hash), so here it holds 20 files where N distinct submissions
would hold N (about 6.4 MiB each, both modes; the benchmark prints what that would be).

Prints, beside each target: the load time (validate + score every file, on every core), the
peak RSS of this process and of its largest worker, RSS per extra submission (the slope of
RSS against files loaded, and what is retained at the end), a ``w``/α/band move, a
threshold change and a quality change (each re-matches every submission from the cache).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import scoring  # noqa: E402
from benchmarks._common import verdict  # noqa: E402
from benchmarks.shovel_ready import ensure_data, parallelism  # noqa: E402
from scoring.core.fanout import default_workers  # noqa: E402


def status_mib(field: str) -> float:
    """``VmRSS`` (now) or ``VmHWM`` (peak) of this process, in MiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def workers_peak_mib() -> float:
    """The largest peak RSS of this process's children: live ones (loky keeps its workers for a
    while) from ``VmHWM``, ended ones from ``getrusage``."""
    peaks = [resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024]
    for task in Path("/proc/self/task").glob("*"):
        try:
            kids = (task / "children").read_text().split()
        except OSError:
            continue
        for pid in kids:
            try:
                lines = Path(f"/proc/{pid}/status").read_text().splitlines()
            except OSError:
                continue
            peaks += [int(line.split()[1]) / 1024 for line in lines if line.startswith("VmHWM:")]
    return max(peaks)


def build(base: Path, n: int, holed: bool) -> Path:
    """A competition folder of ``n`` submissions: links to the base competition's 20 files."""
    folder = Path(tempfile.gettempdir()) / f"leaderboard-lab-scale-{n}{'-holed' if holed else ''}"
    done = folder / ".complete"
    if done.exists():
        return folder
    subs = folder / "submissions"
    subs.mkdir(parents=True, exist_ok=True)
    for old in subs.iterdir():
        old.unlink()
    files = sorted((base / "submissions").glob("*.csv"))
    runtimes = pd.read_csv(base / "runtimes.csv").set_index("submission")["runtime"]
    rng = np.random.default_rng(14)
    rows = ["submission,runtime"]
    for k in range(n):
        src = files[k % len(files)]
        name = f"s{k + 1:04d}-{src.stem}"
        (subs / f"{name}.csv").symlink_to(src)
        rows.append(f"{name},{runtimes[src.stem] * rng.uniform(0.8, 1.25):.1f}")
    for f in ("ground_truth.csv", "demographics.csv"):
        target = folder / f
        if not target.exists():
            target.symlink_to(base / f)
    (folder / "runtimes.csv").write_text("\n".join(rows) + "\n")
    done.write_text(f"{n} links to {base}\n")
    return folder


class Sampler:
    """The progress callback: a plain progress line now and then, and RSS after every file."""

    def __init__(self, label: str):
        self.label, self.points, self.t0, self.last = label, [], time.perf_counter(), -1.0

    def __call__(self, done: int, total: int, name: str) -> None:
        self.points.append((done, status_mib("VmRSS")))
        now = time.perf_counter() - self.t0
        if done == total or now - self.last >= 15:
            self.last = now
            print(f"    {self.label}: {done}/{total} files, {now:5.1f} s, RSS {status_mib('VmRSS'):.0f} MiB",
                  flush=True)

    def slope(self) -> float:
        """MiB per file: least squares of RSS on files done, past the first tenth."""
        pts = np.array(self.points, dtype=float)
        pts = pts[pts[:, 0] >= pts[-1, 0] / 10]
        if len(pts) < 3:
            return float("nan")
        return float(np.polyfit(pts[:, 0], pts[:, 1], 1)[0])


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks scale", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--submissions", type=int, default=2000, help="submissions (default 2000)")
    ap.add_argument("--holed", action="store_true", help="links to the holed variant (4 %% holed predictions)")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    ap.add_argument("--scheduler", default=os.environ.get("LAB_DASK_SCHEDULER"),
                    help="a Dask scheduler to load on (default: LAB_DASK_SCHEDULER, else the local pool)")
    args = ap.parse_args(argv)
    n = args.submissions
    base = ensure_data(None, args.holed)
    d = build(base, n, args.holed)
    distinct = len(list((base / "submissions").glob("*.csv")))
    csv_gb = sum(f.resolve().stat().st_size for f in (d / "submissions").glob("*.csv")) / 1e9
    workers = args.workers or default_workers()
    where = f"Dask at {args.scheduler}" if args.scheduler else f"{workers} local process(es)"
    print(f"competition: {d}\n  {n} submissions (symbolic links to {distinct} files of {base}), "
          f"{csv_gb:.1f} GB of CSV to read; loading on {where}")
    print(f"machine now: load average {os.getloadavg()[0]:.1f}; two processes get {parallelism():.1f} cores' worth "
          "of CPU (2.0 = two free cores)")

    rss0 = status_mib("VmRSS")
    sampler = Sampler("load")
    comp, t_load = timed(lambda: scoring.load_competition(
        ground_truth=d / "ground_truth.csv", submissions=[d / "submissions"], demographics=d / "demographics.csv",
        runtimes=d / "runtimes.csv", progress=sampler, workers=args.workers, scheduler=args.scheduler))
    rss_loaded = status_mib("VmRSS")
    store = comp.store
    tables = sorted(Path(store.folder).glob("*.tables")) if store.folder else []
    per_file = (store.disk_bytes() / max(len(tables), 1)) if tables else store.nbytes / n
    print("\nload: read, validate, pair and score every file")
    print(f"  load_competition       {t_load:8.1f} s  (target <= 300 s: {verdict(t_load, 300)}); "
          f"{n / t_load:.1f} files/s")
    print(f"  tables                 in {store.where}: {len(tables) or n} file(s) of {per_file / 2**20:.1f} MiB "
          f"({store.disk_bytes() / 2**20:.0f} MiB); {n} distinct submissions would take "
          f"{per_file * n / 2**30:.1f} GiB of disk")

    progress = Sampler("match")
    scorer = scoring.Scorer(comp, progress=progress)
    params = dict(scoring.DEFAULTS)
    params["attributes"] = ("ell_status",)
    lb, t_first = timed(lambda: scorer.leaderboard(**params))
    print("\nScorer.leaderboard")
    print(f"  first leaderboard      {t_first:8.1f} s  (matches all {n} submissions from the cache)")

    rng = np.random.default_rng(3)
    moves = []
    for k in range(9):
        knob = ("w", "alpha", "band")[k % 3]
        params[knob] = float(rng.choice({"w": [0.2, 0.35, 0.65, 0.8], "alpha": [0, 20, 80, 200, np.inf],
                                         "band": [0.02, 0.1, 0.2]}[knob]))
        moves.append(timed(lambda: scorer.leaderboard(**params))[1])
    worst = max(moves)
    print(f"  w / alpha / band move  {np.median(moves) * 1000:8.1f} ms median, {worst * 1000:.1f} ms max of "
          f"{len(moves)} (target <= 0.5 s: {verdict(worst, 0.5)})")
    changes = []
    for knob, value in (("threshold", 0.6), ("quality", "max"), ("threshold", 0.75)):
        params[knob] = value
        progress.last = -1.0
        _, t = timed(lambda: scorer.leaderboard(**params))
        changes.append(t)
        print(f"  {knob} -> {value!s:<5}      {t:8.1f} s  (target <= 30 s: {verdict(t, 30)}; re-matches every "
              f"submission, {workers if store.where == 'disk' else 1} process(es))")
    params["attributes"] = ("ell_status", "gender")
    _, t_attr = timed(lambda: scorer.leaderboard(**params))
    print(f"  attributes change      {t_attr:8.1f} s  (no target; re-sums every submission's matched pairs)")

    rss_end = status_mib("VmRSS")
    peak = status_mib("VmHWM")
    child = workers_peak_mib()
    print("\nmemory")
    print(f"  peak RSS, this process {peak:8.0f} MiB  (target <= 4096 MiB: {verdict(peak, 4096)}); "
          f"largest worker process {child:.0f} MiB")
    slope = sampler.slope()
    retained = (rss_end - rss0) / n
    print(f"  RSS per extra submission {slope:6.3f} MiB while loading (slope of RSS on files loaded; "
          f"target <= 0.5 MiB: {verdict(slope, 0.5)})")
    print(f"  retained after scoring {retained:8.3f} MiB per submission ((RSS at the end - RSS before loading) / {n}: "
          f"{rss0:.0f} -> {rss_loaded:.0f} after the load -> {rss_end:.0f} MiB)")
    comp.close()
    print(f"\ncache folder removed: {not os.path.exists(store.folder) if store.folder else True}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
