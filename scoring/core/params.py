"""One declarative spec per parameter.

A family lists its parameters once, as :class:`Param` entries; everything else is derived
from that list: API validation (``ParamSpec.validate``), command-line options and their
``--help`` (``add_arguments`` / ``from_args``), the sidebar widgets, URL query values and
presets (``to_text`` / ``from_text`` / ``to_json``), and the reset to defaults. Adding a
parameter is one entry.

Kinds:

``float``   a number in [low, high] (``low_open``/``high_open`` exclude an end); ``allow_inf``
            also accepts ``inf``/``infinity``/``∞``;
``int``     an integer in [low, high];
``bool``    true/false (also ``1/0``, ``yes/no``, ``on/off``);
``choice``  one of ``choices`` (or of the data's values named by ``choices_from``);
``names``   a list of distinct values of the data (``choices_from``), e.g. attributes;
``floats``  a list of numbers (``None`` = not given), each in [low, high];
``mapping`` a number in [low, high] for each value of the data (``choices_from``), e.g. theme
            weights; on a link ``key:value`` items.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import InputError
from .params_typed import Params
from .paramtext import BOOL_WORDS, INF_WORDS, num_text, short_value, split_items, split_pairs

KINDS = ("float", "int", "bool", "choice", "names", "floats", "mapping")


@dataclass(frozen=True)
class Param:
    """One parameter of a family (see the module doc for the kinds)."""

    name: str
    default: Any
    kind: str = "float"
    label: str = ""
    help: str = ""
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False
    allow_inf: bool = False
    choices: tuple = ()
    choice_labels: Mapping[str, str] = field(default_factory=dict)
    choices_from: str | None = None
    #: the sidebar slider's (low, high, step) in the parameter's own units; a value of the
    #: parameter's range outside it (a recipe's, a link's) widens the slider, with a note
    slider: tuple[float, float, float] | None = None
    percent: bool = False
    #: for ``allow_inf``: the label of the sidebar toggle that means ∞
    inf_label: str | None = None
    #: ``""``: ``--name-with-hyphens``; ``None``: not a command-line option
    cli: str | None = ""
    #: a ``bool`` shown on the command line as a flag that turns it off
    cli_negative: str | None = None
    #: the command line requires the option (the API still falls back to ``default``)
    cli_required: bool = False
    group: str = ""
    #: a custom parser ``value -> normalized`` that raises ``ValueError("expected …")``
    parse: Callable[[Any], Any] | None = None
    expected_text: str = ""
    #: a change of this parameter redoes costly work (a re-match), not just a re-aggregation
    costly: bool = False
    #: the values a stability map tries (default: the slider's range, or the choices)
    grid: tuple = ()

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"expected a kind in {KINDS}, got {self.kind!r}")

    # ---- words --------------------------------------------------------------------------
    @property
    def flag(self) -> str | None:
        if self.cli is None:
            return None
        return self.cli or "--" + self.name.replace("_", "-")

    @property
    def title(self) -> str:
        return self.label or self.name

    def _range_text(self) -> str:
        lo = "-∞" if self.low is None else num_text(self.low)
        hi = "∞" if self.high is None else num_text(self.high)
        return f"{'(' if self.low_open else '['}{lo}, {hi}{')' if self.high_open or self.high is None else ']'}"

    @property
    def expected(self) -> str:
        """What a valid value looks like, for messages: ``a number in [0, 1]``."""
        if self.expected_text:
            return self.expected_text
        k = self.kind
        if k in ("float", "int", "floats", "mapping"):
            base = "an integer" if k == "int" else "a number"
            if self.low is not None or self.high is not None:
                base += f" in {self._range_text()}"
            if self.allow_inf:
                base += " or 'inf'"
            return {"floats": f"a comma-separated list of numbers ({base[2:]})",
                    "mapping": f"name:value pairs ({base[2:]})"}.get(k, base)
        if k == "bool":
            return "true or false"
        if k == "choice":
            return f"one of {', '.join(map(str, self.choices))}" if self.choices else "a known value"
        return "a list of known values"

    def grid_values(self, n: int = 21) -> list:
        """The values a stability map tries: ``grid``, else the choices, else ``n`` evenly
        spaced values over the slider's range (whole numbers for ``int``), else booleans."""
        if self.grid:
            return list(self.grid)
        if self.kind == "choice" and self.choices:
            return list(self.choices)
        if self.kind == "bool":
            return [False, True]
        if self.kind in ("float", "int", "mapping") and self.slider is not None:
            lo, hi, _ = self.slider
            if self.kind == "int":
                return list(range(int(lo), int(hi) + 1))
            return [round(float(v), 10) for v in np.linspace(lo, hi, n)]
        return []

    def choice_label(self, value) -> str:
        return str(self.choice_labels.get(value, value))

    # ---- checking -----------------------------------------------------------------------
    def _bad(self, value) -> ValueError:
        return ValueError(f"expected {self.expected}, got {short_value(value)!r}")

    def _number(self, value, *, integer: bool = False) -> float:
        if isinstance(value, bool) or value is None:
            raise self._bad(value)
        if self.allow_inf and isinstance(value, str) and value.strip().lower() in INF_WORDS:
            return math.inf
        try:
            x = float(value.strip()) if isinstance(value, str) else float(value)
        except (TypeError, ValueError, OverflowError):  # OverflowError: an integer past the largest float
            raise self._bad(value) from None
        if math.isnan(x) or (math.isinf(x) and not (self.allow_inf and x > 0)):
            raise self._bad(value)
        if integer:
            if not math.isfinite(x) or x != int(x):
                raise self._bad(value)
        lo, hi = self.low, self.high
        if lo is not None and (x < lo or (self.low_open and x == lo)):
            raise self._bad(value)
        if hi is not None and not math.isinf(x) and (x > hi or (self.high_open and x == hi)):
            raise self._bad(value)
        if hi is not None and math.isinf(x) and not self.allow_inf:
            raise self._bad(value)
        return int(x) if integer else x

    def coerce(self, value, choices: Sequence[str] | None = None):
        """The normalized value, or ``ValueError("expected …, got …")``.

        ``choices`` are the data's values for ``choices_from`` parameters (None: not checked).
        """
        if self.parse is not None:
            return self.parse(value)
        k = self.kind
        if k == "float":
            return self._number(value)
        if k == "int":
            return self._number(value, integer=True)
        if k == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, (int, float)) and value in (0, 1):
                return bool(value)
            if isinstance(value, str) and value.strip().lower() in BOOL_WORDS:
                return BOOL_WORDS[value.strip().lower()]
            raise self._bad(value)
        allowed = list(self.choices) if self.choices else (list(choices) if choices is not None else None)
        if k == "choice":
            v = value.strip() if isinstance(value, str) else value
            if allowed is not None and v not in allowed:
                low = {str(a).lower(): a for a in allowed}
                if isinstance(v, str) and v.lower() in low:
                    return low[v.lower()]
                raise ValueError(f"expected one of {', '.join(map(str, allowed)) or '(none available)'}, got {value!r}")
            return v
        if k == "names":
            items = split_items(value)
            if not all(isinstance(a, str) for a in items):
                raise ValueError(f"expected a list of names, got {value!r}")
            items = [a.strip() for a in items if a.strip()]
            if len(set(items)) != len(items):
                raise ValueError(f"expected distinct names, got {','.join(items)!r}")
            if allowed is not None:
                for a in items:
                    if a not in allowed:
                        raise ValueError(f"expected names from ({', '.join(allowed) or 'none available'}), got {a!r}")
            return tuple(items)
        if k == "floats":
            if value is None or (isinstance(value, str) and not value.strip()):
                return None
            items = split_items(value)
            return tuple(self._number(x) for x in items)
        # mapping
        if value is None:
            return None
        pairs = split_pairs(value)
        if pairs is None:
            raise self._bad(value)
        out = {}
        for key, x in pairs:
            if allowed is not None and key not in allowed:
                raise ValueError(f"expected names from ({', '.join(allowed)}), got {key!r}")
            out[key] = self._number(x)
        return out

    def in_slider(self, value) -> bool:
        """Whether ``value`` can be shown on the sidebar's slider."""
        if self.slider is None or value is None:
            return True
        lo, hi, _ = self.slider
        vals = value.values() if isinstance(value, Mapping) else (value if isinstance(value, tuple) else (value,))
        return all(math.isinf(v) and self.allow_inf or lo - 1e-12 <= v <= hi + 1e-12 for v in vals)

    # ---- text (links, presets, command line) --------------------------------------------
    def to_text(self, value) -> str | list[str]:
        """The value as link text (a list for ``names``/``mapping``)."""
        if value is None:
            return ""
        if self.kind == "bool":
            return "true" if value else "false"
        if self.kind in ("float", "int"):
            return "inf" if math.isinf(value) else f"{value:.6g}"
        if self.kind == "names":
            return list(value) if value else [""]
        if self.kind == "floats":
            return ",".join(f"{v:.6g}" for v in value)
        if self.kind == "mapping":
            return [f"{k}:{v:.6g}" for k, v in value.items()] or [""]
        return str(value)

    def to_json(self, value):
        """The value as strict JSON (∞ as "inf", tuples as lists)."""
        if isinstance(value, float) and math.isinf(value):
            return "inf"
        if isinstance(value, tuple):
            return list(value)
        if isinstance(value, Mapping):
            return dict(value)
        return value


