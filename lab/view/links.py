"""A page's own controls in the address — the team of a waterfall (``team=``), the essay on the
Segments page (``essay=``), the Rank intervals' replicates (``iv_b=``), the shake-up's public
fraction (``shk_public=``) — so that a shared link shows the same view.

Every control is declared as a :class:`~lab.families.Control` on its page's ``PageSpec`` (or on
its family's ``FamilyUI.controls``): widget key, link key, default, range, scope. :func:`draw`
is the one place that reads one (the link's value when it is a valid one — an invalid one is
dropped from the address, silently — else the session's, else the default), draws its widget
started at that value (so a widget the browser mounts afresh shows the value the page uses,
never its own first option), and writes it back to the link on change (:func:`keep`).

:func:`clean` keeps the address to the view shown: the parameters of the family shown, the
controls of the page shown, ``family`` and ``data`` — another family's parameters or another
page's controls, left behind by a switch of family on a shared page, are taken out, so that a
copied link never carries them into another family. The sidebar's parameters follow the family's
``ParamSpec`` through ``lab.view.state``.
"""

from __future__ import annotations

import math
import urllib.parse
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import streamlit as st

from scoring import registry
from scoring.core.family import Family

from ..families import ROBUSTNESS_PAGES, SHARED_PAGES, Control, PageSpec, ui
from . import nav

#: link keys every page keeps: the family a shared page shows, the uploads the session holds
SHARED_KEYS = frozenset({nav.LINK_FAMILY, "data"})


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.10g}"
    return str(value)


def keep(ctl: Control | str, url_key: str | None = None) -> None:
    """Write control ``ctl``'s value (or widget ``ctl``'s, as ``url_key``) into the address (an
    ``on_change``; a list, from a multiselect, as repeated values)."""
    key, url_key = (ctl.key, ctl.link) if isinstance(ctl, Control) else (ctl, url_key)
    value = st.session_state.get(key)
    if value is None or (isinstance(value, list | tuple) and not value):
        if url_key in st.query_params:
            del st.query_params[url_key]
        return
    if isinstance(value, list | tuple):
        st.query_params[url_key] = [_text(v) for v in value]
    else:
        st.query_params[url_key] = _text(value)


def _linked(url_key: str, parse: Callable[[str], Any], many: bool = False) -> tuple[bool, Any]:
    if url_key not in st.query_params:
        return False, None
    try:
        if many:
            return True, [parse(raw) for raw in st.query_params.get_all(url_key)]
        return True, parse(st.query_params.get(url_key))
    except (TypeError, ValueError):
        del st.query_params[url_key]
        return False, None


def _set(key: str, value: Any) -> None:
    """Write the widget's state only when it changes: a write makes the browser take the value
    again, which would undo a move the user is making while a run is under way."""
    ss = st.session_state
    if key not in ss or ss[key] != value:
        ss[key] = value


def choice(key: str, url_key: str, options: Sequence[Any], default: Any, *, follow_default: bool = False,
           parse: Callable[[str], Any] = str, valid: Callable[[Any], bool] | None = None,
           many: bool = False) -> Any:
    """Set widget ``key`` (a select box over ``options``; with ``many`` a multiselect, the link
    holding one value per pick) from the link, the session or ``default``; with
    ``follow_default`` a value not in the link is the default on every run (the waterfall
    follows the current leader until a team is picked). ``valid`` replaces the test "is one of
    ``options``" (e.g. at most three picks). An invalid link value is dropped from the link.
    Returns the value; pair the widget with ``on_change=keep, args=(key, url_key)``."""
    if valid is None:
        def valid(v):
            return all(x in options for x in v) if many else v in options
    found, value = _linked(url_key, parse, many)
    if found and not valid(value):
        del st.query_params[url_key]
        found = False
    ss = st.session_state
    if found:
        _set(key, value)
    elif follow_default or key not in ss or not valid(ss[key]):
        _set(key, default)
    return ss[key]


def number(key: str, url_key: str, default: float, *, low: float | None = None, high: float | None = None) -> float:
    """Set widget ``key`` (a number input) from the link (a finite number within
    [``low``, ``high``]), the session or ``default``. Returns the value."""

    def parse(raw: str) -> float:
        v = float(raw)
        if not math.isfinite(v) or (low is not None and v < low) or (high is not None and v > high):
            raise ValueError(raw)
        return v

    found, value = _linked(url_key, parse)
    ss = st.session_state
    if found:
        _set(key, value)
    elif key not in ss:
        ss[key] = float(default)
    return ss[key]


