"""Competitions for the export tests: each family's sample and its seeded random competitions,
written as data folders (the family's layout), with the view's parameters and one file per
submission as a participant would upload it; and the dashboard's own scores of each."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from scoring.core.export import to_json
from scoring.registry import get

FAMILIES = ("shovel-ready", "spotgeo", "qa", "difficulty", "custom")


@dataclass
class Case:
    """A view: ``sources`` (the loader's keyword arguments, paths), ``params`` (checked), and
    ``entries``: ``{name: file}`` — each submission as one file (difficulty: one model's rows;
    Custom: one team's rows)."""

    family: str
    label: str
    sources: dict
    params: dict
    entries: dict[str, Path]


def _csv(df: pd.DataFrame, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(path, index=False)
    return path


def _split_rows(table: Path, column: str, folder: Path, suffix: str, sep: str = ",") -> dict[str, Path]:
    """One file per value of ``column`` (its rows in order, the header kept), read as text."""
    df = pd.read_csv(table, dtype=str, keep_default_na=False, sep=sep, quoting=3 if sep == "\t" else 0)
    out = {}
    for i, (name, part) in enumerate(df.groupby(df[column].str.strip(), sort=False)):  # the loaders strip cells
        path = folder / f"entry{i}{suffix}"
        path.parent.mkdir(parents=True, exist_ok=True)
        part.to_csv(path, index=False, sep=sep, quoting=3 if sep == "\t" else 0)
        out[str(name)] = path
    return out


def checked(fam, sources: dict, given: dict) -> dict:
    comp = fam.load(**sources)
    base = dict(getattr(comp, "param_defaults", None) or {})
    return fam.params.validate({**base, **given}, context=fam.context(comp))


def sample_case(name: str, folder: Path) -> Case:
    """The family's sample, as the app shows it first."""
    fam = get(name)
    d = fam.sample_dir
    sources = {}
    for inp in fam.inputs:
        p = d / inp.path
        if p.exists():
            sources[inp.role] = [p] if inp.many else p
    return _case(fam, "sample", sources, {}, folder)


def _case(fam, label: str, sources: dict, given: dict, folder: Path) -> Case:
    params = checked(fam, sources, given)
    if fam.name == "difficulty":
        entries = _split_rows(sources["predictions"], "model", folder / "entries", ".csv")
    elif fam.name == "custom":
        from scoring.export.build import _team_column
        from scoring.export.shapes import read_sources

        ref, _ = read_sources(fam, sources)
        rec = next((f for f in ref if f.role == "recipe"), None)
        key = _team_column([f for f in ref if f.role != "recipe"], rec)
        res = Path(sources["results"])
        entries = _split_rows(res, key, folder / "entries", res.suffix, "\t" if res.suffix == ".tsv" else ",")
    else:
        entries = {}
        for item in sources["submissions"]:
            files = sorted(Path(item).glob(f"*{fam.input('submissions').suffix}")) if Path(item).is_dir() else [item]
            entries.update({Path(f).stem: Path(f) for f in files})
    return Case(fam.name, label, sources, params, entries)


def random_case(name: str, seed: int, folder: Path) -> Case:
    """A seeded random competition of the family (the generators of its reference tests)."""
    fam = get(name)
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    if name == "shovel-ready":
        from tests.shovel_ready.randomcomp import random_competition, random_parameters

        c = random_competition(seed)
        sources = {"ground_truth": _csv(c.ground_truth, folder / "ground_truth.csv"),
                   "submissions": [_csv(df, folder / "submissions" / f"{n}.csv") for n, df in c.submissions.items()]}
        if c.demographics is not None:
            sources["demographics"] = _csv(c.demographics, folder / "demographics.csv")
        if c.runtimes is not None:
            sources["runtimes"] = _csv(c.runtimes, folder / "runtimes.csv")
        given = random_parameters(rng, c)
    elif name == "qa":
        from tests.qa.randomcomp import random_competition, random_parameters

        c = random_competition(seed)
        sources = {"ground_truth": _csv(c.ground_truth, folder / "ground_truth.csv"),
                   "submissions": [_csv(df, folder / "submissions" / f"{n}.csv") for n, df in c.submissions.items()]}
        if c.theme_weights is not None:
            sources["theme_weights"] = _csv(c.theme_weights, folder / "theme_weights.csv")
        given = random_parameters(rng, c)
    elif name == "spotgeo":
        from tests.spotgeo.randomcomp import random_competition

        c = random_competition(seed)
        (folder / "submissions").mkdir(exist_ok=True)
        (folder / "ground_truth.json").write_text(json.dumps(c.ground_truth))
        subs = []
        for n, entries in c.submissions.items():
            p = folder / "submissions" / f"{n}.json"
            p.write_text(json.dumps(entries))
            subs.append(p)
        sources = {"ground_truth": folder / "ground_truth.json", "submissions": subs}
        given = rng.choice(c.params)
    elif name == "difficulty":
        from tests.difficulty.randomcomp import random_case as rc
        from tests.difficulty.randomcomp import random_parameters

        c = rc(seed)
        sources = {"samples": _csv(c.samples, folder / "samples.csv"),
                   "predictions": _csv(c.predictions, folder / "predictions.csv")}
        if c.train_bytes is not None:
            (folder / "train.txt").write_bytes(c.train_bytes)
            sources["train"] = folder / "train.txt"
        given = random_parameters(rng, c)
    else:
        from tests.custom.test_reference_random import random_case as rc

        teams, units, table, lower, groups, unit_weight, runtime, p = rc(seed)
        results = pd.DataFrame({"team": [t for t in teams for _ in units], "unit": [u for _ in teams for u in units],
                                "value": ["-" if table[t][u] is None else repr(table[t][u]) for t in teams for u in units]})
        sources = {"results": _csv(results, folder / "results.csv")}
        (folder / "recipe.json").write_text(json.dumps({"inputs": {"results": {"lower_is_better": sorted(lower)}}}))
        sources["recipe"] = folder / "recipe.json"
        if groups is not None:
            sources["units"] = _csv(pd.DataFrame({"unit": units, "group": [groups[u] for u in units],
                                                  "w": [repr(unit_weight[u]) for u in units]}), folder / "units.csv")
        if runtime is not None:
            sources["teams"] = _csv(pd.DataFrame({"team": teams, "runtime": ["" if runtime[t] is None else repr(runtime[t])
                                                                           for t in teams]}), folder / "teams.csv")
        given = dict(p)
        given.update(group_by="group", weight_column="w") if groups is not None else given.update(within="mean")
    return _case(fam, f"seed {seed}", sources, given, folder)


def dashboard(case: Case) -> dict[str, dict]:
    """The dashboard's leaderboard document rows by submission: the command line's
    ``leaderboard --format json`` path (load, scorer, leaderboard, document, strict JSON)."""
    fam = get(case.family)
    comp = fam.load(**case.sources)
    lb = fam.scorer(comp).leaderboard(**case.params)
    doc = json.loads(to_json(fam.document(lb, case.params)))
    return {row["submission"]: row for row in doc["leaderboard"]}


def stage_values(family: str, row: dict) -> dict[str, str]:
    """Each stage's value as its exact text (``repr``: equal text is equal bits)."""
    return {s.id: repr(row[s.id]) for s in get(family).stages}