class ParamSpec:
    """The parameters of one family, in display order.

    ``check(values)`` enforces rules between parameters (e.g. ε ≤ τ) by raising
    ``ValueError(name, message)`` pairs as ``ValueError`` whose first argument names the
    parameter.
    """

    def __init__(self, params: Iterable[Param], check: Callable[[dict], None] | None = None):
        self.params: tuple[Param, ...] = tuple(params)
        self._by_name = {p.name: p for p in self.params}
        if len(self._by_name) != len(self.params):
            raise ValueError("expected distinct parameter names")
        self._check = check

    def __iter__(self) -> Iterator[Param]:
        return iter(self.params)

    def __getitem__(self, name: str) -> Param:
        return self._by_name[name]

    def __contains__(self, name: str) -> bool:
        return name in self._by_name

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.params]

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}

    def validate(self, values: Mapping[str, Any] | None = None, *, context: Mapping[str, Sequence[str]] | None = None,
                 **kwargs) -> Params:
        """A complete, normalized parameter set (:class:`Params`); missing names take their defaults.

        Raises :class:`InputError` naming the parameter: ``w: expected a number in [0, 1], got 1.5``.
        ``context`` maps a ``choices_from`` key to the data's values. A :class:`Params` this spec
        made, checked against the same data values (or given without ``context``), is returned as
        it is: a value is validated once.

        >>> spec = ParamSpec([Param("w", 0.5, low=0, high=1)])
        >>> p = spec.validate(w="0.25")
        >>> p, p.w, spec.validate(p) is p
        ({'w': 0.25}, 0.25, True)
        >>> spec.validate(p, w=1).w
        1.0
        """
        if isinstance(values, Params) and not kwargs and values.spec is self and values.fits(context):
            return values
        return Params(self._validate({**(values or {}), **kwargs}, context), spec=self,
                      context=self.context_key(context))

    def _validate(self, given: Mapping[str, Any], context: Mapping[str, Sequence[str]] | None) -> dict[str, Any]:
        """The work of :meth:`validate` (each value coerced, then the rules between them)."""
        unknown = [k for k in given if k not in self._by_name]
        if unknown:
            raise InputError(unknown[0], None, f"unknown parameter (known: {', '.join(self.names)})")
        out = self.defaults()
        for name, value in given.items():
            p = self._by_name[name]
            choices = (context or {}).get(p.choices_from) if p.choices_from else None
            try:
                out[name] = p.coerce(value, choices)
            except ValueError as e:
                raise InputError(name, None, str(e)) from None
        self.check(out)
        return out

    def values(self, **named) -> tuple:
        """The named values, each checked on its own (no defaults, no rules between parameters),
        in the order given: for a function of the engine that takes a few of the family's
        parameters (``softmin(alpha=…)``). Raises :class:`InputError` naming the parameter.

        >>> ParamSpec([Param("w", 0.5, low=0, high=1), Param("alpha", 1.0, low=0, allow_inf=True)]).values(
        ...     alpha="inf", w="0.5")
        (inf, 0.5)
        """
        out = []
        for name, value in named.items():
            if name not in self._by_name:
                raise InputError(name, None, f"unknown parameter (known: {', '.join(self.names)})")
            try:
                out.append(self._by_name[name].coerce(value))
            except ValueError as e:
                raise InputError(name, None, str(e)) from None
        return tuple(out)

    def context_key(self, context: Mapping[str, Sequence[str]] | None) -> tuple | None:
        """The data values a validation checked against (only the keys a parameter uses)."""
        if context is None:
            return None
        used = sorted({p.choices_from for p in self.params if p.choices_from})
        return tuple((k, tuple(context.get(k, ()))) for k in used)

    def check(self, values: dict[str, Any]) -> None:
        """The rules between parameters (raises :class:`InputError`)."""
        if self._check is not None:
            try:
                self._check(values)
            except ValueError as e:
                name, msg = e.args if len(e.args) == 2 else ("parameters", str(e))
                raise InputError(name, None, msg) from None

    def to_json(self, values: Mapping[str, Any]) -> dict[str, Any]:
        return {k: self._by_name[k].to_json(v) if k in self._by_name else v for k, v in values.items()}

    # ---- command line -------------------------------------------------------------------
    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """One option per parameter with a flag, its help ending in the default."""
        from ..claims.help import option as help_option

        for p in self.params:
            if p.flag is None:
                continue
            text = help_option(p)  # the help and its default (scoring.claims.help)
            if p.kind == "bool" and p.cli_negative:
                parser.add_argument(p.cli_negative, dest=p.name, action="store_false", default=p.default, help=text)
                continue
            if p.kind == "bool":
                parser.add_argument(p.flag, dest=p.name, action="store_true", default=p.default, help=text)
                continue
            metavar = None
            if p.kind == "choice" and p.choices:
                metavar = "|".join(map(str, p.choices))
            elif p.kind in ("names", "floats"):
                metavar = "A[,B...]" if p.kind == "names" else "X[,Y...]"
            parser.add_argument(p.flag, dest=p.name, default=None, metavar=metavar, required=p.cli_required,
                                help=text)

    def from_args(self, args: argparse.Namespace, *, context=None, base: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Validated parameters from parsed arguments (errors name the flag); ``base``: values
        that replace the defaults (a recipe's), which the options given override."""
        given = dict(base or {})
        for p in self.params:
            if p.flag is None or not hasattr(args, p.name):
                continue
            v = getattr(args, p.name)
            if v is None:
                continue
            if p.kind == "bool" and v == p.default:
                continue
            given[p.name] = v
        try:
            return self.validate(given, context=context)
        except InputError as e:
            flag = self._by_name[e.file].flag if e.file in self._by_name else None
            if flag and not e.file.startswith("--"):
                raise InputError(flag, None, e.problem) from None
            raise
