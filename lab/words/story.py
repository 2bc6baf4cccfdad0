"""Words written from the current numbers: the one-sentence takeaway a page opens with, and
plural-safe counts. Everything returned is markdown with every name escaped (``md``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from decimal import ROUND_FLOOR, Decimal

import pandas as pd

from scoring.core.family import Stage

from .text import md


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 102)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '102nd']
    """
    n = int(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``"1 team"``, ``"2 teams"``, ``"0 teams"``.

    >>> count(1, "team"), count(2, "team"), count(0, "essay"), count(3, "gets", "get")
    ('1 team', '2 teams', '0 essays', '3 get')
    """
    return f"{n:,} {singular if n == 1 else plural or singular + 's'}"


def names(items: Sequence[str], limit: int = 4) -> str:
    """``**a**``, ``**a** and **b**``, ``**a**, **b** and **c**``, ``… and 3 others`` (escaped).

    >>> names(["a"]), names(["a", "b"]), names(["a", "b", "c"])
    ('**a**', '**a** and **b**', '**a**, **b** and **c**')
    >>> names(list("abcdef"), limit=3)
    '**a**, **b**, **c** and 3 others'
    """
    shown = [f"**{md(x)}**" for x in items[:limit]]
    rest = len(items) - len(shown)
    if rest > 0:
        return ", ".join(shown) + f" and {count(rest, 'other')}"
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1] if shown else ""


def margin(x: float) -> str:
    """A score difference, to three decimals, more when that would show 0.

    >>> margin(0.0224), margin(0.00061), margin(0.00000412)
    ('0.022', '0.0006', '4.1e-06')
    """
    x = abs(float(x))
    return f"{x:.3f}" if x >= 0.0095 else f"{x:.4f}" if x >= 0.0001 else f"{x:.1e}"


def upper_bound(x: float, digits: int = 5) -> str:
    """An upper bound (``under x``, ``at most x``) shown so that it stays true: rounded *down*
    to ``digits`` significant figures (never fewer than the integer part), with thousands
    separators and no trailing zeros — 1,727.5 s is "under 1,727.5", never "under 1,728".

    >>> upper_bound(1727.5), upper_bound(1727.56), upper_bound(1710.0), upper_bound(94.178082191)
    ('1,727.5', '1,727.5', '1,710', '94.178')
    >>> upper_bound(0.012345678), upper_bound(123456.9), upper_bound(1799.99999999)
    ('0.012345', '123,456', '1,799.9')
    """
    x = float(x)
    if not math.isfinite(x) or x <= 0:
        return f"{x:g}"
    decimals = max(0, digits - 1 - math.floor(math.log10(x)))
    # Decimal(repr) keeps the float's own digits: 1727.5 is exactly 1727.5, not 1727.4999…
    q = Decimal(repr(x)).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_FLOOR)
    text = f"{q:,f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def stage_name(stage: Stage, words: Mapping[str, tuple[str, str]]) -> str:
    return words.get(stage.id, (stage.label, ""))[0]


def step_name(stage: Stage, words: Mapping[str, tuple[str, str]]) -> str:
    """What moves a team into ``stage``, in words: ``the efficiency boost``."""
    return words.get(stage.id, ("", ""))[1] or f"the “{stage.label}” stage"


def winner_takeaway(lb: pd.DataFrame, stages: Sequence[Stage], words: Mapping[str, tuple[str, str]] | None = None
                    ) -> str:
    """Who wins and what decided it, in one sentence, from any family's leaderboard (rows in
    final order, ``submission`` and every stage's score and rank columns)::

        **quick-silver** wins: 4th on FP1, the efficiency boost lifts it past **deep-ensemble**
        by 0.022; **double-dippers**, 1st on FP1, ends 5th.

    ``words[stage id] = (short name, what moves a team into it)`` names stages and steps.
    """
    words = words or {}
    if lb.empty:
        return "No submissions to rank yet."
    first, final = stages[0], stages[-1]
    recs = lb[["submission", *dict.fromkeys(c for s in stages for c in (s.rank, s.id))]].to_dict("records")
    top = [r for r in recs if int(r[final.rank]) == 1]
    if len(recs) == 1:
        return f"{names([str(recs[0]['submission'])])} is the only team."
    if len(top) > 1:
        return (f"{names([str(r['submission']) for r in top])} tie for first on {stage_name(final, words)} "
                f"({float(top[0][final.id]):.4f}).")
    win = top[0]
    rest = [r for r in recs if r is not win]
    runner = min(rest, key=lambda r: int(r[final.rank]))
    gap = margin(float(win[final.id]) - float(runner[final.id]))
    w, r = str(win["submission"]), str(runner["submission"])

    def ahead(s: Stage) -> bool:
        return int(win[s.rank]) < int(runner[s.rank])

    if all(ahead(s) for s in stages):
        lead = "1st at every stage" if all(int(win[s.rank]) == 1 for s in stages) else \
            f"ahead of {names([r])} at every stage"
        out = f"{names([w])} wins, {lead}, by {gap} in the end"
    else:
        k = max(i for i in range(1, len(stages)) if ahead(stages[i]) and not ahead(stages[i - 1]))
        out = (f"{names([w])} wins: {ordinal(int(win[first.rank]))} on {stage_name(first, words)}, "
               f"{step_name(stages[k], words)} lifts it past {names([r])} by {gap}")
    lead0 = [x for x in recs if int(x[first.rank]) == 1]
    if len(lead0) == 1 and lead0[0] is not win and int(lead0[0][final.rank]) > 2:
        out += (f"; {names([str(lead0[0]['submission'])])}, 1st on {stage_name(first, words)}, ends "
                f"{ordinal(int(lead0[0][final.rank]))}")
    return out + "."
