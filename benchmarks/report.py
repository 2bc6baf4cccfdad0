"""The stakeholder report, measured: ``python -m benchmarks report [--runs 5] [--bootstrap 1000]``.

Prints, for each family's sample and beside the targets (the Shovel-Ready sample's report
≤ 5 MB, generated in ≤ 3 s): the report's size, the median (and slowest) time of
``lab.report.build_report`` on a loaded scorer — the work the app's *Download report* button
does — with a fresh scorer each run (so no leaderboard comes from an earlier run's cache),
and the wall time of the whole command ``python -m lab.report <family>`` (a new
interpreter: imports, loading the files, scoring, writing).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._common import ROOT, verdict
from scoring import get

FAMILIES = ["shovel-ready", "spotgeo", "qa", "difficulty"]
MAX_BYTES, MAX_SECONDS = 5_000_000, 3.0
EXTRA = {"shovel-ready": ["--attributes", "ell_status"], "difficulty": ["--metric", "wmprob"]}


def _sources(name: str) -> tuple[dict, list[str]]:
    fam = get(name)
    sources, args = {}, []
    for inp in fam.inputs:
        path = Path(fam.sample_dir) / inp.path
        if path.exists():
            sources[inp.role] = [path] if inp.many else path
            args += [inp.flag, str(path)]
    return sources, args + EXTRA.get(name, [])


def _build(name: str, runs: int, b: int | None) -> tuple[list[float], int]:
    from lab import report
    from scoring.core.robustness import bootstrap

    fam = get(name)
    sources, args = _sources(name)
    comp = fam.load(**sources)
    parser = argparse.ArgumentParser()
    fam.params.add_arguments(parser)
    ns = parser.parse_known_args(args)[0]
    params = fam.params.from_args(ns, context=fam.context(comp))
    times, size = [], 0
    for _ in range(runs):
        scorer = fam.scorer(comp)
        t = time.perf_counter()
        iv = bootstrap(scorer.unit_stats(**params), b=b) if b else None
        html = report.build_report(fam, comp, scorer, params, data=report.file_digests(fam, sources),
                                   command=report.command_line(fam, sources, params), link=report.link(fam, params),
                                   intervals=iv)
        times.append(time.perf_counter() - t)
        size = len(html.encode("utf-8"))
    return times, size


def _command(name: str, b: int | None) -> float:
    _, args = _sources(name)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "lab.report", name, "--out", str(Path(tmp) / "r.html"), *args]
        cmd += ["--bootstrap", str(b)] if b else []
        t = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="builds per family (default 5)")
    ap.add_argument("--bootstrap", type=int, default=None, metavar="B",
                    help="add rank intervals from B resamples to every report (default: none)")
    ap.add_argument("--family", choices=FAMILIES, action="append", help="only this family (repeatable)")
    args = ap.parse_args(argv)
    print(f"HTML report of each sample ({args.runs} builds each"
          + (f", with {args.bootstrap:,} bootstrap resamples" if args.bootstrap else "") + ")")
    for name in args.family or FAMILIES:
        times, size = _build(name, args.runs, args.bootstrap)
        wall = _command(name, args.bootstrap)
        med = statistics.median(times)
        targets = (f"  (targets: <= {MAX_BYTES / 1e6:g} MB: {verdict(size, MAX_BYTES)}; <= {MAX_SECONDS:g} s: "
                   f"{verdict(med, MAX_SECONDS)})" if name == "shovel-ready" else "")
        print(f"  {name:13s} {size / 1e6:5.2f} MB  build median {med:5.2f} s (max {max(times):5.2f} s)  "
              f"whole command {wall:5.2f} s{targets}")
    return 0
