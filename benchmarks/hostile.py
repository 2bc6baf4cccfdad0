"""Hostile and large inputs, measured: ``python -m benchmarks hostile [--repo DIR] [--only TEXT]``.

Runs the command line (``python -m scoring ...``) of the checkout in ``--repo`` (default:
this one) on generated files and prints, for each case, the wall time, the peak memory of
the process (``VmHWM``) and the first line of its answer. ``--repo`` pointed at an older
checkout gives the "before" figures. Files are generated only for the cases that run.

A case is stopped past ``--timeout`` seconds or ``--max-mib`` of resident memory (its pool's
workers included), so that an old checkout's runaway case cannot take the machine down.

The cases: the Shovel-Ready cells and headers of the first round; issue 30's table (spotGEO
ground truths of 100 MB whose first entry is bad, QA with 5,000 / 20,000 / 100,000 themes);
issue 28's JSON limits; and the audit of every family's multiplying dimensions (groups ×
essays, splits × samples × models, sequences × frames, themes × bootstrap replicates); issue 39's
counts from users (``--workers 100000``), teams² (Copeland and Kemeny on 12,000 teams, an ungrouped
bootstrap of 2,000 teams), long and wide Custom tables and exact Kemeny in shake-ups. The
"read only" case reads a valid 100 MB spotGEO file and prints its peak over the file size
(the multiple stated in the README).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADER = "id,discourse_type,predictionstring,discourse_effectiveness\n"
SUB = "id,class,predictionstring,Effective,Ineffective\ne1,Lead,0 1 2,0.5,0.5\n"
RUN = """
import json, sys, time
from scoring.cli import main
t0 = time.perf_counter()
code = main(sys.argv[1:])
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM"))  # reset by exec
print(json.dumps({"code": code, "seconds": time.perf_counter() - t0, "peak_mib": hwm / 1024}), file=sys.__stdout__)
"""
READ = """
import json, os, sys, time
from scoring.spotgeo.stream import read_frames
hwm = lambda: next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM")) / 1024
base = hwm()
t0 = time.perf_counter()
fr = read_frames(sys.argv[1], "gt.json", ground_truth=True)
size = os.path.getsize(sys.argv[1]) / 2**20
extra = hwm() - base
print(json.dumps({"code": 0, "seconds": time.perf_counter() - t0, "peak_mib": hwm(),
                  "note": f"{fr.n_frames:,} frames; +{extra:.0f} MiB over the imports = {extra / size:.2f}x the "
                          f"{size:.0f} MiB file"}))
