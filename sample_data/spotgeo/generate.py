"""Generate the synthetic spotGEO sample competition (seeded, byte-reproducible).

    python -m sample_data.spotgeo.generate                  # rewrite the committed sample
    python -m sample_data.spotgeo.generate --out DIR --sequences 5120 --teams 20   # benchmark scale

Sequences of 5 frames of 640 × 480 pixels; objects move on straight lines (a start point
and a constant velocity; an object outside the frame is not in it) and carry a brightness
(a signal-to-noise ratio) in the ground truth's extra key ``object_brightness``. Every team
is a simulated detector: it finds each object in each frame with a probability that rises
with brightness, puts its point some distance off, and adds false points. The story teams
(``TEAMS``) are described in ``teams.json`` and docs/spotgeo.md.
"""

from __future__ import annotations

import argparse
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np

W, H, FRAMES = 640, 480, 5
X_MAX, Y_MAX = W - 0.5, H - 0.5
MAX_OBJECTS = 30
HERE = Path(__file__).resolve().parent
SEED = 8


@dataclass(frozen=True)
class Team:
    """A simulated detector. ``b50``: brightness found half of the time; ``loc``: how its
    points sit around the truth; ``fp``: false points per frame; ``fp_margin``: how far from
    every object its false points stay; ``shared``: teams with the same value share one
    detection draw (the same objects found, the same false alarms)."""

    name: str
    profile: str
    b50: float
    loc: str
    fp: float
    fp_margin: float = 0.0
    shared: str = ""


TEAMS = (
    Team("sharp-eye", "The lab's baseline detector with a careful sub-pixel refinement: its points sit about "
         "1.6 px from the truth. Same detections as four-off and near-enough, so the MSE decides between them.",
         2.6, "gauss1.6", 0.15, 25.0, "lab"),
    Team("four-off", "The same detector with a calibration bug: every point is shifted by 4 px. Fine while "
         "epsilon is above 4 px, hurt as epsilon shrinks, and gone below tau = 4.", 2.6, "offset4", 0.15, 25.0,
         "lab"),
    Team("near-enough", "The same detector with a coarse localisation: most points within 1-2 px, but a third "
         "of them 7-9 px off. It drops out as tau shrinks below 9 px, and the rule sets disagree about it "
         "(d squared punishes its far points much more than d).", 2.6, "coarse9", 0.15, 25.0, "lab"),
    Team("trigger-happy", "Finds even faint objects, but sprays false points (about 1.2 per frame) and "
         "places faint objects loosely.", 1.8, "faintnoisy", 1.2),
    Team("cautious", "Reports only what it is sure of: almost no false points, but it misses most faint "
         "objects.", 4.5, "gauss1.0", 0.02),
    Team("steady", "A solid independent entry: a little less sensitive than the lab's detector and a few more "
         "false points.", 3.0, "gauss1.3", 0.3),
    Team("first-light", "A first entry: misses faint objects, imprecise points, some false alarms.", 3.8,
         "gauss2.2", 0.6),
)


def _clip(xy: np.ndarray) -> np.ndarray:
    return np.clip(xy, [-0.5, -0.5], [X_MAX, Y_MAX])


