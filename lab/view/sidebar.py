"""The sidebar: one widget per parameter of the active family, drawn from its ParamSpec.

``float``/``int`` → a slider over the parameter's slider range (percent shown as %; widened,
with a note, to hold a value of the parameter's range beyond it: a recipe's α = 500), with an
∞ switch where the parameter allows ∞; a ``float``'s slider shows as many decimals as its value
needs and has a number box beside it for an exact value (:func:`exact_slider`); ``choice`` → a select box (labels from the spec);
``bool`` → a toggle; ``names`` → a multiselect of the data's values; ``mapping`` → a slider
per data value; ``floats`` → a text box. Parameters are grouped in expanders by their
``group``. The reset button and the link follow the same spec.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import streamlit as st

from scoring.core.family import Family
from scoring.core.params import Param

from .. import families
from ..words.text import md
from . import nav, state


def decimals(value: float, step: float) -> int:
    """Decimals that show ``value`` exactly (to the 6 significant digits a link holds) and every
    position of a slider with ``step``: a link's off-step ``threshold=0.5225`` is shown as
    0.5225, not rounded to the step's 0.52.

    >>> decimals(0.52, 0.01), decimals(0.5225, 0.01), decimals(50.0, 1.0), decimals(5.25, 0.5)
    (2, 4, 0, 2)
    """
    def places(x: float) -> int:
        text = f"{float(x):.6g}"
        if "e" in text:
            mantissa, exp = text.split("e")
            return max(0, len(mantissa.partition(".")[2]) - int(exp))
        return len(text.partition(".")[2])
    return min(max(places(step), places(value) if math.isfinite(value) else 0), 8)


def exact_key(k: str, value: float) -> str:
    """The key of the number box beside slider ``k`` while the slider holds ``value``.

    The box is a new widget whenever the slider's value changes, started at that value, and
    nothing else writes its state. A box whose state the app wrote (``session_state[box] = v``)
    raced the key presses of a fast slider: a run interrupted after the write left the browser's
    box at an older value, the next run took that difference for the user typing, and the box's
    callback set the slider back (the page scored 0.55 while the slider had gone on to 0.83).
    Boxes of earlier values still answer: :func:`_from_box` ignores them."""
    return f"{k}__exact__{float(value)!r}"


def _from_box(k: str, box: str, lo: float, hi: float) -> None:
    """The number box's callback: its value, within the slider's range, becomes the slider's —
    when the box is the one drawn for the slider's value. The browser goes on sending the
    states of the boxes drawn for earlier values (each one new to a run that dropped it), and
    their callbacks fire: they must not set the slider back."""
    ss = st.session_state
    if k in ss and box != exact_key(k, ss[k]):
        return
    v = ss.get(box)
    if v is not None and math.isfinite(v):
        st.session_state[k] = min(max(float(v), lo), hi)


def widened(lo: float, hi: float, value: Any) -> tuple[float, float, bool]:
    """The slider's range widened to hold ``value`` (a recipe's α = 500 on a 0–100 slider, a link's
    weight 5): ``(lo, hi, widened)``. Every value of the parameter's range is shown as it is — the
    same range in the command line, the recipe, the link and the sidebar — and the page says so.

    >>> widened(0.0, 100.0, 500.0), widened(0.0, 1.0, 0.5)
    ((0.0, 500.0, True), (0.0, 1.0, False))
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return lo, hi, False
    return min(lo, value), max(hi, value), value < lo or value > hi


def _widened_note(label: str, lo: float, hi: float, value: float, unit: str = "") -> None:
    unit = unit.replace("%%", " %")
    st.caption(f"{md(label)}: the slider is widened to hold {value:.6g}{unit} (its usual range is "
               f"{lo:g}–{hi:g}{unit}); the reset button returns to the defaults.")


