"""Numbers at the edge of float in every family (issue 39): ±1e308 in every numeric cell of every
input file (the first cell, and every cell of the column), scored with the parameters that use
those cells; integers of hundreds of digits in every numeric parameter — through the API, a
recipe (JSON, and TOML's hex and underscores), ``--compare`` and the command line. Each is
either scored (finite ranks, no numpy warning reaching the user) or refused by one line naming
the file or the parameter; never an ``OverflowError``, a traceback or exit 1."""

from __future__ import annotations

import json
import math
import warnings
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from scoring import InputError, registry
from scoring.custom.recipe import read_recipe
from tests.cli import run_cli, run_report
from tests.hostile.numbers import BIG_INTS, EDGES, PARSED_NUMBERS, bundle, cell_cases, damage, param_cases

CELLS = cell_cases()
PARAMS = param_cases()
#: parameters that make every input of a family count (Custom: the units' sizes and groups, the
#: teams' runtimes, each stage's operator); {} is the family's defaults
EXERCISE = {
    "custom": [{}, {"group_by": "grp", "within": "size", "weight_column": "size", "efficiency": "boost"},
               {"normalise": "zscore", "across": "softmin", "alpha": 5.0, "efficiency": "penalty", "threshold": 12.0},
               {"normalise": "minmax", "group_by": "grp", "within": "difficulty", "weight_column": "size",
                "across": "kemeny"},
               {"across": "copeland", "missing": "fixed", "missing_value": -1e308}],
    "shovel-ready": [{}, {"attributes": ("ell_status",), "alpha": 0.0}],
}


def test_the_corpus_covers_every_family():
    per = Counter(c[0] for c in CELLS)
    assert set(per) == {f.name for f in registry.families()}, per
    assert sum(per.values()) >= 100 and min(per.values()) >= 8, per
    per_param = Counter(c[0] for c in PARAMS)
    assert set(per_param) == {f.name for f in registry.families()} and len(PARAMS) >= 60, per_param


def _sources(paths: dict[str, Path]) -> dict[str, str]:
    return {role: str(p) for role, p in paths.items()}


def _finite_ranks(fam, lb) -> None:
    for stage in fam.stages:
        if stage.rank in lb:
            ranks = lb[stage.rank].to_numpy(dtype=float)
            assert np.isfinite(ranks).all() and (ranks >= 1).all(), (stage.rank, ranks)


@pytest.mark.parametrize(("family", "file", "column", "edge", "mode"), CELLS)
def test_an_edge_value_in_a_numeric_cell_is_scored_or_named(tmp_path, family, file, column, edge, mode):
    fam = registry.get(family)
    paths = bundle(family, tmp_path / family)
    damage(tmp_path / family / file, column, edge, mode)
    names = {p.name for p in (tmp_path / family).rglob("*") if p.is_file()}
    try:
        comp = fam.load(**_sources(paths))
    except InputError as e:
        assert "\n" not in str(e) and any(n in str(e) for n in names), str(e)
        return
    scorer = fam.scorer(comp)
    for params in EXERCISE.get(family, [{}]):
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)  # numpy's overflow would reach the user
            try:
                lb = scorer.leaderboard(**params)
            except InputError as e:  # refused naming a parameter (a size not > 0, a bound past 1.8e308)
                assert e.file in fam.params.names or any(n in str(e) for n in names), str(e)
                continue
        _finite_ranks(fam, lb)


def test_a_custom_mean_of_values_near_the_largest_float_is_their_mean(tmp_path):
    """Issue 39's reproducer: ``big,1e308,1e308`` scored ``inf``; ``best 1e308, worst -1e308, mid 0``
    under min–max gave best no score. By hand: the mean of (1e308, 1e308) is 1e308; min–max maps
    -1e308, 0, 1e308 to 0, ½, 1."""
    fam = registry.get("custom")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        lb = fam.scorer(fam.load(results=b"Model,A,B\nbig,1e308,1e308\nsmall,1,1\n")).leaderboard()
        assert lb.set_index("submission")["final_score"].to_dict() == {"big": 1e308, "small": 1.0}
        lb = fam.scorer(fam.load(results=b"Model,A\nbest,1e308\nworst,-1e308\nmid,0\n")).leaderboard(
            normalise="minmax")
        assert lb.set_index("submission")["final_score"].to_dict() == {"best": 1.0, "mid": 0.5, "worst": 0.0}
        assert lb["submission"].tolist() == ["best", "mid", "worst"]


