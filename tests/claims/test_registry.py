"""The registry of sentence kinds is complete and tested: every kind has a property test with at
least 200 seeded random cases, every property test's kind is registered, and the property tests
catch deliberately broken writers (a range over a gap, a rank read as a score, a rounding bound
too wide, "exact" beside a random draw, a count where checking stopped, points with decimals)."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import tests.claims
from scoring import claims
from scoring.claims import board, shakeup, validation, words


def all_cases() -> dict[str, int]:
    out: dict[str, int] = {}
    for info in pkgutil.iter_modules(tests.claims.__path__):
        if info.name.startswith("test_"):
            mod = importlib.import_module(f"tests.claims.{info.name}")
            for kind, n in getattr(mod, "CASES", {}).items():
                assert kind not in out, f"{kind} has two property tests"
                out[kind] = n
    return out


def test_every_sentence_kind_has_a_property_test_of_hundreds_of_cases():
    cases = all_cases()
    assert set(cases) == set(claims.KINDS), (sorted(set(claims.KINDS) - set(cases)), sorted(set(cases) - set(claims.KINDS)))
    assert min(cases.values()) >= 200, {k: n for k, n in cases.items() if n < 200}
    for kind in claims.KINDS.values():
        assert kind.states and kind.shown and callable(kind.write), kind.name


def test_the_registry_lists_the_kinds_once_by_name():
    assert all(k == v.name and "." in k for k, v in claims.KINDS.items())
    with pytest.raises(ValueError, match="twice"):
        claims.claim("shakeup.advice", states="x", shown=("y",))(lambda: "")


# ---- the property tests catch broken writers ---------------------------------------------------------
def test_a_range_written_over_a_gap_is_caught(monkeypatch):
    from tests.claims.test_shakeup_claims import test_advice_states_the_grids_own_numbers

    def spans(values, grid):  # broken: first to last, whatever lies between
        v = sorted(values)
        return f"{v[0]:.0%}" if len(v) == 1 else f"{v[0]:.0%} to {v[-1]:.0%}"

    monkeypatch.setattr(shakeup, "percent_runs", spans)
    with pytest.raises(AssertionError):
        test_advice_states_the_grids_own_numbers()


def test_exact_beside_a_random_draw_is_caught(monkeypatch):
    from scoring.core import shakeup_selection
    from tests.claims.test_shakeup_claims import (
        test_selection_states_the_tables_own_numbers_and_says_exact_only_when_nothing_is_random as check,
    )

    real = shakeup_selection._choices
    monkeypatch.setattr(shakeup_selection, "_choices", lambda *a: (real(*a)[0], True))  # broken: always "every subset"
    with pytest.raises(AssertionError):
        check(monkeypatch)


def test_a_rank_read_as_a_score_and_a_bound_too_wide_are_caught(monkeypatch):
    from scoring.custom import published
    from tests.claims.test_custom_claims import (
        test_published_comparison_reads_ranks_as_ranks_and_says_rounding_only_within_the_bound as check,
    )

    with monkeypatch.context() as m:
        m.setattr(published, "reads_as_rank", lambda res, column: False)  # broken: Rank compared as higher-is-better
        with pytest.raises(AssertionError):
            check()
    real = published.half_units
    monkeypatch.setattr(published, "half_units", lambda d: real(d) * 10)  # broken: ten times the rounding
    with pytest.raises(AssertionError):
        check()


def test_a_count_where_checking_stopped_is_caught(monkeypatch):
    from tests.claims.test_board_claims import (
        test_the_validation_count_is_a_count_only_when_every_file_was_checked_to_its_end as check,
    )

    monkeypatch.setattr(validation, "found", lambda problems, *, more, limit: (
        f"The files have {words.count(len(problems), 'problem')}: fix them and load again."))
    with pytest.raises(AssertionError):
        check()


def test_points_with_decimals_and_a_rounded_probability_are_caught(monkeypatch):
    from tests.claims.test_board_claims import test_winner_takeaway_states_the_leaderboards_own_numbers
    from tests.claims.test_shakeup_claims import test_advice_states_the_grids_own_numbers

    with monkeypatch.context() as m:
        m.setattr(board, "gap", lambda x, exact_points=False: words.margin(x))  # broken: "by 14.000"
        with pytest.raises(AssertionError):
            test_winner_takeaway_states_the_leaderboards_own_numbers()
    monkeypatch.setattr(shakeup, "percent", lambda p, target=None, **k: f"{p:.0%}")  # broken: 49.6 % reads 50%
    with pytest.raises(AssertionError):
        test_advice_states_the_grids_own_numbers()

