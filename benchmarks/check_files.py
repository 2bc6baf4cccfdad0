"""The Data page's "check every file" after a bad upload, measured:
``python -m benchmarks check-files [--repo DIR] [--spotgeo-k 60] [--qa-k 20]``.

Each case is the family's sample ground truth with K good submissions (the sample's files,
cycled, under new names) and one bad file first (``--repeat R``: every file's sequences or
questions R times, under new ids, for a larger competition), checked as the Data page does
(``scoring.core.validate.check_inputs`` on in-memory uploads). The engine of the checkout in
``--repo`` (default: this one) runs in a fresh process, so ``--repo`` pointed at an older
checkout gives the "before" figures. Prints, per case, the seconds of the check and the
problems found, and beside them the seconds of a load of the good files alone (what a check
of one bad file among them cannot beat by much).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN = """
import csv, io, json, sys, time
from pathlib import Path
from scoring.core.validate import check_inputs
from scoring.registry import get

family, folder, suffix, k, bad, repeat = (sys.argv[1], Path(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5],
                                          int(sys.argv[6]))

def named(name, data):
    f = io.BytesIO(data)
    f.name = name
    return f

def scaled(path):
    # the sequences (spotGEO) or questions (QA) of a file, repeat times, under new ids
    if repeat == 1:
        return path.read_bytes()
    if suffix == ".json":
        entries = json.loads(path.read_text(encoding="utf-8"))
        step = 1 + max(e["sequence_id"] for e in entries)
        return json.dumps([{**e, "sequence_id": e["sequence_id"] + r * step} for r in range(repeat)
                           for e in entries]).encode()
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(rows[0])
    w.writerows([[f"{row[0]}-r{r}", *row[1:]] for r in range(repeat) for row in rows[1:]])
    return out.getvalue().encode()

files = [scaled(f) for f in sorted((folder / "submissions").glob("*" + suffix))]
subs = [("bad", named("bad" + suffix, bad.encode()))]
subs += [(f"t{i:04d}", named(f"t{i:04d}{suffix}", files[i % len(files)])) for i in range(k)]
gt = folder / ("ground_truth" + suffix)
first = sorted((folder / "submissions").glob("*" + suffix))[0]
get(family).load(ground_truth=named(gt.name, gt.read_bytes()),  # the imports, untimed
                 submissions=[("w", named(first.name, first.read_bytes()))])
t0 = time.perf_counter()
found, more = check_inputs(get(family), ground_truth=named(gt.name, scaled(gt)), submissions=subs)
seconds = time.perf_counter() - t0
t0 = time.perf_counter()
get(family).load(ground_truth=named(gt.name, scaled(gt)), submissions=subs[1:])
print(json.dumps({"seconds": seconds, "load": time.perf_counter() - t0, "problems": [str(e) for e in found]}))
"""
BAD = {"spotgeo": '{"not": "a list"}',
       "qa": "question_id,paragraph_id,answer,inference_ms\nast-1-1,astronomy-1,x,fast\n"}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", type=Path, default=ROOT, help="the checkout whose engine runs (default: this one)")
    ap.add_argument("--spotgeo-k", type=int, default=60, help="good spotGEO submissions (default 60)")
    ap.add_argument("--qa-k", type=int, default=20, help="good QA submissions (default 20)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="each file's sequences or questions this many times, under new ids (default 1)")
    args = ap.parse_args(argv)
    repo = args.repo.resolve()
    for family, suffix, k in (("spotgeo", ".json", args.spotgeo_k), ("qa", ".csv", args.qa_k)):
        folder = repo / "sample_data" / family
        out = subprocess.run([sys.executable, "-c", RUN, family, str(folder), suffix, str(k), BAD[family],
                              str(args.repeat)],
                             cwd=repo, capture_output=True, text=True, check=True)
        got = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{family:8s} K={k:<5d} + 1 bad, x{args.repeat}: check {got['seconds']:7.2f} s "
              f"(a load of the K good files alone: {got['load']:.2f} s)  problems: {got['problems']}")
    return 0
