"""Drawing the app's charts, each built once for the same inputs.

:func:`memo` keeps a built chart — a Vega-Lite specification (``lab.charts.common``) or a Plotly
figure — for every session (``lab.data.shared``, keyed by the builder and the content of its
inputs): a rerun whose inputs did not change — a value visited before, by this visitor or
another — draws the chart without building it again. Only for a chart the page draws as it is:
drawing (``st.vega_lite_chart``, ``st.plotly_chart``) does not change a chart (Streamlit copies a
specification before it adds to it), but a page that edits a figure after building it must not
share it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st


def vega_lite_chart(spec: dict[str, Any], **kwargs: Any) -> Any:
    """``st.vega_lite_chart`` of a specification of ``lab.charts`` (its data under ``datasets``)."""
    return st.vega_lite_chart(spec=spec, **kwargs)


def memo(build: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``build(*args, **kwargs)``, built once for the same content of the inputs."""
    from ..data import shared

    code = getattr(build, "__code__", None)  # a page's own builder: its module is __main__, its file names it
    name = f"{build.__module__}.{build.__qualname__}@{code.co_filename if code else ''}"
    key = ("chart", name, shared.content_key(list(args), kwargs))
    return shared.compute(key, lambda _progress: build(*args, **kwargs), chart=True)
