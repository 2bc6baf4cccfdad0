"""The difficulty-weighted pages' words: plain-word help for the metric's notions (WSBias, WOOD,
WMProb, ease, splits, the weight schemes, Table 1's cases) and the one-sentence takeaway that
opens each page, computed from the current numbers.

The takeaways are pure functions of the engine's frames; every model name in them goes through
:func:`~lab.words.text.md` (they are shown as markdown). A split can be empty (thresholds no sample
reaches): the sentences then speak of the easiest and hardest splits *with samples*.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .text import md

HELP = {
    "wsbias": "WSBias (weighted spurious bias): a sample is easy when it carries a shortcut — a cue that gives "
              "the label away without understanding the text, such as a word that usually comes with positive "
              "reviews. Its ease is a bias score of the samples file (more bias = easier).",
    "wood": "WOOD (weighted out-of-distribution): a sample is easy when it looks like the training data. Its ease "
            "is its similarity to the training texts: a column of the samples file, or computed from a "
            "training-text file uploaded on the Data page.",
    "wmprob": "WMProb (weighted maximum probability): a sample is easy for a model when the model is sure of its "
              "answer. Its ease is the model's largest probability, so every model orders the samples its own way.",
    "ease": "Ease (E): how easy a sample is, as the metric measures it — higher is easier. The samples are sorted "
            "by it, easiest first, and cut into splits.",
    "splits": "Splits: the samples sorted by ease and cut into n groups, split 1 the easiest and split n the "
              "hardest — equally populated, or cut at thresholds of E. Every sample of a split weighs the "
              "split's weight.",
    "continuous": "Continuous weights: no splits; every sample has its own weight, 1/max(E, 0.01) (WMProb: E).",
    "linear": "Linear: split x weighs x (1, 2, …, n): the hardest split counts n times the easiest.",
    "square": "Square: split x weighs x² (1, 4, …, n²): the hard splits dominate.",
    "log": "Logarithmic: split x weighs ln(1 + x): gentle — the hardest of 7 splits counts 3 times the easiest.",
    "reverse": "Reverse: split x weighs n + 1 − x: the easiest split counts most.",
    "case": "Table 1 of the paper: what a right prediction earns (reward d) and a wrong one costs (penalty e). "
            "Cases 6/7 weigh every sample by its own difficulty instead of its split's weight; cases 8/9 scale "
            "reward and penalty by the difficulty. Picking a case sets the sliders in the sidebar.",
    "data": "The data shipped with the app: ten real models on the SST-2 dev set (short expert movie reviews, "
            "the data the models were trained for) or on IMDb reviews (longer, out-of-distribution). Pick one in "
            "the sidebar, under the parameters; upload your own samples and predictions on the Data page.",
    "score": "100 × (what the model earned) ÷ (what a model right on every sample would earn), each sample "
             "weighted by its split: from −100 to 100; higher is better.",
}


def wood_fallback(column: str, shipped: bool) -> str:
    """What WOOD measures when the data has no training texts: the ease column as given. On the
    shipped samples that column is a spurious-bias score, so WOOD is WSBias on it, cell for cell
    (the same ease, splits and weights: spec §2). ``column`` is escaped here."""
    text = (f"**WOOD without training texts.** This data has no training texts, so nothing here measures "
            f"similarity to the training data: WOOD takes its ease from the samples file's column "
            f"**{md(column)}**, as given.")
    if shipped:
        text += (f" On the shipped SST-2 and IMDb samples that column is a spurious-bias score (the paper's "
                 f"Algorithm {'2' if column.endswith('2') else '1'}), so WOOD gives exactly the numbers of WSBias on "
                 "it. For a real WOOD, upload your samples with a training-text file (one text per line) or a "
                 "similarity column on the Data page.")
    else:
        text += " WOOD is then as meaningful as that column is a similarity to the training texts."
    return text


WMPROB_DIRECTION = (
    "With WMProb, split 1 holds each model's *most* confident samples, so increasing weights (linear, square, "
    "log) make the *least* confident samples weigh most. That is what the paper's prototype computes and what "
    "reproduces its Table 8; the paper's text describes the opposite, which the **reverse** weights give.")


def names(items: Sequence[str]) -> str:
    """``**a**``, ``**a** and **b**``, ``**a**, **b** and **c**`` (escaped)."""
    b = [f"**{md(n)}**" for n in items]
    return b[0] if len(b) == 1 else ", ".join(b[:-1]) + " and " + b[-1]


def _places(k: int) -> str:
    return f"{k} place{'s' if k != 1 else ''}"


def leaderboard_takeaway(lb: pd.DataFrame) -> str:
    """Who is first, and who moves most against plain accuracy."""
    subs = lb["submission"].astype(str).tolist()
    rank, acc = lb["rank"].to_numpy(int), lb["accuracy_rank"].to_numpy(int)
    first = [n for n, r in zip(subs, rank, strict=True) if r == 1]
    acc_first = [n for n, r in zip(subs, acc, strict=True) if r == 1]
    verb = "stays" if len(first) == 1 else "stay"
    head = (f"{names(first)} {verb} first" if set(first) == set(acc_first) else
            f"{names(first)} {'is' if len(first) == 1 else 'are'} first, where plain accuracy puts "
            f"{names(acc_first)} first (now {int(rank[subs.index(acc_first[0])])})")
    move = acc - rank
    if not move.any():
        return f"{head}; no model changes place against plain accuracy."
    up = min(range(len(subs)), key=lambda i: (-move[i], rank[i], subs[i]))
    down = min(range(len(subs)), key=lambda i: (move[i], -rank[i], subs[i]))
    text = f"{head}; {names([subs[up]])} gains {_places(int(move[up]))} over plain accuracy" if move[up] > 0 else head
    if move[down] < 0:
        text += f"{' and' if move[up] > 0 else ';'} {names([subs[down]])} loses {_places(int(-move[down]))}"
    return f"{text} ({int((move != 0).sum())} of {len(subs)} models move)."


def _which(x: int, end: int, word: str) -> str:
    """``the easiest split``, or ``split 2, the easiest with samples,`` when the end split is empty."""
    return f"the {word} split" if x == end else f"split {x}, the {word} with samples,"


def splits_takeaway(table: pd.DataFrame, lb: pd.DataFrame) -> str:
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
    return (f"{names([top])} scores {mine[a]:.1f} on {_which(a, 1, 'easiest')} and {mine[b]:.1f} on "
            f"{_which(b, n, 'hardest')}; the models differ most on split {k} (from {scores.min():.1f} to "
            f"{scores.max():.1f}).").replace(",;", ";").replace(", and", " and")


def samples_takeaway(table: pd.DataFrame, points: pd.DataFrame, n_models: int, n_splits: int | None) -> str:
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
    return f"{head}; {which} holds {share:.0%} of the wrong predictions, against {held:.0%} of all predictions."


def weights_takeaway(table: pd.DataFrame, presets: pd.DataFrame, continuous: bool, leader: str) -> str:
    """How much the hardest split weighs and holds (for ``leader`` when the models' splits
    differ, as with WMProb), and who wins across Table 1's cases (``table``:
    ``views.split_table``; ``presets``: ``views.preset_table``)."""
    cases = presets[presets["case"] != "accuracy"]
    winners = cases[cases["rank"] == 1].groupby("submission")["case"].nunique().sort_values(ascending=False)
    total = cases["case"].nunique()
    lead = str(winners.index[0])
    tail = (f"{names([lead])} is first in every one of Table 1's {total} cases" if winners.iloc[0] == total else
            f"{names([lead])} is first in {winners.iloc[0]} of Table 1's {total} cases, "
            + names([str(x) for x in winners.index[1:]]) + " in the others")
    if continuous:
        return f"Every sample has its own weight here; {tail}."
    mine = table[table["submission"] == leader]
    b, share, n = (mine[c].to_numpy(float) for c in ("weight", "weight_share", "n"))
    shares = table.groupby("split")["weight_share"]
    who = "" if np.allclose(shares.min(), shares.max(), equal_nan=True) else f"For {names([leader])}, t"
    ratio = f"{b[-1] / b[0]:.3g}× the easiest" if b[0] > 0 else "while the easiest weighs nothing"
    head = f"{who or 'T'}he hardest split weighs {ratio}"
    if n[-1] > 0:
        return f"{head} and holds {share[-1]:.0%} of the attainable score; {tail}."
    k = int(np.flatnonzero(n > 0)[-1]) if (n > 0).any() else None
    held = f"; split {k + 1} holds {share[k]:.0%} of the attainable score" if k is not None else ""
    return f"{head} but holds no sample at these thresholds{held}; {tail}."
