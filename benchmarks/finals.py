"""Kaggle-size finals of *distinct* files (issue 42 item 3): N FP1-scale submissions, each its
own file, loaded and scored from the command line, against the floor of reading them.

    python -m benchmarks finals [--submissions 2000] [--workers 2 1] [--repeats 1] [--data DIR]
                                [--keep 0.55] [--warm] [--against DIR]

Generates (once, seeded) N distinct submission files into ``--data`` (default: the temp
folder; the 2,000 files take about 16 GB): file k is a random ``--keep`` share of the rows
of one of the 20 files of the Shovel-Ready benchmark competition (10,400 essays; ``python -m
benchmarks shovel-ready`` makes it), with fresh effectiveness probabilities, so every file
differs in bytes and in scores. Then, alternately:

* **the read floor**: every file's bytes read once, in this process, into one reused buffer
  (``readinto``: no parsing, no allocation) — what reading alone costs on this disk — before
  the first command of a round and after every command, so that each command has a floor
  on either side (a shared disk's speed drifts: here it went from 16 to 31 s within an hour);
* **the command**, as a user runs it, once per ``--workers`` value: ``python -m scoring
  shovel-ready leaderboard --ground-truth … --submissions DIR --demographics … --runtimes …
  --workers N`` in a new process.

Before each pass the files' pages are dropped from the page cache (``posix_fadvise
DONTNEED`` on these files only; ``--warm`` keeps them), so each pass reads from the disk as a
first run would. Prints wall time, CPU time (the command's process and every process it
started and waited for), the peak resident memory of its process tree (sampled every 50 ms,
workers included), the load average, each command's ratio to the mean of the floors either side of it (target
≤ 2.4×), and a warning where those two floors differ by more than 20 %. The numbers are the
output (it never fails on a missed target).

``--against DIR``: another checkout of this project (an earlier commit, ``git worktree add
DIR COMMIT``) runs the same commands on the same files, alternating with this one (which goes
first in odd rounds, second in even ones), each after its own emptying of the page cache;
both use this Python. Its lines and its summary are marked ``(DIR)``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._timing import load_line, run_command  # noqa: E402


def make_finals(folder: Path, base: Path, n: int, keep: float, seed: int = 42) -> None:
    """``n`` distinct submissions from the base competition's 20 (module doc)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pv

    subs = folder / "submissions"
    subs.mkdir(parents=True, exist_ok=True)
    files = sorted((base / "submissions").glob("*.csv"))
    tables = {}
    runtimes = {}
    for line in (base / "runtimes.csv").read_text().splitlines()[1:]:
        name, value = line.rsplit(",", 1)
        runtimes[name] = float(value)
    rows = ["submission,runtime"]
    t0 = time.perf_counter()
    for k in range(n):
        src = files[k % len(files)]
        if src not in tables:
            tables[src] = pv.read_csv(src, convert_options=pv.ConvertOptions(
                column_types={"id": pa.string(), "class": pa.string(), "predictionstring": pa.string()}))
        t = tables[src]
        rng = np.random.default_rng([seed, k])
        t = t.filter(pa.array(rng.random(t.num_rows) < keep))
        eff = np.round(rng.random(t.num_rows), 3)
        t = t.set_column(t.schema.get_field_index("Effective"), "Effective", pa.array(eff))
        t = t.set_column(t.schema.get_field_index("Ineffective"), "Ineffective",
                         pc.round(pa.array(1.0 - eff), 3))
        name = f"f{k + 1:04d}-{src.stem}"
        with pa.OSFile(str(subs / f"{name}.csv"), "wb") as out:  # as pandas writes it: nothing quoted
            out.write((",".join(t.column_names) + "\n").encode())
            pv.write_csv(t, out, write_options=pv.WriteOptions(include_header=False, quoting_style="none"))
        rows.append(f"{name},{runtimes.get(src.stem, 100.0) * rng.uniform(0.8, 1.25):.1f}")
        if (k + 1) % 100 == 0:
            print(f"  {k + 1}/{n} files, {time.perf_counter() - t0:.0f} s", flush=True)
    for f in ("ground_truth.csv", "demographics.csv"):
        target = folder / f
        if not target.exists():
            target.symlink_to(base / f)
    (folder / "runtimes.csv").write_text("\n".join(rows) + "\n")


def ensure(data: Path, n: int, keep: float, base: Path | None) -> Path:
    from benchmarks.shovel_ready import ensure_data

    folder = data / f"leaderboard-lab-finals-{n}-keep{keep:g}"
    if not (folder / ".complete").exists():
        base = ensure_data(base)
        print(f"generating {n} distinct submissions into {folder} ...", flush=True)
        make_finals(folder, base, n, keep)
        (folder / ".complete").write_text(f"{n} files from {base}, keep {keep}\n")
    return folder


