"""The difficulty family's parameters, stages and Table 1 presets, declared once (spec §2–§3).

Three defaults mean "not given" (``None``), because the spec's rules depend on whether they
were: ``splits`` (7), ``thresholds`` (``i/n``) and ``weights`` (``linear``) are an error with
split mode ``continuous``, and the number of splits follows from the thresholds or a custom
weight list when ``splits`` is not given. :func:`resolve` turns validated parameters into
the numbers the metric uses (:class:`Setting`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core.family import Stage
from ..core.params import Param, ParamSpec
from ..core.paramtext import short_value

METRICS = ("wsbias", "wood", "wmprob")
METRIC_LABELS = {"wsbias": "WSBias (spurious bias)", "wood": "WOOD (similarity to training data)",
                 "wmprob": "WMProb (model confidence)"}
SPLIT_MODES = ("equal", "threshold", "continuous")
SPLIT_MODE_LABELS = {"equal": "Equally populated", "threshold": "Thresholds", "continuous": "Continuous weights"}
WEIGHT_SCHEMES = ("linear", "square", "log", "reverse")
WEIGHT_LABELS = {"linear": "Linear (x)", "square": "Square (x²)", "log": "Logarithmic (ln(1 + x))",
                 "reverse": "Reverse (n + 1 − x)"}
DEFAULT_SPLITS = 7
DELTA = 0.01  # the floor of E under 1/E (spec §2)

#: Table 1 cases 1–5 as (reward d, penalty e); the API takes the numbers.
PRESETS = {1: (1.0, -1.0), 2: (1.0, 0.0), 3: (0.0, -1.0), 4: (1.0, -0.5), 5: (0.5, -1.0)}
PRESET_LABELS = {1: "Reward = penalty", 2: "Reward only", 3: "Penalty only", 4: "Reward > penalty",
                 5: "Penalty > reward"}

SPLITS, WEIGHTING, EASE = "Splits", "Weights and rewards", "Ease"


def number_text(x: float) -> str:
    """The shortest text that reads back as ``x``: ``2`` for 2.0, ``0.1`` for 0.1.

    >>> number_text(2.0), number_text(0.1), number_text(1e-05)
    ('2', '0.1', '1e-05')
    """
    r = repr(float(x))
    return r[:-2] if r.endswith(".0") else r


def _parse_splits(value):
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        x = float(value.strip()) if isinstance(value, str) else float(value)
        ok = not isinstance(value, bool) and x == int(x) and 2 <= x <= 7
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        raise ValueError(f"expected an integer in [2, 7], got {short_value(value)!r}")
    return int(x)


def _parse_column(value):
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"expected a column name, got {value!r}")
    return value.strip() or None


WEIGHTS_EXPECTED = ("linear, square, log, reverse or a comma-separated list of 2 to 7 non-negative numbers "
                    "(one per split)")


def _parse_weights(value):
    """``None``, a scheme name, or a custom list as canonical text (``"1,2,4"``)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str) and value.strip().lower() in WEIGHT_SCHEMES:
        return value.strip().lower()
    items = value.split(",") if isinstance(value, str) else list(value) if isinstance(value, (list, tuple)) else None
    try:
        nums = [float(x.strip()) if isinstance(x, str) else float(x) for x in items or ()]
        ok = (not any(isinstance(x, bool) for x in items)) and 2 <= len(nums) <= 7 \
            and all(math.isfinite(x) and x >= 0 for x in nums)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an integer past the largest float
        ok = False
    if not ok:
        raise ValueError(f"expected {WEIGHTS_EXPECTED}, got {short_value(value)!r}")
    if not any(nums):
        raise ValueError(f"expected at least one split weight above 0 (with every weight 0 each score would be "
                         f"0/0), got {value!r}")
    return ",".join(number_text(x) for x in nums)


