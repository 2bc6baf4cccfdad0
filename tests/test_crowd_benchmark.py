"""The crowd benchmark (issue 43) is bounded and loopback-only, its client speaks the app's protocol,
and its tallies say what they mean. A real round (two visitors, five seconds) is a slow test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import _st_client as client
from benchmarks import crowd

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("args", [("--sessions", "0"), ("--sessions", "41"), ("--seconds", "4"), ("--seconds", "601"),
                                  ("--processes", "5"), ("--stagger", "301"), ("--sweep", "10,50"),
                                  ("--sweep", "1,2,3,4,5,6,7,8,9")])
def test_sessions_seconds_processes_and_sweeps_are_bounded(args):
    out = subprocess.run([sys.executable, "-m", "benchmarks", "crowd", *args], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 2 and "expected --sessions 1-40, --seconds 5-600, --processes 1-4" in out.stderr


def test_a_sweep_is_numbers():
    out = subprocess.run([sys.executable, "-m", "benchmarks", "crowd", "--sweep", "10,x"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "expected --sweep as numbers with commas, got '10,x'" in out.stderr


def test_the_servers_listen_on_loopback_only():
    import serve
    from benchmarks import _crowd_server

    assert '"--server.address", "127.0.0.1"' in Path(_crowd_server.__file__).read_text()  # one process
    assert '"--server.address", "127.0.0.1"' in Path(serve.__file__).read_text()  # each process behind nginx
    assert serve.Cluster(processes=1, port=1).address == "127.0.0.1"  # nginx itself, by default


def test_the_quantile_is_a_value_seen_at_the_rank_asked():
    values = [5.0, 1.0, 4.0, 2.0, 3.0, 10.0, 6.0, 7.0, 8.0, 9.0]
    # sorted 1..10; 0-based rank round(p * 9): round(4.5) = 4 (half to even) -> 5; round(8.1) = 8 -> 9
    assert crowd.q(values, 0.5) == 5.0 and crowd.q(values, 0.9) == 9.0
    assert crowd.q(values, 1.0) == 10.0 and crowd.q(values, 0.0) == 1.0


def test_first_page_targets_follow_the_issue():
    assert [crowd.first_page_target(n) for n in (1, 10, 11, 20)] == [3.0, 3.0, 6.0, 6.0]


def _run(deltas: int = 3) -> client.Run:
    return client.Run(0.5, deltas, "view")


def test_a_move_is_taken_when_the_page_or_its_address_changed():
    t = crowd.Tally()
    s = client.Slider("id", "w", 0, 1, 0.1, [0.5], True, True)
    t.move("page", (s, _run(), True), "a=1", "a=1")  # the main area changed
    t.move("page", (s, _run(), False), "a=1", "a=2")  # only the address: a slider with no effect on the page
    t.move("page", (s, _run(), False), "a=1", "a=1")  # nothing: the app did not take it
    t.move("page", (s, _run(0), False), "a=1", "a=2")  # no run at all
    assert t.moves == [0.5] * 4 and t.by_page == {"page": [0.5] * 4}
    assert t.address_only == {"page: w": 1} and t.not_taken == 2


def test_errors_are_an_exception_or_a_missing_page_and_the_biggest_message_is_kept():
    t = crowd.Tally()
    t.run("v", "p", client.Run(0.1, 1, "x", ["ValueError: boom"], False, 10))
    t.run("v", "p", client.Run(0.1, 1, "x", [], True, 30))
    t.run("v", "p", client.Run(0.1, 1, "x", [], False, 20))
    assert t.errors == ["v: an exception on the page: ValueError: boom", "v: page not found"]
    assert t.biggest == {"p": 30}


def test_every_page_of_the_round_is_in_the_navigation():
    from benchmarks.load import nav_pages

    known = {p for p, _ in nav_pages()}
    assert {page for _, page, _ in crowd.PAGES} <= known
    assert {"", "spotgeo_leaderboard", "qa_leaderboard", "difficulty_leaderboard", "custom_leaderboard"} <= \
        {page for _, page, _ in crowd.PAGES}  # the five families' leaderboards
    assert {page for _, page, _ in crowd.PAGES if page.startswith("robustness_")} == \
        {p for p in known if p.startswith("robustness_")}  # and every robustness page


@pytest.mark.slow
def test_a_short_round_runs_and_reports():
    out = subprocess.run([sys.executable, "-m", "benchmarks", "crowd", "--sessions", "2", "--seconds", "5",
                          "--arrival", "once"], cwd=ROOT, capture_output=True, text=True, timeout=400)
    assert out.returncode in (0, 1), out.stderr[-2000:]  # 1: a target missed on a busy machine
    text = out.stdout
    assert "2 sessions at once" in text and "errors: 0" in text and "moves the app did not take: 0" in text
    assert "caches shared by the sessions:" in text and "load average" in text
    assert "crowd 2 at once:" in text
