"""The shared ranking: direction, lexicographic keys, one tie tolerance, the "1224" rule."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.core.ranking import order, rank, rank_lex, rank_rows


def test_1224_higher_and_lower_is_better():
    assert rank([0.9, 0.7, 0.9, 0.1]).tolist() == [1, 3, 1, 4]
    assert rank([0.9, 0.7, 0.9, 0.1], higher_is_better=False).tolist() == [3, 2, 3, 1]


def test_ties_within_the_tolerance_share_the_better_rank():
    assert rank([0.5, 0.5 + 5e-13, 0.5 - 5e-13]).tolist() == [1, 1, 1]
    assert rank([0.5, 0.5 + 2e-12]).tolist() == [2, 1]
    assert rank([0.5, 0.5 + 5e-10], tol=1e-9).tolist() == [1, 1]  # a family's own tolerance


def test_nan_is_beaten_by_every_number():
    assert rank([np.nan, 0.0, 0.3]).tolist() == [3, 2, 1]
    assert rank([np.nan, 0.0, 0.3], higher_is_better=False).tolist() == [3, 1, 2]


def test_lexicographic_keys_spotgeo_style():
    # score = 1 - F1 ascending, then MSE ascending: b and d tie on both, a loses on MSE only
    score = [0.2, 0.2, 0.1, 0.2 + 1e-13]
    mse = [5.0, 3.0, 9.0, 3.0]
    assert rank_lex([score, mse], higher_is_better=False).tolist() == [4, 2, 1, 2]
    # mixed directions: first key higher-better, second lower-better
    assert rank_lex([[1, 1, 0], [2.0, 1.0, 0.0]], higher_is_better=[True, False]).tolist() == [2, 1, 3]


def test_rank_rows_equals_rank_per_row():
    rng = np.random.default_rng(3)
    m = rng.integers(0, 4, size=(50, 7)) / 4.0  # many ties
    got = rank_rows(m)
    for row, ranks in zip(m, got, strict=True):
        assert ranks.tolist() == rank(row).tolist()
    assert rank_rows(m, higher_is_better=False)[0].tolist() == rank(m[0], higher_is_better=False).tolist()


def test_order_by_rank_then_name():
    assert order(["b", "a", "c", "d"], [2, 2, 1, 3]).tolist() == [2, 1, 0, 3]


def test_bad_shapes_are_errors():
    with pytest.raises(ValueError, match="1-d"):
        rank([[1, 2]])
    with pytest.raises(ValueError, match="one direction per key"):
        rank_lex([[1], [2]], higher_is_better=[True])
