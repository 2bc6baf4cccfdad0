"""The claims layer: every sentence the product writes from its numbers — takeaways, warnings,
advice, headlines, notes, the figures of ``--help`` and the report's sentences — written by one
small function per sentence kind from the very result object whose numbers it states, so that
the page, the command line, the JSON and the offline report say the same thing.

:data:`KINDS` lists every kind (``scoring.claims.registry``); ``tests/claims`` holds a seeded
property test per kind that parses the numbers and words back and recomputes them from the
result's JSON. The sentences are plain text unless the caller passes a markdown
:class:`~scoring.claims.words.Style` (the UI does, with its escaping function).
"""

from . import (  # noqa: F401  (each module registers its kinds)
    board,
    custom,
    difficulty,
    help,
    intervals,
    qa,
    shakeup,
    shovel_ready,
    spotgeo,
    validation,
)
from .registry import KINDS, Kind, claim
from .words import PLAIN, Style, markdown

__all__ = ["KINDS", "PLAIN", "Kind", "Style", "claim", "markdown"]