@dataclass(frozen=True)
class Setting:
    """Validated parameters as the metric uses them."""

    metric: str
    ease_column: str | None  # None: WMProb's confidence, or WOOD from the training texts
    sts_top: int
    mode: str
    n: int | None  # number of splits; None in continuous mode
    thresholds: tuple[float, ...] | None  # threshold mode only
    weights: tuple[float, ...] | None  # b_1..b_n; None in continuous mode
    weights_name: str | None  # the scheme, or the custom list as text
    reward: float
    penalty: float
    scale: bool

    def parameters(self) -> dict:
        """The effective parameters, as the JSON document echoes them."""
        return {"metric": self.metric, "ease_column": self.ease_column,
                "sts_top": self.sts_top if self.metric == "wood" and self.ease_column is None else None,
                "split_mode": self.mode, "splits": self.n,
                "thresholds": list(self.thresholds) if self.thresholds is not None else None,
                "weights": self.weights_name, "reward": self.reward, "penalty": self.penalty,
                "scale_by_difficulty": self.scale}


def scheme_weights(scheme: str, n: int) -> tuple[float, ...]:
    """Split weights b_1..b_n: linear x, square x², log ln(1 + x), reverse n + 1 − x.

    >>> scheme_weights("square", 3), scheme_weights("reverse", 3)
    ((1.0, 4.0, 9.0), (3.0, 2.0, 1.0))
    """
    x = np.arange(1, n + 1, dtype=float)
    b = {"linear": x, "square": x * x, "log": np.log1p(x), "reverse": n + 1 - x}[scheme]
    return tuple(float(v) for v in b)


def resolve(values: dict) -> Setting:
    """The :class:`Setting` of validated parameters; ``ValueError(name, message)`` for a rule
    between parameters (spec §2)."""
    mode, splits, thresholds, weights = values["split_mode"], values["splits"], values["thresholds"], values["weights"]
    metric, column = values["metric"], values["ease_column"]
    if metric == "wsbias" and column is None:
        raise ValueError("ease_column", "required with metric wsbias (the samples file's bias column)")
    if metric == "wmprob":
        column = None  # WMProb's ease is each model's confidence
    if values["reward"] == 0 and values["penalty"] == 0:
        raise ValueError("reward", "reward 0 and penalty 0: no prediction earns or costs anything, so every score "
                                   "would be 0/0; give a reward or a penalty other than 0")
    custom = None if weights is None or weights in WEIGHT_SCHEMES else tuple(float(x) for x in weights.split(","))
    if mode == "continuous":
        for name in ("splits", "thresholds", "weights"):
            if values[name] is not None:
                raise ValueError(name, "not used with split mode continuous (every sample has its own weight)")
        return Setting(metric, column, values["sts_top"], mode, None, None, None, None, values["reward"],
                       values["penalty"], values["scale_by_difficulty"])
    if thresholds is not None and mode != "threshold":
        raise ValueError("thresholds", f"only used with split mode threshold, not {mode}")
    if thresholds is not None and not 1 <= len(thresholds) <= 6:
        raise ValueError("thresholds", f"expected 1 to 6 thresholds (2 to 7 splits), got {len(thresholds)}")
    n = splits if splits is not None else len(thresholds) + 1 if thresholds is not None \
        else len(custom) if custom is not None else DEFAULT_SPLITS
    if thresholds is not None and len(thresholds) != n - 1:
        raise ValueError("thresholds", f"expected {n - 1} thresholds for {n} splits, got {len(thresholds)}")
    if custom is not None and len(custom) != n:
        raise ValueError("weights", f"expected {n} weights for {n} splits, got {len(custom)}")
    if thresholds is not None and any(b <= a for a, b in zip(thresholds, thresholds[1:], strict=False)):
        raise ValueError("thresholds", "expected increasing thresholds t1 < t2 < …, got "
                         + ",".join(number_text(t) for t in thresholds))
    if mode == "threshold" and thresholds is None:
        thresholds = tuple(i / n for i in range(1, n))
    name = weights or "linear"
    return Setting(metric, column, values["sts_top"], mode, n, tuple(thresholds) if thresholds is not None else None,
                   custom if custom is not None else scheme_weights(name, n), name, values["reward"],
                   values["penalty"], values["scale_by_difficulty"])


