"""A leaderboard page's CSV and JSON downloads are built when clicked, not on every rerun
(issue 29: a slider move paid for both files each time): the page runs without calling the
builders, and the buttons are there."""

from __future__ import annotations

import pytest

from lab.families import custom, qa, spotgeo
from lab.families import shovel_ready as sr
from lab.view import tables
from tests.app.helpers import app

PAGES = {
    "pages/leaderboard.py": (sr, ("leaderboard_csv", "leaderboard_json"), ("lb_csv", "lb_json")),
    "pages/spotgeo_leaderboard.py": (spotgeo, ("leaderboard_csv", "leaderboard_json"), ("sg_lb_csv", "sg_lb_json")),
    "pages/qa_leaderboard.py": (qa, ("leaderboard_csv", "leaderboard_json"), ("qa_lb_csv", "qa_lb_json")),
    "pages/custom_leaderboard.py": (custom, ("leaderboard_csv", "leaderboard_json"), ("cu_lb_csv", "cu_lb_json")),
    "pages/difficulty_leaderboard.py": (tables, ("csv_bytes", "json_bytes"), ("df_lb_csv", "df_lb_json")),
}


@pytest.mark.parametrize("page", list(PAGES))
def test_downloads_are_not_built_by_a_rerun(page, sample, monkeypatch):
    module, builders, keys = PAGES[page]
    calls = []
    for name in builders:
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, _real=real, _name=name, **k: calls.append(_name) or _real(*a, **k))
    at = app(page)
    ids = [b.proto.id for b in at.get("download_button")]
    for key in keys:
        assert any(key in i for i in ids), (key, ids)
    assert calls == [], calls
