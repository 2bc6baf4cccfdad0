"""An upload survives a reload on another family's page (issue 23, item 6).

A browser's page switch clears the address and the app writes back what the new page shows;
the link then held only the shown family's upload, so a reload on a spotGEO page lost the
Shovel-Ready upload. Now ``data=`` names the session's upload of every family."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from lab.data import datalinks
from tests.app.helpers import APP, DATA, SEGMENTS, TIMEOUT, open_page, rerun, upload
from tests.shovel_ready.tiny import TINY_ALPHA, TINY_BETA, TINY_GT

SPOTGEO = "pages/spotgeo_leaderboard.py"


def _browser_switch(at: AppTest, page: str) -> AppTest:
    """Go to ``page`` as a browser does: the address loses its query before the page runs."""
    for k in list(at.query_params):
        del at.query_params[k]
    at.switch_page(page)
    return rerun(at)


def test_a_reload_on_another_familys_page_keeps_the_upload(tiny):
    at = open_page(DATA)
    upload(at, TINY_GT, {"Alpha": TINY_ALPHA, "Gamma": TINY_BETA})
    digest = at.session_state["_sr_data"].digest
    _browser_switch(at, SPOTGEO)
    # the spotGEO page's address still names the Shovel-Ready upload (and no spotGEO upload)
    assert datalinks.parse([at.query_params["data"]]) == {"sr": digest}
    # the reload: a new session on that address, on the spotGEO page, then back to Shovel-Ready
    reloaded = AppTest.from_file(APP, default_timeout=TIMEOUT)
    reloaded.query_params.update({"data": at.query_params["data"]})
    reloaded.switch_page(SPOTGEO)
    rerun(reloaded)
    assert "_sg_data" not in reloaded.session_state  # spotGEO shows its own sample
    _browser_switch(reloaded, SEGMENTS)
    assert reloaded.session_state["_sr_data"].digest == digest
    assert sorted(reloaded.session_state["_sr_data"].comp.submission_names) == ["Alpha", "Gamma"]
    assert not any("does not have" in w.value for w in reloaded.warning)


def test_an_unknown_upload_of_one_family_leaves_the_link_and_the_others_stay(tiny):
    at = open_page(DATA)
    upload(at, TINY_GT, {"Alpha": TINY_ALPHA, "Gamma": TINY_BETA})
    digest = at.session_state["_sr_data"].digest
    # a link naming the Shovel-Ready upload and a QA upload this server does not have
    at.query_params["data"] = datalinks.text({"sr": digest, "qa": "f" * 64})
    at.switch_page("pages/qa_leaderboard.py")
    rerun(at)
    # QA's own page resolves its digest: unknown here, said, and dropped from the link; sr stays
    assert any("does not have" in w.value for w in at.warning)
    assert datalinks.parse([at.query_params["data"]]) == {"sr": digest}
