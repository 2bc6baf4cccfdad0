"""Thirteen published leaderboards, each loaded by the guided import's defaults
(``scoring.custom.guided.propose``: nothing edited, no option given) into the units its benchmark
defines, and its published aggregate reproduced within what the rounding of the cells allows.

The tables: ``tests/data/leaderboards/`` (README: sources, MIT licence) and the four shipped in
``sample_data/custom/``. Each case states, from the benchmark's own definition (or benchbench's
loader of it), which columns are the units, which are lower-is-better, and how the published
aggregate is computed; the bound is computed here from the digits each cell shows, independently
of the engine:

- a (weighted) mean of cells shown to ``d`` decimals is off by at most the weighted mean of their
  ``0.5·10^-d`` (an ``a/b`` cell read as its mean: the larger of its two half-units), plus half a
  unit of the published value's last digit;
- HELM's mean win rate: rounding keeps every strict order, so only a tie of rounded cells can hide
  a win or a loss, each worth ½/(teams present − 1) in its column, averaged over the team's
  columns (``tests/custom/test_real.py``), plus the published value's half-unit.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from scoring.custom import Scorer, load_competition
from scoring.custom.guided import propose
from scoring.custom.recipe import Recipe

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "leaderboards"
SAMPLE = ROOT / "sample_data" / "custom"
MISSING = {"", "-"}


@dataclass(frozen=True)
class Case:
    path: Path
    units: object  # a list of column names, or a function of the header giving them
    aggregate: str
    rule: str  # mean | weighted | winrate
    lower: object = ()  # lower-is-better units (a list, or "all")
    weights: object = None  # for "weighted": a function of the unit names giving each weight
    ranks: tuple[str, ...] = ()  # published rank columns


def _after(first: str, last: str | None = None):
    def pick(header: list[str]) -> list[str]:
        i = header.index(first)
        j = header.index(last) + 1 if last else len(header)
        return header[i:j]
    return pick


def _with_values(first: str):
    """The columns from ``first`` on that have at least one value (HELM and HEIM print every
    scenario of the table, also those no model was run on)."""
    def pick(header: list[str], rows: list[list[str]]) -> list[str]:
        i = header.index(first)
        return [c for j, c in enumerate(header) if j >= i and any(r[j].strip() not in MISSING for r in rows)]
    return pick


def _mteb_weights(units: list[str]) -> dict[str, float]:
    # "Classification Average (12 datasets)": the number of datasets in the name (as benchbench expands it)
    return {u: float(re.search(r"\((\d+) datasets?\)", u).group(1)) for u in units}


CASES = {
    "helm_lite": Case(SAMPLE / "results.tsv", _after("NarrativeQA - F1"), "Mean win rate", "winrate"),
    "open_llm": Case(SAMPLE / "open_llm" / "results.tsv",
                     ["ARC", "HellaSwag", "MMLU", "TruthfulQA", "Winogrande", "GSM8K"], "Average", "mean"),
    "glue": Case(SAMPLE / "glue" / "results.tsv", _after("CoLA", "WNLI"), "Score", "weighted",
                 weights=lambda units: {u: 0.5 if u.startswith("MNLI") else 1.0 for u in units}, ranks=("Rank",)),
    "mmlu": Case(SAMPLE / "mmlu" / "results.tsv", lambda h: [c for c in h if c.startswith("harness|hendrycksTest-")],
                 "average_score", "mean"),
    "mteb": Case(DATA / "mteb.tsv", _after("Classification Average (12 datasets)"), "Average (56 datasets)",
                 "weighted", weights=_mteb_weights, ranks=("Rank",)),
    "superglue": Case(DATA / "superglue.tsv", _after("BoolQ", "WSC"), "Score", "mean", ranks=("Rank",)),
    "vtab": Case(DATA / "vtab.tsv", _after("CIFAR-100"), "Mean (selected datasets)", "mean"),
    "bbh": Case(DATA / "bbh.tsv", _after("Boolean Expressions"), "Average", "mean", ranks=("Rank",)),
    "helm_toxicity": Case(DATA / "helm_toxicity.tsv", _with_values("BoolQ - Toxic fraction"), "Mean win rate",
                          "winrate", lower="all"),
    "helm_bias": Case(DATA / "helm_bias.tsv", _with_values("BoolQ - Stereotypes (race)"), "Mean win rate",
                      "winrate", lower="all"),
    "heim_quality_auto": Case(DATA / "heim_quality_auto.tsv", _with_values("MS-COCO (base) - Expected LPIPS "
                              "score ↓ [ sort ]"), "Mean win rate ↑ [ sort ]", "winrate", lower="arrows"),
    "heim_nsfw": Case(DATA / "heim_nsfw.tsv", _with_values("MS-COCO (base) - NSFW frac given non-toxic prompt ↓ "
                      "[ sort ]"), "Mean win rate ↑ [ sort ]", "winrate", lower="arrows"),
    "heim_aesthetics_human": Case(DATA / "heim_aesthetics_human.tsv", _with_values(
        "MS-COCO (base) - Clear subject (human) ↑ [ sort ]"), "Mean win rate ↑ [ sort ]", "winrate", lower="arrows"),
}


def _read(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, encoding="utf-8", newline="") as fh:
        rows = [r for r in csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE) if any(x.strip() for x in r)]
    header, body = rows[0], rows[1:]
    if all(len(r) == len(header) + 1 for r in body):  # VTAB: the row names have no header
        header = ["(row names)", *header]
    return header, body


def _cell(text: str) -> tuple[float, float]:
    """(value, half a unit of its last digit); an a/b cell: its mean, the larger half-unit."""
    text = text.strip()
    if text in MISSING:
        return np.nan, np.nan
    parts = text.split("/")
    vals = [float(p) for p in parts]
    halves = [0.5 * 10.0 ** -(len(p.strip().split(".")[1]) if "." in p else 0) for p in parts]
    return float(np.mean(vals)), max(halves)


def _units(case: Case, header, rows) -> list[str]:
    try:
        return case.units(header)
    except TypeError:
        return case.units(header, rows) if callable(case.units) else list(case.units)


def tie_allowance(x: np.ndarray) -> np.ndarray:
    """Per team, the mean over its columns of ½·(others tied)/(present − 1) (test_real's rule)."""
    total, count = np.zeros(len(x)), np.zeros(len(x))
    for col in x.T:
        ok = ~np.isnan(col)
        n = ok.sum()
        if n < 2:
            continue
        for i in np.flatnonzero(ok):
            total[i] += 0.5 * (np.sum(col[ok] == col[i]) - 1) / (n - 1)
            count[i] += 1
    return total / np.maximum(count, 1)


@pytest.mark.parametrize("key", list(CASES))
def test_guided_defaults_load_the_intended_units_and_reproduce_the_published_aggregate(key):
    case = CASES[key]
    data = case.path.read_bytes()
    header, rows = _read(case.path)
    want_units = _units(case, header, rows)
    proposal = propose(data, case.path.name)
    assert proposal.problem is None, proposal.problem
    opts = proposal.options()  # the defaults, unchanged
    comp = load_competition(results=data, recipe=Recipe(results=opts))
    res = comp.results
    assert list(dict.fromkeys(res.unit_of)) == want_units
    assert res.published_kind.get(case.aggregate) == "score"
    assert {k for k, v in res.published_kind.items() if v == "rank"} == set(case.ranks)
    lower = {u for u, lw in zip(res.unit_of, res.lower, strict=True) if lw}
    assert lower == _want_lower(case, want_units)
    lb = Scorer(comp).leaderboard(**_stages(case, want_units)).set_index("submission")
    assert not outside(case, comp, lb, proposal.team_column)
    assert len(res.teams) >= 16


def _want_lower(case: Case, units: list[str]) -> set[str]:
    return set(units) if case.lower == "all" else {u for u in units if "↓" in u} if case.lower == "arrows" \
        else set(case.lower)


def _stages(case: Case, units: list[str]) -> dict:
    if case.rule == "weighted":
        return {"across": "weighted", "weights": case.weights(units)}
    return {"across": case.rule}


def outside(case: Case, comp, lb, team_column: str) -> list[tuple[str, float, float]]:
    """The teams whose final score differs from the published aggregate by more than the
    rounding of the cells allows under the case's rule (module doc), with the gap and the bound."""
    header, rows = _read(case.path)
    units = _units(case, header, rows)
    col = {c: j for j, c in enumerate(header)}
    by_name = _rows_by_loaded_name(comp.results.teams, rows, header.index(team_column))
    cells = {t: [_cell(r[col[u]]) for u in units] for t, r in by_name.items()}
    if case.rule == "winrate":
        low = _want_lower(case, units)
        x = np.array([[v for v, _ in cells[t]] for t in comp.results.teams])
        x = np.where(np.array([u in low for u in units]), -x, x)
        allow = dict(zip(comp.results.teams, tie_allowance(x), strict=True))
    else:
        w = case.weights(units) if case.weights else {u: 1.0 for u in units}
        ww = np.array([w[u] for u in units])
        allow = {}
        for t in comp.results.teams:
            h = np.array([hv for _, hv in cells[t]])
            ok = ~np.isnan(h)
            allow[t] = float((ww[ok] * h[ok]).sum() / ww[ok].sum())
    out = []
    for t, r in by_name.items():
        value, half = _cell(r[col[case.aggregate]])
        if np.isnan(value):
            continue
        bound = allow[t] + half + 1e-9 * max(1.0, abs(value))  # + floating-point arithmetic
        gap = abs(float(lb.loc[t, "final_score"]) - value)
        if gap > bound:
            out.append((t, gap, bound))
    return out


def _rows_by_loaded_name(teams: list[str], rows: list[list[str]], team_col: int) -> dict[str, list[str]]:
    """Each loaded team's row: repeated names numbered ' (2)', ' (3)' in table order, as the
    guided import's default (duplicates = number) reads them."""
    seen: dict[str, int] = {}
    out = {}
    for r in rows:
        name = r[team_col].strip()
        seen[name] = seen.get(name, 0) + 1
        out[name if seen[name] == 1 else f"{name} ({seen[name]})"] = r
    return {t: out[t] for t in teams}


def test_the_corpus_is_13_tables_of_different_shapes():
    shapes = {k: (c.rule, bool(c.ranks), c.lower if isinstance(c.lower, str) else bool(c.lower))
              for k, c in CASES.items()}
    assert len(CASES) == 13 and len({c.path for c in CASES.values()}) == 13
    assert {s[0] for s in shapes.values()} == {"mean", "weighted", "winrate"}
    for c in CASES.values():
        assert c.path.is_file() and c.path.stat().st_size < 110_000
    # every file here is named in the README beside it, and its licence is there
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    assert (DATA / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    for f in DATA.glob("*.tsv"):
        assert f"`{f.name}`" in readme


#: deliberately wrong readings, each of which the bound must catch: (case, roles changed, lower-is-better
#: changed, stages)
WRONG = [
    ("mteb", {}, {}, {"across": "mean"}),  # the categories unweighted
    ("glue", {}, {}, {"across": "mean"}),  # MNLI-m and -mm as two tasks
    ("superglue", {"AX-b": "unit", "AX-g": "unit"}, {}, {"across": "mean"}),  # the diagnostics scored
    ("open_llm", {"GSM8K": "ignored"}, {}, {"across": "mean"}),  # a task lost
    ("bbh", {"Date Understanding": "metadata"}, {}, {"across": "mean"}),  # a task taken for a date
    ("vtab", {"CIFAR-100": "ignored"}, {}, {"across": "mean"}),
    ("helm_toxicity", {}, "higher", {"across": "winrate"}),  # the direction flipped
    ("heim_quality_auto", {}, "higher", {"across": "winrate"}),
    ("helm_lite", {"WMT 2014 - BLEU-4": "ignored"}, {}, {"across": "winrate"}),  # a scenario lost
]


@pytest.mark.parametrize("key, roles, lower, stages", WRONG, ids=[w[0] for w in WRONG])
def test_a_wrong_reading_falls_outside_the_bound(key, roles, lower, stages):
    case = CASES[key]
    data = case.path.read_bytes()
    p = propose(data, case.path.name)
    if lower == "higher":
        lower = {c.name: False for c in p.columns}
    comp = load_competition(results=data, recipe=Recipe(results=p.options(roles=roles, lower=lower)))
    lb = Scorer(comp).leaderboard(**stages).set_index("submission")
    assert outside(case, comp, lb, p.team_column)  # beyond what the right reading's rounding allows
