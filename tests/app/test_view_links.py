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
def _served_app(monkeypatch):
    """Every run through ``app.py``, as on a server where ``st.navigation`` has run once (Streamlit's
    documented switch away from the legacy ``pages/`` folder). AppTest builds a new pages manager
    before each run, in the legacy mode: after a session's first run a page's file ran alone —
    without ``app.py``, its sidebar, and the sidebar's writing of the link."""
    from streamlit.runtime.pages_manager import PagesManager

    init = PagesManager.__init__

    def navigated(self, *args, **kwargs):
        PagesManager.uses_pages_directory = False
        init(self, *args, **kwargs)

    monkeypatch.setattr(PagesManager, "__init__", navigated)


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


def _all(at: AppTest, key: str) -> list[str]:
    v = at.query_params.get(key)
    return [] if v is None else [v] if isinstance(v, str) else list(v)


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
    opened = view(_open(page))["widgets"]  # the page as a fresh visitor first sees it
    for k, c in _declared(page).items():  # a control with a declared default, moved off it: in the link
        if c.link and c.default is not None and c.kind not in ("derived", "json") and k in before["widgets"] \
                and before["widgets"][k] != opened.get(k):
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


# ---- the once-seen race: a widget mounted afresh shows the value the page uses --------------------
def _mount_texts(w) -> list[str] | object:
    """What widget ``w`` shows when the browser mounts it without a state of its own: its
    declared starting value (the proto's ``default``)."""
    proto = w.proto
    if isinstance(w, et.SelectSlider):
        return [w.options[int(i)] for i in proto.default]
    if isinstance(w, et.Selectbox | et.Radio):
        return [w.options[proto.default]] if proto.HasField("default") else []
    if isinstance(w, et.Multiselect):
        return [w.options[int(i)] for i in proto.default]
    if isinstance(w, et.ButtonGroup):
        return list(proto.default)
    if isinstance(w, et.Slider):
        d = list(proto.default)
        return d[0] if len(d) == 1 else d
    try:
        return proto.default if proto.HasField("default") else None
    except ValueError:  # a field without presence (a switch's): always set
        return proto.default


def unmounted(at: AppTest) -> dict[str, tuple]:
    """The widgets that a browser mounting them afresh would show at another value than the page
    uses (key: (shown, used))."""
    out = {}
    for key, w in _widgets(at).items():
        if isinstance(w, et.ButtonGroup):
            shown, used = _mount_texts(w), list(w.indices)
        elif isinstance(w, _FORMATTED):
            shown, used = _mount_texts(w), _texts(w)
        else:
            shown, used = _mount_texts(w), w.value
            if isinstance(used, float) and isinstance(shown, float):
                shown, used = round(shown, 9), round(used, 9)
        if shown != used:
            out[key] = (shown, used)
    return out


@pytest.mark.parametrize("first", ["pages/leaderboard.py", "pages/spotgeo_leaderboard.py", "pages/qa_leaderboard.py",
                                   "pages/difficulty_leaderboard.py"])
def test_after_navigation_every_widget_mounts_at_the_value_the_page_uses(first, monkeypatch):
    """Issue 38's once-seen race: after a move to Rank intervals the sidebar showed w 0.00, the first
    quality, no attributes and overlap removal off — each widget's own first value, which a browser
    that lost its widget states (a run cut short by the menu click) mounts — while the page scored the
    session's values. Every widget now starts at the session's value: what a fresh mount shows is
    what the page uses, on the page where the values were set and on the pages reached after."""
    for var in ("LAB_DATA_DIR", "LAB_DATA_DIR_SPOTGEO", "LAB_DATA_DIR_QA", "LAB_DATA_DIR_DIFFICULTY"):
        monkeypatch.delenv(var, raising=False)
    at, done = set_everything(first, skip=frozenset({"df_dataset"}))
    assert unmounted(at) == {}
    for page in ("pages/robustness_intervals.py", first, "pages/data.py"):
        at.switch_page(page).run()
        assert not at.exception, [e.value for e in at.exception]
        assert unmounted(at) == {}, page


