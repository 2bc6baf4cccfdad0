"""The wide-table CSV writer (QA with thousands of themes) writes what pandas writes, byte
for byte (pandas is the reference)."""

from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pytest

from scoring.core.export import to_csv
from scoring.core.widecsv import simple, wide_csv

TEXT = ["plain", "a,b", 'say "hi"', "line\nbreak", " lead", "", "=1+1", "naïve ✓", "tab\there", "cr\rx", None]
FLOATS = [0.0, -0.0, 1.5, 1e-300, 1e300, float("inf"), float("-inf"), float("nan"), 0.1 + 0.2, 123456789.123]


def random_frame(rng: random.Random, rows: int, cols: int) -> pd.DataFrame:
    data = {}
    for j in range(cols):
        kind = rng.choice(["float", "int", "bool", "text", "string", "Int64"])
        name = rng.choice(["c", "x,y", 'q"', "th:score", "é"]) + str(j)
        if kind == "float":
            data[name] = np.array([rng.choice(FLOATS + [rng.uniform(-5, 5)]) for _ in range(rows)])
        elif kind == "int":
            data[name] = np.array([rng.randint(-10**12, 10**12) for _ in range(rows)], dtype=np.int64)
        elif kind == "bool":
            data[name] = np.array([rng.random() < 0.5 for _ in range(rows)])
        elif kind == "text":
            data[name] = pd.Series([rng.choice(TEXT) for _ in range(rows)], dtype=object)
        elif kind == "string":
            data[name] = pd.Series([rng.choice(TEXT) for _ in range(rows)], dtype="string")
        else:
            data[name] = pd.Series([rng.choice([1, None, -7]) for _ in range(rows)], dtype="Int64")
    return pd.DataFrame(data)


@pytest.mark.parametrize("float_format", [None, "%.10g"])
def test_wide_csv_is_pandas_to_csv(float_format):
    rng = random.Random(11)
    for _ in range(60):
        df = random_frame(rng, rng.randint(0, 4), rng.randint(1, 12))
        assert simple(df)
        assert wide_csv(df, float_format=float_format) == df.to_csv(index=False, float_format=float_format)


def test_to_csv_takes_the_wide_path_with_the_same_text():
    rng = np.random.default_rng(0)
    df = pd.DataFrame(rng.random((3, 1500)), columns=[f"t{i}:score" for i in range(1500)])
    df.insert(0, "submission", ["=evil", "b", "c"])
    text = to_csv(df)
    expected = df.assign(submission=["'=evil", "b", "c"]).to_csv(index=False, float_format="%.10g")
    assert text == expected
