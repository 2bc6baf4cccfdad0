"""Random small spotGEO competitions for the reference comparison.

Coordinates lie on a 1/64-pixel grid (exact in binary, so an offset of exactly τ or ε is
exactly that distance) and are otherwise random, so two different matchings practically
never tie. Points are crowded around a few centres so that frames have real conflicts;
some predictions are planted exactly τ or ε (or a 3-4-5 triangle of τ) from an object; some
submissions are a jittered copy of another (equal counts, so 1 − F1 ties and MSE decides)
or an exact copy (a shared rank).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

GRID = 64


@dataclass
class RandomCompetition:
    ground_truth: list[dict]
    submissions: dict[str, list[dict]]
    params: list[dict]


def _coord(rng: random.Random, lo: float, hi: float) -> float:
    return round(rng.uniform(lo, hi) * GRID) / GRID


def _clip(v: float, hi: float) -> float:
    return min(max(v, -0.5), hi)


def _point_near(rng, c, spread):
    return (_clip(_coord(rng, c[0] - spread, c[0] + spread), 639.5),
            _clip(_coord(rng, c[1] - spread, c[1] + spread), 479.5))


def random_competition(seed: int, *, max_points: int = 5) -> RandomCompetition:
    rng = random.Random(seed)
    tau = rng.choice([10.0, 10.0, 7.5, 12.5, 5.0, 20.0])
    eps = rng.choice([0.0, 3.0, 2.5, tau / 2, tau])
    seqs = rng.sample(range(1, 10000), rng.randint(1, 4))
    gt_entries, keys = [], []
    centres = {}
    for s in seqs:
        frames = sorted(rng.sample(range(1, 6), rng.randint(1, 5)))
        for f in frames:
            c = (rng.uniform(20, 620), rng.uniform(20, 460))
            centres[(s, f)] = c
            spread = rng.choice([8.0, 15.0, 30.0, 300.0])
            n = rng.randint(0, max_points)
            objs = [_point_near(rng, c, spread) for _ in range(n)]
            gt_entries.append({"sequence_id": s, "frame": f, "num_objects": n, "object_coords": [list(p) for p in objs]})
            keys.append((s, f))
    rng.shuffle(gt_entries)
    gt = {(e["sequence_id"], e["frame"]): [tuple(p) for p in e["object_coords"]] for e in gt_entries}
    subs: dict[str, list[dict]] = {}
    n_subs = rng.randint(2, 5)
    for k in range(n_subs):
        name = f"team{k}-{rng.randint(0, 99)}"
        if subs and rng.random() < 0.35:  # a jittered or exact copy of an earlier submission
            src = rng.choice(list(subs.values()))
            jitter = rng.choice([0.0, 0.5, 2.0])
            entries = []
            for e in src:
                pts = [[_clip(p[0] + round(rng.uniform(-jitter, jitter) * GRID) / GRID, 639.5),
                        _clip(p[1] + round(rng.uniform(-jitter, jitter) * GRID) / GRID, 479.5)]
                       for p in e["object_coords"]]
                entries.append({**e, "object_coords": pts})
            subs[name] = entries
            continue
        detect = rng.uniform(0.3, 1.0)
        err = rng.choice([1.0, 4.0, tau * 0.9, tau * 1.5])
        entries = []
        for key in keys:
            pts = []
            for o in gt[key]:
                if rng.random() < detect:
                    u = rng.random()
                    if u < 0.12:  # planted: exactly tau, epsilon or a 3-4-5 triangle of tau away
                        dx, dy = rng.choice([(tau, 0.0), (0.0, -tau), (0.6 * tau, 0.8 * tau), (eps, 0.0),
                                             (0.0, eps)])
                        q = (o[0] + dx, o[1] + dy)
                        if -0.5 <= q[0] <= 639.5 and -0.5 <= q[1] <= 479.5:
                            pts.append(q)
                            continue
                    pts.append(_point_near(rng, o, err))
            for _ in range(rng.randint(0, 2)):
                pts.append(_point_near(rng, centres[key], rng.choice([10.0, 40.0, 300.0])))
            rng.shuffle(pts)
            pts = pts[:max_points + 1]
            entries.append({"sequence_id": key[0], "frame": key[1], "num_objects": len(pts),
                            "object_coords": [list(p) for p in pts]})
        rng.shuffle(entries)
        subs[name] = entries
    params = [{"tau": tau, "epsilon": eps, "rules": r} for r in ("seed", "starter-kit")]
    tau2 = rng.choice([3.0, 6.0, 15.0, 30.0])
    eps2 = min(eps, tau2) if rng.random() < 0.5 else 0.0
    params.append({"tau": tau2, "epsilon": eps2, "rules": rng.choice(["seed", "starter-kit"])})
    return RandomCompetition(gt_entries, subs, params)
