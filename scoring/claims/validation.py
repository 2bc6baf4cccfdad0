"""The Data page's validation report: how many problems the files have — a count only when every
file was checked to its end, "at least" when a check stopped at a problem (what follows it was
not checked), "the first 25" when the report is full."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .registry import claim
from .words import count, plural


@claim("data.validation", states="check_inputs()'s problems (each with its file, row and stopped flag) and more",
       shown=("page: Data, Validation report",))
def found(problems: Sequence[Mapping[str, Any]], *, more: bool, limit: int) -> str:
    """The report's lead sentence. ``problems``: ``{"File", "Row", "Stopped"}`` each (the
    ``InputError``'s file, row, and whether the check stopped at it); ``more``: the check
    stopped at ``limit`` problems with more to find."""
    n = len(problems)
    head = "Nothing was loaded — the data you had before is still active. "
    if more:
        return (head + f"These are the first {n} problems of the files (checking stopped at {limit}): fix them and load "
                "again to see the rest.")
    stops = [p for p in problems if p.get("Stopped")]
    fix = f"fix {plural(n, 'it', 'them')} and load again"
    if not stops:
        return head + f"The files have {count(n, 'problem')}: {fix}."
    at = stops[0]
    where = f"{at['File']}" + ("" if at.get("Row") in (None, "—") else f", row {at['Row']}")
    return (head + f"The files have at least {count(n, 'problem')}: checking stopped at the problem of {where}, so "
            f"what follows it (and what is checked against that file) is checked once it is fixed; {fix}.")