def _check(values: dict) -> None:
    resolve(values)


PARAMS = ParamSpec([
    Param("metric", "wmprob", kind="choice", label="Metric", choices=METRICS, choice_labels=METRIC_LABELS,
          cli_required=True, group=EASE,
          help="wsbias: ease = a spurious-bias column; wood: ease = similarity to the training data (a column, "
               "or computed from --train); wmprob: ease = each model's own confidence"),
    Param("ease_column", None, kind="choice", label="Ease column", choices_from="ease_columns", parse=_parse_column,
          group=EASE, expected_text="a numeric column of the samples file",
          help="the samples file's numeric column that holds E (more = easier); required for wsbias, and for "
               "wood unless --train is given; not used by wmprob"),
    Param("sts_top", 25, kind="int", label="Top-k % of training texts", low=1, high=100, slider=(1, 100, 1),
          group=EASE, help="WOOD from --train: each sample's E is the mean cosine similarity to its top k percent most "
                           "similar training texts"),
    Param("split_mode", "equal", kind="choice", label="Split mode", choices=SPLIT_MODES,
          choice_labels=SPLIT_MODE_LABELS, group=SPLITS,
          help="equal: n equally populated splits by E; threshold: splits cut at thresholds of E; continuous: "
               "every sample weighs 1/max(E, 0.01) (wmprob: E)"),
    Param("splits", None, kind="int", label="Number of splits", low=2, high=7, slider=(2, 7, 1), parse=_parse_splits,
          group=SPLITS, help="number of splits n, 2-7 (default 7, or one more than the thresholds / as many as the "
                             "custom weights)"),
    Param("thresholds", None, kind="floats", label="Thresholds", group=SPLITS,
          help="threshold mode: increasing t1,...,t(n-1) (default i/n); split 1 holds E > t(n-1), split n E <= t1"),
    Param("weights", None, kind="choice", label="Split weights", choices=WEIGHT_SCHEMES, choice_labels=WEIGHT_LABELS,
          parse=_parse_weights, group=WEIGHTING, expected_text=WEIGHTS_EXPECTED,
          help="split weights b_x: linear x (default), square x^2, log ln(1+x), reverse n+1-x, or a list of n "
               "non-negative numbers such as 1,2,4"),
    Param("reward", 1.0, label="Reward d", slider=(0.0, 2.0, 0.1), group=WEIGHTING,
          help="reward d of a correct prediction (Table 1: case 1 (1, -1), 2 (1, 0), 3 (0, -1), 4 (1, -0.5), "
               "5 (0.5, -1))"),
    Param("penalty", -1.0, label="Penalty e", slider=(-2.0, 0.0, 0.1), group=WEIGHTING,
          help="penalty e of an incorrect prediction (usually <= 0)"),
    Param("scale_by_difficulty", False, kind="bool", label="Scale reward and penalty by difficulty", group=WEIGHTING,
          help="multiply d and e per sample by 1/max(E, 0.01) (wmprob: by E), Table 1 cases 8-9"),
], check=_check)

STAGES = (
    Stage("accuracy", "Accuracy", "accuracy_rank", higher_is_better=True,
          help="The share of all samples of the file each model predicts correctly."),
    Stage("score", "Difficulty-weighted score", "rank", higher_is_better=True,
          help="100 · Σ K·W / Σ d·W (Eq. 4): every sample weighs its split's weight W; a correct prediction earns "
               "the reward d, a wrong one the penalty e. In [-100, 100] when e >= -d."),
)

LEADING_COLUMNS = ("submission", "accuracy", "accuracy_rank", "score", "rank")