def exact_slider(label: str, lo: float, hi: float, step: float, *, key: str, disabled: bool, help: str,
                 unit: str = "", min_decimals: int = 2) -> None:
    """A slider over [lo, hi] and, beside it, a number box for an exact value: both show the value
    that is scored — the slider with as many decimals as the value needs (at least
    ``min_decimals``; an off-step value from
    a link or a stability-map cell is not shown rounded), the box exactly, and a value typed
    there moves the slider (within its range). A value outside [lo, hi] (a recipe's, a link's)
    widens the slider to it, with a note (:func:`widened`)."""
    ss = st.session_state
    value = float(ss.get(key, lo))
    usual = (lo, hi)
    lo, hi, wide = widened(lo, hi, value)
    d = max(decimals(value, step), min_decimals)  # at least Streamlit's own 2 for a plain number
    box = exact_key(key, value)
    # the label across the sidebar (beside the box it would wrap); the slider keeps it for screen readers
    st.markdown(f":small[:gray[{label}]]" if disabled else f":small[{label}]", help=help)
    left, right = st.columns([5, 3], vertical_alignment="center", gap="small")
    fmt = f"%.{d}f{unit}" if max(abs(lo), abs(hi)) < 1e7 else f"%.6g{unit}"  # a widened 1e300: not 300 digits
    left.slider(label, lo, hi, value=min(max(value, lo), hi), step=step, key=key, format=fmt, disabled=disabled,
                label_visibility="collapsed")
    right.number_input(f"{label}, exact value", min_value=lo, max_value=hi, value=min(max(value, lo), hi),
                       step=step, key=box, format="%g", disabled=disabled, label_visibility="collapsed",
                       on_change=_from_box, args=(key, box, lo, hi),
                       help=f"Type an exact value ({lo:g}–{hi:g}{unit.replace('%%', ' %')})")
    if wide:
        _widened_note(label, *usual, value, unit)


def _slider(fam: Family, p: Param, disabled: bool, why: str) -> None:
    lo, hi, step = p.slider
    k = state.key(fam, p.name)
    help_text = p.help[:1].upper() + p.help[1:] + (f" ({why})" if why else "")
    if p.percent:
        exact_slider(f"{p.title} (%)", round(lo * 100, 9), round(hi * 100, 9), round(step * 100, 9), key=k,
                     unit="%%", min_decimals=0, disabled=disabled, help=help_text)
    elif p.kind == "int":
        value = st.session_state.get(k)
        wlo, whi, wide = widened(int(lo), int(hi), value)
        st.slider(p.title, int(wlo), int(whi), value=_now(k, int(wlo)), step=int(step), key=k, disabled=disabled,
                  help=help_text)
        if wide:
            _widened_note(p.title, lo, hi, value)
    else:
        exact_slider(p.title, float(lo), float(hi), float(step), key=k, disabled=disabled, help=help_text)


def _now(k: str, fallback: Any = None) -> Any:
    """Widget ``k``'s value as this run holds it — given to the widget as its starting value too,
    so that a widget the browser mounts afresh shows the value the page scores. A browser that
    lost its widget states (a run cut short by a click on the menu) mounted every sidebar widget at
    its own first value — w 0.00, the first quality, no attributes, overlap removal off — while the
    page went on scoring the session's values."""
    return st.session_state.get(k, fallback)


