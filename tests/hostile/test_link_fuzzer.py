"""A link fuzzer over every page of every family (issue 28): links whose query values are
hostile — not numbers, off the slider's step, out of range, non-finite, 5,000 digits, markup,
nested JSON pins, unknown digests — must never show Streamlit's exception box nor the guard's
"Something went wrong" (which means a bug, not bad input: lab/view/guard.py). A bad value may be
refused with a message or fall back to its default; either is fine.

Seeded, so a failure names a link that reproduces it.
"""

from __future__ import annotations

import json
import random
import urllib.parse

import pytest
from streamlit.testing.v1 import AppTest

from lab import families
from scoring import registry
from tests.app.helpers import APP, TIMEOUT, plain
from tests.fuzz import EDGE_NUMBERS

pytestmark = pytest.mark.slow

#: values any parameter may receive in a hand-made link (with the numbers at the edge of float of
#: ``tests.fuzz``: 400 digits, a hex of 300, ±1e308, subnormal — issue 39)
HOSTILE = ["", "abc", "nan", "-inf", "inf", "1e400", "-1e400", "1e308", "-1", "0", "0.5225", "1.5",
           "9" * 5000, "<script>alert(1)</script>", "[x](https://evil.example)", "../../etc/passwd",
           "a:1,b:2", "x:nan", "\u0000", "1,2,3", "0.9,0.1", "true", "∞", " 7 ", *EDGE_NUMBERS,
           "x:" + "9" * 400, "x:1e308"]
#: the page's own link keys and the shared ones
EXTRA = {
    "pin": ["[" * 5000, json.dumps({"tau": 5, "epsilon": 20, "rules": "seed"}), "{", "null", "[]",
            json.dumps({"w": "1e400", "alpha": -1}), json.dumps({"weights": {"x": 1e308}})],
    "data": ["shovel-ready-" + "0" * 64, "qa-" + "f" * 64, "x", "../etc"],
    "family": ["qa", "spotgeo", "difficulty", "shovel-ready", "nope", ""],
    "team": ["<b>x</b>", "nobody", ""], "essay": ["nope", ""], "seq": ["-1", "99999", "x"], "frame": ["-1", "7e9"],
    "whatif": ["1", "x"], "score": ["2", "nan"], "runtime": ["-5", "inf", "1e308", "5e-324", "9" * 400],
    "dataset": ["imdb", "nope"],
}


def _pages():
    for fam in registry.families():
        for p in families.ui(fam).pages:
            yield fam, p.path
        for p in (*families.ROBUSTNESS_PAGES, *families.SHARED_PAGES):
            yield fam, p.path


def _link(fam, page: str, rng: random.Random) -> dict:
    q: dict = {"family": fam.name}
    names = list(fam.params.names) + list(families.ui(fam).link_keys) + ["data", "family"]
    for name in rng.sample(names, k=min(len(names), rng.randint(1, 4))):
        q[name] = rng.choice(EXTRA.get(name, HOSTILE))
    if page.endswith("compare.py"):  # configuration A: hostile, or the family's own parameters made hostile
        own = {n: rng.choice(HOSTILE) for n in rng.sample(list(fam.params.names), k=2)}
        q["pin"] = rng.choice([*EXTRA["pin"], json.dumps(own)])
    return q


CASES = [(fam.name, path, seed) for fam, path in _pages() for seed in range(4)]


@pytest.mark.parametrize(("family", "page", "seed"), CASES)
def test_no_link_breaks_a_page(family, page, seed, monkeypatch):
    for var in ("LAB_DATA_DIR", "LAB_DATA_DIR_SPOTGEO", "LAB_DATA_DIR_QA", "LAB_DATA_DIR_DIFFICULTY"):
        monkeypatch.delenv(var, raising=False)
    fam = registry.get(family)
    rng = random.Random(f"{family}|{page}|{seed}")
    query = _link(fam, page, rng)
    link = urllib.parse.urlencode(query)[:300]
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    at.run()
    at.switch_page(page)
    at.run()
    assert not at.exception, (link, [e.value for e in at.exception])
    bugs = [plain(e.value) for e in at.error if "Something went wrong" in plain(e.value)]
    assert not bugs, link


def _numeric(fam) -> list[str]:
    return [p.name for p in fam.params if p.kind in ("float", "int", "floats", "mapping")]


@pytest.mark.parametrize(("family", "page"), [(fam.name, path) for fam, path in _pages()])
def test_huge_integers_in_every_numeric_parameter_and_pin(family, page, monkeypatch):
    """Every numeric parameter of the family at once, in the link as 400 digits and in a pinned
    configuration as a JSON integer of 400 digits (an ``OverflowError`` in ``Param._number`` put
    an exception box or "Something went wrong" on the Compare page of four families)."""
    for var in ("LAB_DATA_DIR", "LAB_DATA_DIR_SPOTGEO", "LAB_DATA_DIR_QA", "LAB_DATA_DIR_DIFFICULTY"):
        monkeypatch.delenv(var, raising=False)
    fam = registry.get(family)
    big = "9" * 400
    query = {"family": family, **{n: big for n in _numeric(fam)},
             "pin": "{" + ", ".join(f'"{n}": {big}' for n in _numeric(fam)) + "}"}
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    at.run()
    at.switch_page(page)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert not [e for e in at.error if "Something went wrong" in plain(e.value)]
