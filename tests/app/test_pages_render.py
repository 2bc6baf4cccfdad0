"""Every page of every family renders on its sample."""

from __future__ import annotations

from pathlib import Path

from lab import families
from scoring import registry
from tests.app.helpers import PAGES, app, stage_table


def test_all_pages_render_on_the_sample(monkeypatch):
    monkeypatch.delenv("LAB_DATA_DIR", raising=False)
    import sample_data

    n_subs = len(list((Path(sample_data.SAMPLE_DIR) / "submissions").glob("*.csv")))
    at = app()
    assert len(stage_table(at)) == n_subs
    pages = [p.path for fam in registry.families() for p in families.ui(fam).pages] + ["pages/data.py"]
    assert set(PAGES) <= set(pages)
    for page in pages:  # switch_page raises when st.navigation did not register the file
        at.switch_page(page).run()
        assert not at.exception, (page, [e.value for e in at.exception])
        assert not at.error, (page, [e.value for e in at.error])
        assert at.title[0].value, page
        if "leaderboard" in page or "demographics" in page or "efficiency" in page:
            assert at.get("plotly_chart") or at.get("vega_lite_chart"), page
