"""What each column of a wide results table is: a unit, a published aggregate or rank, metadata,
or left out — with the reason, and for a unit whether lower is better.

One function, :func:`classify`, decides for the loader (``scoring.custom.data``) and for the
Data page's guided import alike: what the recipe names comes first; then, for the columns it
does not name, the guesses — which the guided import shows as questions (``Column.asked``) and
the load report states:

- a column with no name is left out;
- a published **rank** by its name (``Rank``, ``#``, ``Position``, ``Place``);
- a published **aggregate** by its name: one starting with the word Average, Avg, Mean, Score,
  Overall or Total (``Average (56 datasets)``, ``Mean win rate``, ``average_score``), or ``Win``
  / ``Win rate``;
- a column without a single number: **metadata** when it holds text (a name, a marker, a date,
  a link), **empty** when every cell is a missing mark (left out with ``drop_empty``, else an
  error naming it);
- **metadata** by its name (a size, dimensions, a token limit, a parameter count, a date or
  release, a URL or link, a licence …), or a column of whole numbers far outside the other
  units' scale (median over 10 times the largest value of the rest, and at least 100: an
  embedding dimension, a token limit) or of years;
- every other column is a **unit**. Lower is better where the recipe says so, else where its
  header carries ``↓`` or its metric's name is an error, a loss, a calibration error (ECE), a
  perplexity, a time, a cost, a toxic fraction, a bias … (``↑`` or the recipe's
  ``higher_is_better`` say higher).

In a runtime table (``detect=False``) only the names the recipe gives and the names of
aggregates and ranks are read; every other numeric column is a unit.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .fit import MAX_CELLS, MAX_COLUMNS, Fit, decimals, decimals_all, fit
from .reading import AFTER_LAST, PAIR
from .recipe import ResultsOptions

ROLES = ("unit", "aggregate", "rank", "metadata", "ignored", "empty")
#: the roles in words (the guided import's choices)
ROLE_LABELS = {"unit": "unit (scored)", "aggregate": "published aggregate", "rank": "published rank",
               "metadata": "metadata (left out)", "ignored": "left out", "empty": "no value (left out)"}
RANK_NAMES = ("rank", "#", "position", "place", "pos", "ranking")
AGGREGATE = re.compile(r"^(average|avg|mean|score|overall|total)(?![a-z])|^win( rate)?$", re.IGNORECASE)
#: words of a column name that describe a team rather than score it
METADATA_WORDS = frozenset((
    "size", "sizes", "dimension", "dimensions", "dim", "dims", "tokens", "token", "context", "params", "parameters",
    "param", "date", "dates", "release", "released", "year", "url", "urls", "link", "links", "license", "licence",
    "version", "type", "company", "organization", "organisation", "author", "authors", "paper", "hub", "likes",
    "downloads", "precision", "architecture", "gb", "mb", "submitted", "submission", "notes", "comment", "comments"))
#: words of a metric's name where lower is better
LOWER_WORDS = frozenset((
    "error", "errors", "err", "loss", "ece", "perplexity", "ppl", "wer", "cer", "mae", "mse", "rmse", "latency",
    "runtime", "time", "seconds", "cost", "fid", "lpips", "toxic", "toxicity", "bias", "stereotypes",
    "representation", "nsfw", "nudity"))
#: text that means "no value" in published tables; the guided import proposes the ones it finds
MISSING_WORDS = ("", "-", "--", "—", "–", "n/a", "na", "nan", "null", "none", "?", "x", "tbd", "missing", "not available")
#: a column whose whole numbers sit this many times above the other units' largest value is metadata
SCALE = 10.0


@dataclass(frozen=True)
class Column:
    """One column as understood: ``role`` (:data:`ROLES`), ``reason`` in words, ``asked`` (a
    guess the guided import asks about), and for a unit ``lower`` (lower is better) with its
    ``lower_reason``; the cells counted (numbers, missing marks, ``a/b`` pairs, other text)
    and the first distinct text cells."""

    name: str
    role: str
    reason: str
    asked: bool = False
    lower: bool = False
    lower_reason: str = ""
    numbers: int = 0
    missing: int = 0
    pairs: int = 0
    text: int = 0
    text_seen: tuple[str, ...] = ()


@dataclass(frozen=True)
class Scan:
    """A column's cells sorted: numbers (first of a pair), missing marks, pairs, other text."""

    values: np.ndarray
    missing: np.ndarray
    pairs: np.ndarray
    text: np.ndarray
    text_seen: tuple[str, ...] = field(default=())
    second: np.ndarray | None = None  # the second number of each pair (NaN elsewhere)

    def read(self, split: str) -> np.ndarray:
        """The numbers as the recipe's ``split`` reads a pair (``both``, ``refuse``: their mean)."""
        if self.second is None or not self.pairs.any():
            return self.values
        if split == "first":
            return self.values
        b = np.where(self.pairs, self.second, self.values)
        return b if split == "second" else self.values / 2 + b / 2


