"""Frames as one submission: what the matching tests hand to ``match_submission``."""

from __future__ import annotations

import numpy as np

from scoring.spotgeo.competition import candidate_pairs


def flatten(frames):
    """``frames``: a list of (predictions (n, 2), objects (m, 2)) per frame. Returns ``pred_xy,
    obj_xy, pred_frame, obj_frame`` (every frame's points, one after the other, and each point's
    frame) and the candidate pairs ``p, g, d`` (``scoring.spotgeo.competition.candidate_pairs``)."""
    pred_xy = np.concatenate([p for p, _ in frames]).reshape(-1, 2)
    obj_xy = np.concatenate([o for _, o in frames]).reshape(-1, 2)
    pf = np.repeat(np.arange(len(frames)), [len(p) for p, _ in frames])
    of = np.repeat(np.arange(len(frames)), [len(o) for _, o in frames])
    return (pred_xy, obj_xy, pf, of, *candidate_pairs(pred_xy, pf, obj_xy, of))
