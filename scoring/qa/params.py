"""The QA family's parameters, stage and CSV columns, declared once (spec §3, §4, §6)."""

from __future__ import annotations

from ..core.family import Stage
from ..core.params import Param, ParamSpec

SCORE, HIDDEN = "Score", "Hidden weights"
METRICS = ("accuracy", "f1", "ait_ms", "multiplier", "score")
FIXED_COLUMNS = ("submission", "final_score", "rank", "p_first", "best_rank", "median_rank", "worst_rank")


def _check(values: dict) -> None:
    w = values.get("weights")
    if w is not None and not any(v > 0 for v in w.values()):
        shown = f"{dict(w)!r}" if len(w) <= 10 else f"0 for all {len(w):,} themes"  # one short line
        raise ValueError("weights", f"expected at least one weight > 0, got {shown}")


PARAMS = ParamSpec([
    Param("time_threshold", 200.0, label="Time threshold (ms)", low=0.0, low_open=True, slider=(50.0, 2000.0, 10.0),
          group=SCORE, help="time threshold T in ms (> 0): a theme whose average inference time AIT exceeds T "
                            "scores (T / AIT) x (F1 + accuracy)"),
    Param("weights", None, kind="mapping", label="Theme weights", low=0.0, choices_from="themes",
          slider=(0.0, 1.0, 0.01), cli=None, group=SCORE,
          help="weight of each theme (>= 0, at least one > 0), used as given, not normalised; none: the "
               "theme weights file's, else 1 / (number of themes) each"),
    Param("weight_draws", 10000, kind="int", label="Weight draws K", low=1, high=1_000_000, group=HIDDEN,
          help="number of weight vectors drawn uniformly from the simplex for the rank under unknown weights"),
    Param("seed", 0, kind="int", label="Seed", low=0, high=2**32 - 1, group=HIDDEN,
          help="seed of the weight draws (the same seed gives the same draws)"),
], check=_check)

STAGES = (
    Stage("final_score", "Final score", "rank", higher_is_better=True,
          help="Per theme, (answer F1 + paragraph accuracy), times T / AIT when the theme's average "
               "inference time AIT exceeds the threshold T; then the weighted sum over themes."),
)


def theme_columns(themes) -> list[str]:
    """``<theme>:accuracy, <theme>:f1, <theme>:ait_ms, <theme>:multiplier, <theme>:score`` per
    theme, in sorted theme order.

    >>> theme_columns(["b", "a"])[:2]
    ['a:accuracy', 'a:f1']
    """
    return [f"{t}:{m}" for t in sorted(themes) for m in METRICS]
