"""lab.data.progress.progress_bar: one bar for the engine's progress callbacks."""

from __future__ import annotations

import pytest

from lab.data import progress as bars


class _Bar:
    def __init__(self, log, text):
        self.log = log
        log.append(("new", text))

    def progress(self, value, text=""):
        self.log.append((value, text))

    def empty(self):
        self.log.append("empty")


def _label(done, total, name):
    return f"{name} {done}/{total}" if name else f"start {total}"


@pytest.fixture
def log(monkeypatch):
    seen: list = []
    monkeypatch.setattr(bars, "_bar", lambda text: _Bar(seen, text))
    return seen


def test_an_eager_bar_shows_at_once_moves_and_is_emptied(log):
    with bars.progress_bar(_label) as progress:
        progress(0, 4, "")
        progress(2, 4, "b")
    assert log == [("new", "start 0"), (0.0, "start 4"), (0.5, "b 2/4"), "empty"]


def test_a_lazy_bar_draws_nothing_for_work_that_never_reports_or_is_too_small(log):
    with bars.progress_bar(_label, lazy=True) as progress:
        pass
    with bars.progress_bar(_label, lazy=True, min_total=5) as progress:
        progress(1, 3, "a")
    assert log == []
    with bars.progress_bar(_label, lazy=True, min_total=5) as progress:
        progress(5, 5, "z")
    assert log == [("new", "start 5"), (1.0, "z 5/5"), "empty"]


def test_a_failing_check_stops_the_work_and_the_bar_still_goes(log):
    class Gone(Exception):
        pass

    def check():
        raise Gone

    with pytest.raises(Gone), bars.progress_bar(_label, check=check) as progress:
        progress(1, 2, "a")
    assert log == [("new", "start 0"), "empty"]
