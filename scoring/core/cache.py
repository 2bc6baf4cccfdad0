"""The project's one cache: a thread-safe LRU map with hit and miss counts, bounded by entry
count and, optionally, by an estimate of the bytes its values hold.

One scorer may serve several app sessions (threads) at once; its values are pure functions
of their keys, so two threads computing the same entry at once is harmless. The app's data
store uses the same class with a byte budget (:func:`nbytes` weighs a value).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd


def nbytes(value: Any, depth: int = 4) -> int:
    """An estimate of the memory held by ``value``: numpy arrays, pandas objects and, to
    ``depth`` levels, the attributes, lists, tuples and dicts that hold them.

    >>> nbytes({"a": np.zeros(10), "b": [np.ones(5, dtype=np.int8)]})
    85
    """
    if isinstance(value, np.ndarray):
        return int(value.nbytes)
    if isinstance(value, (pd.DataFrame, pd.Series)):
        mem = value.memory_usage(index=False, deep=False)
        return int(mem.sum() if isinstance(mem, pd.Series) else mem)
    if isinstance(value, (bytes, bytearray, str)):
        return len(value)
    if depth <= 0 or value is None or isinstance(value, (int, float, bool)):
        return 0
    if isinstance(value, dict):
        return sum(nbytes(v, depth - 1) for v in value.values())
    if isinstance(value, (list, tuple, set, frozenset)):
        return sum(nbytes(v, depth - 1) for v in value)
    attrs = getattr(value, "__dict__", None)
    if attrs:
        return sum(nbytes(v, depth - 1) for k, v in attrs.items() if not k.startswith("__"))
    return 0


class LRU:
    """A thread-safe LRU map of at most ``size`` entries (and at most ``max_bytes`` by
    ``weigh``, when given); :meth:`get` computes a missing entry.

    >>> c = LRU(1)
    >>> c.get("a", lambda: 1), c.get("a", lambda: 2), c.get("b", lambda: 3), c.get("a", lambda: 4)
    (1, 1, 3, 4)
    >>> c.info()
    {'hits': 1, 'misses': 3, 'entries': 1, 'bytes': 0}
    >>> b = LRU(10, max_bytes=100, weigh=len)
    >>> _ = b.get("x", lambda: "x" * 60), b.get("y", lambda: "y" * 60)
    >>> list(b.items)  # "x" went out to keep 100 bytes
    ['y']
    """

    def __init__(self, size: int, *, max_bytes: int | None = None, weigh: Callable[[Any], int] | None = None):
        self.size = size
        self.max_bytes = max_bytes
        self.weigh = weigh
        self.items: OrderedDict = OrderedDict()
        self._weights: dict = {}
        self.lock = threading.Lock()
        self.hits = self.misses = 0

    def peek(self, key, default=None):
        """The entry for ``key`` (marked as recently used), or ``default``."""
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                self.hits += 1
                return self.items[key]
            return default

    def get(self, key, fn):
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                self.hits += 1
                return self.items[key]
            self.misses += 1
        val = fn()
        self.put(key, val)
        return val

    def put(self, key, val) -> None:
        w = self.weigh(val) if self.weigh is not None else 0
        with self.lock:
            self.items[key] = val
            self.items.move_to_end(key)
            self._weights[key] = w
            while len(self.items) > self.size or (
                    self.max_bytes is not None and len(self.items) > 1 and sum(self._weights.values()) > self.max_bytes):
                old, _ = self.items.popitem(last=False)
                self._weights.pop(old, None)

    def pop(self, key) -> None:
        with self.lock:
            self.items.pop(key, None)
            self._weights.pop(key, None)

    def info(self) -> dict[str, int]:
        return {"hits": self.hits, "misses": self.misses, "entries": len(self.items),
                "bytes": int(sum(self._weights.values()))}
