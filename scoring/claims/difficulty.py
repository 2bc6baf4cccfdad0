"""The difficulty-weighted family's sentences: the takeaways of its Leaderboard, Splits, Samples
and Weights pages, each from the engine's frames (``scoring.difficulty.views``). A split can be
empty (thresholds no sample reaches): the sentences then speak of the easiest and hardest splits
*with samples*."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .registry import claim
from .words import PLAIN, Style, names, percent


def _names(items: Sequence[str], style: Style) -> str:
    return names(list(items), style, limit=None)


def _places(k: int) -> str:
    return f"{k} place{'s' if k != 1 else ''}"


@claim("difficulty.leaderboard", states="the leaderboard frame (rank, accuracy_rank)", shown=("page: difficulty Leaderboard", "report: the takeaway"))
def leaderboard(lb: pd.DataFrame, *, style: Style = PLAIN) -> str:
    """Who is first, and who moves most against plain accuracy."""
    subs = lb["submission"].astype(str).tolist()
    rank, acc = lb["rank"].to_numpy(int), lb["accuracy_rank"].to_numpy(int)
    first = [n for n, r in zip(subs, rank, strict=True) if r == 1]
    acc_first = [n for n, r in zip(subs, acc, strict=True) if r == 1]
    verb = "stays" if len(first) == 1 else "stay"
    head = (f"{_names(first, style)} {verb} first" if set(first) == set(acc_first) else
            f"{_names(first, style)} {'is' if len(first) == 1 else 'are'} first, where plain accuracy puts "
            f"{_names(acc_first, style)} first (now {int(rank[subs.index(acc_first[0])])})")
    move = acc - rank
    if not move.any():
        return f"{head}; no model changes place against plain accuracy."
    up = min(range(len(subs)), key=lambda i: (-move[i], rank[i], subs[i]))
    down = min(range(len(subs)), key=lambda i: (move[i], -rank[i], subs[i]))
    text = f"{head}; {_names([subs[up]], style)} gains {_places(int(move[up]))} over plain accuracy" if move[up] > 0 else head
    if move[down] < 0:
        text += f"{' and' if move[up] > 0 else ';'} {_names([subs[down]], style)} loses {_places(int(-move[down]))}"
    return f"{text} ({int((move != 0).sum())} of {len(subs)} models move)."


def _which(x: int, end: int, word: str) -> str:
    """``the easiest split``, or ``split 2, the easiest with samples,`` when the end split is empty."""
    return f"the {word} split" if x == end else f"split {x}, the {word} with samples,"


@claim("difficulty.splits", states="views.split_table (split, submission, score) and the leaderboard's order", shown=("page: difficulty Splits",))
def splits(table: pd.DataFrame, lb: pd.DataFrame, *, style: Style = PLAIN) -> str:
    """The leader's score on the easiest and hardest splits, and where the models differ most
    (``table``: ``views.split_table``)."""
    top = str(lb["submission"].iloc[0])
    n = int(table["split"].max())
    mine = table[(table["submission"] == top) & np.isfinite(table["score"].to_numpy(float))].set_index("split")["score"]
    spread = table.groupby("split")["score"].agg(lambda s: s.max() - s.min()).dropna()
    if mine.empty or spread.empty:
        return "No split holds a sample that can be scored."
    a, b, k = int(mine.index.min()), int(mine.index.max()), int(spread.idxmax())
    scores = table.loc[table["split"] == k, "score"]
    return (f"{_names([top], style)} scores {mine[a]:.1f} on {_which(a, 1, 'easiest')} and {mine[b]:.1f} on "
            f"{_which(b, n, 'hardest')}; the models differ most on split {k} (from {scores.min():.1f} to "
            f"{scores.max():.1f}).").replace(",;", ";").replace(", and", " and")


@claim("difficulty.samples", states="views.sample_table (missed_by) and views.sample_points (split, correct)", shown=("page: difficulty Samples",))
def samples(table: pd.DataFrame, points: pd.DataFrame, n_models: int, n_splits: int | None) -> str:
    """How many samples every model misses, and the hardest split's share of the wrong
    predictions (``table``: ``views.sample_table``; ``points``: ``views.sample_points``, all)."""
    missed = table["missed_by"].to_numpy()
    every, most = int((missed == n_models).sum()), int((missed > n_models / 2).sum())
    head = f"{every} of {len(table):,} samples are missed by every model and {most} by most of them"
    scored = points[points["split"] > 0]
    wrong = scored[~scored["correct"].astype(bool)]
    if not n_splits or wrong.empty:
        return head + "."
    k = int(scored["split"].max())
    share, held = float((wrong["split"] == k).mean()), float((scored["split"] == k).mean())
    which = _which(k, n_splits, "hardest").rstrip(",")
    return f"{head}; {which} holds {percent(share)} of the wrong predictions, against {percent(held)} of all predictions."


@claim("difficulty.weights", states="views.split_table (weight, weight_share, n) and views.preset_table (case, rank)", shown=("page: difficulty Weights",))
def weights(table: pd.DataFrame, presets: pd.DataFrame, continuous: bool, leader: str, *, style: Style = PLAIN) -> str:
    """How much the hardest split weighs and holds (for ``leader`` when the models' splits
    differ, as with WMProb), and who wins across Table 1's cases (``table``:
    ``views.split_table``; ``presets``: ``views.preset_table``)."""
    cases = presets[presets["case"] != "accuracy"]
    winners = cases[cases["rank"] == 1].groupby("submission")["case"].nunique().sort_values(ascending=False)
    total = cases["case"].nunique()
    lead = str(winners.index[0])
    tail = (f"{_names([lead], style)} is first in every one of Table 1's {total} cases" if winners.iloc[0] == total else
            f"{_names([lead], style)} is first in {winners.iloc[0]} of Table 1's {total} cases, "
            + _names([str(x) for x in winners.index[1:]], style) + " in the others")
    if continuous:
        return f"Every sample has its own weight here; {tail}."
    mine = table[table["submission"] == leader]
    b, share, n = (mine[c].to_numpy(float) for c in ("weight", "weight_share", "n"))
    shares = table.groupby("split")["weight_share"]
    who = "" if np.allclose(shares.min(), shares.max(), equal_nan=True) else f"For {_names([leader], style)}, t"
    ratio = f"{b[-1] / b[0]:.3g}× the easiest" if b[0] > 0 else "while the easiest weighs nothing"
    head = f"{who or 'T'}he hardest split weighs {ratio}"
    if n[-1] > 0:
        return f"{head} and holds {percent(share[-1])} of the attainable score; {tail}."
    k = int(np.flatnonzero(n > 0)[-1]) if (n > 0).any() else None
    held = f"; split {k + 1} holds {percent(share[k])} of the attainable score" if k is not None else ""
    return f"{head} but holds no sample at these thresholds{held}; {tail}."
