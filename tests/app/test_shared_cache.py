"""Issue 29, "share what is shareable": a result keyed by the data's digest and the parameters
is computed once for every session that asks (``lab.data.shared``) — and an upload's results reach
only the sessions that hold its digest."""

from __future__ import annotations

import doctest
import threading
import time

import pytest

from lab import robustness
from lab.data import shared, store
from lab.robustness import shakeup
from tests.app.helpers import DATA, open_page, upload
from tests.shovel_ready.tiny import TINY_ALPHA, TINY_BETA, TINY_GT

INTERVALS = "pages/robustness_intervals.py"
STABILITY = "pages/robustness_stability.py"
SHAKEUP = "pages/robustness_shakeup.py"


@pytest.fixture(autouse=True)
def fresh_cache():
    shared._shared.clear()
    yield
    shared._shared.clear()


def counting(monkeypatch, module, name: str) -> list:
    """Replace ``module.name`` by a wrapper that records each call (and then calls it)."""
    calls: list = []
    real = getattr(module, name)

    def wrapper(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return calls


def _teams(at) -> list[str]:
    frames = [d.value for d in at.dataframe if "Team" in d.value.columns]
    assert frames
    return sorted(map(str, frames[0]["Team"]))


def test_a_second_session_gets_the_intervals_without_a_second_bootstrap(tiny, monkeypatch):
    calls = counting(monkeypatch, robustness, "bootstrap")
    first = open_page(INTERVALS)
    assert len(calls) == 1
    second = open_page(INTERVALS)  # another visitor: its own session, the same data and parameters
    assert len(calls) == 1, "the second session re-ran the bootstrap"
    assert [d.value.to_dict() for d in first.dataframe] == [d.value.to_dict() for d in second.dataframe]
    # another parameter value is another key: computed once more
    second.select_slider(key="rob_b").set_value(500).run()
    assert not second.exception
    assert len(calls) == 2


def test_stability_maps_and_shakeups_are_shared_too(tiny, monkeypatch):
    maps = counting(monkeypatch, robustness, "map_ranks")  # the cells: what costs
    shakes = counting(monkeypatch, shakeup, "shakeup")
    open_page(STABILITY)
    open_page(SHAKEUP)
    assert (len(maps), len(shakes)) == (1, 1)
    open_page(STABILITY)
    open_page(SHAKEUP)
    assert (len(maps), len(shakes)) == (1, 1), "a second session recomputed the map or the shake-up"


def test_a_session_without_the_digest_cannot_reach_an_upload(tiny, monkeypatch):
    owner = open_page(DATA)
    upload(owner, TINY_GT, {"Alpha": TINY_ALPHA, "Gamma": TINY_BETA})
    digest = owner.session_state["_sr_data"].digest
    owner.switch_page(INTERVALS).run()
    assert not owner.exception
    assert _teams(owner) == ["Alpha", "Gamma"]
    keys = [k for k in shared._shared().lru.items if k[0] == "intervals"]
    assert [k[2] for k in keys] == [digest]  # the upload's result is kept under its digest
    calls = counting(monkeypatch, robustness, "bootstrap")
    stranger = open_page(INTERVALS)  # no link: the stranger sees the default data's result, not the upload's
    assert _teams(stranger) != ["Alpha", "Gamma"]
    assert len(calls) == 1 and {k[2] for k in shared._shared().lru.items if k[0] == "intervals"} == {
        digest, store.default_entry(robustness.current.family("shovel-ready")).digest}
    # deleting the upload forgets its results, for everyone
    owner.switch_page(DATA).run()
    owner.button(key="data_sr_delete").click().run()
    assert not owner.exception
    assert digest not in {k[2] for k in shared._shared().lru.items}


def test_concurrent_askers_of_one_key_wait_for_one_computation():
    runs = []

    def slow(_progress):
        runs.append(1)
        time.sleep(0.3)
        return len(runs)

    got = []
    threads = [threading.Thread(target=lambda: got.append(shared.compute(("t", "fam", "d" * 64), slow)))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert runs == [1] and got == [1, 1, 1, 1]
    assert shared.compute(("t", "fam", "d" * 64), slow) == 1 and runs == [1]


def test_the_cache_is_bounded_by_bytes(monkeypatch):
    import numpy as np

    lru = shared._shared().lru
    monkeypatch.setattr(lru, "max_bytes", 10_000)
    for i in range(5):
        shared.compute(("arr", "fam", str(i)), lambda _p: np.zeros(500))  # 4,000 bytes each
    assert len(lru.items) == 2 and lru.info()["bytes"] <= 10_000


def test_the_doctests_of_lab_shared():
    result = doctest.testmod(shared)
    assert result.attempted > 0 and result.failed == 0


def test_a_map_reports_its_progress_a_few_times_not_once_per_cell(tiny, monkeypatch):
    """A 21 × 21 map reported each of its 441 cells to the browser; now at most every 0.1 s."""
    from lab.data import progress

    bars = []
    real = progress._bar

    def counting_bar(text):
        bar = real(text)
        calls = []
        bars.append(calls)
        orig = bar.progress

        def moved(*a, **k):
            calls.append(a)
            return orig(*a, **k)

        object.__setattr__(bar, "progress", moved)
        return bar

    monkeypatch.setattr(progress, "_bar", counting_bar)
    at = open_page(STABILITY)
    assert not at.exception
    assert bars, "no progress bar was drawn while the map was computed"
    cells = 21 * 21
    assert 1 <= sum(len(c) for c in bars) < cells / 4


def test_the_samples_beeswarm_is_built_once_for_the_same_dots(monkeypatch):
    """Issue 29: a second visitor of the difficulty Samples page (same data, same parameters)
    gets the beeswarm and its escaped hover texts without rebuilding them."""
    from lab.charts import difficulty as charts

    swarms = counting(monkeypatch, charts, "beeswarm")
    hovers = counting(monkeypatch, charts, "sample_hover")
    first = open_page("pages/difficulty_samples.py")
    assert (len(swarms), len(hovers)) == (1, 1)
    open_page("pages/difficulty_samples.py")
    assert (len(swarms), len(hovers)) == (1, 1)
    first.select_slider(key="df_sm_points").set_value(3_000).run()  # other dots: built again
    assert not first.exception
    assert (len(swarms), len(hovers)) == (2, 2)


def test_the_server_skips_streamlits_full_collection_after_every_run():
    """``runner.postScriptGC`` (Streamlit's default: on) ran ``gc.collect(2)`` after every rerun,
    ~0.12 s of the server's one Python core with the app's heap (issue 29)."""
    import tomllib
    from pathlib import Path

    config = tomllib.loads((Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml").read_text())
    assert config["runner"]["postScriptGC"] is False


def test_a_second_session_gets_the_leaderboard_from_the_shared_scorer(tiny):
    """The leaderboard's costly levels live in the scorer, one per data digest, shared by every
    session that shows that data: a second visitor computes none of them again."""
    from tests.app.helpers import app

    app()
    scorer = store.default_entry(robustness.current.family("shovel-ready")).scorer
    misses = {level: c.info()["misses"] for level, c in scorer._caches.items()}
    hits = sum(c.info()["hits"] for c in scorer._caches.values())
    app()
    assert {level: c.info()["misses"] for level, c in scorer._caches.items()} == misses
    assert sum(c.info()["hits"] for c in scorer._caches.values()) > hits


def test_moving_a_maps_own_parameter_compares_the_same_cells_again(tiny, monkeypatch):
    """Issue 43: the cells of a map do not depend on the current values of the two parameters it
    maps (each cell sets them): moving one of them draws the map again without scoring a cell;
    moving another parameter scores the cells again."""
    cells = counting(monkeypatch, robustness, "map_ranks")
    at = open_page(STABILITY)
    assert (at.selectbox(key="rob_map_x").value, at.selectbox(key="rob_map_y").value) == ("alpha", "w")
    assert len(cells) == 1
    star = [t for t in at.get("plotly_chart")]
    at.slider(key="sr_w").set_value(0.8).run()
    assert not at.exception and len(cells) == 1
    assert [c.proto.spec for c in at.get("plotly_chart")] != [c.proto.spec for c in star]  # the star moved
    at.slider(key="sr_band").set_value(12.0).run()  # not mapped: other cells
    assert not at.exception and len(cells) == 2
