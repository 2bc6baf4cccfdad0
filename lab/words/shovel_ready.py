"""The Shovel-Ready pages' sentences, as markdown (names escaped): the engine's claims
(``scoring.claims.shovel_ready``) with the app's style — the stage words of the takeaways, the
boost summary under the leaderboard, and the takeaway of the Demographics, Efficiency, Segments
and Worked-examples pages."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from scoring.claims import shovel_ready as claims
from scoring.claims.board import SHOVEL_READY_WORDS
from scoring.claims.shovel_ready import alpha_range  # noqa: F401  (for the Demographics page)
from scoring.claims.words import pct  # noqa: F401  (for the pages)

from .text import MD

#: stage id -> (short name, what moves a team into it): the engine's (``scoring.claims.board``)
STAGE_WORDS = SHOVEL_READY_WORDS


def boost_summary(lb: pd.DataFrame, p: Mapping[str, Any], has_runtimes: bool = True) -> str:
    """Who the efficiency stage concerns at these parameters, in one line."""
    return claims.boost(lb, p, has_runtimes=has_runtimes, style=MD, bold=True)


def demographics_takeaway(lb: pd.DataFrame, gs: Any, p: Mapping[str, Any]) -> str:
    """Who the bias stage moves most at this α, and which group carries its weight."""
    return claims.demographics(lb, gs, p, style=MD)


def efficiency_takeaway(eff: pd.DataFrame, p: Mapping[str, Any]) -> str:
    """Who gets the boost and what it does to the ranking."""
    return claims.efficiency(eff, p, style=MD)


def segments_takeaway(team: str, essay: str, n_gt: int, n_pred: int, n_matched: int, n_trimmed: int,
                      n_discarded: int, removal: bool) -> str:
    """What one team did on one essay."""
    return claims.segments(team, essay, n_gt, n_pred, n_matched, n_trimmed, n_discarded, removal, style=MD)


def worked_takeaway(checks: Sequence[bool]) -> str:
    return claims.worked(checks)
