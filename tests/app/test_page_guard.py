"""The guard around every page body (lab/view/guard.py): links that carry bad or contradictory
parameters get the page's own error message and the way back, never Streamlit's red exception
box (issue 28's reproducers)."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP, TIMEOUT, plain

INTERVALS, STABILITY, COMPARE = "pages/robustness_intervals.py", "pages/robustness_stability.py", \
    "pages/robustness_compare.py"
QA_ZERO = [f"{t}:0" for t in ("astronomy", "cooking", "lighthouses", "music", "rivers")]


def _open(page: str, query: dict) -> AppTest:
    """The link opened at the page's address (a link's keys are its page's: another page's first run
    takes them out of the address)."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    at.switch_page(page)
    at.run()
    return at


def _messages(at: AppTest) -> str:
    return " ".join(plain(m.value) for m in [*at.error, *at.warning])


@pytest.mark.parametrize(("page", "query", "names"), [
    # a pinned spotGEO configuration with ε > τ (the sidebar warns; the pin raised InputError)
    (COMPARE, {"family": "spotgeo", "pin": json.dumps({"tau": 5, "epsilon": 20, "rules": "seed"})}, "epsilon"),
    # a pin nested 100,000 levels deep (RecursionError in json.loads): named, with its limit
    (COMPARE, {"family": "spotgeo", "pin": "[" * 100_000}, "pin: JSON nested deeper than 100 levels"),
    (COMPARE, {"family": "qa", "pin": '{"threshold": ' + "9" * 5000 + "}"}, "LAB_MAX_JSON_NUMBER_CHARS"),
    # every QA theme weight 0: no weighted mean exists
    (INTERVALS, {"family": "qa", "weights": QA_ZERO}, "weight"),
    (STABILITY, {"family": "qa", "weights": QA_ZERO}, "weight"),
    # difficulty thresholds that decrease
    (INTERVALS, {"family": "difficulty", "split_mode": "threshold", "thresholds": "0.9,0.1"}, "threshold"),
])
def test_a_link_with_bad_parameters_gets_a_message_not_an_exception(sample, page, query, names):
    at = _open(page, query)
    assert not at.exception, [e.value for e in at.exception]
    said = _messages(at)
    assert said, "no message for the bad link"
    assert names.lower() in said.lower()


def _guarded(kind: str):  # pragma: no cover - runs inside AppTest's script runner
    import streamlit as st

    from lab.view import guard
    from scoring import InputError, registry

    class Navigation:
        url_path = "broken"

        def run(self):
            st.write("before the failure")
            if kind == "input":
                raise InputError("--tau", None, "expected a number in [1, 100], got 500")
            if kind == "stop":
                st.stop()
            raise ZeroDivisionError("an internal detail that must not reach the page")

    guard.run_page(Navigation(), registry.get("spotgeo"))
    st.write("after the page")


@pytest.mark.parametrize("kind", ["input", "bug", "stop"])
def test_the_guard_says_what_went_wrong_in_the_pages_words(kind):
    at = AppTest.from_function(_guarded, args=(kind,), default_timeout=TIMEOUT).run()
    assert not at.exception, [e.value for e in at.exception]
    said = " ".join(plain(e.value) for e in at.error)
    shown = [m.value for m in at.markdown]
    assert "before the failure" in shown
    if kind == "input":
        assert "--tau: expected a number in [1, 100], got 500" in said
        assert at.button(key="guard_reset")  # the way back
    elif kind == "bug":
        assert "Something went wrong" in said and "internal detail" not in said
        assert "ZeroDivisionError" not in " ".join(shown)
    else:  # st.stop is Streamlit's control flow: it stops the script, no message, nothing after it
        assert not said and "after the page" not in shown
