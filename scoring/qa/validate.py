"""Every problem of a QA bundle at once (the Data page's report), not only the first.

Each file is checked row by row (:func:`scoring.core.validate.table_errors`: each problem's
row left out, the check repeated): the ground truth, then every submission and the theme
weights against it. A question whose ground-truth row was left out is left out of the
submissions too (else each would say it is "not in the ground truth"), and a gap that only
left-out rows leave (their questions "missing", a theme without its weight) is not reported
again.
"""

from __future__ import annotations

import pandas as pd

from ..core.errors import InputError
from ..core.sources import expand_submissions, source_name
from ..core.validate import MAX_ERRORS, PER_FILE, table_errors
from .data import load_ground_truth, load_submission, load_theme_weights


def _ids(df: pd.DataFrame, column: str) -> set[str]:
    return set(df[column].tolist()) if column in df.columns else set()


def _without(df: pd.DataFrame, column: str, values: set[str]) -> pd.DataFrame:
    if not values or column not in df.columns:
        return df
    keep = ~df[column].isin(values).to_numpy()
    out = df[keep].reset_index(drop=True)
    out.attrs["rows"] = df.attrs["rows"][keep]
    return out


class _Gap:
    """A check repeated on fewer and fewer rows: ``left_out`` are the values of ``column`` in
    the rows it no longer has."""

    def __init__(self, column: str):
        self.column, self.first = column, None

    def left_out(self, df: pd.DataFrame) -> set[str]:
        if self.first is None:
            self.first = _ids(df, self.column)
        return self.first - _ids(df, self.column)


def validate(*, ground_truth, submissions, theme_weights=None, limit: int = MAX_ERRORS,
             progress=None) -> list[InputError]:
    """Up to ``limit`` problems of the bundle, each naming its file and row (at most
    ``PER_FILE`` a file); an empty list when the bundle loads."""
    errors: list[InputError] = []

    def room() -> int:
        return min(PER_FILE, max(0, limit - len(errors)))

    name = source_name(ground_truth, "ground truth")
    gt_gap, gt_themes = _Gap("question_id"), _Gap("theme")

    def check_gt(df):
        gt_gap.left_out(df)
        gt_themes.left_out(df)
        return load_ground_truth(df, name)

    found, gt = table_errors(check_gt, ground_truth, name, limit=room())
    errors += found
    try:
        items = expand_submissions(submissions)
    except InputError as e:
        return (errors + [e])[:limit]
    if not items:
        errors.append(InputError("submissions", None, "no submission given"))
    if gt is None:
        return errors[:limit]
    gone = (gt_gap.first or set()) - set(gt.questions)  # questions of left-out ground-truth rows

    def check_sub(df, display: str, gap: _Gap):
        left = gap.left_out(df)
        df = _without(df, "question_id", gone)
        try:
            return load_submission(df, display, gt)
        except InputError as e:
            missing = set(gt.questions) - _ids(df, "question_id")
            if e.row is None and left and missing and missing <= left:
                return None  # only the questions of the rows left out are missing
            raise

    for k, (team, src, display) in enumerate(items):
        if progress is not None:
            progress(k, len(items), team)
        if not room():
            break
        gap = _Gap("question_id")
        errors += table_errors(lambda df, d=display, g=gap: check_sub(df, d, g), src, display, limit=room())[0]
    if progress is not None:
        progress(len(items), len(items), "")
    if theme_weights is not None and room():
        wname = source_name(theme_weights, "theme weights")
        w_gap = _Gap("theme")
        lost = (gt_themes.first or set()) - set(gt.themes)  # themes only left-out rows had

        def check_weights(df):
            left = w_gap.left_out(df)
            df = _without(df, "theme", lost)
            try:
                return load_theme_weights(df, wname, gt.themes)
            except InputError as e:
                if e.row is None and left:
                    return None  # a theme without its weight, or no weight > 0, once rows were left out
                raise

        errors += table_errors(check_weights, theme_weights, wname, limit=room())[0]
    return errors[:limit]
