"""The spotGEO parameters, stages and leaderboard columns, declared once (spec §4, §6)."""

from __future__ import annotations

from ..core.family import Stage
from ..core.params import Param, ParamSpec
from .competition import MAX_TAU
from .rules import RULE_LABELS, RULES

MATCHING, ERROR = "Matching", "Error term"


def _check(values: dict) -> None:
    """ε may not exceed τ (spec §4)."""
    if values["epsilon"] > values["tau"]:
        raise ValueError("epsilon", f"expected a number in [0, tau = {values['tau']:g}], got {values['epsilon']!r}")


PARAMS = ParamSpec([
    Param("tau", 10.0, label="Border radius τ (px)", low=0.0, high=MAX_TAU, low_open=True, slider=(1.0, 50.0, 0.5),
          costly=True,
          group=MATCHING,
          help="border radius tau in (0, 50] pixels: a matched prediction within tau of its object is a true positive"),
    Param("epsilon", 3.0, label="Tolerance radius ε (px)", low=0.0, high=MAX_TAU, slider=(0.0, 20.0, 0.5),
          group=ERROR, expected_text="a number in [0, tau]",
          help="tolerance radius epsilon in [0, tau] pixels: a true positive closer than epsilon adds no error"),
    Param("rules", "seed", kind="choice", label="Rule set", choices=RULES, choice_labels=RULE_LABELS, group=ERROR,
          help="seed: the challenge's published definition; starter-kit: the code that ran on the official server"),
], check=_check)

DEFAULTS = PARAMS.defaults()

STAGES = (
    Stage("mse", "MSE", "mse_rank", higher_is_better=False,
          help="The regression error: squared (seed) or plain (starter kit) distances of true positives at "
               "least ε off, plus τ² for every false positive and false negative, per detection (pooled, seed) or "
               "summed over sequences (starter kit). On its own it only breaks ties of 1 − F1."),
    Stage("score", "1 − F1 (MSE breaks ties)", "rank", higher_is_better=False,
          help="The challenge's ranking: 1 − F1 of the pooled true positives, false positives and false "
               "negatives, smallest first; teams within 1e-12 are ordered by MSE."),
)

#: The CSV contract (spec §6), in order.
LEADERBOARD_COLUMNS = ("submission", "tp", "fp", "fn", "precision", "recall", "f1", "score", "mse", "rank")
#: Extra columns of :meth:`Scorer.leaderboard` (not written by the command line).
EXTRA_COLUMNS = ("mse_rank", "other_rules_rank", "rank_change")
