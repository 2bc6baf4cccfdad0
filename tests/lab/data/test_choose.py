"""Choosing the data a run shows, in one step (``lab.data.store.choose``): the session's entry,
else the upload the link names (memory, else disk), else the default — and why named data is
not shown. Each case is a line of the rule written out below; nothing is read from the session
or the link (``store.active`` does that around it)."""

from __future__ import annotations

import pytest

from lab.data import store, uploads
from scoring import get
from tests.shovel_ready.tiny import tiny_files

FAM = get("shovel-ready")


def _bundle(extra_team: str = "") -> dict:
    files = tiny_files()
    subs = [(n.split("/")[1], b) for n, b in files.items() if n.startswith("submissions/")]
    if extra_team:  # another team: other bytes, another digest
        subs.append((f"{extra_team}.csv", files["submissions/Alpha.csv"]))
    return {"ground_truth": ("ground_truth.csv", files["ground_truth.csv"]), "submissions": subs}


@pytest.fixture
def default(tiny_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("LAB_DATA_DIR", str(tiny_dir))
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(tmp_path / "uploads"))
    return store.default_entry(FAM)


def _saved(extra_team: str) -> str:
    """An upload kept on disk only (as after a server restart): its digest."""
    bundle = _bundle(extra_team)
    digest = store.bundle_digest(FAM, bundle)
    assert uploads.save(FAM.name, digest, bundle)
    return digest


def test_no_session_data_and_no_link_is_the_default(default):
    assert store.choose(FAM, held=None, link=None) == store.Choice(default, None, None)


def test_the_sessions_own_data_wins_over_the_link(default):
    up = store.load_bundle(FAM, _bundle("Gamma"))
    other = "f" * 64
    assert store.choose(FAM, held=up, link=other) == store.Choice(up, up, up.digest)
    # a dataset picked from a folder (default-like): kept, the link left as it was
    assert store.choose(FAM, held=default, link=other) == store.Choice(default, default, other)


def test_a_link_opens_an_upload_from_disk_and_the_session_keeps_it(default):
    digest = _saved("Delta")
    assert store._store().find((FAM.name, digest)) is None  # not in memory: read from disk
    c = store.choose(FAM, held=None, link=digest)
    assert (c.entry.digest, c.entry.on_disk, c.keep, c.link, c.missing) == (digest, True, c.entry, digest, None)
    assert sorted(c.entry.comp.submission_names) == ["Alpha", "Beta", "Delta"]
    again = store.choose(FAM, held=None, link=digest)  # now from memory: the same entry
    assert again.entry is c.entry


def test_a_link_naming_data_this_server_lacks_or_deleted_gets_the_default_and_says_why(default):
    assert store.choose(FAM, held=None, link="a" * 64) == store.Choice(default, None, None, "unknown")
    digest = _saved("Epsilon")
    assert uploads.delete(FAM.name, digest)
    assert store.choose(FAM, held=None, link=digest) == store.Choice(default, None, None, "deleted")


def test_an_upload_expired_on_disk_is_dropped_from_memory_too(default, monkeypatch):
    digest = _saved("Zeta")
    entry = store.choose(FAM, held=None, link=digest).entry
    monkeypatch.setattr(uploads, "touch", lambda family, d: False)  # its files expired
    assert store.choose(FAM, held=None, link=digest) == store.Choice(default, None, None, "unknown")
    assert store._store().find((FAM.name, digest)) is None and entry.on_disk


def test_data_deleted_by_someone_else_falls_back_and_clears_only_its_own_link(default):
    up = store.load_bundle(FAM, _bundle("Eta"))
    up.deleted = True
    assert store.choose(FAM, held=up, link=up.digest) == store.Choice(default, None, None, "deleted")
    other = "b" * 64
    assert store.choose(FAM, held=up, link=other) == store.Choice(default, None, other, "deleted")
