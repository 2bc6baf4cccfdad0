"""The leaderboard's one-sentence takeaway, for any family: who wins, what decided it, by how
much — written from the leaderboard frame (rows in final order; ``submission`` and every
stage's score and rank columns), with the family's stage words at the parameters shown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from .registry import claim
from .words import PLAIN, Style, gap, is_points, names, ordinal, score

#: Shovel-Ready's stage id -> (short name, what moves a team into it)
SHOVEL_READY_WORDS = {
    "fp1": ("FP1", ""),
    "overlap_removed": ("FP1 after overlap removal", "overlap removal"),
    "segment_score": ("the unified segment score", "the unified segment scoring"),
    "bias_score": ("the bias-aware score", "the bias-aware aggregation"),
    "final_score": ("the final score", "the efficiency boost"),
}


def stage_words(family: str, p: Mapping[str, Any] | None = None) -> dict[str, tuple[str, str]]:
    """A family's stage words at the parameters ``p`` (empty: the stages' own labels)."""
    if family == "shovel-ready":
        return dict(SHOVEL_READY_WORDS)
    if family == "custom":
        from .custom import stage_words as custom_words

        return custom_words(dict(p or {}))
    return {}


def story_stages(fam: Any, p: Mapping[str, Any] | None = None, skip: Sequence[str] = ()) -> list:
    """The stages the takeaway tells: all but ``skip`` and those the parameters leave out
    (Shovel-Ready without overlap removal: the "after overlap removal" stage is shown for
    reference only)."""
    left_out = set(skip)
    if fam.name == "shovel-ready" and p is not None and not p.get("overlap_removal", True):
        left_out.add("overlap_removed")
    return [s for s in fam.stages if s.id not in left_out]


def points_stages(family: str, lb: pd.DataFrame, stages: Sequence[Any], p: Mapping[str, Any] | None = None
                  ) -> frozenset[str]:
    """The stages whose scores are points (Borda, Copeland, Kemeny counts): every value a whole
    or half number, and the family says such a stage counts points."""
    declared: frozenset[str] = frozenset()
    if family == "custom":
        from .custom import points_stages as custom_points

        declared = custom_points(dict(p or {}))
    return frozenset(s.id for s in stages if s.id in declared and is_points(lb[s.id].to_numpy(dtype=float)))


def _stage_name(stage: Any, words: Mapping[str, tuple[str, str]]) -> str:
    return words.get(stage.id, (stage.label, ""))[0]


def _step_name(stage: Any, words: Mapping[str, tuple[str, str]]) -> str:
    return words.get(stage.id, ("", ""))[1] or f"the “{stage.label}” stage"


@claim("leaderboard.winner", states="the leaderboard frame (its stage scores and ranks) and the family's stage "
       "words at the parameters", shown=("page: every family's Leaderboard (the takeaway)", "report: the takeaway",
                                         "page: Compare settings"))
def winner(lb: pd.DataFrame, stages: Sequence[Any], words: Mapping[str, tuple[str, str]] | None = None, *,
           points: frozenset[str] = frozenset(), style: Style = PLAIN) -> str:
    """Who wins and what decided it, in one sentence::

        quick-silver wins: 4th on FP1, the efficiency boost lifts it past deep-ensemble by 0.022;
        double-dippers, 1st on FP1, ends 5th.

    ``words[stage id] = (short name, what moves a team into it)``; ``points``: stages whose
    scores are points, written as such (``by 14``, not ``by 14.000``).
    """
    words = words or {}
    if lb.empty:
        return "No submissions to rank yet."
    first, final = stages[0], stages[-1]
    # only the columns it reads: records of every column cost 2-5 % of a loaded server (issue 43)
    recs = lb[["submission", *dict.fromkeys(c for s in stages for c in (s.rank, s.id))]].to_dict("records")
    top = [r for r in recs if int(r[final.rank]) == 1]
    pts = final.id in points
    if len(recs) == 1:
        return f"{names([str(recs[0]['submission'])], style)} is the only team."
    if len(top) > 1:
        return (f"{names([str(r['submission']) for r in top], style)} tie for first on {_stage_name(final, words)} "
                f"({score(float(top[0][final.id]), exact_points=pts)}).")
    win = top[0]
    rest = [r for r in recs if r is not win]
    runner = min(rest, key=lambda r: int(r[final.rank]))
    by = gap(float(win[final.id]) - float(runner[final.id]), exact_points=pts)
    w, r = str(win["submission"]), str(runner["submission"])

    def ahead(s: Any) -> bool:
        return int(win[s.rank]) < int(runner[s.rank])

    if all(ahead(s) for s in stages):
        lead = "1st at every stage" if all(int(win[s.rank]) == 1 for s in stages) else \
            f"ahead of {names([r], style)} at every stage"
        out = f"{names([w], style)} wins, {lead}, by {by} in the end"
    else:
        k = max(i for i in range(1, len(stages)) if ahead(stages[i]) and not ahead(stages[i - 1]))
        out = (f"{names([w], style)} wins: {ordinal(int(win[first.rank]))} on {_stage_name(first, words)}, "
               f"{_step_name(stages[k], words)} lifts it past {names([r], style)} by {by}")
    lead0 = [x for x in recs if int(x[first.rank]) == 1]
    if len(lead0) == 1 and lead0[0] is not win and int(lead0[0][final.rank]) > 2:
        out += (f"; {names([str(lead0[0]['submission'])], style)}, 1st on {_stage_name(first, words)}, ends "
                f"{ordinal(int(lead0[0][final.rank]))}")
    return out + "."


def family_winner(fam: Any, lb: pd.DataFrame, p: Mapping[str, Any] | None = None, *, skip: Sequence[str] = (),
                  style: Style = PLAIN) -> str:
    """:func:`winner` with the family's stages, words and points at the parameters ``p``."""
    stages = story_stages(fam, p, skip)
    return winner(lb, stages, stage_words(fam.name, p), points=points_stages(fam.name, lb, stages, p),
                  style=style)

