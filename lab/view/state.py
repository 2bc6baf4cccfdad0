"""Parameter state of a family: sidebar widgets ↔ session state ↔ link (URL) ↔ presets.

Everything here is derived from the family's :class:`~scoring.core.params.ParamSpec`: a
widget key is ``<family key>_<name>`` (``sr_w``); a link carries ``name=value`` pairs in the
parameter's own units (``band=0.05``); a preset is the same dict as JSON. Every value the
parameter allows is taken, as on the command line and in a recipe; a slider widens to hold a
value beyond its own range, and says so (``lab.view.sidebar.widened``). A parameter with an ∞
switch (α) has a second key, ``<key>_inf``; a link says ``alpha=inf``, and keeps the finite
value the switch hides as ``alpha_finite=50`` (so that turning ∞ off gives it back).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitAPIException

from scoring.core.family import Family
from scoring.core.params import Param

from .. import families
from . import links, nav

_INIT, _PENDING, _PROBLEMS, _DATA = "init", "pending", "query_problems", "data_key"


def key(fam: Family, name: str) -> str:
    """The widget key of parameter ``name``: ``sr_w``."""
    return f"{fam.key}_{name}"


def inf_key(fam: Family, name: str) -> str:
    return f"{fam.key}_{name}_inf"


def _meta(fam: Family, what: str) -> str:
    return f"_{fam.key}_p_{what}"


# ---- values ---------------------------------------------------------------------------------
def defaults(fam: Family, context: Mapping[str, Sequence[str]] | None = None, comp: Any = None) -> dict[str, Any]:
    """The defaults the app starts from: the family's, with its UI defaults (e.g. the
    ``ell_status`` attribute) where the data has them, and the values the data itself
    suggests (``FamilyUI.data_defaults``: e.g. a weights file's theme weights) — of ``comp``,
    else of the data this session's sidebar last drew."""
    values = fam.params.defaults()
    fui = families.ui(fam)
    if comp is not None:
        values.update(fui.data_defaults(comp))
    else:
        values.update(_session_get(_meta(fam, "data_defaults")) or {})
    for name, value in fui.defaults.items():
        p = fam.params[name]
        if p.kind == "names" and context is not None:
            value = tuple(v for v in value if v in context.get(p.choices_from, ()))
        values[name] = value
    return values


def check(fam: Family, d: Mapping[str, Any], context: Mapping[str, Sequence[str]] | None = None,
          ) -> dict[str, Any]:
    """A complete, clean parameter dict from a preset or a link (missing keys: defaults).

    Raises ``ValueError("parameter 'w': …; parameter 'alpha': …")`` naming every bad key and
    value. Every value of the parameter's range is taken — the same range as the command line
    and a recipe — a slider widens to one beyond its own (``lab.view.sidebar.widened``). ``hard_min:
    true`` (an older preset word) means α = ∞.
    """
    if not isinstance(d, Mapping):
        raise ValueError("a parameter preset must be a JSON object of name: value pairs")
    d = dict(d)
    legacy = d.pop("hard_min", None)
    if legacy is not None:
        if _truth(legacy):
            d["alpha"] = "inf"
    problems = [f"unknown parameter '{k}'" for k in d if k not in fam.params]
    if problems:
        problems[-1] += f" (known: {', '.join(fam.params.names)})"
    out = defaults(fam, context)
    for name, value in d.items():
        if name not in fam.params:
            continue
        p = fam.params[name]
        choices = (context or {}).get(p.choices_from) if p.choices_from else None
        try:
            v = p.coerce(value, choices)
        except ValueError as e:
            problems.append(f"parameter '{name}': {e}")
            continue
        out[name] = v
    if problems:  # every one of them, so that a preset is fixed in one go
        raise ValueError("; ".join(problems))
    return out


def _session_get(key: str):
    try:
        return st.session_state.get(key)
    except Exception:  # outside a Streamlit run (the store precomputing a default view)
        return None


def _truth(v) -> bool:
    return v is True or (isinstance(v, str) and v.strip().lower() in ("true", "1", "yes", "on")) or v == 1


def _to_state(fam: Family, values: Mapping[str, Any]) -> dict[str, Any]:
    """Widget state for parameter values (percent shown ×100, ∞ as a switch)."""
    state: dict[str, Any] = {}
    for name, value in values.items():
        p = fam.params[name]
        if value is None and (p.slider is not None or (p.kind == "choice" and p.choices)):
            continue  # "not given" (a repaired value): a slider or a fixed choice cannot show it, so it stays
        if p.kind in ("float", "int") and value is not None:
            if p.allow_inf:
                state[inf_key(fam, name)] = math.isinf(value)
                if math.isinf(value):
                    continue
            value = round(float(value) * 100.0, 6) if p.percent else (float(value) if p.kind == "float" else value)
        elif p.kind == "names":
            value = list(value)
        elif p.kind == "floats" and value is not None and not isinstance(value, str):
            value = p.to_text(value)  # the text box shows "0.2,0.4"
        elif p.kind == "mapping" and value is not None:
            for k, v in value.items():
                state[f"{key(fam, name)}.{k}"] = float(v) * 100.0 if p.percent else float(v)
            continue
        state[key(fam, name)] = value
    return state


def _from_state(fam: Family, p: Param, context) -> Any:
    ss = st.session_state
    k = key(fam, p.name)
    if p.kind in ("float", "int"):
        if p.allow_inf and ss.get(inf_key(fam, p.name)):
            return math.inf
        v = ss.get(k, p.default)
        if v is None:
            return None
        return round(float(v) / 100.0, 8) if p.percent else (float(v) if p.kind == "float" else int(v))
    if p.kind == "names":
        return tuple(ss.get(k, ()))
    if p.kind == "floats":  # the text box's text as numbers; text that is not stays as typed (the check names it)
        text = ss.get(k, p.default)
        try:
            return p.coerce(text)
        except ValueError:
            return text
    if p.kind == "mapping":
        keys = list((context or {}).get(p.choices_from, ()))
        found = {c: ss[f"{k}.{c}"] for c in keys if f"{k}.{c}" in ss}
        if not found:
            return p.default
        return {c: (v / 100.0 if p.percent else float(v)) for c, v in found.items()}
    return ss.get(k, p.default)


def values(fam: Family) -> dict[str, Any]:
    """The current parameters (the family's keyword arguments), from the widgets."""
    ctx = st.session_state.get(_meta(fam, "context"))
    return {p.name: _from_state(fam, p, ctx) for p in fam.params}


def preset(fam: Family) -> dict[str, Any]:
    """The current parameters as a JSON-ready preset (∞ as "inf", tuples as lists)."""
    return fam.params.to_json(values(fam))


# ---- the link -----------------------------------------------------------------------------
def _write_query(fam: Family, vals: Mapping[str, Any]) -> None:
    qp = st.query_params
    for name, value in vals.items():
        text = value if isinstance(value, str) else fam.params[name].to_text(value)
        wanted = text if isinstance(text, list) else [text]
        if qp.get_all(name) != wanted:
            qp[name] = text


def finite_key(name: str) -> str:
    """The link key of the finite value kept under an ∞ switch: ``alpha=inf&alpha_finite=50``
    reopens with ∞ on and the slider at 50 (turning ∞ off gives back α = 50)."""
    return f"{name}_finite"


def write_query(fam: Family) -> None:
    """Put the current parameters in the page's address, so a link reproduces the view — with
    the finite value a switched-on ∞ hides (``alpha_finite=``) — and take out what is not of this
    view (``lab.view.links.clean``: another family's parameters, another page's controls)."""
    links.clean(fam)
    vals = values(fam)
    _write_query(fam, vals)
    qp, ss = st.query_params, st.session_state
    for p in fam.params:
        if not p.allow_inf or p.slider is None:
            continue
        hidden = ss.get(key(fam, p.name)) if ss.get(inf_key(fam, p.name)) else None
        fk = finite_key(p.name)
        if hidden is None:
            if fk in qp:
                del qp[fk]
            continue
        text = p.to_text(float(hidden) / 100.0 if p.percent else float(hidden))
        if qp.get(fk) != text:
            qp[fk] = text


def _finite_from_query(fam: Family, vals: Mapping[str, Any]) -> dict[str, Any]:
    """Slider state for the finite values a link keeps under a switched-on ∞ (a value the
    slider cannot take is ignored: the slider keeps the default)."""
    state: dict[str, Any] = {}
    qp = st.query_params
    for p in fam.params:
        fk = finite_key(p.name)
        if not p.allow_inf or p.slider is None or fk not in qp or not math.isinf(vals.get(p.name) or 0.0):
            continue
        try:
            v = p.coerce(qp.get_all(fk)[-1])
        except ValueError:
            continue
        if math.isfinite(v):  # the slider widens to it (lab.view.sidebar.widened)
            state[key(fam, p.name)] = round(float(v) * 100.0, 6) if p.percent else float(v)
    return state


def shareable(fam: Family, context: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """The address's query for whoever opens it on the family's own data (``context``: the sample's):
    without ``data``, the key to an upload, and without the parameters whose values only the upload
    has (a weight per unit of an uploaded table, an attribute the sample lacks) — the sample's own
    values stand in for them, so the link opens without a warning."""
    qp = st.query_params
    query = {k: qp.get_all(k) for k in qp if k != "data"}
    for p in fam.params:
        if p.name not in query:
            continue
        raw: Any = query[p.name]
        raw = [a for a in raw if a] if p.kind in ("names", "mapping") else raw[-1]
        try:
            check(fam, {p.name: raw}, context)
        except ValueError:
            del query[p.name]
            query.pop(finite_key(p.name), None)
    return query


def _from_query(fam: Family, context) -> tuple[dict[str, Any], list[str]]:
    qp = st.query_params
    out = defaults(fam, context)
    problems: list[str] = []
    for p in fam.params:
        if p.name not in qp:
            continue
        raw: Any = qp.get_all(p.name)
        raw = [a for a in raw if a] if p.kind in ("names", "mapping") else raw[-1]
        try:
            out[p.name] = check(fam, {p.name: raw}, context)[p.name]
        except ValueError as err:
            problems.append(str(err))
    return out, problems


# ---- life cycle ---------------------------------------------------------------------------
def init(fam: Family, context: Mapping[str, Sequence[str]], data_key: str | None = None, comp: Any = None) -> None:
    """Put the family's parameter state in place before its sidebar widgets are drawn.

    On the session's first run of this family the values come from the link; a pending
    preset is applied; values the loaded data does not have (attributes, themes) are
    dropped. When the data changed since the previous run (``data_key``, its content
    digest), the chosen data values that the new data has are kept, else its defaults.
    """
    ss = st.session_state
    ss[_meta(fam, "context")] = {k: list(v) for k, v in context.items()}
    if comp is not None:
        ss[_meta(fam, "data_defaults")] = dict(families.ui(fam).data_defaults(comp))
    switched = data_key is not None and ss.get(_meta(fam, _DATA)) not in (None, data_key)
    if data_key is not None:
        ss[_meta(fam, _DATA)] = data_key
    base = defaults(fam, context)
    if not ss.get(_meta(fam, _INIT)):
        # the link's values are this family's only when the link was opened on its view (a family
        # shown later in the session starts from its own defaults: the address may still hold
        # another family's values of the same name, e.g. alpha, threshold, band)
        owned = nav.link_owner() in (None, fam.name)
        vals, problems = _from_query(fam, context) if owned else (dict(base), [])
        ss[_meta(fam, _PROBLEMS)] = problems
        ss.update(_to_state(fam, vals))
        ss.update(_finite_from_query(fam, vals))
        ss[_meta(fam, _INIT)] = True
    pending = ss.pop(_meta(fam, _PENDING), None)
    if pending:
        ss.update(pending)
    # Streamlit forgets a widget's value in a run that does not draw it (a visit to another
    # family's pages): bring this family's values back from the copy kept after its last run
    saved = ss.get(_meta(fam, "saved")) or {}
    for k, v in saved.items():
        if k not in ss and not switched:
            ss[k] = v
    for k, v in _to_state(fam, base).items():
        if k not in ss or (switched and k in _data_keys(fam, base)):
            ss[k] = v
    for p in fam.params:
        if not p.choices_from:
            continue
        have = list(context.get(p.choices_from, ()))
        k = key(fam, p.name)
        if p.kind == "names":
            chosen = [a for a in ss.get(k, []) if a in have]
            if switched and not chosen:
                chosen = list(base[p.name])
            if chosen != list(ss.get(k, [])):
                ss[k] = chosen
        elif p.kind == "choice" and ss.get(k) not in have:
            ss[k] = base[p.name] if base[p.name] in have else (have[0] if have else None)


def _data_keys(fam: Family, base: Mapping[str, Any]) -> set[str]:
    """Widget keys of the parameters whose values come from the data (mapping parameters,
    data defaults): a change of data starts them afresh."""
    data = set(_session_get(_meta(fam, "data_defaults")) or {})
    names = [p.name for p in fam.params if p.kind == "mapping" or p.name in data]
    return set(_to_state(fam, {n: base[n] for n in names}))


def remember(fam: Family) -> None:
    """Keep a copy of the family's widget values (under a key no widget owns), so that a
    visit to another family's pages does not lose them."""
    keys = set(_to_state(fam, values(fam))) | {key(fam, p.name) for p in fam.params if p.allow_inf}  # ∞ hides one
    ss = st.session_state
    ss[_meta(fam, "saved")] = {k: ss[k] for k in keys if k in ss}


def problems(fam: Family) -> list[str]:
    """What the link said that could not be used (each names the parameter)."""
    return list(st.session_state.get(_meta(fam, _PROBLEMS)) or [])


def apply(fam: Family, d: Mapping[str, Any], context: Mapping[str, Sequence[str]]) -> None:
    """Make a preset (validated, raises ``ValueError``) the current parameters and link.

    From a widget callback the values take effect in the coming run; from a page body
    (after the sidebar is drawn) they are stored and the app reruns.
    """
    vals = check(fam, d, context)
    state = _to_state(fam, vals)
    try:
        for k, v in state.items():
            st.session_state[k] = v
    except StreamlitAPIException:
        st.session_state[_meta(fam, _PENDING)] = state
        _write_query(fam, vals)
        st.rerun()
    _write_query(fam, vals)


def reset(fam: Family) -> None:
    """Callback of the reset button: every parameter back to the defaults (the data's own
    suggestions included)."""
    ctx = st.session_state.get(_meta(fam, "context")) or {}
    st.session_state.update(_to_state(fam, defaults(fam, ctx)))
    page = links.page_spec(nav.page_path())
    own = [c for c in page.controls if c.kind not in ("derived", "json")] if page is not None else []
    for c in own:  # the page's own picks too: the whole view back to its defaults
        st.session_state.pop(c.key, None)
    for extra in {*families.ui(fam).link_keys, *(c.link for c in own)}:
        if extra in st.query_params:
            del st.query_params[extra]
