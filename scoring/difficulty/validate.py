"""Every problem of a difficulty bundle at once (the Data page's report), not only the first.

The samples are checked row by row (:func:`scoring.core.validate.table_errors`: each problem's
row left out, the check repeated); once they are clean, the predictions likewise (with the
samples that a left-out row leaves incomplete set aside); the training texts, which have no
rows to leave out, by one load.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.errors import InputError
from ..core.sources import source_name
from ..core.tables import read_table
from ..core.validate import MAX_ERRORS, PER_FILE, read_rows, stopped, table_errors
from .predictions import read_predictions
from .samples import read_samples


def validate(*, samples, predictions, train=None, limit: int = MAX_ERRORS, progress=None) -> list[InputError]:
    """Up to ``limit`` problems of the bundle, each naming its file and row (at most
    ``PER_FILE`` per file); an empty list when the bundle loads."""
    errors: list[InputError] = []

    def room() -> int:
        return min(PER_FILE, max(0, limit - len(errors)))

    s_name = source_name(samples, "samples.csv")
    p_name = source_name(predictions, "predictions.csv")
    s_df, errors = read_rows(lambda s: read_table(s, s_name), samples, s_name, limit=room())
    if s_df is None:  # read once: checked here, and set aside from below
        return errors[:limit]
    found, smp = table_errors(lambda df: read_samples(df, s_name), s_df, s_name, limit=room())
    errors += found
    if smp is None or errors:
        # predictions checked against a partial set of samples would be wrong about the samples
        # left out ("sample_id 's2' is not in samples.csv"): they are checked once these load
        return stopped(sorted(errors, key=lambda e: e.row or 0))[:limit]
    full: list[int] = []

    def check(df: pd.DataFrame):
        if not full:
            full.append(len(df))
        if len(df) == full[0]:
            return read_predictions(df, p_name, smp)
        # bad rows were left out: so are the samples that lost a row, for every model, so that
        # the gap they leave is not itself reported ("model 'A' has no row for sample 's2'")
        per_model = df.groupby("model", sort=False)["sample_id"].agg(set)
        keep = set.intersection(*per_model) if len(per_model) else set()
        mask = s_df["sample_id"].isin(keep).to_numpy()
        sub = s_df[mask].reset_index(drop=True)
        sub.attrs["rows"] = np.asarray(s_df.attrs["rows"])[mask]
        # the other models' rows of those samples go too (else: "sample_id '5' is not in samples.csv");
        # a row for a sample the file never had stays, and is reported as such
        known = set(smp.ids.to_pylist())
        drop = df["sample_id"].isin(known - keep).to_numpy()
        rest = df[~drop].reset_index(drop=True)
        rest.attrs["rows"] = np.asarray(df.attrs["rows"])[~drop]
        return read_predictions(rest, p_name, read_samples(sub, s_name))

    errors += table_errors(check, predictions, p_name, limit=room())[0]
    if train is not None and not errors:
        from .data import load_competition

        try:  # the training texts (and the need for a text column) are checked by the load itself
            load_competition(samples, predictions, train)
        except InputError as e:
            errors.append(e)
    return errors[:limit]
