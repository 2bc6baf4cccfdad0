"""The Efficiency page's what-if chart draws the what-if's own numbers (issue 23, item 3).

The sample competition's runtimes (sample_data/competition/runtimes.csv): quick-silver 1,710 s,
deep-ensemble 8,640 s, the other seven slower than 2,000 s or far below the band. At the app's
defaults (band 5 %, maximum boost 5 %, window 20 %) only quick-silver and deep-ensemble are within
5 % of the best bias-aware score, deep-ensemble being the best (SPEC §5; the page's own table).

By SPEC §5 the boost window runs from s, the fastest eligible runtime, to s · (1 + 0.2):

* deep-ensemble moved to 1,500 s is the fastest eligible run: s = 1,500, the window ends at
  1,500 · 1.2 = 1,800 s; quick-silver at 1,710 s has r/s = 1.14 and gets
  0.05 · (1 − 0.14 / 0.2) = 0.015, i.e. +1.50 %.
* a new run scoring 0.75 at 3,000 s is the new best (0.75 > every sample score) and eligible;
  the band starts at 0.75 / 1.05 = 0.7143, which keeps deep-ensemble (8,640 s) and drops
  quick-silver; the fastest eligible run is the new one: window 3,000–3,600 s.
"""

from __future__ import annotations

import pytest

from tests.app.helpers import SR, app, figure


def _shapes(fig: dict) -> tuple[tuple[float, float], tuple[float, float]]:
    """(the eligibility band's y0, y1), (the boost window's x0, x1) as the chart shades them."""
    shapes = fig["layout"]["shapes"]
    band = [s for s in shapes if s.get("yref") == "y"]
    window = [s for s in shapes if s.get("xref") == "x"]
    assert len(band) == 1 and len(window) == 1, shapes
    return (band[0]["y0"], band[0]["y1"]), (window[0]["x0"], window[0]["x1"])


def _boost_labels(fig: dict) -> dict[str, str]:
    return {tr["name"]: tr["text"][0] for tr in fig["data"] if tr.get("text")}


@pytest.mark.usefixtures("sample")
def test_team_moved_to_be_the_fastest_shades_its_own_window():
    at = app(SR + "efficiency.py", query={"whatif": "deep-ensemble", "runtime": "1500"})
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Eligible"] == "yes" and metrics["Boost"] == "5.00 %"
    fig = figure(at, "eff_whatif_chart")
    (y0, y1), (x0, x1) = _shapes(fig)
    assert (x0, x1) == pytest.approx((1500.0, 1800.0))
    labels = _boost_labels(fig)
    assert labels["quick-silver"] == "quick-silver +1.50 %"
    assert labels["What-if"] == "what-if +5.00 %"
    # the band: from the best score (deep-ensemble's own, unchanged) down by 5 %
    assert y0 == pytest.approx(y1 / 1.05)
    # the team moved is the star, not also a second point at its old 8,640 s
    assert "deep-ensemble" not in {tr["name"] for tr in fig["data"]}


@pytest.mark.usefixtures("sample")
def test_new_best_run_shades_its_own_window_and_band():
    at = app(SR + "efficiency.py", query={"whatif": "new", "score": "0.75", "runtime": "3000"})
    fig = figure(at, "eff_whatif_chart")
    (y0, y1), (x0, x1) = _shapes(fig)
    assert (x0, x1) == pytest.approx((3000.0, 3600.0))
    assert (y0, y1) == pytest.approx((0.75 / 1.05, 0.75))
    eligible_rivals = {tr["name"] for tr in fig["data"] if tr.get("marker", {}).get("line", {}).get("color") == "#222"}
    assert eligible_rivals == {"deep-ensemble"}