# ---- families never share values -----------------------------------------------------------------
def test_a_link_of_one_family_never_sets_another_familys_parameters(monkeypatch):
    """Issue 38: ``/?alpha=12&threshold=0.6&band=0.1`` (Shovel-Ready's α, overlap threshold and band),
    then Data, then the Custom family: Custom's leaderboard showed α 12, T 0.6 and band 0.10 and
    saved them in its preset. Custom starts from its own defaults — the same view as a fresh visit
    — and the address keeps no Shovel-Ready parameter."""
    for var in ("LAB_DATA_DIR", "LAB_DATA_DIR_CUSTOM"):
        monkeypatch.delenv(var, raising=False)
    custom = registry.get("custom")
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"alpha": "12", "threshold": "0.6", "band": "0.1"})
    at.run()
    assert at.slider(key="sr_alpha").value == 12  # the link is Shovel-Ready's, and Shovel-Ready reads it
    at.switch_page("pages/data.py").run()
    at.selectbox(key="data_family").set_value("custom").run()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shovel = {p.name for p in registry.get("shovel-ready").params} - set(custom.params.names)
    assert not shovel & set(at.query_params), set(at.query_params)
    at.switch_page("pages/custom_leaderboard.py").run()
    assert not at.exception, [e.value for e in at.exception]
    fresh = _open("pages/custom_leaderboard.py")
    mine = {k: _plain(_value(w)) for k, w in _widgets(at).items() if k.startswith("cu_")}
    theirs = {k: _plain(_value(w)) for k, w in _widgets(fresh).items() if k.startswith("cu_")}
    assert mine == theirs
    assert fam_preset(at, custom) == fam_preset(fresh, custom)  # what a saved preset would hold
    for name in ("alpha", "threshold", "band"):
        assert at.query_params[name] == fresh.query_params[name], name


def fam_preset(at: AppTest, fam) -> dict:
    """The preset the Data page would save, read from ``at``'s session."""
    return {p.name: at.session_state[state.key(fam, p.name)] for p in fam.params if state.key(fam, p.name) in
            at.session_state}


@pytest.mark.parametrize("page", [p.path for fam in registry.families() for p in ui(fam).pages][::3])
def test_a_familys_sidebar_holds_only_its_own_parameters(page, monkeypatch):
    for var in ("LAB_DATA_DIR", "LAB_DATA_DIR_SPOTGEO", "LAB_DATA_DIR_QA", "LAB_DATA_DIR_DIFFICULTY",
                "LAB_DATA_DIR_CUSTOM"):
        monkeypatch.delenv(var, raising=False)
    at = _open(page)
    owner = next(fam for fam in registry.families() if any(p.path == page for p in ui(fam).pages))
    own = {state.key(owner, p.name) for p in owner.params} | {state.inf_key(owner, p.name) for p in owner.params}
    own |= {c.key for c in ui(owner).controls}
    keys = [w.key for kind in _KINDS for w in at.sidebar.get(kind) if w.key and "__exact__" not in w.key]
    assert keys and all(k in own or k.split(".")[0] in own or k == f"{owner.key}_reset" for k in keys), keys


def test_the_link_to_share_opens_on_the_sample_without_a_warning(core_dir, monkeypatch):
    """Issue 38: the Data page's "safe to share" link (without the upload) carried the upload's own
    values — here an attribute only the upload has — and opening it said "Some link parameters were
    ignored". It leaves them out: the sample's values stand in, and it opens clean."""
    from urllib.parse import parse_qs

    from tests.app.helpers import GT, SUB_A, SUB_B, upload

    monkeypatch.setenv("LAB_UPLOAD_DIR", str(core_dir.parent / "uploads"))
    at = _open("pages/data.py")
    upload(at, GT, {"A": SUB_A, "B": SUB_B}, demo="id,grade\ne1,9\ne2,10\n")
    at.multiselect(key="sr_attributes").set_value(["grade"]).run()
    assert _all(at, "attributes") == ["grade"] and "data" in at.query_params
    shared = next(c.value for c in at.code if not c.value.startswith("?data=") and "data=" not in c.value)
    query = parse_qs(shared.lstrip("?"), keep_blank_values=True)
    assert "data" not in query and "attributes" not in query, query
    assert query["w"] == _all(at, "w")  # the other settings travel
    fresh = _open("pages/data.py", query)
    warned = [w.value for w in fresh.sidebar.warning if "ignored" in w.value]
    assert warned == []
    assert fresh.multiselect(key="sr_attributes").value == ["ell_status"]  # the sample's own attribute


