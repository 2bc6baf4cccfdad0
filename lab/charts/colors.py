"""Stable colours: one per team (named colours kept), one per discourse type."""

from __future__ import annotations

import colorsys
from collections.abc import Iterable

import plotly.colors

#: Named colours double as palette entries, so a team called "Blue" and an unnamed team
#: never end up with two near-identical blues.
_NAMED = {
    "blue": "#4C78A8", "orange": "#F58518", "green": "#54A24B", "red": "#E45756",
    "teal": "#72B7B2", "purple": "#B279A2", "pink": "#FF9DA6", "brown": "#9D755D",
    "yellow": "#EECA3B", "grey": "#8C8C8C", "gray": "#8C8C8C", "navy": "#1F3A93",
    "cyan": "#17BECF", "olive": "#BCBD22", "violet": "#7B4FBF", "magenta": "#C2188F",
    "black": "#333333", "gold": "#D4A017", "silver": "#BAB0AC", "indigo": "#4B0082",
}
_PALETTE = list(dict.fromkeys([
    "#4C78A8", "#F58518", "#54A24B", "#E45756", "#72B7B2", "#B279A2", "#EECA3B", "#9D755D",
    "#FF9DA6", "#8C8C8C", "#1F3A93", "#17BECF", "#BCBD22", "#7B4FBF", "#C2188F", "#333333",
    "#D4A017", "#BAB0AC", "#98DF8A", "#AEC7E8", "#FFBB78", "#C5B0D5", "#C49C94", "#4B0082",
]))


def _extra_colour(i: int) -> str:
    hue = (i * 0.618033988749895) % 1.0
    r, g, b = colorsys.hls_to_rgb(hue, 0.45, 0.65)
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


def team_colors(names: Iterable[str]) -> dict[str, str]:
    """A stable colour per team: teams named after a colour get it, the others take the
    palette in name order, so the mapping does not depend on the order given.
    Pass every team of the competition (``comp.submission_names``)."""
    unique = sorted(set(map(str, names)))
    colors: dict[str, str] = {}
    used = set()
    for name in unique:
        named = _NAMED.get(name.strip().lower())
        if named and named not in used:
            colors[name] = named
            used.add(named)
    palette = [c for c in _PALETTE if c not in used]
    i = 0
    for name in unique:
        if name in colors:
            continue
        colors[name] = palette[i] if i < len(palette) else _extra_colour(i)
        i += 1
    return colors


#: Clearly distinct hues for the discourse types (the seven of the Feedback Prize get the first
#: seven: blue, orange, green, red, purple, cyan, olive), then more for other class sets.
CLASS_PALETTE = [
    "#1F77B4", "#FF7F0E", "#2CA02C", "#D62728", "#9467BD", "#17BECF", "#BCBD22",
    "#8C564B", "#E377C2", "#7F7F7F",
]


def class_colours(classes: Iterable[str]) -> dict[str, str]:
    """A colour per discourse type, by sorted name."""
    palette = CLASS_PALETTE + [c for c in plotly.colors.qualitative.Bold if c not in CLASS_PALETTE]
    return {c: palette[i % len(palette)] for i, c in enumerate(sorted(classes))}
