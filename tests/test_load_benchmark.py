"""The load benchmark (issue 29) is bounded in sessions and time, and its helpers say what they
mean; the benchmark itself drives a browser and is run by hand (``python -m benchmarks load``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import load

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("args", [("--sessions", "0"), ("--sessions", "21"), ("--seconds", "601"),
                                  ("--seconds", "0"), ("--repeats", "51")])
def test_sessions_seconds_and_repeats_are_bounded(args):
    out = subprocess.run([sys.executable, "-m", "benchmarks", "load", *args], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 2 and "--sessions 1-20, --seconds 1-600, --repeats 1-50" in out.stderr


def test_the_quantile_is_a_value_seen_at_the_rank_asked():
    values = [5.0, 1.0, 4.0, 2.0, 3.0, 10.0, 6.0, 7.0, 8.0, 9.0]
    # sorted 1..10; 0-based rank round(p * 9): round(4.5) = 4 (Python rounds half to even) -> 5
    assert load.q(values, 0.5) == 5.0
    assert load.q(values, 0.9) == 9.0  # round(8.1) = 8 -> 9
    assert load.q(values, 1.0) == 10.0 and load.q(values, 0.0) == 1.0


def test_the_servers_listen_on_loopback_only():
    server_module = Path(sys.modules[load.Server.__module__].__file__)  # where the server is started
    assert '"--server.address", "127.0.0.1"' in server_module.read_text()
