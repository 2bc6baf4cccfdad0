"""The robustness pages' sentences, for any family: who could have won and who could be in the
top k (the bootstrap's rank sets, ``scoring.core.robustness``), where the conclusion is fragile,
whether two teams can be told apart, the stability map's summary, and Compare settings' — each
from the frame whose numbers it states."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .registry import claim
from .words import PLAIN, Style, count, names, percent, plural


def _listed(items: Sequence[str], style: Style) -> str:
    return style.text(", ".join(str(x) for x in items))


def _bold(text: str, style: Style) -> str:
    return f"**{text}**" if style is not PLAIN else text


@claim("intervals.could_win", states="bootstrap()'s frame (could_win: the top set of 1) and the confidence",
       shown=("page: Rank intervals", "report: Rank confidence sets", "CLI: leaderboard --bootstrap (JSON)"))
def could_win(winners: Sequence[str], confidence: float, unit: str, *, style: Style = PLAIN) -> str:
    """Who could have won: one team alone, or the list built to hold the true winner."""
    pct = f"{confidence:.0%}"
    if len(winners) == 1:
        return (f"{style.name(str(winners[0]))} alone could have won: every other team is established worse at "
                f"{pct} confidence.")
    return (f"{_bold(f'{len(winners)} teams could have won:', style)} {_listed(winners, style)} — no team is "
            f"established better than any of them. This list is built to hold the true winner (the best on all "
            f"possible {unit}s) with probability at least {pct}.")


@claim("intervals.top_k", states="bootstrap()'s frame (the top set of k) and the confidence",
       shown=("page: Rank intervals", "report: Rank confidence sets"))
def top_k(top: Sequence[str], k: int, confidence: float, *, style: Style = PLAIN) -> str:
    return (f"{_bold(f'Could be in the top {int(k)}:', style)} {_listed(top, style)} ({count(len(top), 'team')}) — "
            f"the list is built to hold every true top-{int(k)} team with probability at least {confidence:.0%}.")


def share_letter(a: str, b: str) -> bool:
    """Two teams' letters have one in common (letters are single characters, or space-separated)."""
    split = (lambda x: set(x.split(" "))) if " " in a + b else set
    return bool(split(a) & split(b))


@claim("intervals.fragile", states="the leaderboard frame (stage ranks), bootstrap()'s frame (could_win, letters) "
       "and the family's letter warnings", shown=("page: Rank intervals (warnings)",))
def fragile(stages: Sequence[Any], lb: pd.DataFrame, iv: pd.DataFrame, family_lines: Sequence[str] = ()) -> list[str]:
    """Plain-words warnings where the current conclusion is fragile: more than one team could
    have won; a last stage that hands the win to a team the previous stage's leader cannot be
    told apart from (they share a letter); then the family's own warnings on the letters."""
    out: list[str] = []
    final = stages[-1]
    ordered = lb.sort_values([final.rank, "submission"])
    winner = str(ordered.iloc[0]["submission"])
    could = [str(t) for t in iv.index[iv["could_win"].to_numpy(dtype=bool)]]
    others = [t for t in could if t != winner]
    if others:
        names = ", ".join(others[:5]) + (f" and {len(others) - 5} more" if len(others) > 5 else "")
        out.append(f"the winner, {winner}, is not clearly first: at this confidence {names} could also have won "
                   "(no team is established better than them)")
    if len(stages) >= 2 and len(lb) >= 2:
        prev = stages[-2]
        before = str(lb.sort_values([prev.rank, "submission"]).iloc[0]["submission"])
        if before != winner and before in iv.index and share_letter(iv.loc[winner, "letters"], iv.loc[before, "letters"]):
            out.append(f"the last stage ({final.label}) decides the winner: {winner} passes {before}, and the "
                       "two are not distinguishable at this confidence (they share a letter)")
    return out + list(family_lines)


