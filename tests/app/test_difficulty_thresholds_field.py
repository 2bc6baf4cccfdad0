"""Typing something that is not a list of numbers in Thresholds (issue 23, item 6): the error
is shown beside the field, and the page keeps its title and says what to change, styled as an
error — not one unstyled line in place of the page."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP, TIMEOUT, plain, rerun

LB = "pages/difficulty_leaderboard.py"


def test_unreadable_thresholds_show_an_error_beside_the_field(monkeypatch):
    monkeypatch.delenv("LAB_DATA_DIR_DIFFICULTY", raising=False)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"split_mode": "threshold"})
    at.switch_page(LB)
    rerun(at)
    assert not at.sidebar.error and at.main.dataframe
    at.text_input(key="df_thresholds").set_value("abc")
    rerun(at)
    # beside the field: the sidebar's only error names the field and the value typed
    beside = [plain(e.value) for e in at.sidebar.error]
    assert len(beside) == 1 and beside[0].startswith("**Thresholds**:") and "'abc'" in beside[0], beside
    # the page: its title, then one styled error pointing at the field, and no table
    assert [t.value for t in at.main.title] == ["Leaderboard"]
    page = plain(at.main.error[0].value)
    assert "cannot be scored" in page and "Change **Thresholds** in the sidebar" in page
    assert not at.main.dataframe
    # a readable list clears both
    at.text_input(key="df_thresholds").set_value("0.3, 0.6")
    rerun(at)
    assert not at.sidebar.error and not at.main.error and at.main.dataframe
