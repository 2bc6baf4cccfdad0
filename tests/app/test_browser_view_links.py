"""Issue 38 in a real Chromium: a page's own controls set by hand travel in its link (opened in a fresh
browser context, the page draws the same view); at 1024 × 768 the key columns of the pages that are
about a table are in view and no label is cut; a fresh server's first visitor never sees the pages/
folder's raw list of page names, and sees the sample load behind a labelled bar in the main area."""

from __future__ import annotations

import pytest

from tests.browser import columns_in_view, cut_labels, serve, wait_idle
from tests.screenshots import KEY_COLUMNS, QUERY, missing_columns

pytestmark = pytest.mark.browser

MAIN = '[data-testid="stMain"]'


def _main_text(page) -> str:
    """The main area's words and values — sentences, metrics, captions, each control's value —
    leaving out the charts and tables, which draw after the run (their data: the AppTest round trips)."""
    page.wait_for_timeout(500)
    return page.evaluate("""() => { const main = document.querySelector('[data-testid="stMain"]').cloneNode(true);
        main.querySelectorAll('.js-plotly-plot, .vega-embed, [data-testid="stDataFrame"], [data-testid="stPlotlyChart"], '
            + '[data-testid="stVegaLiteChart"], [data-testid="stArrowVegaLiteChart"]').forEach(e => e.remove());
        const values = [...document.querySelectorAll('[data-testid="stMain"] input')].map(i => i.getAttribute('aria-valuetext') || i.value);
        return main.innerText + '\\n' + values.join('|'); }""")


def test_page_controls_set_by_hand_travel_in_the_link(browser, app_url):
    """Rank intervals: confidence 90 %, top 2, the sets for all teams at once; Shake-up: a 45 %
    public split. Each page's address, opened in a fresh context, draws the same page."""
    ctx = browser.new_context(viewport={"width": 1440, "height": 1000})
    page = ctx.new_page()
    page.set_default_timeout(120_000)
    try:
        page.goto(app_url + "/robustness_intervals")
        wait_idle(page, 120_000)
        conf = page.locator(f'{MAIN} input[type="range"][aria-label="Confidence"]')
        conf.focus()
        page.keyboard.press("ArrowLeft")  # 95 % -> 90 %
        wait_idle(page, 120_000)
        top = page.locator(f'{MAIN} [data-testid="stNumberInput"]', has_text="Top k").locator("input")
        top.fill("2")
        top.press("Enter")
        wait_idle(page, 120_000)
        page.locator(f'{MAIN} [data-testid="stCheckbox"]', has_text="Sets for all teams at once").locator(
            "label").click()
        wait_idle(page, 120_000)
        page.wait_for_function("() => location.search.includes('iv_all=true')")
        url = page.url
        assert "iv_confidence=0.9" in url and "iv_top=2" in url, url
        shown = _main_text(page)
        assert "Could be in the top 2" in shown and "90 %" in shown.replace("90%", "90 %")

        page.goto(app_url + "/robustness_shakeup")
        wait_idle(page, 120_000)
        frac = page.locator(f'{MAIN} input[type="range"][aria-label="Public fraction (%)"]')
        frac.focus()
        for _ in range(3):  # 30 % -> 45 %
            page.keyboard.press("ArrowRight")
        wait_idle(page, 120_000)
        page.wait_for_function("() => location.search.includes('shk_public=45')")
        shake_url, shake_shown = page.url, _main_text(page)
        assert "45%" in shake_shown.replace(" %", "%")
    finally:
        ctx.close()
    for link, before in ((url, shown), (shake_url, shake_shown)):
        fresh = browser.new_context(viewport={"width": 1440, "height": 1000})
        again = fresh.new_page()
        again.set_default_timeout(120_000)
        try:
            again.goto(link)
            wait_idle(again, 120_000)
            inputs = before.rsplit("\n", 1)[1].count("|") + 1
            again.wait_for_function(f"() => document.querySelectorAll('{MAIN} input').length >= {inputs}")
            wait_idle(again, 120_000)
            assert _main_text(again) == before, link
        finally:
            fresh.close()


