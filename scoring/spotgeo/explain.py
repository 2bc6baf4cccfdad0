"""What the pages show, as pure functions of a :class:`~.scorer.Scorer` and the parameters:
one frame explained (points, matches, labels), per-object and per-prediction outcomes, error
breakdowns by brightness and position, each sequence's share of the error, and the four
differences between the rule sets with live examples and their effect on the ranking.

Every function reads the scorer's own matching (the one the leaderboard used), so a page
never shows a different answer from the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..core.errors import InputError
from .matching import match_frame
from .rules import DIFFERENCES, SEED, STARTER_KIT, penalty, ruleset
from .scorer import Scorer, final_ranks


def _frame_index(scorer: Scorer, sequence_id: int, frame: int) -> int:
    fr = scorer.comp.gt.frames
    key = int(sequence_id) * 8 + int(frame)
    i = int(np.searchsorted(fr.keys, key))
    if i >= fr.n_frames or fr.keys[i] != key:
        raise InputError("frame", None, f"no frame {frame} of sequence_id {sequence_id} in the ground truth")
    return i


def _nullable(values: np.ndarray, keep: np.ndarray) -> pd.arrays.IntegerArray:
    """Integers with <NA> where ``keep`` is False."""
    return pd.arrays.IntegerArray(np.where(keep, values, 0).astype(np.int64), ~keep)


def _team(scorer: Scorer, team: str) -> int:
    if team not in scorer.names:
        raise InputError("team", None, f"expected one of {', '.join(scorer.names)}, got {team!r}")
    return scorer.names.index(team)


def _outcomes(scorer: Scorer, i: int, p: dict):
    """Per object and per prediction of submission ``i``: the matched partner (-1) and d."""
    sub, gt = scorer.comp.submissions[i], scorer.comp.gt
    ids = scorer.matched(i, p["tau"], p["rules"])
    obj_pred = np.full(gt.n_points, -1, dtype=np.int64)
    obj_d = np.full(gt.n_points, np.nan)
    pred_obj = np.full(sub.n_points, -1, dtype=np.int64)
    obj_pred[sub.g[ids]] = sub.p[ids]
    obj_d[sub.g[ids]] = sub.d[ids]
    pred_obj[sub.p[ids]] = sub.g[ids]
    return obj_pred, obj_d, pred_obj


def explain_frame(scorer: Scorer, team: str, sequence_id: int, frame: int, p: Mapping[str, Any] | None = None, /,
                  **params) -> dict:
    """One frame of one team, as the Frames page draws it.

    Returns ``objects`` (object, x, y, [brightness], label TP/FN, prediction, d),
    ``predictions`` (prediction, x, y, label TP/FP, object, d, penalty), ``matches`` (the
    true-positive pairs: prediction, object, d, penalty), ``candidates`` (every pair within
    τ, with ``matched``) — objects and predictions numbered from 1 in file order — and
    ``summary`` (tp, fp, fn, sse and the parameters). Parameters: ``tau, epsilon, rules``.
    """
    p = scorer.check(p, **params)
    rs = ruleset(p["rules"])
    i, f = _team(scorer, team), _frame_index(scorer, sequence_id, frame)
    sub, gt = scorer.comp.submissions[i], scorer.comp.gt
    g0, g1 = int(gt.frames.start[f]), int(gt.frames.start[f + 1])
    p0, p1 = int(sub.start[f]), int(sub.start[f + 1])
    obj_pred, obj_d, pred_obj = _outcomes(scorer, i, p)
    op, od = obj_pred[g0:g1], obj_d[g0:g1]
    objects = pd.DataFrame({"object": np.arange(1, g1 - g0 + 1), "x": gt.frames.xy[g0:g1, 0],
                            "y": gt.frames.xy[g0:g1, 1]})
    if gt.brightness is not None:
        objects["brightness"] = gt.brightness[g0:g1]
    objects["label"] = np.where(op >= 0, "TP", "FN")
    objects["prediction"] = _nullable(op - p0 + 1, op >= 0)
    objects["d"] = od
    po = pred_obj[p0:p1]
    pd_ = np.full(len(po), np.nan)  # (a ground truth may have no object at all)
    pd_[po >= 0] = obj_d[po[po >= 0]]
    predictions = pd.DataFrame({"prediction": np.arange(1, p1 - p0 + 1), "x": sub.xy[p0:p1, 0],
                                "y": sub.xy[p0:p1, 1], "label": np.where(po >= 0, "TP", "FP")})
    predictions["object"] = _nullable(po - g0 + 1, po >= 0)
    predictions["d"] = pd_
    pen = np.where(po >= 0, penalty(np.nan_to_num(pd_), tau=p["tau"], epsilon=p["epsilon"], rules=rs), np.nan)
    predictions["penalty"] = pen
    tp_rows = predictions[predictions["label"] == "TP"]
    matches = pd.DataFrame({"prediction": tp_rows["prediction"].astype(int).to_numpy(),
                            "object": tp_rows["object"].astype(int).to_numpy(), "d": tp_rows["d"].to_numpy(),
                            "penalty": tp_rows["penalty"].to_numpy()})
    n = int(np.searchsorted(sub.d, p["tau"], side="right"))
    in_f = np.flatnonzero(sub.point_frame[sub.p[:n]] == f)
    cand_p, cand_g = sub.p[in_f], sub.g[in_f]
    candidates = pd.DataFrame({"prediction": cand_p - p0 + 1, "object": cand_g - g0 + 1, "d": sub.d[in_f],
                               "matched": obj_pred[cand_g] == cand_p})
    tp = len(matches)
    fp, fn = (p1 - p0) - tp, (g1 - g0) - tp
    sse = float(np.nansum(matches["penalty"]) + p["tau"] ** 2 * (fp + fn))
    summary = {"team": team, "sequence_id": int(sequence_id), "frame": int(frame), "tp": tp, "fp": fp, "fn": fn,
               "sse": sse, **p}
    return {"objects": objects, "predictions": predictions, "matches": matches, "candidates": candidates,
            "summary": summary}


def object_outcomes(scorer: Scorer, team: str, p: Mapping[str, Any] | None = None, /,
                    **params) -> pd.DataFrame:
    """Every ground-truth object with its outcome for one team: ``sequence_id, frame, object,
    x, y, [brightness], outcome (TP/FN), d``."""
    p = scorer.check(p, **params)
    i = _team(scorer, team)
    gt = scorer.comp.gt
    obj_pred, obj_d, _ = _outcomes(scorer, i, p)
    fr = gt.point_frame
    df = pd.DataFrame({"sequence_id": gt.frames.seq[fr], "frame": gt.frames.frame[fr],
                       "object": np.arange(gt.n_points) - gt.frames.start[fr] + 1,
                       "x": gt.frames.xy[:, 0], "y": gt.frames.xy[:, 1]})
    if gt.brightness is not None:
        df["brightness"] = gt.brightness
    df["outcome"] = np.where(obj_pred >= 0, "TP", "FN")
    df["d"] = obj_d
    return df


def prediction_outcomes(scorer: Scorer, team: str, p: Mapping[str, Any] | None = None, /,
                        **params) -> pd.DataFrame:
    """Every prediction of one team: ``sequence_id, frame, prediction, x, y, outcome (TP/FP),
    d, penalty`` (penalty = π(d) of a true positive under the rule set)."""
    p = scorer.check(p, **params)
    i = _team(scorer, team)
    sub, gt = scorer.comp.submissions[i], scorer.comp.gt
    _, obj_d, pred_obj = _outcomes(scorer, i, p)
    fr = sub.point_frame
    tp = pred_obj >= 0
    d = np.full(sub.n_points, np.nan)  # (a ground truth may have no object at all)
    d[tp] = obj_d[pred_obj[tp]]
    pen = np.where(tp, penalty(np.nan_to_num(d), tau=p["tau"], epsilon=p["epsilon"], rules=ruleset(p["rules"])),
                   np.nan)
    return pd.DataFrame({"sequence_id": gt.frames.seq[fr], "frame": gt.frames.frame[fr],
                         "prediction": np.arange(sub.n_points) - sub.start[fr] + 1, "x": sub.xy[:, 0],
                         "y": sub.xy[:, 1], "outcome": np.where(tp, "TP", "FP"), "d": d, "penalty": pen})


def fn_by_brightness(scorer: Scorer, team: str, p: Mapping[str, Any] | None = None, /,
                     *, bins=None, **params) -> pd.DataFrame:
    """Objects, TP, FN and recall per brightness bin (``bins``: edges; default quartiles).
    Needs a ground truth with ``object_brightness``."""
    df = object_outcomes(scorer, team, p, **params)
    if "brightness" not in df:
        raise InputError("brightness", None, "the ground truth has no object_brightness")
    b = df["brightness"].to_numpy()
    edges = np.unique(np.quantile(b, [0, 0.25, 0.5, 0.75, 1])) if bins is None else np.asarray(bins, dtype=float)
    cut = pd.cut(df["brightness"], edges, include_lowest=True)
    g = df.assign(tp=df["outcome"] == "TP", fn=df["outcome"] == "FN", bin=cut).groupby("bin", observed=False)
    out = pd.DataFrame({"objects": g.size(), "tp": g["tp"].sum(), "fn": g["fn"].sum()}).reset_index()
    out["recall"] = np.divide(out["tp"], out["objects"], out=np.zeros(len(out)), where=out["objects"] > 0)
    out["bin"] = out["bin"].astype(str)
    return out


def errors_by_position(scorer: Scorer, team: str, p: Mapping[str, Any] | None = None, /,
                       *, cell: float = 80.0, **params) -> pd.DataFrame:
    """FN (objects) and FP (predictions) per square ``cell`` of the 640 × 480 frame:
    ``x0, y0`` (the cell's corner), ``objects, fn, predictions, fp``."""
    obj = object_outcomes(scorer, team, p, **params)
    pred = prediction_outcomes(scorer, team, p, **params)
    nx, ny = int(np.ceil(640 / cell)), int(np.ceil(480 / cell))

    def grid(df):
        cx = np.clip(((df["x"].to_numpy() + 0.5) // cell).astype(int), 0, nx - 1)
        cy = np.clip(((df["y"].to_numpy() + 0.5) // cell).astype(int), 0, ny - 1)
        return cy * nx + cx

    go, gp = grid(obj), grid(pred)
    n = nx * ny
    out = pd.DataFrame({"x0": (np.arange(n) % nx) * cell - 0.5, "y0": (np.arange(n) // nx) * cell - 0.5,
                        "objects": np.bincount(go, minlength=n),
                        "fn": np.bincount(go, weights=(obj["outcome"] == "FN").to_numpy(), minlength=n).astype(int),
                        "predictions": np.bincount(gp, minlength=n),
                        "fp": np.bincount(gp, weights=(pred["outcome"] == "FP").to_numpy(), minlength=n).astype(int)})
    return out


def sequence_costs(scorer: Scorer, team: str, p: Mapping[str, Any] | None = None, /,
                   **params) -> pd.DataFrame:
    """Each sequence's share of one team's MSE, costliest first: ``sequence_id, objects,
    predictions, tp, fp, fn, sse, mse`` (the sequence's own SSE_k / (TP_k + FN_k + FP_k)) and
    ``contribution``: what the sequence adds to the team's MSE — ``SSE_k / Σ(TP + FN + FP)``
    under pooled (seed) rules, ``MSE_k`` under the starter kit's sum. The contributions add
    up to the leaderboard's MSE."""
    p = scorer.check(p, **params)
    i = _team(scorer, team)
    rs = ruleset(p["rules"])
    t = scorer.sequence_table(i, tau=p["tau"], epsilon=p["epsilon"], rules=rs)
    if rs.pooled:
        den = float((t["tp"] + t["fp"] + t["fn"]).sum())
        contribution = t["sse"] / den if den > 0 else np.zeros(scorer.K)
    else:
        contribution = t["mse"]
    df = pd.DataFrame({"sequence_id": scorer.comp.gt.sequences, "objects": scorer.n_obj,
                       "predictions": scorer.n_pred[i], **t, "contribution": contribution})
    return df.sort_values(["contribution", "sequence_id"], ascending=[False, True], kind="stable").reset_index(
        drop=True)


def kit_constant_example(tau: float = 49.5) -> tuple[np.ndarray, np.ndarray]:
    """A frame where the starter kit's fixed cost 1000 finds one true positive fewer than the
    definition (spec §2): 22 objects on a snake path, 49.4 px apart; prediction i sits 0.3 px
    from object i + 1, towards object i (49.1 px away). The definition matches every
    prediction with its own object (22 TP); the kit prefers 21 near-perfect pairs plus one
    pair at cost 1000 (21·0.3 + 1000 < 22·49.1).

    >>> pred, obj = kit_constant_example()
    >>> [len(match_frame(pred, obj, tau=49.5, rules=r)[0]) for r in (SEED, STARTER_KIT)]
    [22, 21]
    """
    s = 49.4
    path = [(40 + s * j, 100.0) for j in range(12)]
    x = path[-1][0]
    path += [(x, 100 + s), (x, 100 + 2 * s)]
    path += [(x - s * j, 100 + 2 * s) for j in range(1, 10)]
    pts = np.array(path)  # 23 points: 22 objects and the place of a 23rd
    obj = pts[:22]
    step = pts[1:] - pts[:-1]
    pred = pts[1:] - 0.3 * step / np.linalg.norm(step, axis=1)[:, None]
    return pred, obj


def rules_differences(scorer: Scorer, *, tau: float = 10.0, epsilon: float = 3.0, team: str | None = None) -> dict:
    """The four differences between the published definition (seed) and the starter kit
    (spec §2–§3), each with a live example and its effect on the ranking.

    Returns ``ranks``: a DataFrame (submission; ``seed``; one column per difference — the
    seed rules with that one difference switched to the kit's side; ``starter-kit``), and
    ``differences``: one dict per difference with ``key, title, seed, starter_kit``,
    ``moved`` (teams whose rank differs from the seed column) and ``example`` (a dict of
    numbers from the data, for ``team`` — default the seed leader — or a built frame where
    the data has none).
    """
    p = scorer.check(tau=tau, epsilon=epsilon)
    tau, eps = p["tau"], p["epsilon"]
    cols = {"seed": SEED, **{k: SEED.with_kit(k) for k, *_ in DIFFERENCES}, "starter-kit": STARTER_KIT}
    ranks = pd.DataFrame({"submission": scorer.names})
    for c, rs in cols.items():
        ranks[c] = final_ranks(scorer.totals(tau=tau, epsilon=eps, rules=rs))
    ranks = ranks.sort_values(["seed", "submission"], kind="stable").reset_index(drop=True)
    if team is None:
        team = str(ranks["submission"].iloc[0])
    i = _team(scorer, team)
    examples = {"squared": _ex_squared(scorer, i, tau, eps), "pooled": _ex_pooled(scorer, i, tau, eps),
                "edge": _ex_edge(scorer, tau), "constant": _ex_constant(scorer, tau)}
    out = []
    for key, title, seed_text, kit_text in DIFFERENCES:
        out.append({"key": key, "title": title, "seed": seed_text, "starter_kit": kit_text,
                    "moved": int((ranks[key] != ranks["seed"]).sum()), "example": examples[key]})
    return {"team": team, "tau": tau, "epsilon": eps, "ranks": ranks, "differences": out}


def _ex_squared(scorer: Scorer, i: int, tau: float, eps: float) -> dict:
    c = scorer.counts(tau, True)
    d = c.d[i]
    cand = np.flatnonzero((d >= eps) & (d < tau))
    if len(cand):
        d_ex = float(d[cand[-1]])
        src = "the team's true positive farthest from its object"
    else:
        d_ex, src = (eps + tau) / 2, "a built pair (the team has no true positive at ε ≤ d < τ)"
    seed_t = scorer.totals(tau=tau, epsilon=eps, rules=SEED)["mse"][i]
    kit_t = scorer.totals(tau=tau, epsilon=eps, rules=SEED.with_kit("squared"))["mse"][i]
    return {"source": src, "d": d_ex, "seed_penalty": d_ex**2, "kit_penalty": d_ex,
            "mse_seed": float(seed_t), "mse_switched": float(kit_t)}


def _ex_pooled(scorer: Scorer, i: int, tau: float, eps: float) -> dict:
    t = scorer.sequence_table(i, tau=tau, epsilon=eps, rules=SEED)
    den = (t["tp"] + t["fp"] + t["fn"]).sum()
    k = int(np.argmax(t["mse"]))
    return {"sequences": scorer.K, "sse": float(t["sse"].sum()), "detections": int(den),
            "mse_pooled": float(t["sse"].sum() / den) if den else 0.0, "mse_summed": float(t["mse"].sum()),
            "worst_sequence": int(scorer.comp.gt.sequences[k]), "worst_sequence_mse": float(t["mse"][k])}


def _ex_edge(scorer: Scorer, tau: float) -> dict:
    at_edge = 0
    for i in range(scorer.S):
        at_edge += int((scorer.counts(tau, True).d[i] == tau).sum())
    d = np.array([tau])
    return {"pairs_at_tau": at_edge, "d": tau,
            "seed_penalty": float(penalty(d, tau=tau, epsilon=0.0, rules=SEED)[0]),
            "kit_penalty": float(penalty(d, tau=tau, epsilon=0.0, rules=STARTER_KIT)[0])}


def _ex_constant(scorer: Scorer, tau: float) -> dict:
    m = scorer.matching(tau)
    frames, first = 0, None
    for i, (a, b) in enumerate(zip(m.seed, m.kit, strict=True)):
        if a is b or np.array_equal(a, b):
            continue
        sub = scorer.comp.submissions[i]
        fa = np.bincount(sub.point_frame[sub.p[a]], minlength=scorer.comp.gt.n_frames)
        fb = np.bincount(sub.point_frame[sub.p[b]], minlength=scorer.comp.gt.n_frames)
        diff = np.flatnonzero(fa != fb)
        frames += len(diff)
        if first is None and len(diff):
            f = int(diff[0])
            first = {"team": scorer.names[i], "sequence_id": int(scorer.comp.gt.frames.seq[f]),
                     "frame": int(scorer.comp.gt.frames.frame[f]), "tp_seed": int(fa[f]), "tp_kit": int(fb[f])}
    pred, obj = kit_constant_example()
    built = {"tau": 49.5, "objects": len(obj), "predictions": len(pred),
             "tp_seed": len(match_frame(pred, obj, tau=49.5, rules=SEED)[0]),
             "tp_kit": len(match_frame(pred, obj, tau=49.5, rules=STARTER_KIT)[0])}
    return {"frames_that_differ": frames, "first": first, "built": built}