# ---- declared controls ------------------------------------------------------------------------
def _parser(ctl: Control, options: Sequence[Any], low, high) -> Callable[[str], Any]:
    """How control ``ctl`` reads a link's text (raises ``ValueError`` for a value it cannot take)."""
    if ctl.kind in ("choice", "many"):
        by_text = {_text(o): o for o in options}

        def parse(raw: str) -> Any:
            if raw not in by_text:
                raise ValueError(raw)
            return by_text[raw]
        return parse
    if ctl.kind == "bool":
        def flag(raw: str) -> bool:
            word = raw.strip().lower()
            if word not in ("true", "false"):
                raise ValueError(raw)
            return word == "true"
        return flag
    if ctl.kind == "text":
        def text(raw: str) -> str:
            if ctl.max_chars is not None and len(raw) > ctl.max_chars:
                raise ValueError(raw)
            return raw
        return text

    def num(raw: str) -> float | int:
        v = float(raw)
        if not math.isfinite(v) or (low is not None and v < low) or (high is not None and v > high):
            raise ValueError(raw)
        if ctl.kind == "int":
            if v != int(v):
                raise ValueError(raw)
            return int(v)
        return v
    return num


def value(ctl: Control, *, options: Iterable[Any] | None = None, default: Any = None, low: float | None = None,
          high: float | None = None, follow_default: bool = False, parse: Callable[[str], Any] | None = None,
          valid: Callable[[Any], bool] | None = None) -> Any:
    """Put control ``ctl``'s state in place and return its value: the link's when it is one the
    control can take (else the link drops it), else the session's when still valid, else the
    default (``default``/``options``/``low``/``high``: the data's, where the declaration leaves
    them to the page). ``follow_default``: without a link value, the default on every run."""
    opts = tuple(ctl.options if options is None else options)
    d = ctl.default if default is None else default
    lo = ctl.low if low is None else low
    hi = ctl.high if high is None else high
    if valid is None:
        def valid(v: Any) -> bool:
            if ctl.kind == "choice":
                return v in opts
            if ctl.kind == "many":
                return isinstance(v, list | tuple) and all(x in opts for x in v)
            if ctl.kind == "bool":
                return isinstance(v, bool)
            if ctl.kind == "text":
                return isinstance(v, str) and (ctl.max_chars is None or len(v) <= ctl.max_chars)
            return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) and (
                lo is None or v >= lo) and (hi is None or v <= hi) and (
                ctl.step is None or math.isclose((v - (lo or 0)) / ctl.step, round((v - (lo or 0)) / ctl.step)))
    if ctl.kind == "many":
        return choice(ctl.key, ctl.link, opts, list(d or ()), follow_default=follow_default,
                      parse=parse or _parser(ctl, opts, lo, hi), valid=valid, many=True)
    return choice(ctl.key, ctl.link, opts, d, follow_default=follow_default, parse=parse or _parser(ctl, opts, lo, hi),
                  valid=valid)


def draw(widget: Callable[..., Any], label: str, ctl: Control, *, options: Iterable[Any] | None = None,
         default: Any = None, low: float | None = None, high: float | None = None, follow_default: bool = False,
         parse: Callable[[str], Any] | None = None, valid: Callable[[Any], bool] | None = None,
         on_change: Callable[[], None] | None = None, **kwargs: Any) -> Any:
    """Draw control ``ctl`` with ``widget`` (``st.selectbox``, ``column.select_slider``, …): its
    value from :func:`value`, the widget started at it (its ``index``/``default``/``value``), and
    the link written on change (after ``on_change``, when given). Returns the widget's value."""
    opts = list(ctl.options if options is None else options)
    v = value(ctl, options=opts, default=default, low=low, high=high, follow_default=follow_default, parse=parse,
              valid=valid)
    lo = ctl.low if low is None else low
    hi = ctl.high if high is None else high

    def changed() -> None:
        if on_change is not None:
            on_change()
        keep(ctl)

    name = getattr(widget, "__name__", "")
    common = dict(key=ctl.key, on_change=changed, **kwargs)
    if name in ("selectbox", "radio"):
        return widget(label, opts, index=opts.index(v) if v in opts else None, **common)
    if name in ("multiselect", "pills", "segmented_control"):
        return widget(label, opts, default=v, **common)
    if name == "select_slider":
        return widget(label, opts, value=v, **common)
    if name in ("slider", "number_input"):
        return widget(label, min_value=lo, max_value=hi, value=v, **common)
    if name == "text_input":
        return widget(label, value=v, max_chars=ctl.max_chars, **common)
    return widget(label, value=v, **common)  # toggle, checkbox


