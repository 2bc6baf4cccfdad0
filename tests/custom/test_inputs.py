"""Every bad input of the Custom family gets one clear message naming the file, the row and
the problem (``InputError``), within the engine's limits — hostile tables included."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import pytest

from scoring.core import limits
from scoring.core.errors import InputError
from scoring.custom import Scorer, load_competition, read_recipe
from tests.cli import run_cli

WIDE = b"Model\tMean win rate\tA - EM\tB - F1\nm1\t0.9\t0.5\t0.7\nm2\t0.1\t0.4\t-\nm3\t0.5\t0.4\t0.2\n"


def err(**kw) -> InputError:
    with pytest.raises(InputError) as e:
        load_competition(**kw)
    return e.value


def test_wide_table_detects_team_and_aggregate_and_missing(tmp_path):
    comp = load_competition(results=WIDE)
    r = comp.results
    assert r.teams == ["m1", "m2", "m3"] and r.units == ["A - EM", "B - F1"] and r.metric_of == ["EM", "F1"]
    assert np.isnan(r.values[1, 1]) and list(r.published) == ["Mean win rate"]
    assert any("Mean win rate" in line for line in comp.report)


def test_csv_and_tsv_read_alike():
    csv = WIDE.replace(b"\t", b",")
    a, b = load_competition(results=WIDE).results, load_competition(results=csv).results
    assert a.teams == b.teams and np.array_equal(a.values, b.values, equal_nan=True)


def test_long_table_with_metrics():
    long = b"team,unit,metric,value\nA,mmlu,acc,0.5\nA,mmlu,time,3\nB,mmlu,acc,0.7\nB,mmlu,time,-\n"
    comp = load_competition(results=long, recipe={"inputs": {"results": {"lower_is_better": ["time"]}}})
    assert comp.results.units == ["mmlu: acc", "mmlu: time"] and comp.sign.tolist() == [1.0, -1.0]
    lb = Scorer(comp).leaderboard(normalise="minmax").set_index("submission")
    # acc: B best (1), A 0; time: only A present (1); means over the units each team has
    assert lb.loc["A", "normalised"] == pytest.approx(0.5) and lb.loc["B", "normalised"] == pytest.approx(1.0)


def test_pair_cells_refused_by_default_then_split():
    glue = b"Model\tMRPC\tCoLA\nx\t94.2/92.3\t70\ny\t90.0/88.0\t60\n"
    e = err(results=glue)
    assert e.row == 2 and "two numbers '94.2/92.3'" in str(e) and e.column == "MRPC"
    for split, want in (("first", 94.2), ("second", 92.3), ("mean", 93.25)):
        comp = load_competition(results=glue, recipe={"inputs": {"results": {"split": split}}})
        assert comp.results.values[0, 0] == pytest.approx(want)
    both = load_competition(results=glue, recipe={"inputs": {"results": {"split": "both"}}}).results
    assert both.units == ["MRPC [1]", "MRPC [2]", "CoLA"]


def test_text_in_a_number_cell_names_row_column_and_cell():
    e = err(results=b"Model\tA\tB\nm1\t0.5\t0.2\nm2\tn/a?\t0.3\n")
    assert (e.row, e.column, e.value) == (3, "A", "n/a?") and "not a number" in str(e)
    e = err(results=b"team,unit,value\nA,u,0.5\nB,u,abc\n")
    assert e.row == 3 and "'abc'" in str(e)


def test_duplicate_teams_refused_or_numbered_or_first():
    dup = b"Model\tA\nm1\t0.5\nm2\t0.2\nm1\t0.9\n"
    e = err(results=dup)
    assert e.row == 4 and "duplicate team 'm1' (first on row 2)" in str(e)
    num = load_competition(results=dup, recipe={"inputs": {"results": {"duplicates": "number"}}}).results
    assert num.teams == ["m1", "m2", "m1 (2)"] and num.values[2, 0] == 0.9
    first = load_competition(results=dup, recipe={"inputs": {"results": {"duplicates": "first"}}}).results
    assert first.teams == ["m1", "m2"] and first.values[:, 0].tolist() == [0.5, 0.2]


def test_duplicate_units():
    e = err(results=b"Model\tA\tA\nm1\t0.5\t0.2\n")
    assert e.row == 1 and "duplicate column 'A'" in str(e)
    e = err(results=b"team,unit,value\nx,u,1\ny,u,2\nx,u,3\n")
    assert e.row == 4 and "first on row 2" in str(e)


def test_all_missing_column_and_team():
    e = err(results=b"Model\tA\tB\nm1\t0.5\t-\nm2\t0.2\t\n")
    assert "'B' has no value for any team" in str(e) and "ignore_columns" in str(e)
    ok = load_competition(results=b"Model\tA\tB\nm1\t0.5\t-\nm2\t0.2\t\n",
                          recipe={"inputs": {"results": {"ignore_columns": ["B"]}}})
    assert ok.results.units == ["A"]
    e = err(results=b"Model\tA\tB\nm1\t0.5\t0.1\nm2\t-\t-\n")
    assert e.row == 3 and "'m2' has no value on any unit" in str(e)


def test_a_million_columns_refused_before_splitting(tmp_path):
    for sep in (b"\t", b","):
        header = b"Model" + sep + sep.join(b"c%d" % i for i in range(1_000_000)) + b"\n"
        t = time.perf_counter()
        e = err(results=header + b"m1" + sep * 1_000_000 + b"\n")
        assert e.row == 1 and f"over the limit of {limits.MAX_COLUMNS:,}" in str(e)
        assert time.perf_counter() - t < 5


@pytest.mark.parametrize("sep", ["\t", ","])
def test_a_1_mb_cell_refused(sep):
    big = "x" * (limits.MAX_CELL_BYTES + 10)
    data = f"Model{sep}A\nm1{sep}0.5\n{big}{sep}0.3\n".encode()
    e = err(results=data)
    assert e.row == 3 and "over the limit" in str(e) and "per cell" in str(e)


def test_no_team_column_and_no_units():
    e = err(results=b"a\tb\n1\t2\n3\t4\n")
    assert "no team column found" in str(e) and "team_column" in str(e)
    e = err(results=b"Model\tURL\nm1\thttp://x\n")
    assert "no unit column" in str(e)


def test_binary_and_empty_files():
    assert "binary" in str(err(results=b"Model\tA\nm\x00\t1\n"))
    assert "empty" in str(err(results=b"   \n"))
    e = err(results=b"Model\tA\nm1\t0.5\t0.7\n")
    assert e.row == 2 and "3 fields but the header has 2" in str(e)


def test_units_table_problems():
    res = b"Model\tA\tB\nm1\t0.5\t0.2\nm2\t0.1\t0.3\n"
    e = err(results=res, units=b"unit,category\nA,x\nC,y\n")
    assert e.row == 3 and "unit 'C' is not a unit of the results" in str(e)
    e = err(results=res, units=b"unit,category\nA,x\nA,y\n")
    assert e.row == 3 and "duplicate unit" in str(e)
    comp = load_competition(results=res, units=b"unit,category,n\nA,x,10\nB,x,30\n")
    assert comp.context()["group_columns"] == ["none", "category"] and comp.context()["numeric_columns"] == ["none", "n"]
    lb = Scorer(comp).leaderboard(group_by="category", within="size", weight_column="n").set_index("submission")
    assert lb.loc["m1", "grouped"] == pytest.approx((0.5 * 10 + 0.2 * 30) / 40)
    with pytest.raises(InputError, match="weight_column"):
        Scorer(comp).leaderboard(group_by="category", within="size")


def test_teams_table_problems():
    res = b"Model\tA\nm1\t0.5\nm2\t0.1\n"
    e = err(results=res, teams=b"team,runtime\nm1,0\n")
    assert e.row == 2 and "runtime must be > 0" in str(e)
    e = err(results=res, teams=b"team,runtime\nm1,fast\n")
    assert e.row == 2 and "'fast'" in str(e)
    e = err(results=res, teams=b"team,cost,runtime2\nm1,1,2\n")
    assert "no runtime column" in str(e)
    comp = load_competition(results=res, teams=b"team,runtime\nm1,2\nzz,3\n")
    assert np.isnan(comp.runtime[1]) and any("not in the results" in x for x in comp.report)


@pytest.mark.parametrize("doc, words", [
    ({"stages": {"across": "plurality"}}, "stages.across: expected one of"),
    ({"stages": {"alpha": -1}}, "stages.alpha"),
    ({"stagez": {}}, "unknown key 'stagez'"),
    ({"inputs": {"results": {"team": "x"}}}, "unknown key inputs.results.team"),
    ({"inputs": {"results": {"split": "maybe"}}}, "inputs.results.split"),
    ({"inputs": {"results": {"lower_is_better": 3}}}, "expected a list of names"),
])
def test_recipe_problems(doc, words):
    with pytest.raises(InputError, match="recipe") as e:
        read_recipe(doc)
    assert words in str(e.value)


def test_recipe_files_json_and_toml(tmp_path):
    bad = tmp_path / "r.json"
    bad.write_text('{"stages": {"across": "borda",}}')
    with pytest.raises(InputError, match=r"r\.json: not valid JSON \(line 1, column"):
        read_recipe(bad, "r.json")
    toml = tmp_path / "r.toml"
    toml.write_text('title = "t"\n[stages]\nacross = "copeland"\nalpha = "inf"\n')
    r = read_recipe(toml, "r.toml")
    assert r.stages["across"] == "copeland" and r.stages["alpha"] == float("inf")


def test_cli_bad_input_is_one_line_and_exit_2(tmp_path):
    f = tmp_path / "r.tsv"
    f.write_bytes(b"Model\tA\nm1\tzz\nm2\t0.3\n")
    r = run_cli("custom", "leaderboard", "--results", f)
    assert r.returncode == 2 and r.stderr.strip().splitlines()[-1] == \
        "error: r.tsv, row 2: the cell of column 'A' is 'zz', not a number (nor a missing mark: '', '-')"
    f.write_bytes(WIDE)
    r = run_cli("custom", "leaderboard", "--results", f, "--across", "nope")
    assert r.returncode == 2 and "--across" in r.stderr


def test_cli_options_override_the_recipe(tmp_path):
    f, rec = tmp_path / "r.tsv", tmp_path / "recipe.json"
    f.write_bytes(WIDE)
    rec.write_text('{"stages": {"across": "borda", "normalise": "minmax"}}')
    r = run_cli("custom", "leaderboard", "--results", f, "--recipe", rec, "--format", "json")
    assert '"across": "borda"' in r.stdout and '"normalise": "minmax"' in r.stdout
    r = run_cli("custom", "leaderboard", "--results", f, "--recipe", rec, "--across", "copeland", "--format", "json")
    assert '"across": "copeland"' in r.stdout and '"normalise": "minmax"' in r.stdout


def test_dataframe_input_and_invisible_names():
    df = pd.DataFrame({"team": ["a", "b\u200b"], "unit": ["u", "u"], "value": ["1", "2"]})
    e = err(results=df)
    assert "invisible character U+200B" in str(e)


def test_cli_bootstrap_keeps_the_notes_and_the_recipe(tmp_path):
    import json
    f = tmp_path / "r.tsv"
    f.write_bytes(WIDE)
    r = run_cli("custom", "leaderboard", "--results", f, "--across", "copeland", "--bootstrap", "20", "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["bootstrap"]["replicates"] == 20 and doc["recipe"]["stages"]["across"] == "copeland"
    assert any(n.startswith("across: Copeland") for n in doc["notes"])
    assert {"rank_low", "rank_high", "letters", "could_win"} <= set(doc["leaderboard"][0])
    # Copeland: m1 beats m2 (A) and m3 (A and B): two majorities; m2 and m3 tie on A, the only
    # unit both have (m2 misses B), so that pair is a tie worth ½ each
    assert [(row["submission"], row["aggregate"]) for row in doc["leaderboard"]] == \
        [("m1", 2.0), ("m2", 0.5), ("m3", 0.5)]


def test_missing_policy_per_unit_or_metric():
    # A - EM and B - F1; m2 misses B. The stage says skip; the recipe says F1 gets its worst (0.2)
    comp = load_competition(results=WIDE, recipe={"inputs": {"results": {"missing_by": {"F1": "worst"}}}})
    lb = Scorer(comp).leaderboard(missing="skip").set_index("submission")
    assert lb.loc["m2", "normalised"] == pytest.approx((0.4 + 0.2) / 2)
    assert any("B - F1: set to the unit's worst value" in n for n in lb.attrs["notes"])
    comp = load_competition(results=WIDE, recipe={"inputs": {"results": {"missing_by": {"B - F1": 0.5}}}})
    assert Scorer(comp).leaderboard(missing="zero").set_index("submission").loc["m2", "normalised"] == \
        pytest.approx((0.4 + 0.5) / 2)
    with pytest.raises(InputError, match="missing_by.F1: expected skip, worst, zero or a number"):
        read_recipe({"inputs": {"results": {"missing_by": {"F1": "median"}}}})


def test_difficulty_splits_by_hand():
    # docs/difficulty.md's worked example as units: difficulties u1 0.9, u2 0.1, u3 0.5, u4 0.3;
    # easiest first u2, u4 | u3, u1 -> split weights 1, 1, 2, 2. Team A right on u1, u3, u4
    # (1) and wrong on u2 (0): earned 2·1 + 1·(−1) + 2·1 + 1·1 = 4 of a perfect 6
    res = b"team,unit,value\nA,u1,1\nA,u2,0\nA,u3,1\nA,u4,1\nB,u1,0\nB,u2,1\nB,u3,0\nB,u4,1\n"
    units = b"unit,all,difficulty\nu1,g,0.9\nu2,g,0.1\nu3,g,0.5\nu4,g,0.3\n"
    comp = load_competition(results=res, units=units)
    lb = Scorer(comp).leaderboard(group_by="all", within="difficulty", weight_column="difficulty",
                                  splits=2).set_index("submission")
    assert lb.loc["A", "grouped"] == pytest.approx(4 / 6)
    # B right on u2, u4 (split 1) only: 1 + 1 − 2 − 2 = −2 of 6
    assert lb.loc["B", "grouped"] == pytest.approx(-2 / 6)
    # reward only (e = 0): the split-weighted share, 5/6 and 2/6
    lb = Scorer(comp).leaderboard(group_by="all", within="difficulty", weight_column="difficulty", splits=2,
                                  penalty=0.0).set_index("submission")
    assert lb["grouped"].tolist() == pytest.approx([5 / 6, 2 / 6])
    us = Scorer(comp).unit_stats(group_by="all", within="difficulty", weight_column="difficulty", splits=2)
    assert dict(zip(us.names, us.scores()["grouped"], strict=True)) == pytest.approx({"A": 4 / 6, "B": -2 / 6})


def test_a_long_table_cannot_name_more_units_than_a_header_can_hold(monkeypatch):
    rows = "\n".join(f"t,u{i},1" for i in range(limits.MAX_COLUMNS + 1))
    e = err(results=f"team,unit,value\n{rows}\n".encode())
    assert f"{limits.MAX_COLUMNS + 1:,} units, over the limit" in str(e)
    from scoring.custom import data
    monkeypatch.setattr(data, "MAX_CELLS", 50)
    rows = "\n".join(f"t{i},u{i % 5},1" for i in range(11))  # sparse: 11 rows make an 11 x 5 matrix
    e = err(results=f"team,unit,value\n{rows}\n".encode())
    assert "11 teams x 5 units = 55 cells, over the limit of 50" in str(e)
    rows = "\n".join(f"t{i},u{j},1" for i in range(11) for j in range(5))  # 55 rows: refused before reading
    e = err(results=f"team,unit,value\n{rows}\n".encode())
    assert "up to 55 rows = 55 cells, over the limit of 50" in str(e) and "before reading" in str(e)


def test_every_problem_of_a_bundle_at_once():
    import scoring
    from scoring.core.validate import check_inputs
    results = b"Model\tA\tB\nm1\t0.5\tzz\nm2\t0.1\t0.3\nm1\t0.9\t0.2\nm4\t??\t0.1\n"
    found, more = check_inputs(scoring.get("custom"), results=results,
                               units=b"unit,g\nA,x\nC,y\n")
    # the results' three bad rows; without them the results load, and the units table is checked
    # against them: its unit C is no unit of the results
    assert [(e.file, e.row, e.column) for e in found] == [("results", 2, "B"), ("results", 4, "Model"),
                                                        ("results", 5, "A"), ("units", 3, "unit")] and not more
    found, _ = check_inputs(scoring.get("custom"), results=b"Model\tA\nm1\t0.5\nm2\t0.1\n",
                            units=b"unit,g\nA,x\nC,y\nD,z\n", teams=b"team,runtime\nm1,0\nm2,-3\n")
    assert [(e.file, e.row) for e in found] == [("units", 3), ("units", 4), ("teams", 2), ("teams", 3)]
    assert scoring.get("custom").validate(results=b"Model\tA\nm1\t0.5\n", recipe={"stages": {"alpha": -2}})[0].file \
        == "recipe"


def test_tab_separated_text_is_read_as_written_and_its_problems_named():
    # the one CSV reader, without quoting: a " is text (here in a model's name), a line of
    # spaces and tabs is blank, a lone \r ends a line; rows as a person counts them
    res = b'Model\tA\tB\r"m1\t0.5\t0.2\r \t \rm2 "\t0.1\t0.3\r'
    comp = load_competition(results=res)
    assert comp.results.teams == ['"m1', 'm2 "'] and comp.results.values.tolist() == [[0.5, 0.2], [0.1, 0.3]]
    e = err(results=b"Model\tA\tB\r\nm1\t0.5\t0.2\r\n\r\nm2\tzz\t0.3\r\n")
    assert e.row == 4 and "'zz', not a number" in str(e)
    # a cell over the csv module's own field limit (128 KiB) but under ours is read, not a crash
    name = "m" * 200_000
    comp = load_competition(results=f"Model\tA\tB\n{name}\t0.5\t0.2\nm2\t0.1\t0.3\n".encode())
    assert comp.results.teams[0] == name
