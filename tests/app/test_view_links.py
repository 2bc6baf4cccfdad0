"""Issue 38: one view state. Every control of every page — the sidebar's parameters and the page's
own — is a declared parameter of the view (``lab.families.Control``, the family's ``ParamSpec``),
and the page's link reproduces all of them: set every control to a value other than the one the
page opened with, take the address, open it in a fresh session, and the page draws the same view
(every widget's value, every sentence, table and chart).

The values are set as a browser sets them: a select box, radio, multiselect or segmented control
sends the text of the option picked (``_force``), a slider, number, switch or text box its value."""

from __future__ import annotations

import json
import math

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1 import element_tree as et

from lab.families import ui
from lab.view import links, state
from scoring import registry
from tests.app.helpers import APP, TIMEOUT

#: what the browser sends for a widget whose options are texts: the text of the option picked
_PICKED = "_lab_picked"
_FORMATTED = (et.Selectbox, et.Radio, et.Multiselect, et.ButtonGroup, et.SelectSlider)
#: widgets that are not parameters of the view: files and actions
_NOT_VIEW = {"file_uploader", "button", "download_button", "text_area"}
#: widget types that hold a value of the view
_KINDS = ("selectbox", "radio", "multiselect", "button_group", "select_slider", "slider", "number_input",
          "toggle", "checkbox", "text_input", "text_area", "file_uploader")


@pytest.fixture(autouse=True)
def _browser_like_picks(monkeypatch):
    """Let a test pick an option by its text, as the browser does (AppTest's ``set_value`` takes the
    option's value and needs the page's own formatting of it)."""
    for cls in _FORMATTED:
        original = cls._widget_state

        def picked(self, _original=original):
            forced = self.__dict__.get(_PICKED)
            return forced if forced is not None else _original.fget(self)

        monkeypatch.setattr(cls, "_widget_state", property(picked))


def _texts(w) -> list[str]:
    """The texts of the options widget ``w`` holds (what the browser would send)."""
    ws = type(w)._widget_state.fget(w)
    field = ws.WhichOneof("value")
    if field == "string_value":
        return [ws.string_value]
    if field == "string_array_value":
        return list(ws.string_array_value.data)
    return []


def _force(w, texts: list[str]) -> None:
    """Pick the options ``texts`` of widget ``w`` (one for a single choice) as the browser would:
    their texts (a select slider, a multiselect, a segmented control: a list of them)."""
    ws = WidgetState()
    ws.id = w.id
    if isinstance(w, et.SelectSlider | et.Multiselect | et.ButtonGroup):
        ws.string_array_value.data[:] = texts
    else:
        ws.string_value = texts[0]
    w.__dict__[_PICKED] = ws


# ---- what the page shows ------------------------------------------------------------------------
def _widgets(at: AppTest) -> dict[str, object]:
    out = {}
    for area in (at.main, at.sidebar):
        for kind in _KINDS:
            for w in area.get(kind):
                if kind in _NOT_VIEW:
                    continue
                assert w.key, f"a {kind} without a key: {getattr(w, 'label', '')!r}"
                if "__exact__" in w.key:  # the number box beside a slider holds the slider's value
                    continue
                out[w.key] = w
    return out


def _value(w) -> object:
    return _texts(w) if isinstance(w, _FORMATTED) else w.value


def _plain(v: object) -> object:
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    return v


def view(at: AppTest) -> dict:
    """Everything the page draws: each widget's value (by key), each sentence (title, headers,
    markdown, captions, callouts, metrics, code), each table's cells, each chart's spec."""
    texts = []
    for area in (at.main, at.sidebar):
        for kind in ("title", "header", "subheader", "markdown", "caption", "info", "warning", "error", "success",
                     "code"):
            texts += [(kind, str(e.value)) for e in area.get(kind)]
        texts += [("metric", m.label, m.value, m.delta) for m in area.get("metric")]
    tables = [df.value.to_json(orient="split", default_handler=str) for df in at.main.get("dataframe")]
    charts = [e.proto.spec for e in at.get("plotly_chart")]
    charts += [getattr(e.proto, "spec", "") for e in at.get("arrow_vega_lite_chart")]
    return {"widgets": {k: _plain(_value(w)) for k, w in sorted(_widgets(at).items())}, "texts": texts,
            "tables": tables, "charts": charts}


# ---- other values ----------------------------------------------------------------------------------
def _declared(page) -> dict[str, object]:
    spec = links.page_spec(page.removeprefix("pages/").removesuffix(".py"))
    return {c.key: c for c in spec.controls}


def _other_text(w, now: list[str]) -> list[str] | None:
    opts = list(w.options)
    if isinstance(w, et.Multiselect):
        if len(now) >= 2:
            return now[:-1]
        extra = [o for o in opts if o not in now]
        limit = w.proto.max_selections or len(opts)
        if extra and len(now) < limit:
            return now + extra[:1]
        return [] if now else None
    if len(opts) < 2:
        return None
    i = opts.index(now[0]) if now and now[0] in opts else 0
    # the smaller neighbour (fewer replicates, cells, dots: a quicker page), else the next
    return [opts[i - 1] if i > 0 else opts[i + 1]]


def _other_number(w, now: float) -> float | None:
    step = float(getattr(w, "step", None) or w.proto.step or 1)
    lo, hi = w.min, w.max
    for v in (round(now - step, 9), round(now + step, 9)):  # a slider's step in the browser: no float noise
        if (lo is None or v >= lo - 1e-12) and (hi is None or v <= hi + 1e-12):
            return int(v) if isinstance(now, int) and float(v).is_integer() else v
    return None


