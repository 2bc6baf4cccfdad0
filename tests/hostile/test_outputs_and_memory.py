"""Formula-safe command-line output, plain progress lines off a terminal, the small-group
guardrail, and memory that goes when the data's last holder does (the app's store)."""

from __future__ import annotations

import gc
import io
import os
import time
from pathlib import Path

import pytest

from lab.data import store, uploads
from scoring.cli import ProgressBar
from scoring.core.cache import LRU
from tests.cli import run_cli
from tests.shovel_ready.tiny import TINY_ALPHA, TINY_BETA, TINY_DEMO, TINY_GT


def _comp(tmp_path: Path, names=("Alpha", "Beta")) -> Path:
    (tmp_path / "subs").mkdir()
    (tmp_path / "gt.csv").write_text(TINY_GT)
    for n, text in zip(names, (TINY_ALPHA, TINY_BETA), strict=False):
        (tmp_path / "subs" / f"{n}.csv").write_text(text)
    (tmp_path / "demo.csv").write_text(TINY_DEMO)
    return tmp_path


def test_command_line_csv_is_formula_safe_unless_raw_names(tmp_path):
    d = _comp(tmp_path, names=("=HYPERLINK(1)", "@SUM"))
    args = ["leaderboard", "--ground-truth", d / "gt.csv", "--submissions", d / "subs"]
    safe = run_cli(*args)
    names = {line.split(",")[0] for line in safe.stdout.splitlines()[1:]}
    assert safe.returncode == 0 and names == {"'=HYPERLINK(1)", "'@SUM"}
    raw = run_cli(*args, "--raw-names")
    assert {line.split(",")[0] for line in raw.stdout.splitlines()[1:]} == {"=HYPERLINK(1)", "@SUM"}
    doc = run_cli(*args, "--format", "json")  # JSON is for programs: the names as they are
    assert '"submission": "=HYPERLINK(1)"' in doc.stdout


def test_progress_is_plain_lines_when_not_a_terminal():
    out = io.StringIO()
    bar = ProgressBar(out)
    for k in range(1001):
        bar(k, 1000, f"s{k}")
    lines = out.getvalue().splitlines()
    assert "\r" not in out.getvalue() and 20 <= len(lines) <= 23
    assert lines[0] == "scoring 0/1000 s0" and lines[-1] == "scoring 1000/1000 s1000"


def test_duplicate_names_name_both_files(tmp_path):
    for folder in ("round1", "round2"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "Alpha.csv").write_text(TINY_ALPHA)
    (tmp_path / "gt.csv").write_text(TINY_GT)
    res = run_cli("leaderboard", "--ground-truth", tmp_path / "gt.csv", "--submissions", tmp_path / "round1",
                  tmp_path / "round2")
    assert res.returncode == 2
    assert "round1/Alpha.csv" in res.stderr and "round2/Alpha.csv" in res.stderr


def test_small_group_guardrail_on_the_command_line(tmp_path):
    d = _comp(tmp_path)
    res = run_cli("leaderboard", "--ground-truth", d / "gt.csv", "--submissions", d / "subs", "--demographics",
                  d / "demo.csv", "--attributes", "ell_status")
    # two essays, one per group: each group is tiny and, at α = 50, carries a team's weight
    assert res.returncode == 0
    assert "has only 1 essay yet carries" in res.stderr and "fewer than 30 essays" in res.stderr


class _Comp:  # a stand-in competition with some weight
    def __init__(self, n: int):
        self.data = bytearray(n)


def test_store_keeps_an_upload_while_a_session_holds_it_and_frees_it_after():
    s = store._Store()
    s.recent = LRU(16, max_bytes=1000, weigh=lambda e: len(e.comp.data))
    held = store.Entry(None, "d1", _Comp(800), label="upload")
    s.add(("sr", "d1"), held)
    s.add(("sr", "d2"), store.Entry(None, "d2", _Comp(800), label="upload"))  # pushes d1 out of the LRU
    assert list(s.recent.items) == [("sr", "d2")]
    assert s.find(("sr", "d1")) is held  # still found: a session holds it
    del held
    gc.collect()
    assert s.find(("sr", "d1")) is None  # the session ended: the memory went with it


def test_uploads_on_disk_by_digest_expire_and_never_become_other_paths(tmp_path, monkeypatch):
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(tmp_path))
    digest = "a" * 64
    bundle = {"ground_truth": ("gt.csv", b"x"), "submissions": [("A.csv", b"1"), ("B.csv", b"2")], "runtimes": None}
    uploads.save("shovel-ready", digest, bundle)
    assert uploads.load("shovel-ready", digest) == {"ground_truth": ("gt.csv", b"x"),
                                                     "submissions": [("A.csv", b"1"), ("B.csv", b"2")]}
    assert uploads.load("shovel-ready", "b" * 64) is None
    for bad in ("../../etc", "a" * 63, "A" * 64, "a" * 64 + "/.."):
        assert not uploads.valid_digest(bad)
        assert uploads.load("shovel-ready", bad) is None
    old = time.time() - 30 * 86400
    os.utime(tmp_path / "shovel-ready" / digest, (old, old))
    uploads.prune()
    assert uploads.load("shovel-ready", digest) is None


def test_upload_disk_budget_drops_the_oldest(tmp_path, monkeypatch):
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(tmp_path))
    monkeypatch.setenv("LAB_UPLOAD_DISK_BYTES", "2500")
    for i, d in enumerate("abc"):
        uploads.save("qa", d * 64, {"ground_truth": ("gt.csv", b"x" * 1000)})
        t = time.time() - 100 + i
        os.utime(tmp_path / "qa" / (d * 64), (t, t))
    uploads.prune()
    kept = sorted(p.name[0] for p in (tmp_path / "qa").iterdir() if uploads.valid_digest(p.name))
    assert kept == ["b", "c"]


@pytest.mark.parametrize("char", ["\u00a0", "\u2003", "\x1c"])
def test_unicode_whitespace_upload_is_a_clear_error_in_the_app(tmp_path, tiny_dir, monkeypatch, char):
    from tests.app.helpers import DATA, open_page, plain, upload

    monkeypatch.setenv("LAB_DATA_DIR", str(tiny_dir))
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(tmp_path / "uploads"))
    at = open_page(DATA)
    upload(at, TINY_GT, {"Alpha": TINY_ALPHA.replace("0 1 2 3 4", f"0{char}1 2 3 4")})
    text = plain(" ".join(e.value for e in at.error))
    assert f"U+{ord(char):04X}" in text and "Assertion" not in text and "internal error" not in text
