"""Bad input (SPEC §1, issue 2 §3): a one-line message naming the file, the row and the problem.

Every case is checked twice: through ``scoring.load_competition`` (``InputError`` with
``file``/``row``/``problem``) and through ``python -m scoring leaderboard`` (exit 2, one line
on stderr, no traceback). Row numbers are counted by hand: the header is row 1.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import scoring
from tests.cli import run_cli

ROOT = Path(__file__).resolve().parents[2]

GT = """id,discourse_type,predictionstring,discourse_effectiveness
e1,Claim,0 1 2 3 4 5 6 7 8 9,Effective
e1,Lead,20 21 22 23,Ineffective
e2,Claim,1 2 3 4,Effective
"""
SUB = """id,class,predictionstring,Effective,Ineffective
e1,Claim,0 1 2 3 4 5 6 7 8,0.8,0.2
e1,Lead,20 21 22 23,0.3,0.7
e2,Claim,1 2 3 4,1,0
"""
DEMO = """id,ell_status,gender
e1,Yes,F
e2,No,M
"""
RT = """submission,runtime
alpha,10
"""


def write_comp(tmp_path: Path, gt=GT, subs=None, demo=DEMO, rt=RT) -> dict:
    subs = {"alpha": SUB} if subs is None else subs
    (tmp_path / "subs").mkdir(exist_ok=True)
    paths = {"ground_truth": tmp_path / "gt.csv", "submissions": [], "demographics": None, "runtimes": None}
    paths["ground_truth"].write_bytes(gt.encode() if isinstance(gt, str) else gt)
    for name, text in subs.items():
        p = tmp_path / "subs" / f"{name}.csv"
        p.write_bytes(text.encode() if isinstance(text, str) else text)
        paths["submissions"].append(p)
    if demo is not None:
        paths["demographics"] = tmp_path / "demo.csv"
        paths["demographics"].write_text(demo)
    if rt is not None:
        paths["runtimes"] = tmp_path / "rt.csv"
        paths["runtimes"].write_text(rt)
    return paths


def cli(paths: dict, *extra: str):
    args = ["leaderboard", "--ground-truth", str(paths["ground_truth"]),
            "--submissions", *map(str, paths["submissions"])]
    if paths["demographics"]:
        args += ["--demographics", str(paths["demographics"])]
    if paths["runtimes"]:
        args += ["--runtimes", str(paths["runtimes"])]
    return run_cli(*args, *extra)


def load(paths: dict):
    return scoring.load_competition(ground_truth=paths["ground_truth"], submissions=paths["submissions"],
                                    demographics=paths["demographics"], runtimes=paths["runtimes"])


def expect_error(paths, file: str, row: int | None, *words: str, cli_extra=()):
    with pytest.raises(scoring.InputError) as ei:
        load(paths)
    err = ei.value
    assert err.file == file
    assert err.row == row
    for w in words:
        assert w in err.problem, (w, err.problem)
    res = cli(paths, *cli_extra)
    assert res.returncode == 2, res.stderr
    lines = [ln for ln in res.stderr.splitlines() if ln.strip() and not re.match(r"scoring \d+/\d+", ln)]
    assert len(lines) == 1, res.stderr
    assert "Traceback" not in res.stderr
    assert file in lines[0] and (row is None or f"row {row}" in lines[0])


def test_good_competition_loads(tmp_path):
    comp = load(write_comp(tmp_path))
    assert comp.submission_names == ["alpha"]
    assert comp.classes == ["Claim", "Lead"] and comp.labels == ["Effective", "Ineffective"]
    assert comp.attributes == ["ell_status", "gender"]
    res = cli(write_comp(tmp_path))
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[0] == ",".join(scoring.LEADERBOARD_COLUMNS)


@pytest.mark.parametrize("which, text, file, missing", [
    ("gt", GT.replace("discourse_type", "discourse_typ"), "gt.csv", "discourse_type"),
    ("sub", SUB.replace("class", "klass"), "alpha.csv", "class"),
    ("sub", SUB.replace("predictionstring", "prediction_string"), "alpha.csv", "predictionstring"),
    ("demo", DEMO.replace("id,", "essay,"), "demo.csv", "id"),
    ("rt", RT.replace("runtime", "seconds"), "rt.csv", "runtime"),
])
def test_missing_or_misspelled_column(tmp_path, which, text, file, missing):
    kw = {"gt": {"gt": text}, "sub": {"subs": {"alpha": text}}, "demo": {"demo": text}, "rt": {"rt": text}}[which]
    expect_error(write_comp(tmp_path, **kw), file, 1, f"missing column {missing!r}")


def test_misspelled_column_suggests_the_right_name(tmp_path):
    with pytest.raises(scoring.InputError, match="did you mean 'klass'"):
        load(write_comp(tmp_path, subs={"alpha": SUB.replace("class", "klass")}))


@pytest.mark.parametrize("bad, row, words", [
    ("0 1 x 3", 3, ["'x'", "not a non-negative integer"]),
    ("0 1 2.5", 3, ["'2.5'"]),
    ("0 -1 2", 3, ["negative word index -1"]),
])
def test_bad_word_index_in_submission(tmp_path, bad, row, words):
    sub = SUB.replace("20 21 22 23", bad)  # the Lead row is the file's row 3
    expect_error(write_comp(tmp_path, subs={"alpha": sub}), "alpha.csv", row, *words)


def test_bad_word_index_in_ground_truth(tmp_path):
    gt = GT.replace("1 2 3 4,", "1 2 three 4,")  # row 4
    expect_error(write_comp(tmp_path, gt=gt), "gt.csv", 4, "'three'")


@pytest.mark.parametrize("cell, words", [
    ("1.5", ["outside [0, 1]"]),
    ("-0.2", ["outside [0, 1]"]),
    ("", ["missing"]),
    ("abc", ["'abc'", "not a number"]),
    ("NA", ["'NA'", "not a number"]),
])
def test_bad_probability(tmp_path, cell, words):
    sub = SUB.replace("e1,Lead,20 21 22 23,0.3,0.7", f"e1,Lead,20 21 22 23,{cell},0.7")
    expect_error(write_comp(tmp_path, subs={"alpha": sub}), "alpha.csv", 3, "'Effective'", *words)


def test_probabilities_must_sum_to_one(tmp_path):
    sub = SUB.replace("1,0\n", "0.5,0.3\n")  # row 4 sums to 0.8
    expect_error(write_comp(tmp_path, subs={"alpha": sub}), "alpha.csv", 4, "sum to 0.8")


def test_probability_sum_tolerance_is_0_01(tmp_path):
    ok = SUB.replace("1,0\n", "0.995,0.0149\n")  # 1.0099: within 0.01
    load(write_comp(tmp_path, subs={"alpha": ok}))
    bad = SUB.replace("1,0\n", "0.995,0.0151\n")  # 1.0101: outside
    with pytest.raises(scoring.InputError, match="row 4"):
        load(write_comp(tmp_path, subs={"alpha": bad}))


def test_ground_truth_label_without_probability_column(tmp_path):
    sub = SUB.replace(",Ineffective", ",Bad")
    expect_error(write_comp(tmp_path, subs={"alpha": sub}), "alpha.csv", 1, "'Ineffective'")


def test_no_probability_columns_is_a_warning_and_d_is_zero(tmp_path):
    sub = "id,class,predictionstring\ne1,Claim,0 1 2 3 4 5 6 7 8 9\n"
    comp = load(write_comp(tmp_path, subs={"alpha": sub}))
    assert any("no probability columns" in r for r in comp.report)
    lb = scoring.Scorer(comp).leaderboard(w=0.5, quality="iou", attributes=())
    # Claim: e1 matched exactly (q = 1, d = 0): TP = 0.5, FN = 1 - 0.5 + 1 (e2 missed) = 1.5, FP = 0
    claim = 0.5 / (0.5 + 0.5 * 1.5)
    assert lb["segment_score"].iloc[0] == pytest.approx((claim + 0.0) / 2, abs=1e-12)


def test_duplicate_submission_names(tmp_path):
    paths = write_comp(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    (other / "alpha.csv").write_text(SUB)
    paths["submissions"].append(other / "alpha.csv")
    expect_error(paths, "alpha.csv", None, "duplicate submission name 'alpha'")


def test_duplicate_id_in_demographics(tmp_path):
    demo = DEMO + "e1,No,M\n"  # row 4 repeats row 2
    expect_error(write_comp(tmp_path, demo=demo), "demo.csv", 4, "duplicate id 'e1'", "row 2")


def test_duplicate_submission_in_runtimes(tmp_path):
    expect_error(write_comp(tmp_path, rt=RT + "alpha,12\n"), "rt.csv", 3, "duplicate submission 'alpha'")


@pytest.mark.parametrize("cell, words", [("", "empty"), ("0", "> 0"), ("-3", "> 0"), ("fast", "not a number"),
                                         ("inf", "finite")])
def test_bad_runtime(tmp_path, cell, words):
    expect_error(write_comp(tmp_path, rt=f"submission,runtime\nalpha,{cell}\n"), "rt.csv", 2, words)


def test_empty_file(tmp_path):
    expect_error(write_comp(tmp_path, subs={"alpha": ""}), "alpha.csv", None, "empty")


def test_binary_garbage(tmp_path):
    garbage = bytes(range(256)) * 8
    expect_error(write_comp(tmp_path, gt=garbage), "gt.csv", None, "binary")


def test_not_utf8(tmp_path):
    expect_error(write_comp(tmp_path, subs={"alpha": SUB.encode().replace(b"Claim", b"Cl\xe9im")}),
                 "alpha.csv", 2, "UTF-8")


def test_folder_without_csv(tmp_path):
    paths = write_comp(tmp_path)
    empty = tmp_path / "nothing"
    empty.mkdir()
    paths["submissions"] = [empty]
    expect_error(paths, str(empty), None, "no .csv")


def test_unknown_attribute(tmp_path):
    paths = write_comp(tmp_path)
    comp = load(paths)
    with pytest.raises(scoring.InputError, match="attributes"):
        scoring.Scorer(comp).leaderboard(attributes=["ethnicity"])
    res = cli(paths, "--attributes", "ethnicity")
    assert res.returncode == 2 and "ethnicity" in res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize("flag, value, pname", [
    ("--w", "1.5", "w"), ("--w", "-0.1", "w"), ("--threshold", "0", "threshold"),
    ("--threshold", "1.2", "threshold"), ("--alpha", "-1", "alpha"), ("--alpha", "hot", "alpha"),
    ("--band", "-0.05", "band"), ("--max-boost", "-1", "max_boost"), ("--window", "0", "window"),
])
def test_bad_parameters(tmp_path, flag, value, pname):
    paths = write_comp(tmp_path)
    res = cli(paths, flag, value)
    assert res.returncode == 2, res.stdout
    assert "Traceback" not in res.stderr
    assert flag in res.stderr and value in res.stderr  # the error names the option as typed
    kw = {"w": "w", "threshold": "threshold", "alpha": "alpha", "band": "band", "max_boost": "max_boost",
          "window": "window"}[pname]
    scorer = scoring.Scorer(load(paths))
    with pytest.raises(scoring.InputError, match=pname):
        scorer.leaderboard(**{kw: float(value) if value.lstrip("-").replace(".", "").isdigit() else value})


def test_bad_quality_parameter(tmp_path):
    scorer = scoring.Scorer(load(write_comp(tmp_path)))
    with pytest.raises(scoring.InputError, match="quality"):
        scorer.leaderboard(quality="dice")


def test_warnings_say_how_many_rows(tmp_path):
    sub = SUB + "zz,Claim,1 2 3,0.5,0.5\nzz,Lead,4 5,0.5,0.5\n"  # two rows for an unknown essay
    gt = GT + "e2,Claim,3 4 5,Effective\ne2,Claim,1 2 3 4,Ineffective\n"  # overlap + duplicate
    rt = RT + "ghost,5\n"
    paths = write_comp(tmp_path, gt=gt, subs={"alpha": sub, "beta": SUB}, rt=rt)
    comp = load(paths)
    text = "\n".join(comp.report)
    assert "alpha.csv: 2 row(s) for essays not in the ground truth ignored" in text
    assert "rt.csv: 1 row(s) for unknown submissions ignored (ghost)" in text
    assert "1 submission(s) have no runtime" in text and "beta" in text
    assert "gt.csv: 3 ground-truth row(s) overlap or duplicate" in text
    lb = scoring.Scorer(comp).leaderboard()
    assert not lb.set_index("submission").loc["beta", "eligible"]


def test_empty_predictionstrings_are_dropped_and_counted(tmp_path):
    sub = SUB + "e2,Lead,,0.5,0.5\n"
    gt = GT + "e2,Lead,,Effective\n"
    comp = load(write_comp(tmp_path, gt=gt, subs={"alpha": sub}))
    text = "\n".join(comp.report)
    assert "gt.csv: 1 row(s) with an empty predictionstring dropped" in text
    assert "alpha.csv: 1 row(s) with an empty predictionstring dropped" in text
    assert len(comp.ground_truth) == 3


def test_cells_are_text(tmp_path):
    # ids that look like numbers or NA stay text; the essay "NA" is a real essay
    gt = GT.replace("e1,", "007,").replace("e2,", "NA,")
    sub = SUB.replace("e1,", "007,").replace("e2,", "NA,")
    comp = load(write_comp(tmp_path, gt=gt, subs={"alpha": sub}, demo=None, rt=None))
    assert comp.essays == ["007", "NA"]
    assert comp.report == []


def test_missing_demographics_fall_into_missing_group(tmp_path):
    comp = load(write_comp(tmp_path, demo="id,ell_status,gender\ne1,Yes,\n"))
    gs = scoring.Scorer(comp).group_scores(attributes=["ell_status", "gender"])
    assert gs.labels == ["ell_status=(missing) & gender=(missing)", "ell_status=Yes & gender=(missing)"]
    assert gs.sizes.tolist() == [1, 1]


def test_trailing_comma_is_an_error_not_a_shifted_column(tmp_path):
    # every data row has one field more than the header: pandas would silently make the first
    # column an index and shift the others
    gt = "\n".join(line + "," if i else line for i, line in enumerate(GT.strip().splitlines())) + "\n"
    expect_error(write_comp(tmp_path, gt=gt), "gt.csv", 2, "5 fields", "header has 4")


def test_extra_field_in_demographics_is_an_error(tmp_path):
    expect_error(write_comp(tmp_path, demo="id,ell_status,gender\ne1,Yes,F\ne2,No,M,extra\n"),
                 "demo.csv", 3, "4 fields", "header has 3")


def test_short_row_is_an_error(tmp_path):
    expect_error(write_comp(tmp_path, subs={"alpha": SUB + "e2,Claim\n"}), "alpha.csv", 5, "2 fields", "header has 5")


def test_row_numbers_count_blank_lines_like_a_spreadsheet(tmp_path):
    # header (1), a good row (2), two blank lines (3, 4), the bad row is row 5
    sub = "id,class,predictionstring,Effective,Ineffective\ne1,Claim,0 1 2,0.5,0.5\n\n\ne1,Lead,20 x,0.5,0.5\n"
    expect_error(write_comp(tmp_path, subs={"alpha": sub}), "alpha.csv", 5, "'x'")


def test_quoted_cells_and_multiline_records(tmp_path):
    # a quoted id with a comma, and a quoted cell spanning two lines: the three data rows are
    # rows 2-4, so a spreadsheet shows the multi-line record as row 5 (records, not lines)
    gt = GT.replace("e2,Claim", '"e,2",Claim')
    sub = SUB.replace("e2,Claim", '"e,2",Claim') + '"e1",Lead,"20\n21 y",0.5,0.5\n'
    expect_error(write_comp(tmp_path, gt=gt, subs={"alpha": sub}), "alpha.csv", 5, "'y'")
    comp = load(write_comp(tmp_path, gt=gt, subs={"alpha": SUB.replace("e2,Claim", '"e,2",Claim')}))
    assert comp.essays == ["e1", "e,2"]


def test_demographics_rows_for_unknown_essays_are_counted_and_left_out(tmp_path):
    # two rows name essays the ground truth lacks (one differs from e1 only in case); e1, e2 stay
    demo = DEMO + "zz,Yes,F\nE1,No,M\n"
    comp = load(write_comp(tmp_path, demo=demo))
    assert "demo.csv: 2 row(s) for essays not in the ground truth ignored" in "\n".join(comp.report)
    assert comp.demographics.index.tolist() == ["e1", "e2"]
    assert comp.demographics["gender"].tolist() == ["F", "M"]


def test_demographics_align_to_the_ground_truth_essays_with_missing_for_gaps(tmp_path):
    # e2 comes first in the file and its grade looks like a number ("09" must stay "09"); e1's
    # gender is empty; e3 (a third essay) has no row at all. By hand, in ground-truth order:
    # e1 -> (Yes, (missing), 11), e2 -> (No, M, 09), e3 -> all (missing)
    gt = GT + "e3,Lead,5 6 7,Effective\n"
    demo = "id,ell_status,gender,grade\ne2,No,M,09\ne1,Yes,,11\n"
    comp = load(write_comp(tmp_path, gt=gt, demo=demo))
    d = comp.demographics
    assert d.index.tolist() == ["e1", "e2", "e3"]
    assert d.to_dict("list") == {"ell_status": ["Yes", "No", "(missing)"], "gender": ["(missing)", "M", "(missing)"],
                                 "grade": ["11", "09", "(missing)"]}
    assert "demo.csv: 1 ground-truth essay(s) have no demographics row; they fall into the group (missing)" in comp.report
