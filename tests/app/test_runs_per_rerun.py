"""Every address answers, and a rerun runs the app and its page once (issue 23, item 4).

The app keeps its page files in a folder named ``pages/``: until some session runs
``st.navigation``, Streamlit treats it the legacy way and runs a deep-linked page *alone*,
without ``app.py`` (``lab/view/nav.py``). ``AppTest`` starts every run in that state, as a freshly
started server does, so a fresh ``AppTest`` switched to a page before its first run is a fresh
server's first visitor arriving by a link. The conftest's fixture that turns the legacy mode off
is overridden here, so these tests meet it; the steady state (legacy mode off) is counted too.

Counted per rerun: the script runs (Streamlit calls ``MediaFileManager.clear_session_refs`` at the
start of every full run), the app's frame (``lab.view.nav.build``: ``st.navigation``), the page file's executions (each fetches
its bytecode), and the page's title (one per run of its body). Writing Streamlit's private flag
and rerunning, as the app did before, made the first request of a fresh server two script runs.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.testing.v1 import AppTest

from lab import families
from lab.view import nav
from scoring import registry
from tests.app.helpers import APP, TIMEOUT

#: (address, page file, its family or None for a shared page): every page the navigation lists
ADDRESSES = [(p.url_path, p.path, fam) for fam in registry.families() for p in families.ui(fam).pages] + \
    [(p.url_path, p.path, None) for p in (*families.ROBUSTNESS_PAGES, *families.SHARED_PAGES)]


@pytest.fixture(autouse=True)
def _apptest_navigation_with_pages_dir():
    """Overrides the conftest's fixture of that name: leave Streamlit's legacy mode on."""
    yield


@pytest.fixture
def counts(monkeypatch) -> Counter:
    """``counts["run"]``: script runs; ``counts["frame"]``: runs of the app's navigation;
    ``counts[<file name>]``: executions of that script (its bytecode fetched to run it)."""
    seen: Counter = Counter()
    build, get_bytecode, new_run = nav.build, ScriptCache.get_bytecode, MediaFileManager.clear_session_refs

    def counted_run(self, *args, **kwargs):
        seen["run"] += 1
        return new_run(self, *args, **kwargs)

    def counted_build():
        seen["frame"] += 1
        return build()

    def counted_bytecode(self, script_path):
        seen[Path(script_path).name] += 1
        return get_bytecode(self, script_path)

    monkeypatch.setattr(MediaFileManager, "clear_session_refs", counted_run)
    monkeypatch.setattr(nav, "build", counted_build)
    monkeypatch.setattr(ScriptCache, "get_bytecode", counted_bytecode)
    return seen


def test_the_list_covers_every_page_file():
    assert {Path(path).name for _, path, _ in ADDRESSES} == {p.name for p in (Path(APP).parent / "pages").glob("*.py")}
    assert nav.known_paths() == {""} | {url for url, _, _ in ADDRESSES}


def test_the_default_page_answers_at_its_own_address_too():
    assert nav.default_path() == "leaderboard" == ADDRESSES[0][0]


@pytest.mark.parametrize(("url", "path", "fam"), ADDRESSES, ids=[a[0] for a in ADDRESSES])
def test_a_fresh_servers_first_visitor_at_any_address_gets_one_run(url, path, fam, counts, monkeypatch):
    """The page the address names, inside app.py (its sidebar), its body once, the frame once."""
    monkeypatch.delenv("LAB_DATA_DIR", raising=False)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.switch_page(path).run()  # before any run: the legacy mode finds the page by its file name
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.main.title) == 1, [t.value for t in at.main.title]  # every page has one title
    assert counts["run"] == 1 and counts["frame"] == 1, counts
    # the page file is entered by the legacy mode, stops at its first call into the app
    # (lab.view.nav.ensure_app_entry), and runs once more inside app.py's navigation: its body once
    assert counts[Path(path).name] == 2, counts
    shown = registry.families()[0] if fam is None else fam  # a shared page works on the first family
    assert f"### {shown.title} parameters" in [m.value.replace("\\", "") for m in at.sidebar.markdown]


def test_a_fresh_servers_first_visitor_at_the_root_gets_one_run(counts, monkeypatch):
    monkeypatch.delenv("LAB_DATA_DIR", raising=False)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()  # the legacy mode runs app.py as its main page
    assert not at.exception, [e.value for e in at.exception]
    assert [t.value for t in at.main.title] == ["Leaderboard"]
    assert counts["run"] == 1 and counts["frame"] == 1 and counts["leaderboard.py"] == 1, counts


def test_once_the_legacy_mode_is_off_a_rerun_runs_the_app_and_its_page_once(counts, monkeypatch):
    """The steady state of a server (some session has run st.navigation): a slider move reruns
    app.py once and the page once."""
    from streamlit.runtime.pages_manager import PagesManager

    original = PagesManager.__init__

    def init(self, *args, **kwargs):  # what st.navigation did for every later session of a real server
        PagesManager.uses_pages_directory = False
        original(self, *args, **kwargs)

    monkeypatch.setattr(PagesManager, "__init__", init)
    monkeypatch.delenv("LAB_DATA_DIR", raising=False)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.switch_page("pages/demographics.py").run()
    counts.clear()
    at.slider(key="sr_w").set_value(0.3).run()
    assert not at.exception, [e.value for e in at.exception]
    assert counts["run"] == 1 and counts["frame"] == 1 and counts["demographics.py"] == 1, counts
    assert [t.value for t in at.main.title] == ["Demographics"]
