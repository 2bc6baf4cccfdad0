"""A page's own picks in the address — the team of a waterfall (``team=``), the essay on the
Segments page (``essay=``), the what-if inputs (``whatif=``, ``score=``, ``runtime=``) — so that
a shared link shows the same view.

Before its widget is drawn, :func:`choice` / :func:`number` put the widget's state in place:
the link's value when it is a valid one (an invalid one is dropped from the address, silently),
else the session's current value, else the default. The widget's ``on_change`` is
:func:`keep` (or a callback that calls it), which writes the new value into the address. The
sidebar's parameters follow the same idea through ``lab.view.state``; these keys are listed in the
family's ``FamilyUI.link_keys`` so that the reset button clears them too.
"""

from __future__ import annotations

import math
import urllib.parse
from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st


def _text(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.10g}"
    return str(value)


def keep(key: str, url_key: str) -> None:
    """Write widget ``key``'s value into the address as ``url_key`` (an ``on_change``; a list,
    from a multiselect, as repeated values)."""
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
        ss[key] = value
    elif follow_default or key not in ss or not valid(ss[key]):
        ss[key] = default
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
        ss[key] = value
    elif key not in ss:
        ss[key] = float(default)
    return ss[key]


def address(*, without: Sequence[str] = (), query: dict[str, list[str]] | None = None) -> str:
    """This page's address with its link parameters (``query``: the current ones), leaving out
    the keys in ``without`` — e.g. ``data``, the key to an upload. Without a browser (a test
    run) it is the query part alone (``?w=0.5``).

    >>> address(without=("data",), query={"w": ["0.5"], "data": ["sr-00"], "attributes": ["a", "b"]})
    '?w=0.5&attributes=a&attributes=b'
    """
    if query is None:
        query = {k: st.query_params.get_all(k) for k in st.query_params}
    pairs = [(k, v) for k, values in query.items() if k not in without for v in values]
    try:
        base = st.context.url or ""
    except Exception:  # no browser context (bare mode)
        base = ""
    return f"{base}?{urllib.parse.urlencode(pairs)}" if pairs else base