@pytest.mark.parametrize("path", sorted(KEY_COLUMNS))
def test_at_1024_pixels_the_key_columns_are_in_view_and_no_label_is_cut(path, browser, app_url):
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    page.set_default_timeout(120_000)
    try:
        page.goto(f"{app_url}/{path}{QUERY.get(path, '')}")
        wait_idle(page, 120_000)
        missing = None
        for _ in range(30):  # the table's columns size themselves after it is drawn: the page once settled
            page.wait_for_timeout(500)
            missing = missing_columns(path, columns_in_view(page))
            if not missing:
                break
        assert cut_labels(page) == []
        assert missing == []
    finally:
        page.close()


#: recorded from the first byte of the page: the pages/ folder's own navigation (the sidebar's list of
#: file names) whenever it is in the document, and the texts of the progress bars, where they are
_WATCH = """
window.__lab = {sidebarNav: 0, bars: []};
new MutationObserver(() => {
    if (document.querySelector('[data-testid="stSidebarNav"]')) window.__lab.sidebarNav += 1;
    for (const bar of document.querySelectorAll('[data-testid="stProgress"]')) {
        const text = bar.innerText.trim();
        const inMain = !!bar.closest('[data-testid="stMain"]');
        if (text && !window.__lab.bars.some(b => b[0] === text)) window.__lab.bars.push([text, inMain]);
    }
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def _progress_bars(frames: list[bytes]) -> list[tuple[str, int]]:
    """The progress bars the server sent (text, root container: 0 the main area, 1 the sidebar),
    from the websocket's frames as Streamlit encodes them (``ForwardMsg``)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    out = []
    for data in frames:
        msg = ForwardMsg()
        try:
            msg.ParseFromString(data)
        except Exception:  # noqa: BLE001 - not a ForwardMsg
            continue
        if msg.WhichOneof("type") == "delta" and msg.delta.WhichOneof("type") == "new_element":
            el = msg.delta.new_element
            if el.WhichOneof("type") == "progress" and el.progress.text:
                out.append((el.progress.text.replace("\\", ""), int(msg.metadata.delta_path[0])))  # markdown escapes
    return out


def test_a_fresh_servers_first_visitor_sees_no_file_names_and_a_labelled_load(browser, tmp_path):
    """The load's bar is checked in what the server sent (a quick load may come and go within one
    frame of the browser's drawing, where a DOM observer would miss it), the page list in the DOM."""
    frames: list[bytes] = []
    with serve(env_extra={"LAB_UPLOAD_DIR": str(tmp_path / "uploads")}) as base:
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.set_default_timeout(180_000)
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(
            payload if isinstance(payload, bytes) else payload.encode())))
        try:
            page.add_init_script(_WATCH)
            page.goto(base + "/")
            wait_idle(page, 180_000)
            seen = page.evaluate("() => window.__lab")
        finally:
            page.close()
    assert seen["sidebarNav"] == 0  # never the raw list of 24 file names
    bars = _progress_bars(frames)
    assert bars, "no progress bar while the sample loaded"
    assert all(root == 0 for _, root in bars), bars  # in the main area
    assert any("Loading the Shovel-Ready metric sample data" in text for text, _ in bars), bars
    assert all(in_main for _, in_main in seen["bars"]), seen["bars"]  # any the browser drew: in the main area too


def test_at_1024_pixels_every_menu_is_in_the_top_navigation(browser, app_url):
    """With the Start tab first, every family's menu and Robustness still fit beside the sidebar
    (none folded into "… more")."""
    from lab.view import nav
    from scoring import registry

    page = browser.new_page(viewport={"width": 1024, "height": 768})
    page.set_default_timeout(120_000)
    try:
        page.goto(app_url + "/start")
        wait_idle(page, 120_000)
        shown = page.evaluate("""() => [...document.querySelectorAll('[data-testid="stTopNav"] a, '
            + '[data-testid="stTopNav"] [data-testid="stTopNavSection"]')].map(e => {
                const r = e.getBoundingClientRect();
                return [e.innerText.trim().split('\\n').pop(), r.left >= 0 && r.right <= window.innerWidth]; })""")
    finally:
        page.close()
    labels = [nav.section_label(f) for f in registry.families()]
    wanted = ["Start", "Data", *labels, nav.ROBUSTNESS_SECTION]
    assert [label for label, _ in shown] == wanted, shown
    assert all(inside for _, inside in shown), shown
