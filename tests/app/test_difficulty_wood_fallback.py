"""WOOD on data without training texts (issue 23, item 6): every difficulty page says plainly
that WOOD then uses the ease column as given — on the shipped samples a spurious-bias score,
which makes WOOD equal to WSBias cell for cell (spec §2: the same ease, splits and weights)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP, TIMEOUT, plain, rerun

PAGES = [f"pages/difficulty_{p}.py" for p in ("leaderboard", "splits", "samples", "weights")]
SAID = "WOOD without training texts."


def _open(page: str, query: dict) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    at.switch_page(page)
    return rerun(at)


def _table(at: AppTest):
    return next(d.value for d in at.dataframe if "Accuracy rank" in d.value.columns).set_index("Model")


@pytest.fixture(autouse=True)
def _sample(monkeypatch):
    monkeypatch.delenv("LAB_DATA_DIR_DIFFICULTY", raising=False)


def test_every_page_says_what_wood_falls_back_to_and_it_is_true():
    query = {"metric": "wood", "ease_column": "bias_algo1"}
    at = _open(PAGES[0], query)
    for page in PAGES:
        at.switch_page(page)
        rerun(at)
        notes = [plain(i.value) for i in at.main.info if SAID in i.value]
        assert len(notes) == 1, page
        assert "column **bias_algo1**, as given" in notes[0]
        assert "Algorithm 1" in notes[0] and "exactly the numbers of WSBias" in notes[0]
    # and so it is: WOOD and WSBias on bias_algo1 give the same table, cell for cell
    wood = _table(_open(PAGES[0], query))
    wsbias_at = _open(PAGES[0], {**query, "metric": "wsbias"})
    assert not any(SAID in i.value for i in wsbias_at.main.info)
    wsbias = _table(wsbias_at)
    assert len(wood) == 10 and wood.equals(wsbias)


def test_algorithm_2_is_named_for_its_column():
    at = _open(PAGES[0], {"metric": "wood", "ease_column": "bias_algo2"})
    note = next(plain(i.value) for i in at.main.info if SAID in i.value)
    assert "column **bias_algo2**" in note and "Algorithm 2" in note
