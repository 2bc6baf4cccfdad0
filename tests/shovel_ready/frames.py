"""Small builders of input DataFrames (every cell text) shared by the tests."""

from __future__ import annotations

import pandas as pd


def words(lo: int, hi: int) -> list[int]:
    """Words lo..hi inclusive (the memo's 'from word lo to hi')."""
    return list(range(lo, hi + 1))


def text(ws) -> str:
    """A predictionstring from word indices."""
    return " ".join(map(str, ws))


def gt_frame(rows) -> pd.DataFrame:
    """Ground truth from rows ``(essay, class, predictionstring[, label])``; label defaults to Effective."""
    rows = [tuple(r) if len(r) == 4 else (*r, "Effective") for r in rows]
    return pd.DataFrame(rows, columns=["id", "discourse_type", "predictionstring", "discourse_effectiveness"],
                        dtype=object)


def _prob_text(p) -> tuple[str, str]:
    if isinstance(p, str):
        return p, repr(1 - float(p))
    return f"{p:g}", f"{1 - p:g}"


def sub_frame(rows) -> pd.DataFrame:
    """A submission from rows ``(essay, class, predictionstring[, p_effective])``.

    ``p_effective`` (text, kept as given, or a number, written with ``%g``) defaults to 1;
    ``Ineffective`` is its complement.
    """
    out = []
    for r in rows:
        eff, ineff = _prob_text(r[3]) if len(r) == 4 else ("1", "0")
        out.append((r[0], r[1], r[2], eff, ineff))
    return pd.DataFrame(out, columns=["id", "class", "predictionstring", "Effective", "Ineffective"], dtype=object)
