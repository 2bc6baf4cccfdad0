"""The shake-up's sentences (docs/shakeup.md): the headline of one shake-up, the split-size
advice, the selection by the public board (the winner's curse) and the best fraction of the
sweep — each written from the result object the page, the command line and the JSON share."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd

from .registry import claim
from .words import count, percent, percent_runs

SHOWN = ("page: Shake-up", "CLI: shakeup (stderr and JSON)")


@claim("shakeup.headline", states="a Shakeup (fraction, splits, exact, p_winner(), n_units, unit)", shown=SHOWN)
def headline(sh: Any) -> str:
    """"With a 30% public split, the public leader wins the final board 71% of the time (over
    1,000 random splits of the 500 essays)." — "over all N possible splits" only when every
    split was enumerated."""
    how = (f"over all {count(sh.splits, 'possible split')}" if sh.exact
           else f"over {count(sh.splits, 'random split')}")
    return (f"With a {sh.fraction:.0%} public split, the public leader wins the final board "
            f"{percent(sh.p_winner())} of the time ({how} of the {count(sh.n_units, sh.unit)}).")


def goal(target: str, p: float, tau: float) -> str:
    what = ("the public leader wins the final board" if target == "winner"
            else f"Kendall's τ between the boards is at least {tau:g}")
    return f"“{what}” with probability ≥ {p:.0%}"


@claim("shakeup.advice", states="advice_from()'s record (and its grid)",
       shown=("page: Shake-up, How big must the public split be?", "CLI: shakeup --target (stderr and JSON)"))
def advice(rec: Mapping[str, Any]) -> str:
    """The split-size advice from its record: the smallest test size that meets the target, the
    public fractions that meet it there — consecutive fractions of the grid written "x to y",
    others listed — and the best one with its interval; or, when none does, the best found."""
    g = goal(rec["target"], rec["probability"], rec["tau"])
    target, conf, unit = rec["probability"], rec["confidence"], rec["unit"]
    how = "exact" if rec["exact"] else f"{conf:.0%} interval {percent(rec['low'], target=target)}–{percent(rec['high'])}"
    if rec["size"] is None:
        return (f"No test size or public fraction tried meets {g}: the best is {percent(rec['p'], target=target)} "
                f"({how}) at a {rec['best_fraction']:.0%} public split of {count(rec['units'], unit)}.")
    tried = " / ".join(f"{u:,}" for u in rec["tried_units"])  # not ", ": 1,195, 1,500 would be ambiguous
    span = percent_runs(rec["fractions"], rec["grid_fractions"])
    out = (f"{g[0].upper()}{g[1:]} is met with a test set of {count(rec['units'], unit)} — the smallest of the "
           f"sizes tried ({tried}) that meets it — at a public fraction of {span}; best "
           f"{rec['best_fraction']:.0%}: {percent(rec['p'], target=target)} ({how}).")
    if not rec["sure"]:
        out += " The interval's lower end stays under the target: more splits, or a larger test set, would make it sure."
    return out


def _gap(x: float) -> str:
    return f"{abs(x):.4f} {'better' if x >= 0 else 'worse'} than the private board does"


#: said wherever membership is unknown
ONE_PER_TEAM = "team membership unknown: one submission per team (every submission is its own team)"


@claim("shakeup.selection", states="selection()'s table (n_submissions, teams, overstatement, leader_overstatement, "
       "exact)", shown=("page: Shake-up, Choosing by the public board", "CLI: shakeup --format json (selection)"))
def selection(table: pd.DataFrame, *, known: bool, score: str = "score", splits_exact: bool = False,
              seed: int = 0) -> str:
    """One plain sentence on the table of :func:`scoring.core.shakeup_selection.selection`:
    positive overstatement is the public board showing the chosen submission better than the
    private board does. It says "exact" only when every row is (every split and every choice
    enumerated), and names the random draw when the splits are enumerated but the choices are
    not."""
    if table.empty:
        return "No team has a submission to choose from."
    exact = "exact" in table and bool(table["exact"].all())
    tail = (" — exact: every split and every choice enumerated" if exact else
            f" — the splits are all enumerated, but the choices are drawn at random (seed {seed}), so this is an "
            "estimate" if splits_exact else "")
    first = table.iloc[0]
    if not known or len(table) == 1:
        lead = first["leader_overstatement"]
        who = "" if known else f"Team membership unknown, so {ONE_PER_TEAM.split(': ', 1)[1]}: "
        what = (f"the public board shows the public leader's {score} {_gap(lead)}, on average"
                if not math.isnan(lead) else f"the public board shows a team's {score} "
                f"{_gap(first['overstatement'])}, on average")
        return (who or "With one submission per team, ") + what + tail + "."
    last = table.iloc[-1]
    n, teams = int(last["n_submissions"]), int(last["teams"])
    return (f"When a team chooses by the public board among {n} submissions, the public board shows the chosen "
            f"one's {score} {_gap(last['overstatement'])}, on average ({count(teams, 'team')} with that many; with "
            f"one submission: {first['overstatement']:+.4f}){tail}.")


@claim("shakeup.sweep", states="sweep_table()'s rows (fraction, p_winner_holds)",
       shown=("page: Shake-up, Across public fractions",))
def sweep_best(sweep: pd.DataFrame) -> str:
    """The fraction at which the public leader holds on most often (the smallest of equals)."""
    best = sweep.sort_values(["p_winner_holds", "fraction"], ascending=[False, True]).iloc[0]
    ties = sweep[sweep["p_winner_holds"] == best["p_winner_holds"]]
    also = "" if len(ties) == 1 else f" (as often at {count(len(ties) - 1, 'other fraction')})"
    return (f"The public leader holds on most often with a {best['fraction']:.0%} public split "
            f"({percent(best['p_winner_holds'])}){also}; the splits of one seed are nested, so the curves move "
            "with the fraction, not with fresh draws.")



