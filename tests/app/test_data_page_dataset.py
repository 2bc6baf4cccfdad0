"""The Data page keeps the difficulty family's dataset choice (issue 23, item 6): it shows the
picker, follows a link's ``dataset=``, and writes the choice back into its own address — a
browser's page switch clears the address, and the page rewrites what it shows."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP, TIMEOUT, plain, rerun

DATA, LB = "pages/data.py", "pages/difficulty_leaderboard.py"


def _open(page: str, query: dict) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    at.switch_page(page)
    return rerun(at)


def _scoring(at: AppTest) -> str:
    return plain(next(m.value for m in at.markdown if m.value.startswith("Scoring ")))


def test_a_link_to_the_data_page_opens_the_dataset_it_names(monkeypatch):
    monkeypatch.delenv("LAB_DATA_DIR_DIFFICULTY", raising=False)
    at = _open(DATA, {"family": "difficulty", "dataset": "imdb"})  # a reload of the Data page on IMDb
    assert "IMDb sample data" in _scoring(at)
    assert at.selectbox(key="df_dataset").value == "imdb"
    assert at.query_params["dataset"] == "imdb"


def test_the_data_page_keeps_the_dataset_in_its_address(monkeypatch):
    monkeypatch.delenv("LAB_DATA_DIR_DIFFICULTY", raising=False)
    at = _open(LB, {"dataset": "imdb"})
    for k in list(at.query_params):  # what a browser's page switch does to the address
        del at.query_params[k]
    at.switch_page(DATA)
    rerun(at)
    assert "IMDb sample data" in _scoring(at)
    assert at.query_params["dataset"] == "imdb" and at.selectbox(key="df_dataset").value == "imdb"
    at.selectbox(key="df_dataset").set_value("sst-2")  # and the choice is made here too
    rerun(at)
    assert "SST-2 sample data" in _scoring(at) and at.query_params["dataset"] == "sst-2"
