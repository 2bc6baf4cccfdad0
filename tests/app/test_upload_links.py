"""Issue 31, "Bearer links" and uploaded names: the uploads folder is private and per user, a
data link is said to be a key (with a link without it beside), an upload can be deleted (and a
later link says so), and a team keeps the name its file was uploaded under."""

from __future__ import annotations

import os
import stat
import time

import pytest

from lab.data import store, uploads
from tests.app.helpers import CSV, DATA, SEGMENTS, open_page, plain, upload
from tests.shovel_ready.tiny import TINY_ALPHA, TINY_BETA, TINY_GT

BUNDLE = {"ground_truth": ("gt.csv", b"x"), "submissions": [("A.csv", b"1"), ("B.csv", b"2")]}
DIGEST = "d" * 64


def _mode(path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


# ---- the folder ------------------------------------------------------------------------------
def test_the_default_folder_is_per_user_and_private(tmp_path, monkeypatch):
    monkeypatch.delenv("LAB_UPLOAD_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert uploads.root() == tmp_path / "cache" / "leaderboard-lab" / "uploads"
    uploads.save("shovel-ready", DIGEST, BUNDLE)
    assert uploads.load("shovel-ready", DIGEST) == BUNDLE
    base = tmp_path / "cache" / "leaderboard-lab"
    bundle = base / "uploads" / "shovel-ready" / DIGEST
    for folder in (base, base / "uploads", base / "uploads" / "shovel-ready", bundle):
        assert _mode(folder) == 0o700, folder  # nobody else may list or enter them
    assert sorted(p.name for p in bundle.iterdir()) == [".leaderboard-lab", "ground_truth-0.bin", "manifest.json",
                                                       "submissions-0.bin", "submissions-1.bin"]  # the app's marker
    assert {_mode(p) for p in bundle.iterdir()} == {0o600}
    # without XDG_CACHE_HOME: ~/.cache
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert uploads.root() == tmp_path / "home" / ".cache" / "leaderboard-lab" / "uploads"


def test_an_open_folder_is_closed_and_one_of_another_kind_is_refused(tmp_path, monkeypatch):
    monkeypatch.delenv("LAB_UPLOAD_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    family = tmp_path / "leaderboard-lab" / "uploads" / "qa"
    family.mkdir(parents=True)
    for folder in (family, family.parent, family.parent.parent):
        folder.chmod(0o755)  # as the old default left them: world-listable
    uploads.save("qa", DIGEST, BUNDLE)
    assert {_mode(f) for f in (family, family.parent, family.parent.parent)} == {0o700}
    # a family folder that is a link to somewhere else: nothing is written through it
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (family.parent / "spotgeo").symlink_to(elsewhere)
    uploads.save("spotgeo", DIGEST, BUNDLE)
    assert list(elsewhere.iterdir()) == [] and uploads.load("spotgeo", DIGEST) is None


def test_lab_upload_dir_wins_and_keeps_its_own_mode(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(shared))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert uploads.root() == shared
    uploads.save("qa", DIGEST, BUNDLE)
    assert _mode(shared) == 0o755  # a folder the admin chose (it may be /tmp) is left as it is
    assert _mode(shared / "qa") == 0o700 and _mode(shared / "qa" / DIGEST) == 0o700
    assert not (tmp_path / "cache").exists()


def test_delete_removes_the_bundle_and_remembers_it(tmp_path, monkeypatch):
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(tmp_path))
    uploads.save("qa", DIGEST, BUNDLE)
    assert not uploads.deleted("qa", DIGEST)
    assert uploads.kept_until("qa", DIGEST) == pytest.approx(time.time() + 7 * 86400, abs=60)
    assert uploads.delete("qa", DIGEST)
    assert not (tmp_path / "qa" / DIGEST).exists() and uploads.load("qa", DIGEST) is None
    assert uploads.deleted("qa", DIGEST) and uploads.kept_until("qa", DIGEST) is None
    assert not uploads.deleted("qa", "e" * 64)  # never here: not "deleted"
    assert not uploads.delete("qa", "../../" + "e" * 58)  # only a digest names a folder
    uploads.save("qa", DIGEST, BUNDLE)  # uploaded again: back, and no longer "deleted"
    assert uploads.load("qa", DIGEST) == BUNDLE and not uploads.deleted("qa", DIGEST)
    uploads.delete("qa", DIGEST)
    old = time.time() - 8 * 86400  # the marker goes with the bundles' age limit
    os.utime(tmp_path / "qa" / f".gone-{DIGEST}", (old, old))
    uploads.prune()
    assert not uploads.deleted("qa", DIGEST)


# ---- the Data page ---------------------------------------------------------------------------
def _codes(at) -> list[str]:
    return [c.value for c in at.code]


def test_the_data_page_offers_a_link_without_the_data_and_says_what_the_other_opens(tiny):
    at = open_page(DATA)
    assert "data_sr_delete" not in [b.key for b in at.button]
    assert not any("Link with your data" in m.value for m in at.markdown)  # the sample: nothing to say
    upload(at, TINY_GT, {"Alpha": TINY_ALPHA, "Gamma": TINY_BETA})
    digest = at.session_state["_sr_data"].digest
    links = [c for c in _codes(at) if "family=" in c]
    without, with_data = links
    assert "data=" not in without and f"data=sr-{digest}" in with_data
    assert without.replace("?", "&").split("&")[1:] == [p for p in with_data.replace("?", "&").split("&")[1:]
                                                      if not p.startswith("data=")]
    said = plain(" ".join(w.value for w in at.warning))
    assert "Anyone who has this link can open your uploaded files" in said
    assert "7 days after the last time anyone opens it" in said and "also after the server restarts" in said
    assert any("safe to share" in m.value for m in at.markdown)
    # every page showing the upload says so beside its address, and where the safe link is
    at.switch_page(SEGMENTS).run()
    assert any("opens these files for anyone who has it" in c.value and "link without them" in c.value
               for c in at.caption)


def test_deleting_an_upload_removes_it_everywhere_and_a_later_link_says_so(tiny, tmp_path):
    at = open_page(DATA)
    upload(at, TINY_GT, {"Alpha": TINY_ALPHA, "Gamma": TINY_BETA})
    digest = at.session_state["_sr_data"].digest
    folder = uploads.root() / "shovel-ready" / digest
    assert folder.is_dir()
    # someone else opens the link before the upload is deleted
    other = open_page(DATA)
    other.query_params["data"] = f"sr-{digest}"
    other.run()
    assert other.session_state["_sr_data"].digest == digest
    at.button(key="data_sr_delete").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "_sr_data" not in at.session_state and "data" not in at.query_params
    assert any("Deleted: your uploaded files are gone" in s.value for s in at.success)
    assert not folder.exists() and store._store().find(("shovel-ready", digest)) is None
    # the other session lets go at its next run, and says why
    other.run()
    assert "_sr_data" not in other.session_state and "data" not in other.query_params
    assert any("has been deleted" in w.value for w in other.warning)
    # a later link to it says plainly that the data is gone (not that it was never here)
    later = open_page(DATA)
    later.query_params["data"] = f"sr-{digest}"
    later.run()
    said = " ".join(w.value for w in later.warning)
    assert "has been deleted" in said and "does not have" not in said
    assert "_sr_data" not in later.session_state


def test_a_team_keeps_the_name_its_file_was_uploaded_under(tiny):
    at = open_page(DATA)
    at.file_uploader(key="data_sr_ground_truth").set_value(("truth.csv", TINY_GT.encode(), CSV))
    # a browser sends `Team "Q".csv` as `Team %22Q%22.csv` (the HTML form encoding)
    at.file_uploader(key="data_sr_submissions").set_value(
        [("a/b.csv", TINY_ALPHA.encode(), CSV), ("Team %22Q%22.csv", TINY_BETA.encode(), CSV)])
    at.run()
    at.button(key="data_sr_load").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert sorted(at.session_state["_sr_data"].comp.submission_names) == ['Team "Q"', "a/b"]
    loaded = plain(" ".join(s.value for s in at.success))
    assert "a/b" in loaded and 'Team "Q"' in loaded
    note = plain(" ".join(i.value for i in at.info))
    assert "%22" in note and "Team %22Q%22.csv" in note  # the one name that was read back, said so


def test_a_link_past_its_days_opens_nothing_even_from_memory(tiny):
    at = open_page(DATA)
    upload(at, TINY_GT, {"Alpha": TINY_ALPHA, "Gamma": TINY_BETA})
    digest = at.session_state["_sr_data"].digest
    folder = uploads.root() / "shovel-ready" / digest
    fresh = open_page(DATA)  # opened within its days: it opens, and its days start again
    old = time.time() - 3 * 86400
    os.utime(folder, (old, old))
    fresh.query_params["data"] = f"sr-{digest}"
    fresh.run()
    assert fresh.session_state["_sr_data"].digest == digest
    assert folder.stat().st_mtime > time.time() - 60
    old = time.time() - 8 * 86400  # unused for 8 days: the server still holds it in memory
    os.utime(folder, (old, old))
    assert store._store().find(("shovel-ready", digest)) is not None
    late = open_page(DATA)
    late.query_params["data"] = f"sr-{digest}"
    late.run()
    assert "_sr_data" not in late.session_state
    assert any("does not have" in w.value for w in late.warning)
    assert uploads.load("shovel-ready", digest) is None and not folder.exists()  # read past its age: gone
