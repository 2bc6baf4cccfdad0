"""The engine against the public reference code, interleaved in one process (issue 42 item 1).

    python -m benchmarks versus --fp1-reference PATH --kit PATH [--repeats 5] [--only fp1|spotgeo]
                                [--data DIR] [--fp1-submissions 2] [--spotgeo-submissions 10 20]
                                [--spotgeo-sets sparse crowded]

Both references are public code that this project does not ship: give the path of a copy kept
outside the repository, and the benchmark prints which copy it ran (its path, its SHA-256, its
first comment line) and the versions of the libraries under it.

* ``--fp1-reference``: the Feedback Prize 2021 competition metric (the ``score_feedback_comp``
  of Rob Mulla's Kaggle notebook "Student Writing Competition", the code competitors used), a
  ``.py`` file defining ``score_feedback_comp(pred_df, gt_df)``. The reference's call is what its
  users ran: ``score_feedback_comp(pandas.read_csv(sub), pandas.read_csv(gt))``; the engine's is
  ``scoring.fp1_score(gt_path, sub_path)`` — both files read, checked and parsed on every call.
  On the Shovel-Ready benchmark competition (10,400 essays, 102,431 ground-truth segments,
  ``python -m benchmarks shovel-ready`` generates it): the largest and the median submission
  by size, unless told otherwise. Target: ≥ 100× at the minimum.
* ``--kit``: the spotGEO starter kit's ``validation.py``. From files: the kit's
  ``compute_score(sub, gt)`` (``json.load`` of both, ``flat_to_hierarchical``,
  ``score_sequences``) per submission, against ``load_competition(gt, subs)`` and
  ``Scorer.totals`` at the kit's τ = 10, ε = 3 under starter-kit rules; from parsed lists: the
  kit's ``flat_to_hierarchical`` + ``score_sequences`` against ``load_competition`` of the
  same lists. On two generated sets of 5,120 sequences (``sample_data.spotgeo.generate``):
  *sparse* (no crowded sequence) and *crowded* (every sequence 20–30 objects a frame). The
  kit's own per-sequence ``score_sequence`` gives its TP/FN/FP, compared with the engine's
  (untimed). Targets: ≥ 10× from files, ≥ 3× from parsed lists. ``--spotgeo-sets crowded``
  runs the crowded set alone.

Every number: ``--repeats`` runs (default 5) after one untimed warm-up call each (the
warm-up's own time is printed as the first call), the two sides alternating; min and median
of wall time and of CPU time (every thread of this process); the load average. The ratios
are taken within one run. The numbers are the output (it never fails on a missed target).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import _common as common  # noqa: E402
from benchmarks._timing import Times, interleaved, load_line, timed  # noqa: E402

KIT_TAU, KIT_EPS = 10.0, 3.0  # the kit's defaults


def describe(path: Path) -> str:
    """Which copy of a reference ran: path, SHA-256, size and its first comment line."""
    data = path.read_bytes()
    first = next((ln.strip() for ln in data.decode("utf-8", "replace").splitlines() if ln.strip().startswith("#")), "")
    return (f"{path} (sha256 {hashlib.sha256(data).hexdigest()[:16]}…, {len(data):,} bytes; "
            f"first comment: {first[:100]!r})")


def versions(*names: str) -> str:
    out = [f"Python {sys.version.split()[0]}"]
    for n in names:
        try:
            out.append(f"{n} {importlib.metadata.version(n)}")
        except importlib.metadata.PackageNotFoundError:
            pass
    return ", ".join(out)


def load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path} as a Python module")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def ratio_lines(ref: Times, own: Times, target: float, what: str) -> list[str]:
    """The reference's time over the engine's: at the minimum and the median, wall and CPU, each
    judged against ``target`` at the minimum."""
    r_min, r_med = ref.min_wall / own.min_wall, ref.med_wall / own.med_wall
    c_min, c_med = ref.min_cpu / own.min_cpu, ref.med_cpu / own.med_cpu
    # judged both ways: a call that spreads over two threads can meet it in wall time only
    wall_ok, cpu_ok = ("ok" if r >= target else "MISSED" for r in (r_min, c_min))
    return [f"    {what}: {r_min:6.1f}x at the minimum, {r_med:6.1f}x at the median (wall); CPU {c_min:6.1f}x / "
            f"{c_med:6.1f}x (target >= {target:g}x at the minimum: wall {wall_ok}, CPU {cpu_ok})"]


# ---- FP1 --------------------------------------------------------------------------------------
def fp1_section(ref_path: Path, data: Path | None, n_subs: int, names: list[str], repeats: int) -> None:
    import scoring
    from benchmarks.shovel_ready import ensure_data

    ref = load_module(ref_path, "fp1_reference")
    d = ensure_data(data)
    gt = d / "ground_truth.csv"
    subs = sorted((d / "submissions").glob("*.csv"), key=lambda p: p.stat().st_size)
    if names:
        subs = [d / "submissions" / f"{n}.csv" for n in names]
    elif n_subs == 2:  # the largest and the median by size
        subs = [subs[-1], subs[len(subs) // 2]]
    else:  # the largest
        subs = subs[::-1][:max(1, n_subs)]
    print(f"\nFP1 from CSV files: the public reference against scoring.fp1_score ({load_line()})")
    print(f"  reference: {describe(ref_path)}")
    print(f"  under {versions('pandas', 'numpy', 'pyarrow')}")
    print(f"  competition: {d} (ground truth {gt.stat().st_size / 1e6:.1f} MB)")
    for s in subs:
        fns = {
            "reference": lambda s=s: ref.score_feedback_comp(pd.read_csv(s), pd.read_csv(gt)),
            "engine": lambda s=s: scoring.fp1_score(gt, s),
        }
        first = {k: timed(fn) for k, fn in fns.items()}  # the first call in this process: its own line
        values: dict[str, list[float]] = {k: [first[k][2]] for k in fns}
        times = interleaved(fns, repeats, warm=False, check=lambda k, v, values=values: values[k].append(float(v)))
        diff = max(abs(a - b) for a in values["reference"] for b in values["engine"])
        print(f"\n  {s.name} ({s.stat().st_size / 1e6:.1f} MB, {sum(1 for _ in open(s)) - 1:,} predictions): "
              f"FP1 reference {values['reference'][0]:.10f}, engine {values['engine'][0]:.10f} "
              f"(|difference| {diff:.1e}{_tie_note(diff)})")
        for k in fns:
            print(f"    {k:<10} first call {first[k][0]:7.3f} s wall, {first[k][1]:7.3f} s CPU; then {repeats} runs: "
                  f"{times[k].text()} (load {times[k].load_range()})")
        print("\n".join(ratio_lines(times["reference"], times["engine"], 100, "reference / engine")))


def _tie_note(diff: float) -> str:
    return "" if diff == 0 else ("; the reference's unstable sort picks among tied predictions by chance "
                                 "(SPEC §3): a file with duplicate predictions may differ in the last digits")


# ---- spotGEO ----------------------------------------------------------------------------------
def spotgeo_data(base: Path, crowded: bool, teams: int) -> Path:
    """The generated set (made once into ``base``): 5,120 sequences, ``teams`` submissions."""
    folder = base / f"leaderboard-lab-versus-spotgeo-{'crowded' if crowded else 'sparse'}"
    # made again when an earlier run made fewer submissions than asked for now
    if not (folder / ".complete").exists() or len(list((folder / "submissions").glob("*.json"))) < teams:
        print(f"generating {folder} ...", flush=True)
        shutil.rmtree(folder, ignore_errors=True)
        common.run_generator("sample_data.spotgeo.generate", "--out", str(folder), "--sequences", "5120",
                             "--teams", str(teams), "--crowded", "1" if crowded else "0")
        (folder / ".complete").write_text("generated by benchmarks/versus.py\n")
    return folder


def kit_counts(kit, pred_h, gt_h) -> tuple[int, int, int, float]:
    """TP, FN, FP and MSE as the kit computes them (its ``score_sequence`` per sequence)."""
    tp = fn = fp = 0
    mse = 0.0
    for k in pred_h:
        a, b, c, m = kit.score_sequence(pred_h[k], gt_h[k], tau=KIT_TAU, eps=KIT_EPS)
        tp, fn, fp, mse = tp + int(a), fn + int(b), fp + int(c), mse + float(m)
    return tp, fn, fp, mse


def spotgeo_section(kit_path: Path, base: Path, counts: list[int], repeats: int,
                    sets: tuple[str, ...] = ("sparse", "crowded")) -> None:
    from scoring.spotgeo import Scorer, load_competition

    kit = load_module(kit_path, "spotgeo_starter_kit")
    print(f"\nspotGEO: the starter kit's validation.py against the engine ({load_line()})")
    print(f"  kit: {describe(kit_path)}")
    print(f"  under {versions('numpy', 'scipy', 'pandas', 'pyarrow')}; tau {KIT_TAU:g}, epsilon {KIT_EPS:g}, "
          "starter-kit rules")
    for crowded in [c for c in (False, True) if ("crowded" if c else "sparse") in sets]:
        d = spotgeo_data(base, crowded, max(counts))
        gt_path = d / "ground_truth.json"
        all_subs = sorted((d / "submissions").glob("*.json"))
        with open(gt_path) as f:
            gt_list = json.load(f)
        n_obj = np.array([e["num_objects"] for e in gt_list])
        print(f"\n  {'crowded' if crowded else 'sparse'} set: {d} ({len(gt_list):,} frames, objects per frame mean "
              f"{n_obj.mean():.1f}, max {n_obj.max()})")
        for n in counts:
            subs = all_subs[:n]
            if len(subs) < n:
                raise SystemExit(f"{d} holds {len(subs)} submissions, fewer than the {n} asked for")
            parsed = []
            for f in subs:
                with open(f) as fh:
                    parsed.append(json.load(fh))
            size = sum(f.stat().st_size for f in subs) / 1e6

            def kit_files(subs=subs, gt_path=gt_path):
                return [kit.compute_score(str(f), str(gt_path)) for f in subs]

            def engine_files(subs=subs, gt_path=gt_path):
                return Scorer(load_competition(gt_path, subs)).totals(tau=KIT_TAU, epsilon=KIT_EPS, rules="starter-kit")

            def kit_parsed(parsed=parsed, gt_list=gt_list):
                gt_h = kit.flat_to_hierarchical(gt_list)
                return [kit.score_sequences(kit.flat_to_hierarchical(p), gt_h, tau=KIT_TAU, eps=KIT_EPS) for p in parsed]

            def engine_parsed(parsed=parsed, subs=subs, gt_list=gt_list):
                comp = load_competition(gt_list, {f.stem: p for f, p in zip(subs, parsed, strict=True)})
                return Scorer(comp).totals(tau=KIT_TAU, epsilon=KIT_EPS, rules="starter-kit")

            fns = {"kit, from files": kit_files, "engine, from files": engine_files,
                   "kit, parsed lists": kit_parsed, "engine, parsed lists": engine_parsed}
            first = {k: timed(fn) for k, fn in fns.items()}
            times = interleaved(fns, repeats, warm=False)
            # the counts: the kit's own per-sequence function against the engine (not timed)
            eng = first["engine, from files"][2]
            gt_h = kit.flat_to_hierarchical(gt_list)
            worst_count, worst_mse = 0, 0.0
            for i, p in enumerate(parsed):
                tp, fn, fp, mse = kit_counts(kit, kit.flat_to_hierarchical(p), gt_h)
                worst_count = max(worst_count, abs(tp - int(eng["tp"][i])), abs(fn - int(eng["fn"][i])),
                                  abs(fp - int(eng["fp"][i])))
                worst_mse = max(worst_mse, abs(mse - float(eng["mse"][i])) / max(1.0, abs(mse)))
            print(f"\n    {len(subs)} submissions ({size:.0f} MB of JSON): kit and engine TP/FN/FP max |difference| "
                  f"{worst_count}, MSE max relative difference {worst_mse:.1e}")
            for k in fns:
                print(f"      {k:<22} first call {first[k][0]:7.2f} s wall; then {repeats} runs: {times[k].text()} "
                      f"(load {times[k].load_range()})")
            for line in ratio_lines(times["kit, from files"], times["engine, from files"], 10, "from files  "):
                print("  " + line)
            for line in ratio_lines(times["kit, parsed lists"], times["engine, parsed lists"], 3, "parsed lists"):
                print("  " + line)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks versus", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fp1-reference", type=Path, help="the Feedback Prize 2021 metric's .py file (public code, kept "
                    "outside this repository)")
    ap.add_argument("--kit", type=Path, help="the spotGEO starter kit's validation.py (public code, kept outside "
                    "this repository)")
    ap.add_argument("--repeats", type=int, default=5, help="timed runs of each side (default 5, at least 5 for a claim)")
    ap.add_argument("--only", choices=("fp1", "spotgeo"), help="run one of the two comparisons")
    ap.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()),
                    help="where generated competitions are kept (default: the temp folder)")
    ap.add_argument("--fp1-dir", type=Path, help="the Shovel-Ready competition (default: the benchmark one)")
    ap.add_argument("--fp1-submissions", type=int, default=2, help="submissions timed (default 2: the largest and "
                    "the median by size)")
    ap.add_argument("--fp1-names", nargs="*", default=[], help="submission names to time instead")
    ap.add_argument("--spotgeo-submissions", type=int, nargs="+", default=[10, 20],
                    help="numbers of submissions scored at once (default 10 20)")
    ap.add_argument("--spotgeo-sets", nargs="+", choices=("sparse", "crowded"), default=["sparse", "crowded"],
                    help="the spotGEO sets compared (default both)")
    args = ap.parse_args(argv)
    if args.only in (None, "fp1") and args.fp1_reference is None:
        ap.error("--fp1-reference PATH is needed (the public metric's file, kept outside this repository)")
    if args.only in (None, "spotgeo") and args.kit is None:
        ap.error("--kit PATH is needed (the starter kit's validation.py, kept outside this repository)")
    for p in (args.fp1_reference, args.kit):
        if p is not None and ROOT in p.resolve().parents:
            ap.error(f"{p}: keep the public reference outside this repository")
    print(f"the engine against the public references; {load_line()}; pid {os.getpid()}")
    if args.only in (None, "fp1"):
        fp1_section(args.fp1_reference, args.fp1_dir, args.fp1_submissions, args.fp1_names, max(1, args.repeats))
    if args.only in (None, "spotgeo"):
        spotgeo_section(args.kit, args.data, sorted(set(args.spotgeo_submissions)), max(1, args.repeats),
                        tuple(args.spotgeo_sets))
    print(f"\nend: {load_line()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
