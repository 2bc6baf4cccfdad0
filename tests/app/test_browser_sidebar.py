"""What of the sidebar is on the first screen, measured in a real Chromium (``tests/browser.py``:
skipped locally without Chromium, failing under ``CI=true``): README.md's table names, for each
family's first page with its shipped data at 1440 × 900 and 1024 × 768, the first control a
visitor must scroll the sidebar to reach (or "none"); the test measures it and compares."""

from __future__ import annotations

from pathlib import Path

import pytest

from lab.families import ui
from scoring import registry
from tests.browser import assert_no_exception, wait_idle

pytestmark = pytest.mark.browser

README = Path(__file__).resolve().parents[2] / "README.md"
SIZES = [(1440, 900), (1024, 768)]

#: the sidebar's controls in document order: (label, top, bottom); an expander's header, a heading and
#: a slider's "exact value" box are not controls of their own
CONTROLS = """() => {
  const kinds = ['stSlider', 'stSelectbox', 'stMultiSelect', 'stCheckbox', 'stNumberInput', 'stTextInput', 'stButton'];
  const side = document.querySelector('[data-testid="stSidebar"]');
  const sel = kinds.map(k => `[data-testid="${k}"]`).join(', ');
  return [...side.querySelectorAll(sel)].map(e => {
    const r = e.getBoundingClientRect();
    const label = (e.querySelector('[data-testid="stWidgetLabel"]') || e).innerText.split('\\n')[0].trim();
    return [label, r.top, r.bottom];
  }).filter(([label]) => label && !label.endsWith(', exact value'));
}"""


def readme_table() -> dict[str, tuple[str, str]]:
    """family title -> (first control below the first screen at 1440 × 900, at 1024 × 768), as README says."""
    text = README.read_text(encoding="utf-8")
    head = "| family | at 1440 × 900 | at 1024 × 768 |"
    assert head in text
    rows = text.split(head, 1)[1].split("\n\n", 1)[0].strip().splitlines()[1:]
    out = {}
    for row in rows:
        fam, big, small = (c.strip() for c in row.strip("|").split("|"))
        out[fam] = tuple(x.split(" — ", 1)[0].strip() for x in (big, small))
    return out


def settled(page) -> list:
    """The sidebar's controls once their number and places hold still for a second."""
    last = None
    for _ in range(60):
        now = page.evaluate(CONTROLS)
        if now and now == last:
            return now
        last = now
        page.wait_for_timeout(1000)
    return last or []


def first_below(page, height: int) -> str:
    controls = settled(page)
    below = [label for label, top, bottom in controls if bottom > height or top < 0]
    return below[0] if below else "none"


def test_the_readme_names_the_first_control_below_the_first_screen(browser, app_url):
    said = readme_table()
    titles = {fam.name: next(t for t in said if fam.title.lower().startswith(t.lower().split()[0].lower()))
              for fam in registry.families()}
    seen = {}
    for fam in registry.families():
        stem = ui(fam).pages[0].url_path
        for k, (w, h) in enumerate(SIZES):
            page = browser.new_page(viewport={"width": w, "height": h})
            page.set_default_timeout(90_000)
            try:
                page.goto(f"{app_url}/{stem}")
                wait_idle(page)
                assert_no_exception(page, stem)
                seen[(fam.name, w)] = first_below(page, h)
            finally:
                page.close()
            assert seen[(fam.name, w)] == said[titles[fam.name]][k], (fam.name, w, h, seen)
