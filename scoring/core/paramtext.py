"""How a parameter's value is written as text: the words read as true, false and infinity,
a list or ``key:value`` items split from text, a number and a long value as a message shows
them. :mod:`scoring.core.params` reads and writes values with these."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

BOOL_WORDS = {"true": True, "1": True, "yes": True, "on": True,
              "false": False, "0": False, "no": False, "off": False}
INF_WORDS = ("inf", "infinity", "∞", "+inf")


def num_text(x: float) -> str:
    return "∞" if math.isinf(x) else f"{x:g}"


def short_value(value):
    """``value`` as a message shows it: an integer or text of more than 40 characters cut to
    its first 20 and its length, a list or mapping whose text passes 80 characters to its first
    60 (a 400-digit integer from a recipe is named, not printed whole).

    >>> short_value(10 ** 400), short_value([10 ** 400, 1])[-16:]
    ('10000000000000000000…(401 characters)', '(406 characters)')
    """
    if isinstance(value, (int, str)) and not isinstance(value, bool):
        text = str(value)
        return f"{text[:20]}…({len(text)} characters)" if len(text) > 40 else value
    if isinstance(value, (list, tuple, dict)):
        text = repr(value)
        return f"{text[:60]}…({len(text)} characters)" if len(text) > 80 else value
    return value


def split_items(value) -> list:
    if isinstance(value, str):
        return [x for x in value.split(",")]
    if isinstance(value, (list, tuple)):
        out: list = []
        for x in value:
            out.extend(x.split(",") if isinstance(x, str) else [x])
        return out
    raise ValueError(f"expected a list, got {value!r}")


def split_pairs(value) -> list[tuple[str, Any]] | None:
    if isinstance(value, Mapping):
        return [(str(k), v) for k, v in value.items()]
    items = [value] if isinstance(value, str) else list(value) if isinstance(value, (list, tuple)) else None
    if items is None:
        return None
    out = []
    for it in items:
        if not isinstance(it, str):
            return None
        if not it.strip():
            continue
        key, sep, x = it.rpartition(":")
        if not sep or not key.strip():
            return None
        out.append((key.strip(), x))
    return out