def test_a_link_value_a_control_cannot_take_is_dropped_for_its_default(monkeypatch):
    """Values off a control's declared range — replicates not offered, a confidence of 2, a public
    fraction off its 5 % step, a switch that is neither true nor false, a seed below 0 — fall back
    to the default, silently, and leave the address."""
    monkeypatch.delenv("LAB_DATA_DIR", raising=False)
    at = _open("pages/robustness_intervals.py", {"iv_b": "7", "iv_confidence": "2", "iv_all": "maybe", "iv_seed": "-1",
                                                   "iv_top": "2"})
    assert at.select_slider(key="rob_b").value == 1000 and at.select_slider(key="rob_confidence").value == 0.95
    assert at.toggle(key="rob_simultaneous").value is False and at.number_input(key="rob_seed").value == 0
    assert at.number_input(key="rob_top_k").value == 2  # the one good value is kept
    assert not {"iv_b", "iv_confidence", "iv_all", "iv_seed"} & set(at.query_params)
    assert _all(at, "iv_top") == ["2"]
    shake = _open("pages/robustness_shakeup.py", {"shk_public": "33", "shk_keep": "3", "shk_sep": "toolongsep"})
    assert shake.slider(key="rob_shk_fraction").value == 30 and shake.radio(key="rob_shk_keep").value == 1
    assert shake.text_input(key="rob_shk_sep").value == ""
    assert not {"shk_public", "shk_keep", "shk_sep"} & set(shake.query_params)


def test_the_address_keeps_only_the_view_shown(monkeypatch):
    """Another page's controls and another family's parameters leave the address (a switch of family
    on a shared page left them behind); a key the app does not declare stays."""
    monkeypatch.delenv("LAB_DATA_DIR", raising=False)
    at = _open("pages/leaderboard.py", {"iv_b": "500", "essay": "x", "tau": "12", "board": "glue", "utm": "x",
                                         "team": "nobody"})
    keys = set(at.query_params)
    assert not {"iv_b", "essay", "tau", "board"} & keys, keys
    assert "utm" in keys and "w" in keys  # the visitor's own key; the family's parameters


@pytest.mark.parametrize("page", [pytest.param("pages/robustness_stability.py", marks=pytest.mark.slow),
                                  pytest.param("pages/robustness_shakeup.py", marks=pytest.mark.slow),
                                  "pages/robustness_compare.py"])
def test_switching_family_on_a_shared_page_starts_the_familys_controls_afresh(page, monkeypatch):
    """A team, a map's axes, the pinned settings belong to the family shown: switching family drops
    them (link and session); the page's shared settings (replicates, seeds, fractions) stay."""
    for var in ("LAB_DATA_DIR", "LAB_DATA_DIR_SPOTGEO"):
        monkeypatch.delenv(var, raising=False)
    at, _ = set_everything(page)  # switches to spotGEO first, then sets everything
    declared = _declared(page)
    pick = next(k for k, c in declared.items() if c.link == "family")
    family_keys = {c.link for c in declared.values() if c.scope == "family" and c.link and c.link != "family"}
    shared_keys = {c.link for c in declared.values() if c.scope == "shared" and c.link != "family"}
    kept = shared_keys & set(at.query_params)
    at.selectbox(key=pick).set_value("shovel-ready").run()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert not family_keys & set(at.query_params), family_keys & set(at.query_params)
    assert kept <= set(at.query_params)
    assert not {p.name for p in registry.get("spotgeo").params} & set(at.query_params)