def test_custom_weights_and_sizes_near_the_largest_float_weigh_as_their_ratios():
    """Item weights 1e308 on every item gave every aggregate 0; units sizes 1e308 gave every group 0.
    Equal huge weights are equal weights: x (0.5 + 0.4)/2, y (0.3 + 0.9)/2; sizes 1e308 and 0.5e308
    weigh 2:1: x (2·0.5 + 0.4)/3."""
    fam = registry.get("custom")
    results = b"Model,A,B\nx,0.5,0.4\ny,0.3,0.9\n"
    comp = fam.load(results=results, units=b"unit,grp,size\nA,g,1e308\nB,g,0.5e308\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        lb = fam.scorer(comp).leaderboard(across="weighted", weights={"A": 1e308, "B": 1e308})
        assert lb.set_index("submission")["aggregate"].to_dict() == pytest.approx({"x": 0.45, "y": 0.6})
        lb = fam.scorer(comp).leaderboard(group_by="grp", within="size", weight_column="size")
        assert lb.set_index("submission")["grouped"].to_dict() == pytest.approx({"x": 1.4 / 3, "y": 1.5 / 3})


def test_a_difficulty_shift_past_the_largest_float_is_refused_naming_the_parameter():
    """``--reward=1e-308 --penalty=-1e308`` with difficulty splits left every score blank and every
    rank 1: penalty / reward is -1e616, a group's value lies in [-1e616, 1]."""
    fam = registry.get("custom")
    comp = fam.load(results=b"Model,A,B\nx,0.5,0.4\ny,0.3,0.9\n", units=b"unit,grp,d\nA,g,1\nB,g,2\n")
    p = dict(group_by="grp", within="difficulty", weight_column="d")
    with pytest.raises(InputError, match=r"^penalty: penalty / reward = -1e\+308 / 1e-308 is beyond"):
        fam.scorer(comp).leaderboard(**p, reward=1e-308, penalty=-1e308)
    # a shift of -1e300 is within float: x's two units (difficulty 1, 2; 2 splits weighing 1, 2) give
    # a + (1 - a)·(0.5 + 2·0.4)/3 with a = -1e300
    lb = fam.scorer(comp).leaderboard(**p, reward=1e-300, penalty=-1.0, splits=2).set_index("submission")
    assert lb.loc["x", "final_score"] == pytest.approx(-1e300 + (1 + 1e300) * 1.3 / 3)
    with pytest.raises(InputError, match="^max_boost: "):
        fam.scorer(fam.load(results=b"Model,A\nx,1.5e308\ny,1\n", teams=b"team,runtime\nx,1\ny,2\n")).leaderboard(
            efficiency="boost", max_boost=0.5)


# ---- huge integers in every numeric parameter ------------------------------------------------
def _value(fam, name: str, big: str, context):
    p = fam.params[name]
    x = BIG_INTS[big]
    if p.kind == "floats" or name in PARSED_NUMBERS.get(fam.name, ()):
        return [x, 1]
    if p.kind == "mapping":
        return {(context.get(p.choices_from) or ["x"])[0]: x}
    return x


@pytest.mark.parametrize(("family", "param", "big"), PARAMS)
def test_a_huge_integer_in_any_numeric_parameter_is_refused_naming_it(tmp_path, family, param, big):
    fam = registry.get(family)
    ctx = fam.context(fam.load(**_sources(bundle(family, tmp_path / family))))
    with pytest.raises(InputError) as e:
        fam.params.validate({param: _value(fam, param, big, ctx)}, context=ctx)
    assert e.value.file == param and "expected" in e.value.problem and "9" * 60 not in str(e.value), str(e.value)


@pytest.mark.parametrize("param", sorted({p for f, p, _ in PARAMS if f == "custom"}))
@pytest.mark.parametrize("form", ["json", "toml hex", "toml underscores"])
def test_a_huge_integer_in_a_recipe_is_refused_naming_the_stage(param, form):
    if form == "json":
        name, text = "recipe.json", json.dumps({"stages": {param: BIG_INTS["400 nines"]}})
    elif param == "weights":
        name, text = "recipe.toml", "[stages.weights]\nA = 0x" + "f" * 300 + "\n"
    else:
        number = "0x" + "f" * 300 if form == "toml hex" else "1" + "_000" * 120
        name, text = "recipe.toml", f"[stages]\n{param} = {number}\n"
    with pytest.raises(InputError, match=rf"^{name}: stages\.{param}: expected") as e:
        read_recipe(text.encode(), name)
    assert len(str(e.value)) < 400


def test_a_toml_integer_past_python_s_digit_limit_and_deep_dotted_keys_are_one_line():
    with pytest.raises(InputError, match="^r.toml: not a TOML document"):
        read_recipe(("[stages]\nalpha = 1" + "_000" * 2000 + "\n").encode(), "r.toml")
    deep = "stages.alpha." + ".".join(f"k{i}" for i in range(3000)) + " = 1\n"
    with pytest.raises(InputError, match="^r.toml: nested deeper than 100 levels"):
        read_recipe(deep.encode(), "r.toml")
    with pytest.raises(InputError, match=r"^r.toml: a recipe of 2 MiB, over the limit of 1 MiB"):
        read_recipe(b"#" * (2 << 20), "r.toml")
    with pytest.raises(InputError, match="missing_by.A: expected skip, worst, zero or a number"):
        read_recipe(f'{{"inputs": {{"results": {{"missing_by": {{"A": {"9" * 400}}}}}}}}}'.encode(), "r.json")


# ---- the command line: exit 2 and one line ---------------------------------------------------
def _cli_args(family: str, paths: dict[str, Path]) -> list[str]:
    fam = registry.get(family)
    args = [family]
    flags = {inp.role: inp.flag for inp in fam.inputs}
    out = []
    for role, p in paths.items():
        out += [flags[role], str(p)]
    if family == "difficulty":
        out += ["--metric", "wmprob"]
    return args, out


def _one_line(res) -> str:
    assert res.returncode == 2, (res.returncode, res.stderr[-500:])
    errors = [ln for ln in res.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and "Traceback" not in res.stderr and "internal error" not in res.stderr, res.stderr[-500:]
    return errors[0]


@pytest.mark.parametrize("family", [f.name for f in registry.families()])
def test_compare_with_a_400_digit_integer_exits_2_naming_the_parameter(tmp_path, family):
    fam = registry.get(family)
    name = next(p.name for p in fam.params if p.kind in ("float", "int"))
    head, args = _cli_args(family, bundle(family, tmp_path / family))
    res = run_report(*head, *args, "--out", tmp_path / "r.html", "--compare", f'{{"{name}": {"9" * 400}}}')
    line = _one_line(res)
    assert f"parameter {name}: expected" in line and "9" * 60 not in line, line


@pytest.mark.parametrize("family", [f.name for f in registry.families()])
def test_the_command_line_names_the_file_of_an_edge_value(tmp_path, family):
    """1e308 in every cell of the family's first numeric column that it refuses: exit 2, one line."""
    case = next(c for c in CELLS if c[0] == family and c[3] == EDGES[1] and c[4] == "all")
    paths = bundle(family, tmp_path / family)
    damage(tmp_path / family / case[1], case[2], case[3], case[4])
    head, args = _cli_args(family, paths)
    res = run_cli(*head, "leaderboard", *args)
    if res.returncode == 0:
        assert "warning: overflow" not in res.stderr and "Traceback" not in res.stderr, res.stderr[-500:]
        return
    assert Path(case[1]).name in _one_line(res)


def test_the_issue_s_command_lines(tmp_path):
    results = tmp_path / "big.csv"
    results.write_text("Model,A,B\nbig,1e308,1e308\nsmall,1,1\n")
    res = run_cli("custom", "leaderboard", "--results", results)
    assert res.returncode == 0 and "warning" not in res.stderr, res.stderr
    assert res.stdout.splitlines()[1].split(",")[9] == "1e+308"  # big's final score, not inf
    for recipe, text in [("r.json", f'{{"stages": {{"alpha": {"9" * 400}}}}}'),
                         ("r.toml", "[stages]\nalpha = 0x" + "f" * 300 + "\n"),
                         ("d.toml", "stages.alpha." + ".".join(f"k{i}" for i in range(3000)) + " = 1\n")]:
        (tmp_path / recipe).write_text(text)
        line = _one_line(run_cli("custom", "leaderboard", "--results", results, "--recipe", tmp_path / recipe))
        assert line.startswith(f"error: {recipe}: "), line
    line = _one_line(run_cli("custom", "leaderboard", "--results", results, "--output", "/dev/full"))
    assert line == "error: /dev/full: cannot be written (No space left on device)"
    assert math.isfinite(1e308)
