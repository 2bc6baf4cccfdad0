"""Words written from the current numbers: the one-sentence takeaway a page opens with, and
plural-safe counts. Everything returned is markdown with every name escaped (``md``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from scoring.claims import board, words
from scoring.core.family import Stage

from .text import MD

# the engine's words (``scoring.claims.words``), names as markdown escaped with ``md``
ordinal, count, margin, upper_bound = words.ordinal, words.count, words.margin, words.upper_bound


def names(items: Sequence[str], limit: int = 4) -> str:
    """``**a**``, ``**a** and **b**``, ``**a**, **b** and **c**``, ``… and 3 others`` (escaped).

    >>> names(["a"]), names(["a", "b"]), names(["a", "b", "c"])
    ('**a**', '**a** and **b**', '**a**, **b** and **c**')
    >>> names(list("abcdef"), limit=3)
    '**a**, **b**, **c** and 3 others'
    """
    return words.names(list(items), MD, limit)


def winner_takeaway(lb: pd.DataFrame, stages: Sequence[Stage], words: Mapping[str, tuple[str, str]] | None = None
                    ) -> str:
    """Who wins and what decided it, in one sentence, as markdown (``scoring.claims.board.winner``)."""
    return board.winner(lb, stages, words, style=MD)
