"""Drawing the app's Vega-Lite (Altair) charts without the per-rerun schema check, and
building each chart once for the same inputs.

``st.altair_chart`` converts a chart with ``chart.to_dict()``, which validates the whole
specification against Vega-Lite's JSON schema (``jsonschema``) on every rerun: on the
Shovel-Ready leaderboard that check was about half of a slider move's work on the server
(two charts, ~0.1 s each). The charts here are built by the app's own code, from fixed
encodings, and the tests check each builder's output against the schema
(``tests/app/test_chart_drawing.py``), so the app draws them with ``validate=False`` — the
only difference.

:func:`memo` keeps a built chart — Altair or Plotly — for every session (``lab.data.shared``,
keyed by the builder and the content of its inputs): a rerun whose inputs did not change — a
value visited before, by this visitor or another — draws the chart without building it again.
Only for a chart the page draws as it is: drawing (``st.altair_chart``, ``st.plotly_chart``)
does not change a chart, but a page that edits a figure after building it must not share it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import streamlit as st


def unvalidated(chart: Any) -> Any:
    """``chart`` (an Altair top-level chart), its ``to_dict`` skipping the schema check.
    (``object.__setattr__``: Altair's own ``__setattr__`` would store the attribute as a
    chart property.)"""
    object.__setattr__(chart, "to_dict", functools.partial(type(chart).to_dict, chart, validate=False))
    return chart


def altair_chart(chart: Any, **kwargs: Any) -> Any:
    """``st.altair_chart(chart, **kwargs)`` without the schema check (see the module doc)."""
    return st.altair_chart(unvalidated(chart), **kwargs)


def memo(build: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``build(*args, **kwargs)``, built once for the same content of the inputs."""
    from ..data import shared

    code = getattr(build, "__code__", None)  # a page's own builder: its module is __main__, its file names it
    name = f"{build.__module__}.{build.__qualname__}@{code.co_filename if code else ''}"
    key = ("chart", name, shared.content_key(list(args), kwargs))
    return shared.compute(key, lambda _progress: build(*args, **kwargs), chart=True)
