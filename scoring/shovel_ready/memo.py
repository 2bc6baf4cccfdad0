"""The memo's printed numbers (``../shared/seeds/001_*.txt``), transcribed once.

The Worked-examples page sets the engine's results beside these; the tests check the engine
against them; ``docs/metric.md`` cites them. Values are exactly as the memo prints them
(rounded as printed); ``decimals`` says how many it prints.
"""

from __future__ import annotations

import math

# §1 — overlap removal: six segments (first word, last word) in the memo's listing order,
# and the memo's result (None = discarded).
OVERLAP_SEGMENTS = {"A": (50, 64), "B": (10, 29), "C": (25, 44), "D": (90, 99), "E": (80, 94), "F": (45, 69)}
OVERLAP_AFTER = {"A": None, "B": (10, 29), "C": (30, 44), "D": (95, 99), "E": (80, 94), "F": (45, 69)}

# §2.5, Table 1 — fractional TP at w = 0.5, threshold 0.51. Segments (word ranges) built to
# the memo's description of each example, the memo's stated overlaps (max(o_P, o_G) and IoU;
# None where it is no match), d[E], and the printed TP_P with max-overlap and IoU quality.
TABLE1_W = 0.5
TABLE1_THRESHOLD = 0.51
TABLE1 = [
    dict(ex="a", gt=range(0, 10), pred=range(1, 11), q_max=0.9, q_iou=9 / 11, d=0.8, max=0.85, iou=0.809),
    dict(ex="b", gt=range(0, 10), pred=range(1, 11), q_max=0.9, q_iou=9 / 11, d=0.4, max=0.65, iou=0.609),
    dict(ex="c", gt=range(0, 10), pred=range(3, 13), q_max=0.7, q_iou=7 / 13, d=0.8, max=0.75, iou=0.669),
    dict(ex="d", gt=range(0, 10), pred=range(6, 11), q_max=None, q_iou=None, d=1.0, max=0.0, iou=0.0),
    dict(ex="e", gt=range(0, 10), pred=range(0, 6), q_max=1.0, q_iou=0.6, d=1.0, max=1.0, iou=0.8),
]
TABLE1_DECIMALS = 3

# §3 — softmin: two equal sub-populations; model m scores 0.7 on both, n 0.6 and 0.8. The
# memo prints the uniform average (α = 0) and the hard minimum (α = ∞).
SOFTMIN_MODELS = {"m": (0.7, 0.7), "n": (0.6, 0.8)}
SOFTMIN_PRINTED = {"m": {0.0: 0.7, math.inf: 0.7}, "n": {0.0: 0.7, math.inf: 0.6}}

# §4.1 — the efficiency boost with band 5 %, maximum boost 5 %, window 20 %: (model, metric
# score, runtime s, boosted score as printed, decimals printed), and the printed final order.
BOOST_PARAMS = {"band": 0.05, "max_boost": 0.05, "window": 0.2}
TABLE2 = [("Red", 0.6, 50, 0.6, 1), ("Blue", 0.595, 45, 0.606, 3), ("Green", 0.59, 48, 0.59, 2),
          ("Yellow", 0.58, 40, 0.609, 3)]
TABLE2_ORDER = ["Yellow", "Blue", "Red", "Green"]
TABLE3 = [("Red", 0.6, 50.4, 0.623, 3), ("Green", 0.59, 48, 0.62, 2), ("Blue", 0.55, 45, 0.55, 2),
          ("Yellow", 0.25, 5, 0.25, 2)]
TABLE3_ORDER = ["Red", "Green", "Blue", "Yellow"]


def printed_tp(example: dict, quality: str, w: float) -> float:
    """The memo's TP_P of a Table 1 example: as printed at w = 0.5, else the memo's formula
    ``w·q + (1 − w)·d`` on the overlaps and probability the memo states (0 for no match)."""
    if math.isclose(w, TABLE1_W):
        return example[quality]
    q = example["q_max"] if quality == "max" else example["q_iou"]
    return 0.0 if q is None else w * q + (1 - w) * example["d"]


def agrees(engine: float, printed: float, decimals: int) -> bool:
    """Whether ``engine`` rounds to the memo's printed value (half a unit in its last digit).

    >>> agrees(0.60615625, 0.606, 3), agrees(0.6225, 0.62, 2), agrees(0.61, 0.6, 2)
    (True, True, False)
    """
    return abs(engine - printed) <= 0.5 * 10.0 ** (-decimals) + 1e-9
