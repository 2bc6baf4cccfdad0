"""The Shovel-Ready parameters and stages, declared once (SPEC §1, §6).

Everything that shows or checks a parameter — the API, the command line and its
``--help``, the sidebar, links and presets — reads :data:`PARAMS`.
"""

from __future__ import annotations

from ..core.family import Stage
from ..core.params import Param, ParamSpec

QUALITIES = ("binary", "max", "iou")
QUALITY_LABELS = {"binary": "Binary (match or not)", "max": "Max-overlap", "iou": "IoU"}

SEGMENT, BIAS, BOOST = "Segment scoring", "Bias aggregation", "Efficiency boost"

PARAMS = ParamSpec([
    Param("w", 0.5, label="Segmentation weight w", low=0.0, high=1.0, slider=(0.0, 1.0, 0.01), group=SEGMENT,
          help="segmentation weight in [0, 1]: a match earns TP = w·q + (1 − w)·d[E]"),
    Param("quality", "iou", kind="choice", label="Overlap quality q", choices=QUALITIES,
          choice_labels=QUALITY_LABELS, group=SEGMENT, costly=True,
          help="how a matched pair's overlap is graded: binary (1), max(o_P, o_G) or IoU"),
    Param("threshold", 0.51, label="Overlap threshold", low=0.0, high=1.0, low_open=True,
          slider=(0.50, 0.95, 0.01), group=SEGMENT, costly=True,
          help="overlap threshold t in (0, 1]: a candidate pair has o_P >= t and o_G >= t"),
    Param("overlap_removal", True, kind="bool", label="Overlap removal", cli_negative="--no-overlap-removal",
          group=SEGMENT,
          help="trim overlapping predicted segments before scoring stages 3-5 (memo §1); the "
               "'after overlap removal' stage is FP1 after removal by definition and always applies it"),
    Param("attributes", (), kind="names", label="Demographic attributes", choices_from="attributes", group=BIAS,
          help="demographic attributes whose cross product forms the groups"),
    Param("alpha", 50.0, label="Softmin temperature α", low=0.0, allow_inf=True, slider=(0.0, 200.0, 1.0),
          inf_label="Hard minimum (α = ∞)", group=BIAS, expected_text="a number >= 0 or 'inf'",
          help="softmin temperature >= 0, or 'inf' for the hard minimum: 0 = plain average over essays, "
               "larger = closer to the worst group"),
    Param("band", 0.05, label="Eligibility band", low=0.0, slider=(0.0, 0.20, 0.005), percent=True, group=BOOST,
          help="eligibility band: eligible when best/score <= 1 + band"),
    Param("max_boost", 0.05, label="Maximum boost", low=0.0, slider=(0.0, 0.20, 0.005), percent=True, group=BOOST,
          help="boost of the fastest eligible submission"),
    Param("window", 0.2, label="Slowdown window", low=0.0, low_open=True, slider=(0.05, 0.50, 0.01), percent=True,
          group=BOOST, help="slowdown window: no boost beyond (1 + window) x the fastest runtime"),
])

#: The order of ``parameters`` in the JSON contract (SPEC §8) and of the legacy ``DEFAULTS``.
JSON_ORDER = ("w", "quality", "threshold", "alpha", "attributes", "band", "max_boost", "window", "overlap_removal")
DEFAULTS = {k: PARAMS[k].default for k in JSON_ORDER}

STAGES = (
    Stage("fp1", "FP1 (original)", "fp1_rank",
          help="The Feedback Prize 2021 metric exactly as its public reference computes it: a prediction "
               "and a ground truth match when each covers at least half of the other; F1 per class, "
               "averaged over classes."),
    Stage("overlap_removed", "After overlap removal", "overlap_removed_rank",
          help="FP1 again, after predictions that reuse words of earlier predictions are trimmed or dropped."),
    Stage("segment_score", "Unified segment score", "segment_score_rank",
          help="One-to-one matching above the threshold; a match earns a fractional true positive "
               "w·quality + (1 − w)·p(correct effectiveness); F1 per class, averaged."),
    Stage("bias_score", "Bias-aware score", "bias_score_rank",
          help="The segment scores of the demographic groups combined by a softmin: the lower a group's "
               "score, the more it weighs (α = 0: the plain average; α = ∞: the worst group)."),
    Stage("final_score", "Final score", "rank",
          help="The bias-aware score times (1 + boost): fast submissions within the eligibility band of "
               "the best score earn up to the maximum boost."),
)

LEADERBOARD_COLUMNS = ["submission", "fp1", "fp1_rank", "overlap_removed", "overlap_removed_rank",
                       "segment_score", "segment_score_rank", "bias_score", "bias_score_rank",
                       "eligible", "boost", "final_score", "rank"]
