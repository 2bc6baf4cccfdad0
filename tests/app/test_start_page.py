"""Issue 38, newcomers: the Start page names the five families in a sentence each, says what every
page answers and where to begin, and holds the glossary of every term a page names in its tooltip;
the memo is introduced where it is named; the fragile-result box is one compact, expandable box."""

from __future__ import annotations

import re

import pytest

from lab.families import ROBUSTNESS_PAGES, SHARED_PAGES, ui
from lab.words import glossary
from scoring import registry
from tests.app.helpers import app, plain

FAMS = [f for f in registry.families() if ui(f).pages]


def test_every_family_and_page_says_what_it_is_for():
    assert len(FAMS) == 5
    for fam in FAMS:
        about = ui(fam).about
        assert about.endswith(".") and 60 <= len(about) <= 260 and about.count(". ") == 0, fam.name  # one sentence
        for p in ui(fam).pages:
            assert p.answers.endswith(".") and len(p.answers) <= 140, p.path
    for p in (*ROBUSTNESS_PAGES, *SHARED_PAGES):
        assert p.answers.endswith("."), p.path


def test_the_start_page_names_each_family_each_page_and_every_term(monkeypatch):
    monkeypatch.delenv("LAB_DATA_DIR", raising=False)
    at = app("pages/start.py")
    text = plain(" ".join(m.value for m in at.main.markdown))
    assert at.title[0].value == "Start here"  # the page's title; its tab in the menu: "Start"
    for fam in FAMS:
        assert f"**{fam.title}** — {ui(fam).about}" in text, fam.name
        for p in ui(fam).pages:
            assert p.answers in text, p.path
    for p in ROBUSTNESS_PAGES:
        assert p.answers in text, p.path
    assert "Where to begin" in [s.value for s in at.subheader]
    for term, words in glossary.TERMS.items():
        assert f"**{term}** — {words}" in text, term
    links = [p.proto.page for p in at.main.get("page_link")]
    assert len(links) >= sum(len(ui(f).pages) for f in FAMS) + len(ROBUSTNESS_PAGES) + 1


def test_every_term_a_page_names_is_in_the_glossary():
    """A page names its terms with ``words=(…)``: each one has plain words in the glossary."""
    from pathlib import Path

    named = set()
    for path in Path(__file__).resolve().parents[2].glob("pages/*.py"):
        for block in re.findall(r"words=\(([^)]*)\)", path.read_text()):
            named |= set(re.findall(r'"([^"]+)"', block))
    assert named and named <= set(glossary.TERMS), named - set(glossary.TERMS)
    # the list: each has plain words
    for term in ("max-t", "studentised", "standard error (SE)", "P(same rank)", "Expected |move|", "P(winner holds)",
                 "nested splits", "memo", "attribute", "border radius τ"):
        assert len(glossary.TERMS[term]) > 40, term


def test_the_memo_is_introduced_where_it_is_named(monkeypatch):
    monkeypatch.delenv("LAB_DATA_DIR", raising=False)
    at = app()
    reset = at.sidebar.button(key="sr_reset")
    assert reset.label == "Reset to memo defaults" and "Shovel-Ready Competition — Unified Metric" in reset.help
    at.switch_page("pages/worked_examples.py").run()
    first = next(m.value for m in at.main.markdown if "memo" in m.value)
    assert "Shovel-Ready Competition — Unified Metric" in first  # the first sentence that names it says what it is


@pytest.mark.parametrize("page", ["pages/leaderboard.py", "pages/demographics.py", "pages/robustness_intervals.py"])
def test_the_fragile_result_box_is_one_compact_expandable_box(page, monkeypatch):
    """The sample's fragile result (a 20-essay group deciding a score): one collapsed box per page
    whose label names it in a few words, the full warning inside."""
    monkeypatch.delenv("LAB_DATA_DIR", raising=False)
    at = app(page)
    boxes = [e for e in at.main.expander if "Fragile result" in e.label]
    assert len(boxes) == 1
    box = boxes[0]
    assert len(plain(box.label)) <= 140 and not box.proto.expanded
    assert [w for w in box.warning if "Fragile result" in w.value]
    outside = [w for w in at.main.warning if "Fragile result" in w.value and w not in box.warning]
    assert outside == []