def drop_cache(files: list[Path]) -> None:
    """Drop these files' pages from the page cache (the next read comes from the disk)."""
    for f in files:
        fd = os.open(f, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def read_floor(files: list[Path]) -> tuple[float, float, int]:
    """Wall and CPU seconds to read every file once into one reused buffer; bytes read."""
    buf = bytearray(64 << 20)
    view = memoryview(buf)
    total = 0
    w, c = time.perf_counter(), time.process_time()
    for f in files:
        with open(f, "rb", buffering=0) as fh:
            while True:
                got = fh.readinto(view)
                if not got:
                    break
                total += got
    return time.perf_counter() - w, time.process_time() - c, total


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks finals", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--submissions", type=int, default=2000, help="distinct submission files (default 2000)")
    ap.add_argument("--workers", type=int, nargs="+", default=[2, 1], help="--workers values to run (default 2 1)")
    ap.add_argument("--repeats", type=int, default=1, help="rounds of floor + commands (default 1)")
    ap.add_argument("--keep", type=float, default=0.55, help="share of a base file's rows in each file (default 0.55)")
    ap.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()), help="where the files are generated")
    ap.add_argument("--base", type=Path, help="the 20-file competition the files are drawn from (default: the "
                    "Shovel-Ready benchmark's, generated once)")
    ap.add_argument("--warm", action="store_true", help="keep the files in the page cache between passes")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds before a command is stopped")
    ap.add_argument("--against", type=Path, metavar="DIR", help="another checkout of the project, run alternately "
                    "with this one on the same files (module doc)")
    args = ap.parse_args(argv)
    trees = [(ROOT, "")]
    if args.against is not None:
        other = args.against.resolve()
        if not (other / "scoring" / "__main__.py").is_file():
            ap.error(f"--against {args.against}: expected a checkout of this project (scoring/__main__.py), "
                     "found none")
        trees.append((other, f" ({other})"))
    d = ensure(args.data, args.submissions, args.keep, args.base).resolve()  # (--against runs elsewhere)
    files = sorted((d / "submissions").glob("*.csv"))
    size = sum(f.stat().st_size for f in files)
    print(f"finals: {d}\n  {len(files)} distinct submission files, {size / 1e9:.1f} GB of CSV "
          f"({size / len(files) / 1e6:.1f} MB each on average); ground truth 10,400 essays; {load_line()}")
    cmd = [sys.executable, "-m", "scoring", "shovel-ready", "leaderboard", "--ground-truth", str(d / "ground_truth.csv"),
           "--submissions", str(d / "submissions"), "--demographics", str(d / "demographics.csv"),
           "--runtimes", str(d / "runtimes.csv")]
    for tree, _ in trees[1:]:
        print(f"  against {tree}: the same commands from that checkout, alternating with this one ({ROOT})")
    results: dict[str, list] = {"floor": []}
    for w in args.workers:
        for _, mark in trees:
            results[f"--workers {w}{mark}"] = []

    def floor(rnd: int) -> float:
        if not args.warm:
            drop_cache(files)
        wall, cpu, total = read_floor(files)
        results["floor"].append((wall, cpu))
        print(f"  round {rnd + 1}: read floor {wall:7.1f} s wall, {cpu:6.1f} s CPU, {total / wall / 1e6:.0f} MB/s "
              f"({load_line()})", flush=True)
        return wall

    for rnd in range(max(1, args.repeats)):
        print()
        before = floor(rnd)
        for w in args.workers:
            for tree, mark in (trees if rnd % 2 == 0 else trees[::-1]):
                if not args.warm:
                    drop_cache(files)
                r = run_command([*cmd, "--workers", str(w)], cwd=tree, timeout=args.timeout)
                ok = "" if r.code == 0 else f"  EXIT {r.code}: {r.stderr.strip().splitlines()[-1:] }"
                after = floor(rnd)
                near = (before + after) / 2
                results[f"--workers {w}{mark}"].append((r.wall, r.cpu, r.peak_mib, before, after))
                moved = abs(after - before) / min(before, after) > 0.2
                print(f"  round {rnd + 1}: --workers {w}{mark}: {r.wall:7.1f} s wall = {r.wall / near:.2f}x the floors "
                      f"either side ({before:.1f} and {after:.1f} s), {r.cpu:6.1f} s CPU, peak RSS of the process tree "
                      f"{r.peak_mib:6.0f} MiB ({load_line()}){ok}", flush=True)
                if moved:
                    print("    the two floors differ by more than 20 %: the disk's speed changed during this "
                          "command, and its ratio is uncertain", flush=True)
                before = after
    print(f"\nsummary ({len(files)} files, {size / 1e9:.1f} GB, {'warm' if args.warm else 'cold'} page cache each pass)")
    for k, rs in results.items():
        wall = np.array([x[0] for x in rs])
        cpu = np.array([x[1] for x in rs])
        line = (f"  {k:<12} wall min {wall.min():7.1f} / median {np.median(wall):7.1f} s, CPU min {cpu.min():6.1f} / "
                f"median {np.median(cpu):6.1f} s")
        if k != "floor":
            peak = max(x[2] for x in rs)
            ratio = float(np.median([x[0] / ((x[3] + x[4]) / 2) for x in rs]))
            line += (f", peak RSS {peak:6.0f} MiB; {ratio:.2f}x the floors either side (median; target <= 2.4x: "
                     f"{'ok' if ratio <= 2.4 else 'MISSED'}); {len(files) / np.median(wall):.1f} files/s")
        print(line)
    print(f"  {load_line()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
