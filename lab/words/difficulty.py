"""The difficulty-weighted pages' words: plain-word help for the metric's notions (WSBias, WOOD,
WMProb, ease, splits, the weight schemes, Table 1's cases) and the one-sentence takeaway that
opens each page, computed from the current numbers.

The takeaways are pure functions of the engine's frames; every model name in them goes through
:func:`~lab.words.text.md` (they are shown as markdown). A split can be empty (thresholds no sample
reaches): the sentences then speak of the easiest and hardest splits *with samples*.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from scoring.claims import difficulty as claims
from scoring.claims import words

from .text import MD, md

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
    return words.names(list(items), MD, limit=None)


# ---- the takeaways: the engine's sentences (``scoring.claims.difficulty``), as markdown ------------
def leaderboard_takeaway(lb: pd.DataFrame) -> str:
    """Who is first, and who moves most against plain accuracy."""
    return claims.leaderboard(lb, style=MD)


def splits_takeaway(table: pd.DataFrame, lb: pd.DataFrame) -> str:
    return claims.splits(table, lb, style=MD)


def samples_takeaway(table: pd.DataFrame, points: pd.DataFrame, n_models: int, n_splits: int | None) -> str:
    return claims.samples(table, points, n_models, n_splits)


def weights_takeaway(table: pd.DataFrame, presets: pd.DataFrame, continuous: bool, leader: str) -> str:
    return claims.weights(table, presets, continuous, leader, style=MD)