def make_truth(rng: np.random.Generator, n_seq: int, crowded: float = 0.05) -> list[dict]:
    """Per sequence: objects with a start, a velocity and a brightness; per frame the visible
    objects. A share ``crowded`` of the sequences are crowded fields of 20-30 objects that
    stay in view all 5 frames; of the others one in nine is empty and the rest hold 1 +
    Poisson(3) objects that may cross the border. Returns one dict per sequence: ``frames``
    (5 lists of (x, y, brightness, id))."""
    seqs = []
    for k in range(1, n_seq + 1):
        u = rng.random()
        busy = u < crowded
        if busy:
            n = int(rng.integers(20, MAX_OBJECTS + 1))
        elif rng.random() < 0.1:
            n = 0
        else:
            n = min(1 + int(rng.poisson(3.0)), MAX_OBJECTS)
        start = np.c_[rng.uniform(-40, W + 40, n), rng.uniform(-40, H + 40, n)]
        ang = rng.uniform(0, 2 * np.pi, n)
        speed = rng.uniform(3, 25, n)
        vel = np.c_[np.cos(ang), np.sin(ang)] * speed[:, None]
        if busy:  # start in view, and turn back an object that would leave
            start = np.c_[rng.uniform(0, X_MAX, n), rng.uniform(0, Y_MAX, n)]
            end = start + 4 * vel
            out = (end[:, 0] < 0) | (end[:, 0] > X_MAX) | (end[:, 1] < 0) | (end[:, 1] > Y_MAX)
            vel[out] *= -1
            end = start + 4 * vel
            out = (end[:, 0] < 0) | (end[:, 0] > X_MAX) | (end[:, 1] < 0) | (end[:, 1] > Y_MAX)
            vel[out] = 0.0
        bright = np.exp(rng.normal(np.log(4.0), 0.6, n))
        frames = []
        for t in range(FRAMES):
            pos = np.round(start + vel * t, 2)
            vis = (pos[:, 0] >= -0.5) & (pos[:, 0] <= X_MAX) & (pos[:, 1] >= -0.5) & (pos[:, 1] <= Y_MAX)
            jitter = np.exp(rng.normal(0, 0.1, n))
            b = np.round(bright * jitter, 1)
            frames.append([(float(pos[j, 0]), float(pos[j, 1]), float(b[j]), j) for j in np.flatnonzero(vis)])
        seqs.append({"sequence_id": k, "frames": frames})
    return seqs


def _offsets(rng: np.random.Generator, loc: str, bright: np.ndarray) -> np.ndarray:
    """Where a team's points sit relative to the truth (n × 2)."""
    n = len(bright)
    if loc.startswith("gauss"):
        s = float(loc[5:])
        off = rng.normal(0, s, (n, 2))
        far = np.hypot(off[:, 0], off[:, 1]) > 9.0  # never beyond 9 px: the lab's twins tie at tau = 10
        off[far] *= (8.9 / np.hypot(off[far, 0], off[far, 1]))[:, None]
        return off
    if loc == "offset4":
        return np.array([2.4, 3.2]) + np.clip(rng.normal(0, 0.15, (n, 2)), -0.25, 0.25)
    if loc == "coarse9":
        off = np.clip(rng.normal(0, 1.0, (n, 2)), -2.0, 2.0)
        far = rng.random(n) < 1 / 3
        r = rng.uniform(7.0, 9.0, int(far.sum()))
        a = rng.uniform(0, 2 * np.pi, int(far.sum()))
        off[far] = np.c_[r * np.cos(a), r * np.sin(a)]
        return off
    if loc == "faintnoisy":
        s = 1.2 + 6.0 / np.maximum(bright, 0.5)
        return rng.normal(0, 1, (n, 2)) * s[:, None]
    raise ValueError(f"expected a known localisation, got {loc!r}")


def _detections(rng: np.random.Generator, team: Team, truth: list[dict]):
    """Per sequence and frame: the found objects' indices and the false points."""
    out = []
    for seq in truth:
        per_frame = []
        for objs in seq["frames"]:
            b = np.array([o[2] for o in objs])
            p = 1 / (1 + np.exp(-(b - team.b50) / 0.5)) if len(objs) else np.zeros(0)
            found = np.flatnonzero(rng.random(len(objs)) < p)
            nfp = int(rng.poisson(team.fp))
            fps = []
            gxy = np.array([(o[0], o[1]) for o in objs]).reshape(-1, 2)
            tries = 0
            while len(fps) < nfp and tries < 50 * (nfp + 1):
                tries += 1
                pt = np.array([rng.uniform(-0.5, X_MAX), rng.uniform(-0.5, Y_MAX)])
                if team.fp_margin and len(gxy) and np.hypot(*(gxy - pt).T).min() < team.fp_margin:
                    continue
                fps.append(pt)
            per_frame.append((found, np.array(fps).reshape(-1, 2)))
        out.append(per_frame)
    return out


