"""One progress bar for the engine's ``progress(done, total, name)`` callbacks (loading files,
re-matching submissions, scoring a map's cells): drawn while the work runs, gone afterwards."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

Label = Callable[[int, int, str], str]


def _bar(text: str) -> DeltaGenerator:
    return st.progress(0.0, text=text)


@contextmanager
def progress_bar(label: Label, *, lazy: bool = False, min_total: int = 0,
                 check: Callable[[], None] | None = None) -> Iterator[Callable[[int, int, str], None]]:
    """A ``progress(done, total, name)`` callback that moves one ``st.progress`` bar, its text
    ``label(done, total, name)``; the bar is emptied when the block ends.

    ``lazy``: the bar is drawn at the first report (nothing shows for work that never reports,
    e.g. a cached matching); reports of fewer than ``min_total`` items draw nothing (a bar for
    work that short would only flicker). ``check()`` runs before each report and may raise to
    stop the work (a browser that went away)."""
    bars: list[DeltaGenerator] = [] if lazy else [_bar(label(0, 0, ""))]

    def progress(done: int, total: int, name: str) -> None:
        if check is not None:
            check()
        if total < min_total:
            return
        if not bars:
            bars.append(_bar(label(0, total, "")))
        bars[0].progress(min(1.0, done / total) if total else 1.0, text=label(done, total, name))

    try:
        yield progress
    finally:
        if bars:
            bars[0].empty()
