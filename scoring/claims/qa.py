"""QA's sentences: the leaderboard's takeaway (the weights used against equal weights and the
random weightings), the hidden weights' takeaway, the speed penalty's, and one question's —
each from the frame whose numbers it states."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from .registry import claim
from .words import PLAIN, Style, names, percent, plural


def _pct(x: float) -> str:
    return percent(x, space=True)


def _are(items: Sequence[str]) -> str:
    return plural(len(items), "is", "are")


@claim("qa.leaderboard", states="the leaderboard frame (p_first) and the rank changes against equal weights",
       shown=("page: QA Leaderboard",))
def leaderboard(lb: pd.DataFrame, changes: pd.DataFrame, label: str, *, style: Style = PLAIN) -> str:
    first = changes.loc[changes["rank"] == 1, "submission"].astype(str).tolist()
    eq_first = changes.loc[changes["equal_rank"] == 1, "submission"].astype(str).tolist()
    pf = dict(zip(lb["submission"].astype(str), lb["p_first"].astype(float), strict=True))
    p_lead, p_eq = max(pf[t] for t in first), max(pf[t] for t in eq_first)
    who = names(first, style, limit=None)
    if label == "equal weights":
        return f"{who} {_are(first)} first with equal weights, and first in {_pct(p_lead)} of random weightings."
    if set(first) == set(eq_first):
        return (f"{who} {_are(first)} first both with equal weights and under {label}, and first in "
                f"{_pct(p_lead)} of random weightings.")
    how = "although first in only" if p_lead < p_eq else "and first in"
    eq = names(eq_first, style, limit=None)
    return (f"{eq} {plural(len(eq_first), 'wins', 'win')} with equal weights; under {label} {who} {_are(first)} "
            f"first, {how} {_pct(p_lead)} of random weightings ({eq}: {_pct(p_eq)}).")


@claim("qa.hidden", states="the leaderboard frame (p_first) and the number of weight draws",
       shown=("page: QA Hidden weights",))
def hidden(lb: pd.DataFrame, draws: int, *, style: Style = PLAIN) -> str:
    ranked = lb.sort_values(["p_first", "submission"], ascending=[False, True], kind="stable")
    winners = ranked[ranked["p_first"] > 0]
    if len(winners) == 1:
        return (f"Over {draws:,} random weightings, {style.name(str(winners.iloc[0]['submission']))} is first "
                "every time: no weighting of the themes changes the winner.")
    shown = [f"{style.name(str(r.submission))} ({_pct(float(r.p_first))})" for r in winners.head(3).itertuples()]
    more = len(winners) - len(shown)
    listed = ", ".join(shown[:-1]) + " and " + shown[-1] + (f", and {more} more" if more > 0 else "")
    never = len(lb) - len(winners)
    rest = f"{never} of {len(lb)} teams are never first." if never else "every team is first sometimes."
    return f"Over {draws:,} random weightings, the teams first most often are {listed}; {rest}"


@claim("qa.speed", states="the speed table (submission, theme, over_ms, gain), the threshold and the step",
       shown=("page: QA Speed penalty",))
def speed(sp: pd.DataFrame, order: Sequence[str], threshold: float, n_themes: int, step_ms: float, *,
          style: Style = PLAIN) -> str:
    over = sp[sp["over_ms"] > 0]
    if over.empty:
        return (f"At T = {threshold:g} ms no team is slowed down: every average time per question is within "
                "the threshold, so saving time gains nothing.")
    parts = []
    for team in [t for t in order if t in set(over["submission"])]:
        themes = over.loc[over["submission"] == team, "theme"].astype(str).tolist()
        where = "every theme" if len(themes) == n_themes else ", ".join(style.text(t) for t in themes)
        parts.append(f"{style.name(team)} on {where}")
    best = sp.loc[sp["gain"].idxmax()]
    return (f"At T = {threshold:g} ms, {len(over)} team–theme average{'s are' if len(over) != 1 else ' is'} over "
            f"the threshold ({'; '.join(parts)}); the most to gain from {step_ms:g} ms saved is "
            f"{style.name(str(best['submission']))}'s on {style.text(str(best['theme']))}: "
            f"+{float(best['gain']):.4f} final score.")


def literal_match(answer: str, accepted: Sequence[str]) -> bool:
    """Whether the raw answer is one of the accepted answers as written (surrounding blanks aside)."""
    return answer.strip() in {a.strip() for a in (accepted or [""])}


@claim("qa.question", states="explain_question()'s result (teams' paragraph_correct, f1 and answers; the accepted "
       "answers)", shown=("page: QA Questions",))
def question(ex: Mapping[str, Any]) -> str:
    t = ex["teams"]
    n = len(t)
    right = int(t["paragraph_correct"].sum())
    perfect = t[t["f1"] >= 1 - 1e-12]
    only_norm = sum(not literal_match(a, ex["answers"]) for a in perfect["answer"])
    para = ("no paragraph answers it, and " if not ex["paragraph_ids"] else "") + \
        f"{right} of {n} teams {'say so' if not ex['paragraph_ids'] else 'name a right paragraph'}"
    ans = f"{len(perfect)} of {n} answers score F1 = 1"
    if len(perfect):
        ans += (", as written" if not only_norm else
                ", only after normalisation" if only_norm == len(perfect) == 1 else
                ", all of them only after normalisation" if only_norm == len(perfect) else
                f", {only_norm} of them only after normalisation")
    return f"On this question {para}; {ans}."
