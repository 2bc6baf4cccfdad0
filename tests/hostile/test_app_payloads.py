"""Markdown and HTML payloads through every page (AppTest): every text element shows them
literally; the Plotly figures escape them; nothing links to the payloads' site."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from lab import families
from scoring import registry
from tests.app.helpers import APP, TIMEOUT
from tests.hostile import payloads

TEXT_ELEMENTS = ("markdown", "caption", "warning", "error", "info", "success", "title", "subheader", "header")


@pytest.fixture
def payload_dir(tmp_path, monkeypatch):
    folder = payloads.write(tmp_path / "payloads")
    monkeypatch.setenv("LAB_DATA_DIR", str(folder))
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(tmp_path / "uploads"))
    return folder


def _check_page(at: AppTest, page: str) -> None:
    assert not at.exception, (page, [e.value for e in at.exception])
    for kind in TEXT_ELEMENTS:
        for el in at.get(kind):
            value = getattr(el, "value", None) or getattr(el.proto, "body", "")
            bad = payloads.live_markup(str(value))
            assert bad is None, (page, kind, bad, str(value)[:300])
    for widget in (*at.get("selectbox"), *at.get("multiselect"), *at.get("slider"), *at.get("toggle")):
        assert payloads.live_markup(str(widget.label)) is None, (page, widget.label)
    for chart in at.get("plotly_chart"):
        spec = chart.proto.spec
        for team in payloads.TEAMS:
            assert json.dumps(team)[1:-1] not in spec or "<" not in team, (page, team)
        assert "<img" not in spec and "](https://evil" not in spec.replace("\\/", "/"), page


def test_every_page_shows_link_and_data_payloads_as_text(payload_dir):
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(payloads.LINK)
    at.run()
    assert any("Some link parameters were ignored" in w.value for w in at.sidebar.warning)
    pages = [p.path for fam in registry.families() for p in families.ui(fam).pages] + ["pages/data.py"]
    for page in pages:
        at.switch_page(page).run()
        _check_page(at, page)
    # the payload team names reach the tables as they are (cells are text, never markup)
    at.switch_page("pages/leaderboard.py").run()
    table = next(d.value for d in at.dataframe if ("", "Team") in d.value.columns)  # the grouped stage table
    teams = set(table[("", "Team")])
    assert teams == set(payloads.TEAMS)


def test_uploaded_file_names_and_errors_are_text(payload_dir):
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    at.switch_page("pages/data.py").run()
    gt = (payload_dir / "ground_truth.csv").read_bytes()
    bad = b"id,class,predictionstring,Effective,Ineffective\ne0,Lead,1 2,2,0\n"
    at.file_uploader(key="data_sr_ground_truth").set_value(("[gt](https://evil.example).csv", gt, "text/csv"))
    at.file_uploader(key="data_sr_submissions").set_value([("<img src=https:evil.example>.csv", bad, "text/csv")])
    at.run()
    at.button(key="data_sr_load").click().run()
    _check_page(at, "pages/data.py")
    assert any("img src" in e.value for e in at.error)  # the file is named, as text