"""


def _sr(tmp: Path, gt_text: str) -> list[str]:
    gt = tmp / "sr_gt.csv"
    gt.write_text(gt_text)
    (tmp / "sr_subs").mkdir(exist_ok=True)
    (tmp / "sr_subs" / "A.csv").write_text(SUB)
    return ["leaderboard", "--ground-truth", str(gt), "--submissions", str(tmp / "sr_subs")]


def _wide(n: int):
    return lambda tmp: _sr(tmp, ",".join(f"c{i}" for i in range(n)) + "\n" + ",".join("x" for _ in range(n)) + "\n")


# ---- spotGEO ------------------------------------------------------------------------------------
def _sg_entry(seq: int, frame: int, rng: random.Random) -> dict:
    pts = [[round(rng.uniform(0, 639), 2), round(rng.uniform(0, 479), 2)] for _ in range(10)]
    return {"sequence_id": seq, "frame": frame, "num_objects": len(pts), "object_coords": pts}


def _sg_file(path: Path, mb: float, first=None, as_arrays: bool = False) -> Path:
    """A spotGEO file of about ``mb`` MB of 10-point entries; ``first`` replaces entry 1."""
    rng = random.Random(0)
    with path.open("w") as f:
        f.write("[")
        size, seq, n = 1, 1, 0
        while size < mb * 1e6:
            parts = []
            for frame in range(1, 6):
                e = _sg_entry(seq, frame, rng)
                if n == 0 and first is not None:
                    e = first
                if as_arrays:
                    e = [e["sequence_id"], e["frame"], e["num_objects"], e["object_coords"]]
                parts.append(json.dumps(e))
                n += 1
            text = ("," if seq > 1 else "") + ",".join(parts)
            f.write(text)
            size += len(text)
            seq += 1
        f.write("]")
    return path


def _sg_cli(tmp: Path, gt: Path, *extra: str) -> list[str]:
    sub = tmp / "sg_A.json"
    if not sub.exists():
        sub.write_text(json.dumps([{"sequence_id": 1, "frame": 1, "num_objects": 0, "object_coords": []}]))
    return ["spotgeo", "leaderboard", "--ground-truth", str(gt), "--submissions", str(sub), *extra]


def _sg_sequences(n_seq: int):
    """``n_seq`` sequences × 5 frames, 3 objects each; one submission equal to the truth
    shifted by 2 px, one empty: sequences × frames, and the bootstrap over sequences."""
    def build(tmp: Path) -> list[str]:
        rng = random.Random(1)
        gt, near, empty = [], [], []
        for s in range(1, n_seq + 1):
            for fr in range(1, 6):
                pts = [[round(rng.uniform(5, 630), 2), round(rng.uniform(5, 470), 2)] for _ in range(3)]
                gt.append({"sequence_id": s, "frame": fr, "num_objects": 3, "object_coords": pts})
                near.append({**gt[-1], "object_coords": [[x + 2, y] for x, y in pts]})
                empty.append({**gt[-1], "num_objects": 0, "object_coords": []})
        (tmp / "sgs").mkdir(exist_ok=True)
        (tmp / "sgs_gt.json").write_text(json.dumps(gt))
        (tmp / "sgs" / "near.json").write_text(json.dumps(near))
        (tmp / "sgs" / "empty.json").write_text(json.dumps(empty))
        return ["spotgeo", "leaderboard", "--ground-truth", str(tmp / "sgs_gt.json"), "--submissions",
                str(tmp / "sgs"), "--bootstrap", "100"]
    return build


# ---- QA ---------------------------------------------------------------------------------------
def _qa(n_themes: int, per: int = 1, *extra: str):
    def build(tmp: Path) -> list[str]:
        d = tmp / f"qa_{n_themes}_{per}"
        (d / "subs").mkdir(parents=True, exist_ok=True)
        rng = random.Random(0)
        gt = ["question_id,theme,paragraph_ids,answers"]
        subs: dict[str, list[str]] = {"A": [], "B": []}
        for t in range(n_themes):
            for j in range(per):
                gt.append(f'q{t}_{j},theme{t:06d},"[""p{t}""]","[""answer {t}""]"')
                for rows in subs.values():
                    rows.append(f"q{t}_{j},p{t if rng.random() < .7 else 0},answer {t if rng.random() < .6 else 'x'},"
                                f"{rng.uniform(50, 400):.1f}")
        (d / "gt.csv").write_text("\n".join(gt) + "\n")
        for team, rows in subs.items():
            (d / "subs" / f"{team}.csv").write_text("question_id,paragraph_id,answer,inference_ms\n" + "\n".join(rows)
                                                    + "\n")
        return ["qa", "leaderboard", "--ground-truth", str(d / "gt.csv"), "--submissions", str(d / "subs"), *extra]
    return build


# ---- the other families' multiplying dimensions ----------------------------------------------------
def _sr_groups(n_essays: int):
    """Every essay its own demographic group: groups × essays."""
    def build(tmp: Path) -> list[str]:
        rng = random.Random(2)
        gt, demo, sub = [HEADER.strip()], ["id,grp"], ["id,class,predictionstring,Effective,Ineffective"]
        for e in range(n_essays):
            gt.append(f"e{e},Lead,0 1 2 3 4,{'Effective' if e % 2 else 'Ineffective'}")
            demo.append(f"e{e},g{e}")
            p = rng.random()
            sub.append(f"e{e},Lead,0 1 2 3,{p:.3f},{1 - p:.3f}")
        (tmp / "grp_subs").mkdir(exist_ok=True)
        (tmp / "grp_gt.csv").write_text("\n".join(gt) + "\n")
        (tmp / "grp_demo.csv").write_text("\n".join(demo) + "\n")
        (tmp / "grp_subs" / "A.csv").write_text("\n".join(sub) + "\n")
        (tmp / "grp_subs" / "B.csv").write_text("\n".join(sub[:1] + sub[1::2]) + "\n")
        return ["shovel-ready", "leaderboard", "--ground-truth", str(tmp / "grp_gt.csv"), "--submissions",
                str(tmp / "grp_subs"), "--demographics", str(tmp / "grp_demo.csv"), "--attributes", "grp",
                "--bootstrap", "100"]
    return build


def _difficulty(n_samples: int, n_models: int):
    """Samples × models predictions, continuous splits (every sample its own weight)."""
    def build(tmp: Path) -> list[str]:
        rng = random.Random(3)
        samples = ["sample_id,label,bias"] + [f"{i},{i % 2},{rng.random():.4f}" for i in range(n_samples)]
        preds = ["model,sample_id,p0,p1,predicted"]
        for m in range(n_models):
            for i in range(n_samples):
                p = rng.random()
                preds.append(f"m{m},{i},{1 - p:.4f},{p:.4f},{int(p > 0.5)}")
        (tmp / "dif_samples.csv").write_text("\n".join(samples) + "\n")
        (tmp / "dif_preds.csv").write_text("\n".join(preds) + "\n")
        return ["difficulty", "leaderboard", "--samples", str(tmp / "dif_samples.csv"), "--predictions",
                str(tmp / "dif_preds.csv"), "--metric", "wsbias", "--ease-column", "bias", "--split-mode",
                "continuous", "--bootstrap", "100"]
    return build


# ---- issue 39: counts from users, teams², long and wide Custom tables ----------------------------
def _custom_wide(n_teams: int, n_units: int, *extra: str, present: float = 1.0, seed: int = 4):
    """A wide Custom results table (``present``: the share of cells with a value), then ``extra``."""
    def build(tmp: Path) -> list[str]:
        path = tmp / f"cu_wide_{n_teams}_{n_units}_{present}.csv"
        if not path.exists():
            rng = random.Random(seed)
            with path.open("w") as f:
                f.write("team," + ",".join(f"u{j}" for j in range(n_units)) + "\n")
                for t in range(n_teams):
                    cells = [f"{rng.random():.4f}" if j == t % n_units or rng.random() < present else ""
                             for j in range(n_units)]
                    f.write(f"t{t}," + ",".join(cells) + "\n")
        return ["custom", "leaderboard", "--results", str(path), *extra]
    return build


def _custom_long(n_teams: int, n_units: int, *extra: str):
    """A long Custom results table: ``team, unit, value``, every team on every unit."""
    def build(tmp: Path) -> list[str]:
        path = tmp / f"cu_long_{n_teams}_{n_units}.csv"
        if not path.exists():
            rng = random.Random(5)
            with path.open("w") as f:
                f.write("team,unit,value\n")
                for t in range(n_teams):
                    f.write("".join(f"t{t},u{u},{rng.random():.4f}\n" for u in range(n_units)))
        return ["custom", "leaderboard", "--results", str(path), *extra]
    return build


def _workers(tmp: Path) -> list[str]:
    (tmp / "wk").mkdir(exist_ok=True)
    (tmp / "wk_gt.csv").write_text(HEADER + "e1,Lead,0 1 2,Effective\ne1,Claim,3 4,Ineffective\ne2,Lead,0 1,Effective\n")
    for team in ("A", "B"):
        (tmp / "wk" / f"{team}.csv").write_text(SUB + "e1,Claim,3 4,0.4,0.6\ne2,Lead,0 1,0.7,0.3\n")
    return ["leaderboard", "--ground-truth", str(tmp / "wk_gt.csv"), "--submissions", str(tmp / "wk"),
            "--workers", "100000"]


def _shakeup(*extra: str):
    def build(tmp: Path) -> list[str]:
        args = _custom_wide(14, 40)(tmp)
        return [args[0], "shakeup", *args[2:], "--across", "kemeny", *extra]
    return build


def issue39_cases() -> dict[str, tuple[str, Callable[[Path], list[str]]]]:
    """Issue 39's reproducers of item 1 (a count of workers), 6 (teams², long and wide tables)
    and 9 (exact Kemeny in shake-ups)."""
    return {
        "--workers 100000 on two 3-row submissions": ("cli", _workers),
        "custom 12,000 teams x 1 unit, Copeland": ("cli", _custom_wide(12_000, 1, "--across", "copeland")),
        "custom 12,000 teams x 1 unit, Kemeny": ("cli", _custom_wide(12_000, 1, "--across", "kemeny")),
        "custom 10,000 teams x 1,000 sparse units, Copeland": ("cli", _custom_wide(10_000, 999, "--across", "copeland",
                                                                                    present=0.02)),
        "custom 2,000 teams x 200 units, bootstrap 1000": ("cli", _custom_wide(2_000, 200, "--bootstrap", "1000")),
        "custom long table, 1 M rows": ("cli", _custom_long(1_000, 1_000)),
        "custom long table, 3 M rows": ("cli", _custom_long(3_000, 1_000)),
        "custom long table, 8 M rows": ("cli", _custom_long(8_000, 1_000)),
        "custom 5,000 teams x 999 units, wide": ("cli", _custom_wide(5_000, 999)),
        "custom 8,000 teams x 999 units, wide": ("cli", _custom_wide(8_000, 999)),
        "custom 20,001 teams x 999 units, over the cell limit": ("cli", _custom_wide(20_001, 999)),
        "custom 14 teams x 40 units, Kemeny shake-up 1,000 splits": ("cli", _shakeup()),
        "custom 14 teams x 40 units, Kemeny shake-up --sweep --target winner": (
            "cli", _shakeup("--sweep", "--target", "winner")),
    }


def cases() -> dict[str, tuple[str, Callable[[Path], list[str]]]]:
    """name -> (runner: "cli" or "read", build(tmp) -> arguments)."""
    bad_first = {"frame": 1, "num_objects": 0, "object_coords": []}
    return {
        "50 MB cell, a valid range": ("cli", lambda t: _sr(t, HEADER + "e1,Lead," + " ".join(map(str, range(7_000_000)))
                                                          + ",Effective\n")),
        "50 MB cell, junk tokens": ("cli", lambda t: _sr(t, HEADER + "e1,Lead,0 " + "x " * 25_000_000 + ",Effective\n")),
        **{f"{n:,}-column header": ("cli", _wide(n)) for n in (20_000, 100_000, 1_000_000)},
        "NBSP inside a predictionstring": ("cli", lambda t: _sr(t, HEADER + "e1,Lead,0\u00a01 2,Effective\n")),
        # issue 30's table
        "spotGEO 100 MB, entry 1 lacks sequence_id": ("cli", lambda t: _sg_cli(
            t, _sg_file(t / "sg_bad_first.json", 100, first=bad_first))),
        "spotGEO 100 MB of arrays, not objects": ("cli", lambda t: _sg_cli(
            t, _sg_file(t / "sg_arrays.json", 100, as_arrays=True))),
        "spotGEO 100 MB valid, read only": ("read", lambda t: [str(_sg_file(t / "sg_valid.json", 100))]),
        "QA 5,000 themes": ("cli", _qa(5_000)),
        "QA 20,000 themes": ("cli", _qa(20_000)),
        "QA 100,000 themes, one question each": ("cli", _qa(100_000)),
        # issue 28's JSON limits
        "spotGEO JSON nested 100,000 deep": ("cli", lambda t: _sg_cli(t, _text(t / "deep.json", "[" * 100_000
                                                                                + "]" * 100_000))),
        "spotGEO JSON, a 5,000-digit integer": ("cli", lambda t: _sg_cli(t, _text(t / "digits.json",
                                                                                  "[" + "9" * 5000 + "]"))),
        # the audit of the multiplying dimensions (all with --bootstrap 100)
        "QA 20,000 themes x bootstrap": ("cli", _qa(20_000, 1, "--bootstrap", "100", "--weight-draws", "100")),
        "QA 100 themes x 100,000 questions": ("cli", _qa(100, 1000)),
        "shovel-ready 20,000 essays, 20,000 groups": ("cli", _sr_groups(20_000)),
        "difficulty 100,000 samples x 10 models": ("cli", _difficulty(100_000, 10)),
        "spotGEO 20,000 sequences x 5 frames": ("cli", _sg_sequences(20_000)),
        **issue39_cases(),
    }


def _rss_mib(pid: int) -> float:
    """The resident memory of ``pid`` and its child processes (a pool's workers), in MiB."""
    total = 0.0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            total += next(int(ln.split()[1]) for ln in open(f"/proc/{p}/status") if ln.startswith("VmRSS")) / 1024
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo += [int(c) for c in f.read().split()]
        except (OSError, StopIteration, ValueError):
            continue
    return total


def _watched(cmd: list[str], cwd: str, timeout: float, max_mib: float):
    """Run ``cmd``; stop it (and its children) past ``timeout`` seconds or ``max_mib`` of resident
    memory: ``(why it was stopped or "", the finished process)``."""
    import os
    import signal
    import time

    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    peak = 0.0
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        import threading

        pumps = [threading.Thread(target=lambda src, dst: dst.write(src.read()), args=(proc.stdout, out)),
                 threading.Thread(target=lambda src, dst: dst.write(src.read()), args=(proc.stderr, err))]
        for t in pumps:
            t.start()
        why = ""
        while proc.poll() is None:
            peak = max(peak, _rss_mib(proc.pid))
            elapsed = time.perf_counter() - t0
            if elapsed > timeout or peak > max_mib:
                why = (f"over {timeout:.0f} s (stopped; {peak:.0f} MiB)" if elapsed > timeout
                       else f"over {max_mib:.0f} MiB after {elapsed:.1f} s (stopped)")
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                break
            time.sleep(0.1)
        for t in pumps:
            t.join()
        out.seek(0)
        err.seek(0)
        proc.stdout, proc.stderr = out.read(), err.read()
    return why, proc


def _text(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks hostile", description=__doc__.splitlines()[0])
    ap.add_argument("--repo", default=str(ROOT), help="the checkout whose command line runs (default: this one)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds before a case is stopped (default 600)")
    ap.add_argument("--only", default="", help="run only the cases whose name contains this text")
    ap.add_argument("--list", action="store_true", help="list the cases and stop")
    ap.add_argument("--max-mib", type=float, default=3072, help="stop a case whose resident memory passes this "
                    "(MiB, default 3072): the machine is not taken down by a 'before' run")
    args = ap.parse_args(argv)
    selected = {k: v for k, v in cases().items() if args.only in k}
    if args.list:
        print("\n".join(selected))
        return 0
    print(f"command line of {args.repo}")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for name, (runner, build) in selected.items():
            cmd = [sys.executable, "-c", RUN if runner == "cli" else READ, *build(tmp)]
            stopped, proc = _watched(cmd, args.repo, args.timeout, args.max_mib)
            if stopped:
                print(f"{name:44s} {stopped}")
            else:
                try:
                    stats = json.loads(proc.stdout.strip().splitlines()[-1])
                    answer = stats.get("note") or next((ln for ln in proc.stderr.splitlines()
                                                        if ln.startswith("error")), "(no error)")
                    print(f"{name:44s} {stats['seconds']:8.2f} s {stats['peak_mib']:7.0f} MiB  exit {stats['code']}  "
                          f"{answer[:120]}")
                except (json.JSONDecodeError, IndexError):
                    print(f"{name:44s} no result: {(proc.stderr.strip().splitlines() or ['?'])[-1][:120]}")
            sys.stdout.flush()
    return 0
