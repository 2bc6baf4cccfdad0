"""Fixtures of the app tests: the hand-worked competition as the default data."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.helpers import write_competition
from tests.browser import launch_browser, serve


@pytest.fixture
def core_dir(tmp_path, monkeypatch) -> Path:
    folder = write_competition(tmp_path / "core")
    monkeypatch.setenv("LAB_DATA_DIR", str(folder))
    return folder


@pytest.fixture
def tiny(tiny_dir, monkeypatch):
    """Make the tiny competition the default data (as LAB_DATA_DIR does for `streamlit run`)."""
    monkeypatch.setenv("LAB_DATA_DIR", str(tiny_dir))
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(tiny_dir.parent / "uploads"))
    return tiny_dir


@pytest.fixture
def sample(monkeypatch):
    monkeypatch.delenv("LAB_DATA_DIR", raising=False)


# ---- the real-browser tests (tests/app/test_browser_*.py): one of each per test module ----------
@pytest.fixture(scope="module")
def browser():
    """A headless Chromium (``tests.browser.launch_browser``; under CI=true a missing one fails)."""
    yield from launch_browser()


@pytest.fixture(scope="module")
def app_url():
    """``streamlit run app.py`` on the sample data, on a free port: its base URL."""
    with serve() as base:
        yield base


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The same, with its uploads kept in a folder of its own (``LAB_UPLOAD_DIR``)."""
    with serve(env_extra={"LAB_UPLOAD_DIR": str(tmp_path_factory.mktemp("uploads"))}) as base:
        yield base
