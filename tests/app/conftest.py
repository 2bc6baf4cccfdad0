"""Fixtures of the app tests: the hand-worked competition as the default data."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.helpers import write_competition


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