def _widget(fam: Family, p: Param, context: Mapping[str, Any], off: Mapping[str, str], comp: Any = None,
            fui: Any = None) -> None:
    k = state.key(fam, p.name)
    why = off.get(p.name, "")
    disabled = bool(why)
    help_text = p.help[:1].upper() + p.help[1:]
    if p.kind in ("float", "int") and p.slider is not None:
        if p.allow_inf:
            ik = state.inf_key(fam, p.name)
            on = st.toggle(p.inf_label or f"{p.title} = ∞", value=bool(_now(ik, False)), key=ik, disabled=disabled,
                           help=help_text + (f" ({why})" if why else ""))
            disabled = disabled or bool(on)
        _slider(fam, p, disabled, why)
    elif p.kind == "int":
        st.number_input(p.title, value=_now(k), key=k, disabled=disabled, help=help_text, step=1, format="%d",
                        min_value=None if p.low is None else int(p.low), max_value=None if p.high is None else int(p.high))
    elif p.kind == "float":
        st.number_input(p.title, value=_now(k), key=k, disabled=disabled, help=help_text)
    elif p.kind == "choice":
        options = list(p.choices) if p.choices else list(context.get(p.choices_from, ()))
        now = _now(k)
        st.selectbox(p.title, options, index=options.index(now) if now in options else None, key=k,
                     format_func=p.choice_label, disabled=disabled, help=help_text)
    elif p.kind == "bool":
        st.toggle(p.title, value=bool(_now(k, False)), key=k, disabled=disabled, help=help_text)
    elif p.kind == "names":
        options = list(context.get(p.choices_from, ()))
        if options:
            st.multiselect(p.title, options, default=[a for a in _now(k, []) if a in options], key=k,
                           disabled=disabled, help=help_text)
    elif p.kind == "mapping":
        _mapping(fam, p, context, disabled, help_text, comp, fui or families.ui(fam))
    elif p.kind == "floats":
        typed = st.text_input(p.title, value=_now(k, ""), key=k, disabled=disabled, help=help_text)
        _field_error(p, typed, disabled)


def _mapping(fam: Family, p: Param, context: Mapping[str, Any], disabled: bool, help_text: str, comp: Any,
             fui: Any) -> None:
    """A slider per data value the current choices use (``FamilyUI.mapping_keys``); folded in a
    collapsed group whose sliders are drawn only while it is open (``FamilyUI.fold_mappings``)."""
    k = state.key(fam, p.name)
    lo, hi, step = p.slider or (0.0, 1.0, 0.01)
    keys = list(context.get(p.choices_from, ()))
    used = fui.mapping_keys(p.name, state.values(fam), comp) if fui.mapping_keys is not None else None
    if used is not None:
        keys = [c for c in keys if c in set(used)]
    box = st.container()
    if fui.fold_mappings:
        box = st.expander(f"{p.title} ({len(keys)})", key=f"{k}__open", on_change="rerun")
        if not box.open:
            return
    with box:
        for c in keys:
            exact_slider(f"{p.title}: {md(c)}", float(lo), float(hi), float(step), key=f"{k}.{c}",
                         disabled=disabled, help=help_text)


def _field_error(p: Param, typed: Any, disabled: bool) -> None:
    """A typed list the parameter cannot read gets its error right below the field (the page
    says it cannot score, and points here)."""
    if disabled:
        return
    try:
        p.coerce(typed)
    except ValueError as err:
        st.error(f"**{md(p.title)}**: {md(err)}", icon=":material/error:")


def draw(fam: Family, comp: Any, data_key: str | None) -> None:
    """Draw the family's parameter controls (state first, so links and presets apply) and
    keep the link in step with them."""
    context = fam.context(comp)
    state.init(fam, context, data_key, comp)
    fui = families.ui(fam)
    sb = st.sidebar
    sb.markdown(f"### {md(fam.title)} parameters")
    about = nav.about_page(fam)
    if about is not None:  # what the numbers mean, step by step (issue 23: a newcomer's first minute)
        sb.page_link(about.path, label="About these numbers", icon=":material/help:")
    problems = state.problems(fam)
    if problems:
        sb.warning("Some link parameters were ignored: " + md("; ".join(problems)))
    off = fui.disabled(state.values(fam), comp)
    groups: dict[str, list[Param]] = {}
    if fui.lead_group is not None:
        groups[fui.lead_group] = []
    for p in fam.params:
        if fui.hide_unused and p.name in off:
            continue  # unused by the current choices: hidden (its value is kept: state.remember)
        groups.setdefault(p.group or "Parameters", []).append(p)
    for group, params in groups.items():
        if not params:
            continue
        with sb.expander(group, expanded=True):
            note = fui.group_note(group, comp)
            if note:
                st.caption(md(note))
            for p in params:
                _widget(fam, p, context, off, comp, fui)
    sb.button(fui.reset_label, key=f"{fam.key}_reset", on_click=state.reset, args=(fam,), width="stretch",
              help=fui.reset_help)
    state.write_query(fam)
    state.remember(fam)
