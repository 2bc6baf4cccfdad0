"""Results shared by every session that asks the same question: one bounded, content-keyed
cache for what the robustness pages compute (bootstrap intervals and rank sets, stability
maps, shake-ups).

A result is a pure function of the data and the parameters, so its key is the data's digest
(an upload's SHA-256, or the default data's) plus the parameter values: ten visitors who
open the same stability map wait for one computation, and the eleventh gets it at once.
An upload's results stay private: only a session that holds the upload's digest (its own
upload, or a link naming it) can form their keys — the digest cannot be guessed, and
:func:`drop` forgets every result of an upload when it is deleted.

The session that computes a result sees its progress bar; a session asking for the same key
meanwhile waits for that computation (a spinner says so) instead of repeating it. The cache
lives once per server (``st.cache_resource``), bounded by count and by the bytes its values
hold (``scoring.core.cache.LRU``; ``LAB_SHARED_BYTES``, default 256 MiB).
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from scoring.core.cache import LRU, nbytes

from .progress import Label, progress_bar

SHARED_BYTES = int(os.environ.get("LAB_SHARED_BYTES", 256 << 20))
SHARED_ENTRIES = 64
#: built figures (``lab.view.draw.memo``) are kept apart, by count only: a figure holds its data as
#: Python lists, which :func:`scoring.core.cache.nbytes` does not weigh
CHART_ENTRIES = 32
_MISSING = object()


class _Shared:
    def __init__(self) -> None:
        self.lru = LRU(SHARED_ENTRIES, max_bytes=SHARED_BYTES, weigh=nbytes)
        self.charts = LRU(CHART_ENTRIES)
        self.lock = threading.Lock()
        self.running: dict[Hashable, threading.Lock] = {}  # one lock per key being computed

    def key_lock(self, key: Hashable) -> threading.Lock:
        with self.lock:
            return self.running.setdefault(key, threading.Lock())

    def done(self, key: Hashable) -> None:
        with self.lock:
            self.running.pop(key, None)


@st.cache_resource(show_spinner=False)
def _shared() -> _Shared:
    return _Shared()


def compute(key: tuple, run: Callable[[Callable[[int, int, str], None]], Any], *,
            label: Label | None = None, lazy: bool = False, min_total: int = 0, chart: bool = False) -> Any:
    """The result for ``key`` — ``(what, family, data digest, parameters…)``, every part
    hashable — from the cache, else ``run(progress)`` under a progress bar (``label``; see
    ``lab.data.progress.progress_bar`` for ``lazy`` and ``min_total``; no bar without a label),
    kept for every session (``chart``: among the built figures). Concurrent askers of one key
    wait for one computation."""
    shared = _shared()
    lru = shared.charts if chart else shared.lru
    value = lru.peek(key, _MISSING)
    if value is not _MISSING:
        return value
    lock = shared.key_lock(key)
    if not lock.acquire(blocking=False):  # another session is computing it: wait for its result
        with st.spinner("Computing (another visitor, or the server's warm-up, asked for the same a moment ago)…"):
            lock.acquire()
    try:
        value = lru.peek(key, _MISSING)
        if value is _MISSING:
            with lru.lock:
                lru.misses += 1  # (peek counts the hits only)
            if label is None:
                value = run(lambda done, total, name: None)
            else:
                with progress_bar(label, lazy=lazy, min_total=min_total) as progress:
                    value = run(throttled(progress))
            lru.put(key, value)
        return value
    finally:
        lock.release()
        shared.done(key)


#: a progress bar moves at most this often (each move is a message to the browser: a 21 × 21 map
#: reported every cell sent 441 of them)
PROGRESS_EVERY_S = 0.1


def throttled(progress: Callable[[int, int, str], None], every: float = PROGRESS_EVERY_S) -> Callable[[int, int, str], None]:
    """``progress`` called for the first report, the last (``done == total``) and at most once
    every ``every`` seconds in between.

    >>> seen = []
    >>> p = throttled(lambda d, t, n: seen.append(d), every=3600)
    >>> for d in range(1, 101):
    ...     p(d, 100, "")
    >>> seen
    [1, 100]
    """
    last = [float("-inf")]

    def report(done: int, total: int, name: str) -> None:
        now = time.monotonic()
        if done >= total or now - last[0] >= every:
            last[0] = now
            progress(done, total, name)

    return report


def content_key(*parts: Any) -> str:
    """A digest of ``parts`` by content — DataFrames and Series by their values, index and
    names, arrays by their bytes, mappings and sequences item by item, anything else by
    ``repr`` — for keying a result built from them (a figure whose inputs did not change).

    >>> content_key(pd.DataFrame({"a": [1, 2]}), [1, "x"]) == content_key(pd.DataFrame({"a": [1, 2]}), [1, "x"])
    True
    >>> content_key(pd.DataFrame({"a": [1, 2]})) == content_key(pd.DataFrame({"a": [2, 1]}))
    False
    >>> content_key(pd.DataFrame({"a": [[1], [2]]})) == content_key(pd.DataFrame({"a": [[1], [3]]}))
    False
    """
    h = hashlib.sha256()

    def add(x: Any) -> None:
        if isinstance(x, (pd.DataFrame, pd.Series)):
            names = list(map(str, x.columns)) if isinstance(x, pd.DataFrame) else [str(x.name)]
            h.update(b"frame" + repr((names, x.shape)).encode())
            try:
                h.update(pd.util.hash_pandas_object(x, index=True).to_numpy().tobytes())
            except TypeError:  # cells pandas cannot hash (lists): their text, row by row
                h.update(x.to_csv().encode())
        elif isinstance(x, np.ndarray):
            h.update(b"array" + repr((x.dtype.str, x.shape)).encode() + np.ascontiguousarray(x).tobytes())
        elif isinstance(x, dict):
            h.update(b"dict%d" % len(x))
            for k, v in x.items():
                add(k)
                add(v)
        elif isinstance(x, (list, tuple)):
            h.update(b"seq%d" % len(x))
            for v in x:
                add(v)
        else:
            h.update(b"repr" + repr(x).encode() + b"\0")

    for part in parts:
        add(part)
    return h.hexdigest()


def drop(family: str, digest: str) -> None:
    """Forget every result of ``family``'s data ``digest`` (an upload deleted by its user)."""
    lru = _shared().lru
    with lru.lock:
        keys = list(lru.items)
    for key in [k for k in keys if len(k) > 2 and k[1] == family and k[2] == digest]:
        lru.pop(key)


def info() -> dict[str, int]:
    """The cache's hits, misses, entries and bytes (for tests and benchmarks)."""
    return _shared().lru.info()
