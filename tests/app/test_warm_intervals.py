"""The Rank intervals page's default answer is computed when a family's default data is loaded
(``lab.robustness.warm``, started by ``lab.store``), in a background thread, so a fresh
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

LB, INTERVALS = "pages/difficulty_leaderboard.py", "pages/robustness_intervals.py"


def test_a_default_datas_intervals_are_computed_at_load_and_the_page_reads_them(tmp_path, monkeypatch):
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


def test_unscorable_default_settings_start_nothing(monkeypatch):
    from scoring import registry

    class Entry:  # what warm reads of a store entry
        scorer, digest = object(), "0" * 64

    fam = registry.get("difficulty")

    def refuse(scorer, values):
        raise ValueError("cannot be scored")

    monkeypatch.setattr(rb.families, "ui", lambda f: rb.families.FamilyUI(pages=(), check=refuse))
    assert rb.warm(fam, Entry(), {}) is None
