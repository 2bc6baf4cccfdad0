"""The engine's one cache: a small thread-safe LRU map with hit and miss counts.

One scorer may serve several app sessions (threads) at once; its values are pure functions
of their keys, so two threads computing the same entry at once is harmless.
"""

from __future__ import annotations

import threading
from collections import OrderedDict


class LRU:
    """A thread-safe LRU map of at most ``size`` entries; :meth:`get` computes a missing one.

    >>> c = LRU(1)
    >>> c.get("a", lambda: 1), c.get("a", lambda: 2), c.get("b", lambda: 3), c.get("a", lambda: 4)
    (1, 1, 3, 4)
    >>> c.info()
    {'hits': 1, 'misses': 3, 'entries': 1}
    """

    def __init__(self, size: int):
        self.size = size
        self.items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key, fn):
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                self.hits += 1
                return self.items[key]
            self.misses += 1
        val = fn()
        with self.lock:
            self.items[key] = val
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return val

    def info(self) -> dict[str, int]:
        return {"hits": self.hits, "misses": self.misses, "entries": len(self.items)}