def _other_text_param(at: AppTest, key: str, now: str) -> str | None:
    """A sidebar text box (a list of numbers: a parameter's ``floats``): another value it takes."""
    for fam in registry.families():
        for p in fam.params:
            if state.key(fam, p.name) == key:
                for text in ("0.3,0.6", "0.5", "2", "1,2"):
                    try:
                        p.coerce(text)
                    except ValueError:
                        continue
                    if text != now:
                        return text
    return "_" if not now else None  # a page's text box (the shake-up's team separator)


def _set_other(at: AppTest, w) -> bool:
    """Set widget ``w`` to a value other than its own, as a visitor would; False when it has none."""
    if getattr(w, "disabled", False) or w.proto.disabled:
        return False
    if isinstance(w, _FORMATTED):
        now = _texts(w)
        other = _other_text(w, now)
        if other is None or other == now:
            return False
        _force(w, other)
        return True
    if isinstance(w, et.Checkbox | et.Toggle):
        w.set_value(not w.value)
        return True
    if isinstance(w, et.Slider | et.NumberInput):
        other = _other_number(w, w.value)
        if other is None:
            return False
        w.set_value(other)
        return True
    if isinstance(w, et.TextInput):
        other = _other_text_param(at, w.key, w.value or "")
        if other is None:
            return False
        w.set_value(other)
        return True
    return False


def _open(page: str, query: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if query:
        for k, v in query.items():
            at.query_params[k] = v
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _link(at: AppTest) -> dict[str, list[str]]:
    qp = at.query_params
    return {k: list(qp.get_all(k)) if hasattr(qp, "get_all") else qp[k] for k in qp}


def set_everything(page: str, *, skip: frozenset[str] = frozenset()) -> tuple[AppTest, list[str]]:
    """Open ``page``, switch a shared page to another family, then set every control the page draws
    (new ones appear as others change) to another value, one at a time; returns the session and
    the keys set."""
    at = _open(page)
    declared = _declared(page)
    done: list[str] = []
    pick = next((k for k, c in declared.items() if c.link == "family"), None)
    if pick is not None:  # a shared page: another family first (its controls are the family's)
        w = _widgets(at)[pick]
        _set_other(at, w)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        done.append(pick)
    for _ in range(4):
        todo = [k for k in _widgets(at) if k not in done and k not in skip
                and not (k in declared and declared[k].kind == "derived")]
        if not todo:
            break
        for k in todo:
            w = _widgets(at).get(k)
            done.append(k)
            if w is None or not _set_other(at, w):
                continue
            at.run()
            assert not at.exception, (k, [e.value for e in at.exception])
    return at, done


def _pages() -> list[str]:
    return [p.path for p in links.pages()]


#: the pages whose every control costs seconds of resampling per move (the shake-up's sweeps, the
#: map's grid, the intervals' replicates): the whole round trip runs with the slow tests
HEAVY = {"pages/robustness_shakeup.py", "pages/robustness_stability.py", "pages/robustness_intervals.py",
         "pages/robustness_compare.py", "pages/difficulty_samples.py", "pages/custom_leaderboard.py",
         "pages/custom_recipe.py"}


@pytest.mark.parametrize("page", [pytest.param(p, marks=pytest.mark.slow) if p in HEAVY else p for p in _pages()])
def test_every_control_of_every_page_round_trips_through_its_link(page, monkeypatch):
    for var in ("LAB_DATA_DIR", "LAB_DATA_DIR_SPOTGEO", "LAB_DATA_DIR_QA", "LAB_DATA_DIR_DIFFICULTY",
                "LAB_DATA_DIR_CUSTOM"):
        monkeypatch.delenv(var, raising=False)
    at, done = set_everything(page)
    before = view(at)
    assert len(done) >= 1
    # every control the page drew is a declared parameter of the view
    declared = set(_declared(page)) | {c.key for fam in registry.families() for c in ui(fam).controls}
    sidebar = {k for fam in registry.families() for p in fam.params
               for k in (state.key(fam, p.name), state.inf_key(fam, p.name))}
    for k in before["widgets"]:
        assert k in declared or k in sidebar or k.split(".")[0] in sidebar, f"{page}: {k} is not declared"
    link = _link(at)
    for k in done:  # each control set holds its value in the link, under its own key
        c = _declared(page).get(k)
        if c is not None and c.link and c.kind not in ("derived", "json"):
            assert c.link in link, (page, k, c.link, link)
    fresh = _open(page, link)
    after = view(fresh)
    assert after["widgets"] == before["widgets"], page
    assert after["texts"] == before["texts"], page
    assert after["tables"] == before["tables"], page
    assert after["charts"] == before["charts"], page
    assert _link(fresh) == link  # and the link it writes is the link it was opened with


def test_link_keys_are_distinct_from_every_parameter_and_within_a_page():
    """A page's link key never names a family's parameter (QA's ``seed`` beside the shake-up's seed
    would have read one for the other), and no two controls of a page share one."""
    params = {p.name for fam in registry.families() for p in fam.params}
    params |= {f"{p.name}_finite" for fam in registry.families() for p in fam.params}
    for spec in links.pages():
        own = [c.link for c in spec.controls if c.link]
        assert len(own) == len(set(own)), spec.path
        assert not set(own) & params, (spec.path, set(own) & params)
        keys = [c.key for c in spec.controls]
        assert len(keys) == len(set(keys)), spec.path
    for fam in registry.families():
        assert not {c.link for c in ui(fam).controls} & params


def test_the_export_targets_are_the_declared_ones():
    from lab.families import EXPORT_TARGETS
    from lab.view.export_button import TARGETS

    assert tuple(TARGETS) == EXPORT_TARGETS


def _dump(d: dict) -> str:  # pragma: no cover - a debugging aid
    return json.dumps(d, indent=1, default=str)[:4000]
