"""The Rank intervals page's default answer and the Stability map's first map are computed when a family's default data is loaded
(``lab.robustness.warm``, started by ``app.py``'s ``warm``), in a background thread, so a fresh
visitor's page finds it in the shared cache (issue 23, "every page done ≤ 2 s after navigation").

The data: the hand-worked difficulty competition of tests/app/test_difficulty_pages.py, with a
word unique to this test in one text so that its digest is new to the test process (the server's
store loads each default data once)."""

from __future__ import annotations

import threading
import uuid

from streamlit.testing.v1 import AppTest

from lab import robustness as rb
from tests.app.helpers import APP, TIMEOUT, rerun, table_with
from tests.app.test_difficulty_pages import HARD, SAMPLES, WIN, predictions

LB, INTERVALS, STABILITY = ("pages/difficulty_leaderboard.py", "pages/robustness_intervals.py",
                             "pages/robustness_stability.py")


def test_a_default_datas_intervals_and_map_are_computed_at_load_and_the_pages_read_them(tmp_path, monkeypatch):
    folder = tmp_path / "hand"
    folder.mkdir()
    (folder / "samples.csv").write_text(SAMPLES.replace("plain words", f"plain words {uuid.uuid4().hex}"))
    (folder / "predictions.csv").write_text(predictions())
    monkeypatch.setenv("LAB_DATA_DIR_DIFFICULTY", str(folder))
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(tmp_path / "uploads"))
    callers: list[str] = []
    real = rb.bootstrap

    def counted(*args, **kwargs):
        callers.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(rb, "bootstrap", counted)
    maps: list[str] = []
    real_map = rb.map_ranks  # the cells of a map: what costs

    def counted_map(*args, **kwargs):
        maps.append(threading.current_thread().name)
        return real_map(*args, **kwargs)

    monkeypatch.setattr(rb, "map_ranks", counted_map)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.switch_page(LB)
    rerun(at)  # the default data is loaded: its leaderboard at once, the intervals in the background
    warmers = [t for t in threading.enumerate() if t.name.startswith("warm-intervals-difficulty-")]
    for t in warmers:
        t.join(60)
    assert [c for c in callers if c.startswith("warm-intervals-difficulty-")], callers
    at.switch_page(INTERVALS)
    rerun(at)
    # the page's bootstrap came from the cache: no run of it outside a warm-up thread
    assert [c for c in callers if not c.startswith("warm-intervals-")] == []
    t = table_with(at, "Letters")
    assert set(t["Team"]) == {"good", WIN, HARD}
    # the Stability map's first map likewise
    assert [c for c in maps if c.startswith("warm-intervals-difficulty-")], maps
    at.switch_page(STABILITY)
    rerun(at)
    assert [c for c in maps if not c.startswith("warm-intervals-")] == []
    assert at.get("plotly_chart")
    up = at.selectbox(key="rob_map_y")  # another pair: its map computed for this page
    other = next(n for n in up.options if n not in (up.value, at.selectbox(key="rob_map_x").value))
    up.set_value(other)
    rerun(at)
    assert [c for c in maps if not c.startswith("warm-intervals-")] != []


def test_unscorable_default_settings_start_nothing(monkeypatch):
    from scoring import registry

    class Entry:  # what warm reads of a store entry
        scorer, digest = object(), "0" * 64

    fam = registry.get("difficulty")

    def refuse(scorer, values):
        raise ValueError("cannot be scored")

    monkeypatch.setattr(rb.families, "ui", lambda f: rb.families.FamilyUI(pages=(), check=refuse))
    assert rb.warm(fam, Entry(), {}) is None