# ---- the registry of the link's keys ------------------------------------------------------------
def pages() -> list[PageSpec]:
    """Every page of the app, each family's and the shared ones."""
    return [p for fam in registry.families() for p in ui(fam).pages] + list(ROBUSTNESS_PAGES) + list(SHARED_PAGES)


def page_spec(url_path: str) -> PageSpec | None:
    """The page at address ``url_path`` (``""``: the default page)."""
    url_path = url_path or nav.default_path()
    return next((p for p in pages() if p.url_path == url_path), None)


def view_keys(fam: Family, page: PageSpec | None) -> set[str]:
    """The link keys of the view of ``fam`` on ``page``: the family's parameters (and the finite
    values under an ∞ switch), its own controls, the page's controls and the shared keys."""
    keys = set(SHARED_KEYS) | set(fam.params.names) | {f"{p.name}_finite" for p in fam.params if p.allow_inf}
    keys |= {c.link for c in ui(fam).controls if c.link}
    if page is not None:
        keys |= {c.link for c in page.controls if c.link}
    return keys


def all_keys() -> set[str]:
    """Every link key the app declares, of every family and page."""
    keys = set(SHARED_KEYS)
    for fam in registry.families():
        keys |= view_keys(fam, None)
    for p in pages():
        keys |= {c.link for c in p.controls if c.link}
    return keys


def clean(fam: Family) -> None:
    """Take out of the address every declared key that is not of this view (``fam`` on the page
    shown): another family's parameters and controls, another page's controls. A key the app does
    not declare (a visitor's own) stays."""
    qp = st.query_params
    foreign = (all_keys() - view_keys(fam, page_spec(nav.page_path()))) & set(qp)
    for k in foreign:
        del qp[k]


def page_link(url: str | None, page: str, pairs: Sequence[tuple[str, str]], *, base_path: str = "",
              fallback: str = "http://localhost:8501") -> str:
    """The address of page ``page`` (its registered address) on the server that ``url`` came
    from: scheme and host from ``url`` (the browser's address), never its path — Streamlit
    trims a page's address from the path, so a page opened by its own address reads as
    ``/qa_`` beside the default page's alias ``leaderboard`` — then the server's
    ``baseUrlPath``, the page and ``pairs``.

    >>> page_link("http://h:8501/qa_", "qa_leaderboard", [("w", "0.5")])
    'http://h:8501/qa_leaderboard?w=0.5'
    >>> page_link(None, "leaderboard", [], base_path="/lab/")
    'http://localhost:8501/lab/leaderboard'
    """
    parts = urllib.parse.urlsplit(url or fallback)
    if not parts.scheme or not parts.netloc:
        parts = urllib.parse.urlsplit(fallback)
    path = "/".join(x for x in (*base_path.strip("/").split("/"), page) if x)
    return f"{parts.scheme}://{parts.netloc}/{path}" + (f"?{urllib.parse.urlencode(list(pairs))}" if pairs else "")


def browser_url() -> str | None:
    """The browser's address of this run (None without a browser)."""
    try:
        return st.context.url or None
    except Exception:  # no browser context (bare mode)
        return None


def address(*, without: Sequence[str] = (), query: dict[str, list[str]] | None = None) -> str:
    """This page's address (its registered one: :func:`page_link`) with its link parameters
    (``query``: the current ones), leaving out the keys in ``without`` — e.g. ``data``, the key to
    an upload. Without a browser (a test run) it is the query part alone (``?w=0.5``).

    >>> address(without=("data",), query={"w": ["0.5"], "data": ["sr-00"], "attributes": ["a", "b"]})
    '?w=0.5&attributes=a&attributes=b'
    """
    if query is None:
        query = {k: st.query_params.get_all(k) for k in st.query_params}
    pairs = [(k, v) for k, values in query.items() if k not in without for v in values]
    url = browser_url()
    if url is None:
        return f"?{urllib.parse.urlencode(pairs)}" if pairs else ""
    return page_link(url, nav.page_path() or nav.default_path(), pairs,
                     base_path=str(st.get_option("server.baseUrlPath") or ""))