def make_submission(rng: np.random.Generator, team: Team, truth: list[dict], dets) -> list[dict]:
    entries = []
    for seq, per_frame in zip(truth, dets, strict=True):
        for t, (objs, (found, fps)) in enumerate(zip(seq["frames"], per_frame, strict=True)):
            gxy = np.array([(o[0], o[1]) for o in objs]).reshape(-1, 2)[found]
            b = np.array([o[2] for o in objs])[found] if len(found) else np.zeros(0)
            pts = gxy + _offsets(rng, team.loc, b)
            if team.loc == "offset4" and len(fps):
                fps = fps + np.array([2.4, 3.2])
            allp = _clip(np.round(np.concatenate([pts, fps]), 2))[:MAX_OBJECTS]
            entries.append({"sequence_id": seq["sequence_id"], "frame": t + 1, "num_objects": len(allp),
                            "object_coords": [[float(x), float(y)] for x, y in allp]})
    return entries


def truth_entries(truth: list[dict]) -> list[dict]:
    return [{"sequence_id": s["sequence_id"], "frame": t + 1, "num_objects": len(objs),
             "object_coords": [[o[0], o[1]] for o in objs], "object_brightness": [o[2] for o in objs]}
            for s in truth for t, objs in enumerate(s["frames"])]


def dump(entries: list[dict]) -> str:
    """One entry per line: readable, diff-friendly, byte-stable."""
    return "[\n" + ",\n".join(json.dumps(e) for e in entries) + "\n]\n"


def teams_for(n: int) -> list[Team]:
    """The story teams, then variants of them (for the benchmark's 20 submissions)."""
    out = list(TEAMS[:n])
    i = 0
    while len(out) < n:
        base = TEAMS[i % len(TEAMS)]
        out.append(Team(f"{base.name}-{len(out) // len(TEAMS) + 1}", base.profile, base.b50, base.loc, base.fp,
                        base.fp_margin, f"{base.shared}{len(out)}" if base.shared else ""))
        i += 1
    return out


def generate(out: Path, *, sequences: int = 300, teams: int = len(TEAMS), seed: int = SEED,
             crowded: float = 0.05) -> None:
    rng = np.random.default_rng(seed)
    truth = make_truth(rng, sequences, crowded)
    sub_dir = out / "submissions"
    if sub_dir.exists():
        shutil.rmtree(sub_dir)
    sub_dir.mkdir(parents=True)
    (out / "ground_truth.json").write_text(dump(truth_entries(truth)), encoding="utf-8")
    shared: dict[str, list] = {}
    chosen = teams_for(teams)
    for i, team in enumerate(chosen):
        trng = np.random.default_rng([seed, 1 + i])
        if team.shared:
            if team.shared not in shared:
                shared[team.shared] = _detections(np.random.default_rng([seed, 1000, len(shared)]), team, truth)
            dets = shared[team.shared]
        else:
            dets = _detections(trng, team, truth)
        entries = make_submission(trng, team, truth, dets)
        (sub_dir / f"{team.name}.json").write_text(dump(entries), encoding="utf-8")
    if teams <= len(TEAMS):
        profiles = {t.name: t.profile for t in chosen}
        (out / "teams.json").write_text(json.dumps(profiles, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=HERE, help="output folder (default: the committed sample)")
    ap.add_argument("--sequences", type=int, default=300, help="sequences of 5 frames (default 300)")
    ap.add_argument("--teams", type=int, default=len(TEAMS), help=f"submissions (default {len(TEAMS)})")
    ap.add_argument("--seed", type=int, default=SEED, help=f"random seed (default {SEED})")
    ap.add_argument("--crowded", type=float, default=0.05,
                    help="share of crowded sequences, 20-30 objects in view in every frame (default 0.05)")
    args = ap.parse_args(argv)
    generate(args.out, sequences=args.sequences, teams=args.teams, seed=args.seed, crowded=args.crowded)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
