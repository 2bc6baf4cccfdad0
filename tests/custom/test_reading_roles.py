"""Issue 36's engine: each column's role (unit, published aggregate or rank, metadata, left out)
with its reason, the direction, the new reading options (``drop_empty``, ``extra_field``,
``higher_is_better``, ``rank_columns``, ``metadata_columns``, ``inputs.teams.ignore_columns``),
and the two defects (a zero weight beside unnamed items; a runtime table with an empty column)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scoring.core.errors import InputError
from scoring.custom import Scorer, load_competition
from scoring.custom.columns import classify, direction, missing_found, scan, scan_all
from scoring.custom.reading import extra_field_guess
from scoring.custom.recipe import ResultsOptions, parse_recipe

HELM = b"Model\tMean win rate\tMMLU - EM\tGSM8K - EM\nA\t0.9\t0.5\t0.7\nB\t0.1\t0.4\t0.6\nC\t0.5\t0.3\t0.8\n"


def roles(comp) -> dict[str, str]:
    return {c.name: c.role for c in comp.results.columns}


# ---- the two defects -------------------------------------------------------------------------
def test_a_zero_weight_beside_unnamed_items_is_scored():
    comp = load_competition(results=HELM)
    lb = Scorer(comp).leaderboard(across="weighted", weights={"MMLU - EM": 0}).set_index("submission")
    # MMLU weighs 0, GSM8K (not named) 1: the aggregate is each team's GSM8K
    assert lb["aggregate"].to_dict() == pytest.approx({"A": 0.7, "B": 0.6, "C": 0.8})
    with pytest.raises(InputError, match="at least one item weight > 0"):
        Scorer(comp).leaderboard(across="weighted", weights={"MMLU - EM": 0, "GSM8K - EM": 0})
    # a recipe with the zero weight loads and scores (it was refused when parsed)
    rec = parse_recipe({"stages": {"across": "weighted", "weights": {"MMLU - EM": 0}}})
    lb = Scorer(load_competition(results=HELM, recipe=rec)).leaderboard(**rec.stages)
    assert lb["submission"].tolist() == ["C", "A", "B"]


def test_a_runtime_table_with_an_empty_column_loads():
    runtimes = b"Model,rt1,rt2\nA,1.5,-\nB,2,-\nC,-,-\n"
    results = b"Model,u1\nA,0.5\nB,0.6\nC,0.7\n"
    comp = load_competition(results=results, teams=runtimes,
                            recipe={"inputs": {"teams": {"read_as": "results"}}})
    assert comp.runtime[:2].tolist() == [1.5, 2.0] and np.isnan(comp.runtime[2])
    assert any("'rt2'" in line and "without any value" in line for line in comp.report)
    # inputs.teams.ignore_columns is a key now, and leaves the column out of the mean
    runtimes2 = b"Model,rt1,rt2\nA,1,3\nB,2,-\nC,-,-\n"
    comp = load_competition(results=results, teams=runtimes2,
                            recipe={"inputs": {"teams": {"read_as": "results", "ignore_columns": ["rt2"]}}})
    assert comp.runtime[:2].tolist() == [1.0, 2.0]
    comp = load_competition(results=results, teams=runtimes2, recipe={"inputs": {"teams": {"read_as": "results"}}})
    assert comp.runtime[:2].tolist() == [2.0, 2.0]  # A: mean of 1 and 3


# ---- empty rows and columns -------------------------------------------------------------------
def test_empty_columns_and_teams_refused_naming_drop_empty_then_left_out():
    t = b"Model\tURL2\tA\tB\nm1\t-\t0.5\t0.7\nm2\t-\t-\t-\nm3\t-\t0.1\t0.2\n"
    with pytest.raises(InputError, match=r"unit 'URL2' has no value.*inputs\.results\.drop_empty"):
        load_competition(results=t)
    with pytest.raises(InputError, match=r"team 'm2' has no value.*drop_empty") as e:
        load_competition(results=t, recipe={"inputs": {"results": {"ignore_columns": ["URL2"]}}})
    assert e.value.row == 3
    comp = load_competition(results=t, recipe={"inputs": {"results": {"drop_empty": True}}})
    assert comp.results.teams == ["m1", "m3"] and comp.results.units == ["A", "B"]
    said = " ".join(comp.report)
    assert "'URL2'" in said and "'m2'" in said and "drop_empty" in said
    lb = Scorer(comp).leaderboard()
    assert lb["submission"].tolist() == ["m1", "m3"]
    with pytest.raises(InputError, match="expected true or false"):
        parse_recipe({"inputs": {"results": {"drop_empty": "yes"}}})


# ---- a row one field longer than the header -----------------------------------------------------
def test_extra_field_first_and_last():
    vtab = b"Mean\tA\tB\nmodel x\t0.5\t0.4\t0.6\nmodel y\t0.3\t0.2\t0.4\n"
    assert extra_field_guess(vtab) == "first"
    with pytest.raises(InputError, match=r"one field more than the header.*extra_field") as e:
        load_competition(results=vtab)
    assert e.value.row == 2
    comp = load_competition(results=vtab, recipe={"inputs": {"results": {"extra_field": "first"}}})
    assert comp.results.teams == ["model x", "model y"] and comp.results.units == ["A", "B"]
    assert comp.results.published["Mean"].tolist() == [0.5, 0.3]
    trailing = b"Model,A,B\nx,1,2,\ny,3,4,\n"
    assert extra_field_guess(trailing) == "last"
    comp = load_competition(results=trailing, recipe={"inputs": {"results": {"extra_field": "last"}}})
    assert comp.results.units == ["A", "B"] and comp.results.values.tolist() == [[1, 2], [3, 4]]
    assert extra_field_guess(b"A,B\n1,2\n") is None and extra_field_guess(b"A,B\n1,2,3\n4,5\n") is None
    with pytest.raises(InputError, match="expected one of refuse, first, last"):
        parse_recipe({"inputs": {"results": {"extra_field": "middle"}}})


# ---- roles ---------------------------------------------------------------------------------------
MTEB = (b"Rank\tModel\t-\tModel Size (GB)\tEmbedding Dimensions\tMax Tokens\tAverage (56 datasets)\t"
        b"Classification Average (12 datasets)\tSTS Average (10 datasets)\n"
        b"1\tm1\t-\t14.22\t4096\t32768\t67.56\t78.33\t85.05\n"
        b"2\tm2\t-\t-\t1024\t4000\t67.13\t79.25\t85.79\n"
        b"3\tm3\t-\t0.5\t768\t512\t60.1\t70.2\t80.1\n")


def test_mteb_like_table_roles_and_reasons():
    comp = load_competition(results=MTEB, recipe={"inputs": {"results": {"drop_empty": True}}})
    got = roles(comp)
    assert got == {"Rank": "rank", "-": "empty", "Model Size (GB)": "metadata", "Embedding Dimensions": "metadata",
                   "Max Tokens": "metadata", "Average (56 datasets)": "aggregate",
                   "Classification Average (12 datasets)": "unit", "STS Average (10 datasets)": "unit"}
    assert comp.results.units == ["Classification Average (12 datasets)", "STS Average (10 datasets)"]
    assert comp.results.published_kind == {"Rank": "rank", "Average (56 datasets)": "score"}
    why = {c.name: c.reason for c in comp.results.columns}
    assert "'size'" in why["Model Size (GB)"] and "'tokens'" in why["Max Tokens"]
    said = " ".join(comp.report)
    assert "'Classification Average (12 datasets)'" in said  # the report names the units
    assert "'Max Tokens'" in said and "metadata" in said


def test_whole_numbers_far_outside_the_units_scale_are_metadata_unless_nothing_is_left():
    t = pd.DataFrame({"Model": ["a", "b", "c"], "Width": ["768", "1024", "4096"], "X": ["0.5", "0.6", "0.7"],
                      "Y": ["55", "60", "71"], "When": ["2021", "2022", "2023"]})
    cols = {c.name: c for c in classify(t, ResultsOptions(), "Model", frozenset({"", "-"}))[0]}
    assert cols["Width"].role == "metadata" and "far outside" in cols["Width"].reason and cols["Width"].asked
    assert cols["When"].role == "metadata" and "years" in cols["When"].reason
    assert cols["X"].role == cols["Y"].role == "unit"
    # the other units' scale: the median of their largest values, (0.7 + 71) / 2 = 35.85 (the years are
    # metadata already); whole numbers around more than 10 × 35.85 = 358.5 are metadata, around 350 are not
    for width, role in (("350", "unit"), ("360", "metadata")):
        t2 = t.assign(Width=[width] * 3)
        assert {c.name: c.role for c in classify(t2, ResultsOptions(), "Model", frozenset())[0]}["Width"] == role
    alone = pd.DataFrame({"Model": ["a", "b"], "Elo": ["1200", "1100"]})
    assert [c.role for c in classify(alone, ResultsOptions(), "Model", frozenset())[0]] == ["unit"]


def test_the_recipe_overrides_every_guess():
    opts = ResultsOptions(unit_columns=("Max Tokens", "Classification Average (12 datasets)"),
                          aggregate_columns=("STS Average (10 datasets)",), drop_empty=True)
    comp = load_competition(results=MTEB, recipe={"inputs": {"results": {
        "unit_columns": list(opts.unit_columns), "aggregate_columns": list(opts.aggregate_columns)}}})
    got = roles(comp)
    assert got["Max Tokens"] == "unit" and got["STS Average (10 datasets)"] == "aggregate"
    assert got["Rank"] == "ignored" and got["Model Size (GB)"] == "ignored"  # not among unit_columns
    comp = load_competition(results=MTEB, recipe={"inputs": {"results": {
        "drop_empty": True, "metadata_columns": ["STS Average (10 datasets)"], "rank_columns": ["Max Tokens"]}}})
    got = roles(comp)
    assert got["STS Average (10 datasets)"] == "metadata" and got["Max Tokens"] == "rank"
    assert comp.results.published_kind["Max Tokens"] == "rank"
    with pytest.raises(InputError, match="missing column"):
        load_competition(results=MTEB, recipe={"inputs": {"results": {"rank_columns": ["nope"]}}})


def test_text_columns_and_unnamed_columns_are_left_out_with_reasons():
    t = ("\tModel\tType\tRelease\tScore A\tB\n0\tm1\t🟢\t2023/3/15\t1\t2\n1\tm2\t🔶\t2023/9/22\t3\t4\n").encode()
    comp = load_competition(results=t)
    cols = {c.name: c for c in comp.results.columns}
    assert cols[""].role == "ignored" and cols[""].reason == "no name"
    assert cols["Type"].role == "metadata" and cols["Release"].role == "metadata"
    assert cols["Score A"].role == "aggregate"  # starts with the word Score
    assert comp.results.units == ["B"]


@pytest.mark.parametrize("name, role", [
    ("Average", "aggregate"), ("average_score", "aggregate"), ("Mean win rate ↑ [ sort ]", "aggregate"),
    ("Mean (selected datasets)", "aggregate"), ("Overall", "aggregate"), ("Score", "aggregate"),
    ("Win", "aggregate"), ("Win rate", "aggregate"), ("Rank", "rank"), ("#", "rank"), ("Position", "rank"),
    ("Winogrande", "unit"), ("Meaning", "unit"), ("Scores-X", "unit"), ("Classification Average (12)", "unit"),
    ("Model Size (GB)", "metadata"), ("#Params (B)", "metadata"), ("URL", "metadata"), ("Max Tokens", "metadata"),
])
def test_names(name, role):
    t = pd.DataFrame({"Model": ["a", "b"], name: ["0.5", "0.6"], "Other": ["0.1", "0.2"]})
    got = {c.name: c.role for c in classify(t, ResultsOptions(), "Model", frozenset({"", "-"}))[0]}
    assert got[name] == role


# ---- direction ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name, lower", [
    ("MMLU - ECE (10-bin)", True), ("BoolQ - Toxic fraction", True), ("LPIPS score ↓ [ sort ]", True),
    ("PSNR ↑", False), ("Word error rate", True), ("MMLU - Denoised inference time (s)", True), ("Salient Translation Error Detection", False), ("MMLU - EM", False),
    ("Perplexity", True), ("Accuracy", False), ("Error analysis ↑", False),
])
def test_direction_from_the_name(name, lower):
    got, why, guess = direction(name, ResultsOptions())
    assert got is lower and (guess == bool(why))


def test_direction_the_recipe_decides_and_the_sign_follows():
    t = b"Model\tAcc\tLoss\nA\t0.9\t0.2\nB\t0.8\t0.1\n"
    comp = load_competition(results=t)
    assert comp.sign.tolist() == [1.0, -1.0] and any("'Loss'" in line and "lower" in line for line in comp.report)
    comp = load_competition(results=t, recipe={"inputs": {"results": {"higher_is_better": ["Loss"]}}})
    assert comp.sign.tolist() == [1.0, 1.0]
    comp = load_competition(results=t, recipe={"inputs": {"results": {"lower_is_better": ["Acc"]}}})
    assert comp.sign.tolist() == [-1.0, -1.0]


# ---- cells ----------------------------------------------------------------------------------------
def test_scan_against_a_cell_by_cell_reading():
    rng = np.random.default_rng(36)
    pool = ["0.5", "-", "", "N/A", "12", "1e3", "3/4", " 7 / 8 ", "abc", "nan", "inf", "-2.5", "x", ".5"]
    missing = frozenset({"", "-"})
    for case in range(400):
        cells = list(rng.choice(pool if case % 2 else pool[:6] + ["-2.5", ".5"], size=int(rng.integers(1, 12))))
        # the arrow pass over a table of columns (case % 2 == 0: often plain numbers only) and the
        # column's own pass must both agree with the obvious reading
        table = scan_all({"x": pd.Series(cells), "y": pd.Series(list(reversed(cells)))}, missing)
        for s in (scan(pd.Series(cells), missing), table["x"]):
            _check(cells, s, missing)


def _check(cells, s, missing):
    for i, c in enumerate(cells):  # the slow, obvious reading
        is_missing = c.lower() in missing
        try:
            x = float(c)
            num = x if np.isfinite(x) else None
        except ValueError:
            num = None
        pair = num is None and not is_missing and "/" in c and all(_num(p) for p in c.split("/"))
        assert s.missing[i] == is_missing
        assert s.pairs[i] == pair
        want = num if not is_missing else None
        if pair:
            want = float(c.split("/")[0])
        assert (np.isnan(s.values[i]) if want is None else s.values[i] == want), (cells, i)
        assert s.text[i] == (not is_missing and want is None)


def _num(x: str) -> bool:
    try:
        return np.isfinite(float(x))
    except ValueError:
        return False


def test_missing_marks_found_are_the_usual_ones():
    t = pd.DataFrame({"Model": ["a", "b", "c", "d"], "A": ["0.5", "N/A", "0.7", "0.1"],
                      "B": ["—", "0.1", "oops", "0.3"], "Company": ["n/a", "x", "y", "z"]})
    cols = classify(t, ResultsOptions(), "Model", frozenset({"", "-"}))[0]
    assert missing_found(cols) == ("N/A", "—")  # not 'oops'; not the metadata column's 'n/a'
    comp = load_competition(results=t.to_csv(index=False).encode(),
                            recipe={"inputs": {"results": {"missing_marks": ["", "-", "N/A", "—", "oops"]}}})
    assert np.isnan(comp.results.values).sum() == 3
