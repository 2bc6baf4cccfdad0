"""The words every claim is written with: ordinals, plural-safe counts, lists of names, numbers
shown so that they stay true (a margin, an upper bound, a count of points), and sets of grid
values written as ranges only where they are contiguous.

A :class:`Style` says how a user's string reaches the text: :data:`PLAIN` as it is (the command
line, JSON, the offline report, which escapes HTML itself), or — built by the UI with its own
escaping function — as markdown with every name escaped and in bold. The engine never escapes
for a page itself: it does not know the page's syntax.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal


@dataclass(frozen=True)
class Style:
    """How a name (team, model, submission) and any other user string (group, theme, column)
    reach the sentence."""

    name: Callable[[str], str] = str
    text: Callable[[str], str] = str


#: names and strings as they are
PLAIN = Style()


def markdown(escape: Callable[[object], str]) -> Style:
    """A markdown style: names escaped by ``escape`` and in bold, other strings escaped."""
    return Style(name=lambda s: f"**{escape(s)}**", text=lambda s: escape(s))


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 102, 111, 112)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '102nd', '111th', '112th']
    """
    n = int(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``"1 team"``, ``"2 teams"``, ``"0 teams"``, ``"1,000 splits"``.

    >>> count(1, "team"), count(2, "team"), count(0, "essay"), count(3, "gets", "get"), count(1000, "split")
    ('1 team', '2 teams', '0 essays', '3 get', '1,000 splits')
    """
    return f"{int(n):,} {singular if int(n) == 1 else plural or singular + 's'}"


def plural(n: int, singular: str, plural_: str | None = None) -> str:
    """The word alone, agreeing with ``n``: ``is``/``are``, ``team``/``teams``."""
    return singular if int(n) == 1 else plural_ or singular + "s"


def listing(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` (the items as given).

    >>> listing(["a"]), listing(["a", "b"]), listing(["a", "b", "c"]), listing([])
    ('a', 'a and b', 'a, b and c', '')
    """
    items = list(items)
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def names(items: Sequence[str], style: Style = PLAIN, limit: int | None = 4) -> str:
    """Names in the style: ``a``, ``a and b``, ``a, b and c``, ``a, b, c and 3 others``.

    >>> names(["a", "b", "c"]), names(list("abcdef"), limit=3), names(["a"], markdown(str))
    ('a, b and c', 'a, b, c and 3 others', '**a**')
    """
    items = [str(x) for x in items]
    shown = [style.name(x) for x in (items if limit is None else items[:limit])]
    rest = len(items) - len(shown)
    if rest > 0:
        return ", ".join(shown) + f" and {count(rest, 'other')}"
    return listing(shown)


def margin(x: float) -> str:
    """A score difference, to three decimals, more when that would show 0.

    >>> margin(0.0224), margin(0.00061), margin(0.00000412), margin(-0.5)
    ('0.022', '0.0006', '4.1e-06', '0.500')
    """
    x = abs(float(x))
    return f"{x:.3f}" if x >= 0.0095 else f"{x:.4f}" if x >= 0.0001 else f"{x:.1e}"


def is_points(values: Sequence[float]) -> bool:
    """Whether every value is a whole or half number (Borda and Copeland points, a count of
    teams placed below): such numbers are written exactly, without decimals they do not have."""
    return all(math.isfinite(float(v)) and abs(2 * float(v) - round(2 * float(v))) <= 1e-9 for v in values)


def points(x: float) -> str:
    """A whole or half number as it is: ``14``, ``247.5``, ``1,200``.

    >>> points(14.0), points(247.5), points(1200), points(-3.5)
    ('14', '247.5', '1,200', '-3.5')
    """
    x = round(float(x) * 2) / 2
    return f"{x:,.0f}" if x == int(x) else f"{x:,.1f}"


def score(x: float, *, exact_points: bool = False) -> str:
    """A score: four decimals, or as points (:func:`points`) when ``exact_points``."""
    return points(x) if exact_points else f"{float(x):.4f}"


def gap(x: float, *, exact_points: bool = False) -> str:
    """A difference of two scores: :func:`margin`, or as points when ``exact_points``."""
    return points(abs(float(x))) if exact_points else margin(x)


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


def pct(x: float) -> str:
    """A share as a percentage to 3 significant figures: ``5 %``, ``2.5 %``, ``99.8 %``."""
    return f"{x * 100:.3g} %"


def alpha(a: float) -> str:
    """A softmin temperature: ``50``, ``∞``."""
    return "∞" if math.isinf(float(a)) else f"{float(a):g}"


def runs(values: Sequence[float], grid: Sequence[float]) -> list[tuple[float, float]]:
    """``values`` (a subset of ``grid``) as maximal runs of consecutive grid values:
    ``[(first, last), …]``, in grid order. Two values are in one run only when no grid value
    between them is left out — a set that is not an interval is never written as one.

    >>> runs([0.3, 0.4, 0.5, 0.6, 0.8], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9])
    [(0.3, 0.6), (0.8, 0.8)]
    """
    grid = sorted({float(g) for g in grid})
    inside = {float(v) for v in values}
    missing = inside - set(grid)
    if missing:
        raise ValueError(f"expected values of the grid, got {sorted(missing)}")
    out: list[tuple[float, float]] = []
    start = None
    for i, g in enumerate(grid):
        if g in inside and start is None:
            start = g
        if start is not None and (g not in inside or i == len(grid) - 1):
            out.append((start, g if g in inside else grid[i - 1]))
            start = None
    return out


def percent_runs(values: Sequence[float], grid: Sequence[float]) -> str:
    """Grid values as percentages, a run of consecutive ones written "x to y":
    ``30% to 60% and 80%``.

    >>> percent_runs([0.3, 0.4, 0.5, 0.6, 0.8], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9])
    '30% to 60% and 80%'
    >>> percent_runs([0.3, 0.5], [0.3, 0.4, 0.5]), percent_runs([0.3, 0.4], [0.3, 0.4, 0.5])
    ('30% and 50%', '30% to 40%')
    """
    parts = [f"{a:.0%}" if a == b else f"{a:.0%} to {b:.0%}" for a, b in runs(values, grid)]
    return listing(parts)


def percent(p: float, *, target: float | None = None, most: int = 6, space: bool = False) -> str:
    """A probability as a percentage, whole percents unless that would say something false:
    0% or 100% of a probability that is neither, or a value on the other side of ``target``
    than ``p`` (a probability under a 50% target never reads "50%"). Then one more decimal at a
    time, up to ``most``.

    >>> percent(0.7), percent(0.996), percent(0.0004), percent(0.4996, target=0.5), percent(0.5, target=0.5)
    ('70%', '99.6%', '0.04%', '49.96%', '50%')
    >>> percent(0.25, space=True)
    '25 %'
    """
    p = float(p)
    if not math.isfinite(p):
        return f"{p}"
    for d in range(most + 1):
        v = round(p * 100, d) / 100
        ok = v not in (0.0, 1.0) or abs(v - p) <= 1e-12  # (a share is a ratio: 1 − 1e-16 is 1)
        if target is not None:
            ok = ok and ((v >= target) if p >= target else (v < target))
        if ok:
            return f"{p * 100:.{d}f}{' %' if space else '%'}"
    return f"{p * 100:.{most}g}{' %' if space else '%'}"
