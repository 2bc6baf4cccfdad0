"""Reading a sentence's numbers and words back, independently of ``scoring.claims.words``: a
printed number stands for every value that rounds to it, so a check compares the value
recomputed from the JSON with the printed one within half a unit of its last printed digit."""

from __future__ import annotations

import json
import re

import numpy as np

NUMBER = r"-?[\d,]*\d(?:\.\d+)?(?:e[-+]?\d+)?"


def number(text: str) -> float:
    return float(text.replace(",", ""))


def half_unit(text: str) -> float:
    """Half a unit of the last printed digit: ``0.022`` -> 0.0005, ``70%`` -> 0.005 (as a share)."""
    t = text.replace(",", "").rstrip("%").strip()
    if "e" in t:
        mant, exp = t.split("e")
        d = len(mant.split(".")[1]) if "." in mant else 0
        return 0.5 * 10.0 ** (int(exp) - d)
    d = len(t.split(".")[1]) if "." in t else 0
    return 0.5 * 10.0 ** (-d) / (100 if text.strip().endswith("%") else 1)


def share(text: str) -> float:
    """``"49.96%"`` -> 0.4996."""
    return number(text.strip().rstrip("%").strip()) / 100


def agrees(text: str, value: float, slack: float = 1e-9) -> bool:
    """Whether the printed ``text`` (a number, or a percentage of a share) rounds ``value``."""
    printed = share(text) if text.strip().endswith("%") else number(text)
    return abs(printed - float(value)) <= half_unit(text) + slack


def via_json(obj):
    """The object as a reader of the JSON sees it (numpy and pandas values made plain)."""

    def plain(x):
        if isinstance(x, (np.integer,)):
            return int(x)
        if isinstance(x, (np.floating,)):
            return float(x)
        if isinstance(x, np.bool_):
            return bool(x)
        if isinstance(x, np.ndarray):
            return x.tolist()
        raise TypeError(type(x))

    return json.loads(json.dumps(obj, default=plain))


def percents_listed(text: str) -> list[tuple[float, float]]:
    """``"30% to 60% and 80%"`` -> [(0.3, 0.6), (0.8, 0.8)]; ``"10%, 30% to 40% and 90%"`` too."""
    parts = re.split(r", | and ", text)
    out = []
    for p in parts:
        m = re.fullmatch(r"(\d+)% to (\d+)%", p.strip())
        if m:
            out.append((int(m[1]) / 100, int(m[2]) / 100))
        else:
            m = re.fullmatch(r"(\d+)%", p.strip())
            assert m, f"not a percentage or a range: {p!r} in {text!r}"
            out.append((int(m[1]) / 100,) * 2)
    return out