@claim("intervals.noise", states="bootstrap()'s frame (letters, rank) of two teams", shown=("page: Compare settings",))
def noise(iv: pd.DataFrame, a: str, b: str, *, where: str) -> str:
    """Whether teams ``a`` and ``b`` can be told apart in ``iv``, in words ("" without letters)."""
    if a not in iv.index or b not in iv.index or not (iv.loc[a, "letters"] and iv.loc[b, "letters"]):
        return ""  # (no letters: too many for this field)
    if share_letter(iv.loc[a, "letters"], iv.loc[b, "letters"]):
        return f"{where}, {a} and {b} share a letter: they cannot be told apart at this confidence"
    first, second = (a, b) if iv.loc[a, "rank"] <= iv.loc[b, "rank"] else (b, a)
    return f"{where}, {first} is established better than {second}"


@claim("stability.summary", states="stability_map()'s grid (valid, winner, tau)", shown=("page: Stability map",))
def stability(grid: pd.DataFrame, *, style: Style = PLAIN) -> str:
    """The map's most frequent winner and its share of the valid cells; τ's range."""
    valid = grid[grid["valid"]]
    if not len(valid):
        return "No cell of this grid is a valid combination of parameters."
    counts = valid["winner"].value_counts()
    top = counts[counts == counts.iloc[0]].index.tolist()
    share = float(counts.iloc[0]) / len(valid)
    who = style.name(str(sorted(map(str, top))[0]))
    also = "" if len(top) == 1 else f" (as often as {count(len(top) - 1, 'other team')})"
    tau = valid["tau"].to_numpy(float)
    return (f"{who} wins in {percent(share)} of the cells{also}; Kendall's τ against the current ranking runs from "
            f"{np.nanmin(tau):.2f} to {np.nanmax(tau):.2f}.")


@claim("stability.noise", states="bootstrap()'s could_win at the current settings and the map's winners",
       shown=("page: Stability map",))
def stability_noise(could: Sequence[str], named: Sequence[str], *, style: Style = PLAIN) -> str:
    inside = [w for w in named if w in could]
    outside = [w for w in named if w not in could]
    return (f"At the current settings {_bold(style.text(', '.join(could)), style)} could have won (the list is built "
            "to hold the true winner with probability at least 95 %)."
            + (f" Of this map's winners, {_listed(inside, style)} {plural(len(inside), 'is', 'are')} in that list: a "
               "flip between them could come from the sample alone." if len(inside) > 1 else "")
            + (f" {_listed(outside, style)} {plural(len(outside), 'is', 'are')} not: at the current settings "
               f"{plural(len(outside), 'it is', 'they are')} established worse than another team, so "
               f"{plural(len(outside), 'its', 'their')} wins on the map come from the settings." if outside else ""))


@claim("compare.could_win", states="bootstrap()'s could_win under A and under B", shown=("page: Compare settings",))
def compare_could(could_a: Sequence[str], could_b: Sequence[str], confidence: float = 0.95, *,
                  style: Style = PLAIN) -> str:
    return (f"{_bold('Could have won under A:', style)} {_listed(could_a, style)}; {_bold('under B:', style)} "
            f"{_listed(could_b, style)} (each list is built to hold that setting's true winner with probability at "
            f"least {confidence:.0%}).")


@claim("compare.summary", states="compare()'s frame (rank_a, rank_b, delta)", shown=("page: Compare settings",
                                                                                    "report: Two configurations"))
def compare(diff: pd.DataFrame, *, style: Style = PLAIN) -> str:
    """How many teams move between A and B, and whether the winner changes."""
    moved = int((diff["delta"] != 0).sum())
    first_a = sorted(map(str, diff.loc[diff["rank_a"] == diff["rank_a"].min(), "submission"]))
    first_b = sorted(map(str, diff.loc[diff["rank_b"] == diff["rank_b"].min(), "submission"]))
    head = f"{count(moved, 'team')} {plural(moved, 'moves', 'move')}"
    who_a, who_b = names(first_a, style, limit=None), names(first_b, style, limit=None)
    if first_a == first_b:
        return f"{head}; {who_b} {plural(len(first_b), 'wins', 'share first place')} under both."
    if len(first_a) == len(first_b) == 1:
        return f"{head}; the winner changes from {who_a} to {who_b}."
    return f"{head}; first place changes from {who_a} to {who_b}."
