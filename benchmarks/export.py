"""python -m benchmarks export: per family, the exported program's run on the sample (every
submission through the Codabench ``score.py``, one process each, and the plain command line,
one process for all) beside the command line's own ``leaderboard`` on the same data, measured
interleaved in one run; and the program's folder size without the data.

Targets: each run ≤ 2× the ``leaderboard`` time — per submission for Codabench (the platform
runs the program once per submission), for all submissions for the command line; ≤ 5 MB
without data.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scoring.export import export
from scoring.registry import get
from tests.export.cases import FAMILIES, sample_case

ROOT = Path(__file__).resolve().parents[1]


def _time(cmd: list[str], cwd: Path) -> float:
    t = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if r.returncode:
        raise RuntimeError(r.stderr[-400:])
    return time.perf_counter() - t


def _cli(fam, case) -> list[str]:
    words = [sys.executable, "-m", "scoring", fam.name, "leaderboard", "--format", "json"]
    for inp in fam.inputs:
        v = case.sources.get(inp.role)
        if v is not None:
            words += [inp.flag, *map(str, v if isinstance(v, list) else [v])]
    from lab.report import param_args  # the view's options (no Streamlit)

    return words + param_args(fam, case.params)


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks export", description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3, help="runs of each command, interleaved; the best is shown "
                    "(default 3)")
    ap.add_argument("--family", action="append", choices=FAMILIES, help="only this family (repeatable; default all)")
    args = ap.parse_args(argv)
    reps = max(1, args.repeats)
    print(f"load average {os.getloadavg()[0]:.2f}; best of {reps}, interleaved; times in seconds")
    print("family        | leaderboard | codabench / sub | ratio | python all | ratio | program MB (no data) | Kaggle metric.py MB")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for name in args.family or FAMILIES:
            fam = get(name)
            case = sample_case(name, tmp / name / "data")
            cb = export(fam, case.sources, case.params, target="codabench", out=tmp / name / "cb").folder
            pt = export(fam, case.sources, case.params, target="python", out=tmp / name / "py").folder
            kg = export(fam, case.sources, case.params, target="kaggle", out=tmp / name / "kg").folder
            first = next(iter(case.entries.values()))
            work = tmp / name / "run"
            (work / "input" / "res").mkdir(parents=True)
            (work / "input" / "ref").symlink_to(cb / "reference_data", target_is_directory=True)
            (work / "input" / "res" / first.name).symlink_to(first)
            lb, one, allp = [], [], []
            for _ in range(reps):
                lb.append(_time(_cli(fam, case), tmp))
                one.append(_time([sys.executable, str(cb / "scoring_program" / "score.py"), "input", "output"], work))
                allp.append(_time([sys.executable, str(pt / "metric.py"), str(pt / "reference_data"),
                                   *map(str, case.entries.values())], tmp))
            t_lb, t_one, t_all = min(lb), min(one), min(allp)
            prog = _size(cb / "scoring_program") - sum(f.stat().st_size for f in (cb / "scoring_program").glob("*.zip"))
            kaggle_mb = (kg / "metric.py").stat().st_size / 1e6
            ok &= t_one <= 2 * t_lb and t_all <= 2 * t_lb and prog <= 5e6
            print(f"{name:13} | {t_lb:11.2f} | {t_one:15.2f} | {t_one / t_lb:5.2f} | {t_all:10.2f} | "
                  f"{t_all / t_lb:5.2f} | {prog / 1e6:20.2f} | {kaggle_mb:.2f} (with embedded data)")
    print("targets (each run <= 2x leaderboard, program <= 5 MB):", "met" if ok else "NOT met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
