"""The leaderboard as a strict-JSON document (SPEC §8), shared by the CLI and the dashboard."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from .scorer import LEADERBOARD_COLUMNS


def json_value(v: Any) -> Any:
    """A cell as a strict JSON value: numpy scalars unwrapped, ±∞ as "inf"/"-inf", NaN as null.

    >>> json_value(np.float64("inf")), json_value(np.int64(3)), json_value(np.bool_(True))
    ('inf', 3, True)
    """
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, (float, np.floating)):
        v = float(v)
        if math.isnan(v):
            return None
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return v
    return v


def json_parameters(params: Mapping[str, Any]) -> dict[str, Any]:
    """Leaderboard keyword arguments as JSON values (attributes a list, α = ∞ as "inf")."""
    out = {k: json_value(v) for k, v in params.items()}
    if "attributes" in out:
        out["attributes"] = list(params["attributes"])
    return out


def leaderboard_document(lb: pd.DataFrame, params: Mapping[str, Any],
                         text: Callable[[Any], Any] = lambda v: v) -> dict[str, Any]:
    """``{"parameters": …, "leaderboard": [{the SPEC §8 columns…, "groups": {label: score}}]}``.

    ``text`` is applied to every value and group label (the dashboard passes its
    spreadsheet-formula escaping).
    """
    groups = [c for c in lb.columns if c not in LEADERBOARD_COLUMNS]
    rows = []
    for rec in lb.to_dict("records"):
        row = {c: text(json_value(rec[c])) for c in LEADERBOARD_COLUMNS}
        row["groups"] = {text(g): json_value(rec[g]) for g in groups}
        rows.append(row)
    return {"parameters": json_parameters(params), "leaderboard": rows}