def scan(cells: pd.Series, missing: frozenset[str]) -> Scan:
    """Sort a text column's cells without raising (the loader's :func:`parse_cells` names the
    bad ones): NaN where not a finite number.

    >>> s = scan(pd.Series(["1.5", "-", "3/4", "N/A", "x"]), frozenset({"-"}))
    >>> s.values.tolist(), s.missing.tolist(), s.pairs.sum(), s.text_seen
    ([1.5, nan, 3.0, nan, nan], [False, True, False, False, False], np.int64(1), ('N/A', 'x'))
    """
    text = pd.Series(cells, dtype=object).astype(str)
    miss = text.str.lower().isin(missing).to_numpy()
    num = pd.to_numeric(text.where(~miss, None), errors="coerce").to_numpy(dtype=float, copy=True)
    num[~np.isfinite(num)] = np.nan
    rest = ~miss & np.isnan(num)
    pairs = np.zeros(len(text), dtype=bool)
    second = None
    if rest.any():
        m = text[rest].str.extract(PAIR)
        ok = m[0].notna().to_numpy()
        idx = np.flatnonzero(rest)[ok]
        pairs[idx] = True
        num[idx] = pd.to_numeric(m[0][ok], errors="coerce").to_numpy(dtype=float)
        if len(idx):
            second = np.full(len(text), np.nan)
            second[idx] = pd.to_numeric(m[1][ok], errors="coerce").to_numpy(dtype=float)
    other = rest & ~pairs
    seen = tuple(dict.fromkeys(text[other].tolist()[:200]))[:5] if other.any() else ()
    return Scan(num, miss, pairs, other, seen, second)


#: what a cell of plain number text looks like (what arrow's cast reads; ``inf``, ``nan`` and the
#: rest go the cell-by-cell way of :func:`scan`)
_FLOAT = r"^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$"
#: cells sorted at once by :func:`scan_all`, at most (a table is taken this many cells at a time)
CHUNK = 1 << 20


