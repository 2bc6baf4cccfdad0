"""Shared fixtures: the tiny hand-written competition (``tests/shovel_ready/tiny.py``) as a folder,
and AppTest runs that go through ``app.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.shovel_ready.tiny import tiny_files


@pytest.fixture
def tiny_dir(tmp_path: Path) -> Path:
    """A competition folder laid out like `sample_data/` (with essays.csv)."""
    folder = tmp_path / "tiny"
    for rel, data in tiny_files().items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return folder


@pytest.fixture(autouse=True)
def _apptest_navigation_with_pages_dir(monkeypatch):
    """Make AppTest run `app.py` (and its `st.navigation`) on every page switch.

    AppTest resets `PagesManager.uses_pages_directory` before each run; because this app keeps
    its pages in a folder named `pages/`, Streamlit then falls back to the old
    pages-directory mode and runs a switched-to page *alone*, without `app.py` and its
    sidebar. `streamlit run` never does that (`st.navigation` turns the mode off), so the
    tests turn it off too.
    """
    from streamlit.runtime.pages_manager import PagesManager

    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        PagesManager.uses_pages_directory = False
        original(self, *args, **kwargs)

    monkeypatch.setattr(PagesManager, "__init__", init)
