"""spotGEO's sentences: the leaderboard's takeaway (both rule sets), the note on teams with the
same F1, one frame's takeaway and its SSE, one team's errors, and the Rules page's takeaway and
live examples of the four differences — each from the frame or explanation whose numbers it
states."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .registry import claim
from .words import PLAIN, Style, count, listing, percent, plural

RULE_WORDS = {"seed": "the published rules", "starter-kit": "the starter-kit code"}
#: the verb "give" agreeing with RULE_WORDS ("the published rules give", "the starter-kit code gives")
RULE_GIVE = {"seed": "give", "starter-kit": "gives"}


def other(rules: str) -> str:
    return "starter-kit" if rules == "seed" else "seed"


def num(x: float) -> str:
    """A whole number as is (325), else two decimals (532.39)."""
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.2f}"


def names_text(names: Sequence[str], style: Style = PLAIN) -> str:
    """``A``, ``A and B``, ``A, B and C`` (each as a user string of the style)."""
    return listing([style.text(str(x)) for x in names])


def moves(names: Sequence[str], before: Sequence[int], after: Sequence[int], style: Style = PLAIN) -> str | None:
    """How the ranking changes from ``before`` to ``after`` ("A and B swap places", "A 1→2, B
    2→3 and C 3→1"); None when nothing moves. Teams in ``before`` order."""
    changed = sorted(((int(b), str(n), int(a)) for n, b, a in zip(names, before, after, strict=True) if a != b))
    if not changed:
        return None
    if len(changed) == 2 and changed[0][0] == changed[1][2] and changed[1][0] == changed[0][2]:
        return f"{names_text([changed[0][1], changed[1][1]], style)} swap places"
    return listing([f"{style.text(n)} {b}→{a}" for b, n, a in changed])


def _lead(names: Sequence[str], ranks: Sequence[int], style: Style) -> str:
    top = [str(n) for n, r in zip(names, ranks, strict=True) if int(r) == 1]
    bold = (lambda s: f"**{s}**") if style is not PLAIN else (lambda s: s)
    return f"{bold(names_text(top, style))} " + ("leads" if len(top) == 1 else "share the lead")


@claim("spotgeo.leaderboard", states="the leaderboard frame (rank, other_rules_rank) and the rule set",
       shown=("page: spotGEO Leaderboard",))
def leaderboard(lb: pd.DataFrame, rules: str, *, style: Style = PLAIN) -> str:
    """"sharp-eye leads under the published rules; under the starter-kit code near-enough and
    four-off swap places"."""
    names = lb["submission"].tolist()
    mv = moves(names, lb["rank"], lb["other_rules_rank"], style)
    tail = f"{RULE_WORDS[other(rules)]} {RULE_GIVE[other(rules)]} the same ranking" if mv is None else \
        f"under {RULE_WORDS[other(rules)]} {mv}"
    return f"{_lead(names, lb['rank'], style)} under {RULE_WORDS[rules]}; {tail}."


@claim("spotgeo.ties", states="the leaderboard frame (score = 1 − F1)", shown=("page: spotGEO Leaderboard",))
def ties(lb: pd.DataFrame, *, style: Style = PLAIN) -> str | None:
    """Teams with the same 1 − F1 (so the MSE orders them), as a sentence."""
    s = lb["score"].to_numpy(float)
    groups, used = [], set()
    for i in range(len(s)):
        if i in used:
            continue
        g = [j for j in range(len(s)) if abs(s[j] - s[i]) <= 1e-12]
        used.update(g)
        if len(g) > 1:
            groups.append(names_text(lb["submission"].iloc[g].tolist(), style))
    if not groups:
        return None
    return ("; ".join(groups) + (" have" if len(groups) == 1 else " have, group by group,")
            + " the same F1, so the MSE decides their order — this is where the rule sets matter.")


@claim("spotgeo.frame", states="explain_frame()'s summary (team, sequence, frame, tp, fp, fn, sse)",
       shown=("page: spotGEO Frames",))
def frame(view: Mapping[str, Any], *, style: Style = PLAIN) -> str:
    s = view["summary"]
    n_obj, n_pred = s["tp"] + s["fn"], s["tp"] + s["fp"]
    where = f"In sequence {s['sequence_id']}, frame {s['frame']},"
    if n_obj + n_pred == 0:
        return f"{where} there is nothing: no object and no prediction from {style.name(str(s['team']))}, so no error."
    found = f"{style.name(str(s['team']))} finds {s['tp']} of {count(n_obj, 'object')}"
    alarms = "no false alarm" if s["fp"] == 0 else count(s["fp"], "false alarm")
    return f"{where} {found} with {alarms}; the frame adds {num(s['sse'])} to its SSE."


def sse(view: Mapping[str, Any]) -> str:
    """"SSE = Σ π(d) + τ² · (FN + FP) = 25 + 100 · (1 + 2) = **325**" (the frame's own sum)."""
    s = view["summary"]
    pen = float(np.nansum(view["matches"]["penalty"])) if len(view["matches"]) else 0.0
    return (f"SSE = Σ π(d) + τ² · (FN + FP) = {num(pen)} + {num(s['tau'] ** 2)} · ({s['fn']} + {s['fp']}) "
            f"= **{num(s['sse'])}**")


@claim("spotgeo.errors", states="one team's MSE parts (fn, fp, tp), its recall per brightness bin and its costliest "
       "sequences", shown=("page: spotGEO Errors",))
def errors(team: str, parts: pd.DataFrame, bins: pd.DataFrame | None, costs: pd.DataFrame, *,
           style: Style = PLAIN) -> str:
    row = parts.set_index("team").loc[team]
    total = float(row.sum())
    if total <= 0:
        return f"{style.name(team)} has no error at all under these parameters."
    share = {k: float(row[k]) / total for k in ("fn", "fp", "tp")}
    text = (f"{style.name(team)}'s MSE of {total:.2f} is {percent(share['fn'])} misses, {percent(share['fp'])} false alarms "
            f"and {percent(share['tp'])} position error")
    if bins is not None and len(bins) > 1:
        text += (f"; it finds {percent(bins['recall'].iloc[0])} of the faintest objects (brightness "
                 f"{bins['label'].iloc[0]}) and {percent(bins['recall'].iloc[-1])} of the brightest")
    if len(costs) and costs["contribution"].iloc[0] > 0:
        text += f"; sequence {int(costs['sequence_id'].iloc[0])} costs it the most"
    return text + "."


@claim("spotgeo.rules", states="the ranks under each rule set and each single difference, and the differences' moved "
       "flags", shown=("page: spotGEO Rules",))
def rules(ranks: pd.DataFrame, diffs: Sequence[Mapping[str, Any]], tau: float, *, style: Style = PLAIN) -> str:
    names = ranks["submission"].tolist()
    mv = moves(names, ranks["seed"], ranks["starter-kit"], style)
    head = ("The starter-kit code ranks the teams exactly like the published rules" if mv is None else
            f"Under the starter-kit code {mv}")
    movers = [f"no. {n} ({d['title']})" for n, d in enumerate(diffs, start=1) if d["moved"]]
    if not movers:
        tail = f"no single difference moves anyone on its own at τ = {tau:g} px"
    elif len(movers) == 1:
        tail = f"of the four differences, only {movers[0]} moves teams on its own at τ = {tau:g} px"
    else:
        tail = f"on its own, each of {listing(movers)} moves teams at τ = {tau:g} px"
    return f"{head}; {tail}."


@claim("spotgeo.example", states="rule_differences()'s live example of one difference", shown=("page: spotGEO Rules",))
def example(d: Mapping[str, Any], team: str, tau: float, eps: float, *, style: Style = PLAIN) -> str:
    """The live example of one difference, in words (numbers from the data)."""
    e, k = d["example"], d["key"]
    t = style.name(team)
    if k == "squared":
        # the distance with enough digits that its square, as printed, checks by hand
        return (f"{t}: {style.text(str(e['source']))} is {e['d']:.4f} px off. The published rules add "
                f"{e['d']:.4f}² = {e['seed_penalty']:.2f} for it, the starter kit {e['kit_penalty']:.4f}. "
                f"Switching only this difference takes {style.text(team)}'s MSE from {e['mse_seed']:.2f} to "
                f"{e['mse_switched']:.2f}.")
    if k == "pooled":
        return (f"{t}: an SSE of {e['sse']:,.1f} over {count(e['detections'], 'detection')} is a pooled MSE of "
                f"{e['mse_pooled']:.2f}; the starter kit adds up the own MSEs of {count(e['sequences'], 'sequence')} "
                f"instead: {e['mse_summed']:,.2f} (sequence {e['worst_sequence']} alone adds "
                f"{e['worst_sequence_mse']:.2f}). A test set with more sequences gets larger MSEs for the same "
                "quality.")
    if k == "edge":
        n = e["pairs_at_tau"]
        found = (f"The data has {count(n, 'true positive')} at exactly d = τ = {tau:g} px" if n else
                 f"No true positive in the data sits at exactly d = τ = {tau:g} px, so this changes nothing here")
        return (f"{found}. Such a pair adds τ² = {e['seed_penalty']:g} under the published rules and "
                f"{e['kit_penalty']:g} under the starter kit.")
    first, b = e["first"], e["built"]
    live = (f"In the data, {e['frames_that_differ']} frame{'s' if e['frames_that_differ'] != 1 else ''} "
            f"{plural(e['frames_that_differ'], 'differs', 'differ')} at τ = {tau:g} px — the first: "
            f"{style.name(str(first['team']))}, sequence {first['sequence_id']}, frame {first['frame']} "
            f"({first['tp_seed']} TP vs {first['tp_kit']}).") if first else (
            f"At τ = {tau:g} px no frame of the data differs: it needs min(M, N)·τ ≥ 1000, i.e. at least "
            f"{int(np.ceil(1000 / tau))} objects and predictions in one frame"
            + (" — more than the 30 a frame may hold." if 1000 / tau > 30 else "."))
    return (f"{live} A built frame shows it: {b['objects']} objects {49.4:g} px apart at τ = {b['tau']:g} px, each "
            f"prediction 0.3 px from the next object — the published rules find {b['tp_seed']} true positives, the "
            f"starter kit {b['tp_kit']}.")