def scan_all(data: Mapping[str, pd.Series], missing: frozenset[str]) -> dict[str, Scan]:
    """:func:`scan` of every column, the columns of plain numbers and missing marks sorted at
    once by arrow (a column, a dozen arrow calls: for a published table of 60 columns the calls
    themselves cost more than the cells), the others cell by cell.

    >>> got = scan_all({"a": pd.Series(["1", "-"]), "b": pd.Series(["x", "2"])}, frozenset({"-"}))
    >>> got["a"].values.tolist(), got["b"].text.tolist()
    ([1.0, nan], [True, False])
    """
    out: dict[str, Scan] = {}
    names = list(data)
    arrays = {}
    for c in names:
        try:
            arrays[c] = pa.array(data[c], type=pa.string(), from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            out[c] = scan(data[c], missing)
    todo = [c for c in names if c in arrays]
    marks = pa.array(sorted(missing), type=pa.string())
    i = 0
    while i < len(todo):
        group, cells = [], 0
        while i < len(todo) and (not group or cells + len(arrays[todo[i]]) <= CHUNK):
            group.append(todo[i])
            cells += len(arrays[todo[i]])
            i += 1
        big = pa.concat_arrays([arrays[c] for c in group])
        miss = pc.fill_null(pc.is_in(pc.utf8_lower(big), value_set=marks), True)
        plain = pc.and_(pc.fill_null(pc.match_substring_regex(big, _FLOAT), False), pc.invert(miss))
        x = pc.cast(pc.if_else(plain, big, pa.scalar(None, type=pa.string())), pa.float64())
        x = x.to_numpy(zero_copy_only=False).copy()
        gap = miss.to_numpy(zero_copy_only=False).astype(bool)
        bad = ~gap & ~np.isfinite(x)  # neither a mark nor a plain finite number
        at = 0
        for c in group:
            n = len(arrays[c])
            if bad[at:at + n].any():
                out[c] = scan(data[c], missing)
            else:
                none = np.zeros(n, dtype=bool)
                out[c] = Scan(x[at:at + n], gap[at:at + n], none, none.copy(), (), None)
            at += n
    return {c: out[c] for c in names}


def words(name: str) -> list[str]:
    """The lower-case words of a column name, in order (``"Model Size (GB)"`` → model, size, gb)."""
    return re.findall(r"[a-z0-9]+", name.lower())


def first_word(name: str, among: frozenset[str]) -> str | None:
    """The first word of ``name`` that is one of ``among`` (None: none is)."""
    return next((w for w in words(name) if w in among), None)


def metric_of(header: str) -> str:
    """The metric of a HELM-style column ``Scenario - Metric`` (else the column itself)."""
    head, sep, tail = header.rpartition(" - ")
    return tail.strip() if sep and head.strip() else header


def direction(name: str, opts: ResultsOptions, metric: str | None = None, *, unit: str | None = None
              ) -> tuple[bool, str, bool]:
    """``(lower is better, why, a guess)`` for a unit named ``name`` (metric ``metric``; a long
    table's label ``name`` of unit ``unit``).

    >>> direction("MMLU - ECE (10-bin)", ResultsOptions())
    (True, "its name says 'ece'", True)
    >>> direction("LPIPS ↓", ResultsOptions(higher_is_better=("LPIPS ↓",)))[:2]
    (False, 'the recipe lists it in higher_is_better')
    """
    metric = metric_of(name) if metric is None else metric
    keys = (name, metric, unit if unit is not None else name)
    if any(k in opts.lower_is_better for k in keys):
        return True, "the recipe lists it in lower_is_better", False
    if any(k in opts.higher_is_better for k in keys):
        return False, "the recipe lists it in higher_is_better", False
    if "↓" in name:
        return True, "its header's ↓", True
    if "↑" in name:
        return False, "its header's ↑", True
    low = name.lower()
    if "lower is better" in low or "lower = better" in low or "lower=better" in low:
        return True, "its header says lower is better", True
    if sep_metric(name) or len(words(metric)) <= 3:  # a HELM metric, or a short name: not "Error Detection" tasks
        hit = first_word(metric, LOWER_WORDS)
        if hit:
            return True, f"its name says {hit!r}", True
    return False, "", False


def sep_metric(header: str) -> bool:
    """Whether the header is ``Scenario - Metric`` (HELM's)."""
    head, sep, _ = header.rpartition(" - ")
    return bool(sep and head.strip())


def _empty(s: Scan) -> bool:
    return not (np.isfinite(s.values).any())


def classify(df: pd.DataFrame, opts: ResultsOptions, team: str, missing: frozenset[str], *,
             detect: bool = True) -> tuple[list[Column], Fit | None]:
    """Every column but the team column, in the table's order, understood (module doc), and
    the fit of the first published aggregate that is linear in the columns (``scoring.custom.fit``;
    None: none is, or ``detect`` is off).

    >>> df = pd.DataFrame({"Model": ["a", "b"], "Rank": ["1", "2"], "Size (GB)": ["14", "7"],
    ...                    "Average": ["0.5", "0.4"], "MMLU": ["0.6", "0.5"], "URL": ["", ""]})
    >>> [(c.name, c.role) for c in classify(df, ResultsOptions(), "Model", frozenset({"", "-"}))[0]]
    [('Rank', 'rank'), ('Size (GB)', 'metadata'), ('Average', 'aggregate'), ('MMLU', 'unit'), ('URL', 'metadata')]
    """
    named = {**{c: ("ignored", "the recipe leaves it out (ignore_columns)") for c in opts.ignore_columns},
             **{c: ("metadata", "the recipe names it metadata (metadata_columns)") for c in opts.metadata_columns},
             **{c: ("rank", "the recipe names it a published rank (rank_columns)") for c in opts.rank_columns},
             **{c: ("aggregate", "the recipe names it a published aggregate (aggregate_columns)")
                for c in opts.aggregate_columns},
             **{c: ("unit", "the recipe names it a unit (unit_columns)") for c in opts.unit_columns}}
    out: list[tuple[str, str, str, bool, Scan]] = []
    data = {c: df[c] for c in df.columns if c != team}  # a column taken once (each take costs pandas)
    scans = scan_all(data, missing)
    for c, s in scans.items():
        if c in named:
            role, why = named[c]
            out.append((c, role, why, False, s))
        elif opts.unit_columns:
            out.append((c, "ignored", "not among the recipe's unit columns (unit_columns)", False, s))
        elif not c.strip() or c.lower().startswith("unnamed:"):
            out.append((c, "ignored", "no name", False, s))
        elif c == AFTER_LAST:
            out.append((c, "ignored", "made by the separator after the last field (extra_field = last)", False, s))
        elif c.strip().lower() in RANK_NAMES or c.strip().lower().startswith("rank "):
            out.append((c, "rank", "its name: a published rank", True, s))
        elif AGGREGATE.match(c.strip()):
            out.append((c, "aggregate", "its name: a published aggregate", True, s))
        elif _empty(s) and s.text.any():
            shown = ", ".join(repr(t) for t in s.text_seen[:3])
            out.append((c, "metadata", f"text, not a number ({shown}): a name, a marker, a date or a link", False, s))
        elif detect and first_word(c, METADATA_WORDS):
            hit = first_word(c, METADATA_WORDS)
            out.append((c, "metadata", f"its name says {hit!r}: it describes the team", True, s))
        elif _empty(s):
            out.append((c, "empty", "no value in any row", False, s))
        elif s.text.sum() > np.isfinite(s.values).sum():
            shown = ", ".join(repr(t) for t in s.text_seen[:3])
            out.append((c, "metadata", f"mostly text ({shown}), few numbers", True, s))
        else:
            out.append((c, "unit", "numbers", False, s))
    if detect:
        out = _by_scale(out)
    cols = [_column(c, role, why, asked, s, opts) for c, role, why, asked, s in out]
    if not detect or opts.unit_columns:
        return cols, None
    return _explained(cols, data, scans, opts, set(named))


def _explained(cols: list[Column], data: dict[str, pd.Series], scans: dict[str, Scan], opts: ResultsOptions,
               named: set[str]) -> tuple[list[Column], Fit | None]:
    """The roles the first linear published aggregate changes: a unit it gives no weight is
    left out (a diagnostic?), numeric metadata it weighs is a unit, a unit whose name says
    lower is better but that it weighs positively is higher-is-better."""
    cand = [c for c in cols if c.name not in named and c.numbers and not c.text
            and (c.role == "unit" or (c.role == "metadata" and c.asked))]
    aggregates = [c for c in cols if c.role == "aggregate" and c.numbers][:3]
    rows = len(next(iter(data.values()))) if data else 0
    if not cand or not aggregates or len(cand) > MAX_COLUMNS or rows * len(cand) > MAX_CELLS:
        return cols, None
    x = np.column_stack([scans[c.name].read(opts.split) for c in cand])
    *xd, yd_all = decimals_all([data[c.name] for c in cand] + [data[a.name] for a in aggregates[:1]])
    xd = np.column_stack(xd)
    for k, agg in enumerate(aggregates):
        yd = yd_all if k == 0 else decimals(data[agg.name])
        f = fit(agg.name, scans[agg.name].values, yd, [c.name for c in cand], x, xd)
        if f is None or not f.ok:
            continue
        change = {}
        for c, w, zero in zip(cand, f.weights, f.zero, strict=True):
            if c.role == "unit" and zero:
                change[c.name] = replace(c, role="ignored", asked=True, lower=False, lower_reason="",
                                         reason=f"the published {agg.name!r} gives it no weight (a diagnostic?)")
            elif c.role == "metadata" and not zero:
                lower, why, _ = direction(c.name, opts)
                change[c.name] = replace(c, role="unit", asked=True, lower=lower and w < 0, lower_reason=why,
                                         reason=f"numbers the published {agg.name!r} weighs ({c.reason})")
            elif c.role == "unit" and c.lower and w > 0 and c.lower_reason.startswith("its name"):
                change[c.name] = replace(c, lower=False, asked=True,
                                         lower_reason=f"the published {agg.name!r} weighs it up ({c.lower_reason})")
        return [change.get(c.name, c) for c in cols], f
    return cols, None


def _by_scale(cols: list[tuple[str, str, str, bool, Scan]]) -> list[tuple[str, str, str, bool, Scan]]:
    """Units of whole numbers far above the other units' scale, or of years, become metadata —
    unless that would leave no unit."""
    units = [i for i, (_, role, why, _, _) in enumerate(cols) if role == "unit" and why == "numbers"]
    whole = {}
    for i in units:
        v = cols[i][4].values
        v = v[np.isfinite(v)]
        if len(v) and np.all(v == np.round(v)):
            whole[i] = v
    flagged = {i: f"whole numbers from {v.min():.0f} to {v.max():.0f}: years?" for i, v in whole.items()
               if np.all((v >= 1900) & (v <= 2100))}
    for i, v in whole.items():
        if i in flagged:
            continue
        tops = [float(np.nanmax(np.abs(r))) for r in (cols[j][4].values for j in units if j != i and j not in flagged)
                if np.isfinite(r).any()]
        top = float(np.median(tops)) if tops else np.nan  # the other units' scale: the median of their largest values
        mid = float(np.median(np.abs(v)))
        if np.isfinite(top) and mid >= 100 and mid > SCALE * top:
            flagged[i] = (f"whole numbers around {mid:g}, far outside the other units' scale (up to about {top:g}): "
                          "a dimension, a limit or a count?")
    if len(flagged) == len(units):
        return cols
    return [(c, "metadata", flagged[i], True, s) if i in flagged else (c, role, why, asked, s)
            for i, (c, role, why, asked, s) in enumerate(cols)]


def _column(name: str, role: str, why: str, asked: bool, s: Scan, opts: ResultsOptions) -> Column:
    lower, lower_why, guess = direction(name, opts) if role in ("unit", "empty") else (False, "", False)
    return Column(name, role, why, asked or (role == "unit" and guess and lower), lower, lower_why,
                  int(np.isfinite(s.values).sum()), int(s.missing.sum()), int(s.pairs.sum()), int(s.text.sum()),
                  s.text_seen)


def missing_found(cols: list[Column], roles: tuple[str, ...] = ("unit", "aggregate", "rank", "empty")
                  ) -> tuple[str, ...]:
    """The text cells of the columns of these roles (and holding numbers, for metadata) that
    usually mean "no value" (``N/A``, ``—``), as written: the marks the guided import proposes."""
    seen: dict[str, None] = {}
    for c in cols:
        if c.role in roles and (c.numbers or c.role != "metadata"):
            for t in c.text_seen:
                if t.strip().lower() in MISSING_WORDS:
                    seen[t] = None
    return tuple(seen)
