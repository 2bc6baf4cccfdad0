"""The navigation's declarations (``lab/view/nav.py``) and the landing page's words (issue 23, items 1 and 7)."""

from __future__ import annotations

from lab import families
from lab.view import nav
from lab.words import glossary
from scoring import registry
from tests.app.helpers import app

FAMILIES = [fam for fam in registry.families() if families.ui(fam).pages]


def test_every_family_has_an_about_these_numbers_page_of_its_own():
    for fam in FAMILIES:
        assert nav.ABOUT[fam.name] in {p.url_path for p in families.ui(fam).pages}, fam.name
        assert nav.ABOUT[fam.name] != families.ui(fam).pages[0].url_path  # not the page it is linked from


def test_the_top_navigation_has_one_short_distinct_section_per_family():
    labels = [nav.section_label(fam) for fam in FAMILIES]
    assert labels == ["Shovel-Ready", "spotGEO", "QA", "Difficulty", "Custom"]
    assert nav.ROBUSTNESS_SECTION not in labels


def _landing_words(at) -> str:
    return " ".join(m.value for m in at.main.markdown)


def test_the_landing_page_says_what_the_product_is_and_defines_its_first_terms(monkeypatch):
    monkeypatch.delenv("LAB_DATA_DIR", raising=False)
    at = app()
    words = _landing_words(at)
    assert "**Leaderboard Lab** shows how each parameter" in words
    # a newcomer's first screen names all five families (issue 38), and links the Start page
    assert "Five metric families — **Shovel-Ready**, **spotGEO**, **QA**, **Difficulty** and **Custom**" \
        in words
    assert [p.proto.page for p in at.main.get("page_link")][:1] == ["start"] or any(
        "Start here" in p.proto.label for p in at.main.get("page_link"))
    assert glossary.FP1_IN_WORDS in words and glossary.SOFTMIN_IN_WORDS in words
    assert "Move any control in the sidebar" in words  # and the controls are in the sidebar
    assert any(m.value.replace("\\", "").startswith("### Shovel-Ready metric parameters") for m in at.sidebar.markdown)
    at.switch_page("pages/demographics.py").run()
    words = _landing_words(at)
    assert "**Leaderboard Lab**" not in words  # the landing page only
    assert glossary.BETA_IN_WORDS in words
