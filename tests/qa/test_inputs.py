"""Every bad input of spec §1 is an InputError naming the file, the spreadsheet row (header =
row 1) and the problem — one test each — and bad parameters name the parameter."""

from __future__ import annotations

import pytest

from scoring.core.errors import InputError
from scoring.qa import Scorer, load_competition

GT = ('question_id,theme,paragraph_ids,answers\n'
      'q1,history,"[""p1""]","[""Paris""]"\n'
      'q2,science,[],[]\n'
      'q3,science,"[12, ""p3""]","[""the sun"", ""Sun""]"\n')
SUB = ("question_id,paragraph_id,answer,inference_ms\n"
       "q1,p1,Paris,100\n"
       "q2,,,50.5\n"
       "q3,12,sun,0\n")
WEIGHTS = "theme,weight\nhistory,1\nscience,0.5\n"


def load(tmp_path, gt=GT, subs=None, weights=None):
    (tmp_path / "gt.csv").write_text(gt, encoding="utf-8")
    paths = []
    for name, text in (subs or {"A": SUB}).items():
        (tmp_path / f"{name}.csv").write_text(text, encoding="utf-8")
        paths.append(tmp_path / f"{name}.csv")
    w = None
    if weights is not None:
        w = tmp_path / "w.csv"
        w.write_text(weights, encoding="utf-8")
    return load_competition(ground_truth=tmp_path / "gt.csv", submissions=paths, theme_weights=w)


def error(tmp_path, **kw) -> InputError:
    with pytest.raises(InputError) as e:
        load(tmp_path, **kw)
    return e.value


def test_the_valid_files_load(tmp_path):
    comp = load(tmp_path, weights=WEIGHTS)
    assert comp.questions == ["q1", "q2", "q3"] and comp.themes == ["history", "science"]
    assert comp.gt.paragraph_ids[2] == ["12", "p3"]  # the JSON integer 12 is the id "12"
    assert comp.correct.tolist() == [[1.0, 1.0, 1.0]]  # TP, TN, TP via "12"
    assert comp.f1.tolist() == [[1.0, 1.0, 1.0]]
    assert comp.ms.tolist() == [[100.0, 50.5, 0.0]]
    assert comp.theme_weights == {"history": 1.0, "science": 0.5}


# ---- ground truth ---------------------------------------------------------------------------

@pytest.mark.parametrize("column", ["question_id", "theme", "paragraph_ids", "answers"])
def test_gt_missing_column(tmp_path, column):
    header = ["question_id", "theme", "paragraph_ids", "answers"]
    lines = GT.splitlines()
    cols = [c if c != column else "x" + c for c in header]
    e = error(tmp_path, gt="\n".join([",".join(cols), *lines[1:]]) + "\n")
    assert (e.file, e.row) == ("gt.csv", 1)
    assert f"missing column {column!r}" in e.problem


@pytest.mark.parametrize(("cell", "words"), [
    ("p1", "is not a JSON list"),
    ('"""p1"""', "is not a JSON list"),           # a JSON string
    ('"{""a"": 1}"', "is not a JSON list"),        # a JSON object
    ("", "is not a JSON list"),                    # empty
    ('"[""p1"""', "is not a JSON list"),           # not JSON at all
    ("[1.5]", "expected paragraph ids"),           # a number that is not an integer
    ("[1e2]", "expected paragraph ids"),
    ("[true]", "expected paragraph ids"),
    ("[null]", "expected paragraph ids"),
    ('"[[""p1""]]"', "expected paragraph ids"),
    ('"["" ""]"', "empty paragraph id"),
])
def test_gt_bad_paragraph_ids(tmp_path, cell, words):
    gt = GT.replace('q2,science,[],[]', f"q2,science,{cell},[]")
    e = error(tmp_path, gt=gt)
    assert (e.file, e.row) == ("gt.csv", 3)
    assert "paragraph_ids" in e.problem and words in e.problem


@pytest.mark.parametrize(("cell", "words"), [
    ("Paris", "is not a JSON list"),
    ('"""Paris"""', "is not a JSON list"),
    ("", "is not a JSON list"),
    ("[1]", "expected answer strings"),
    ("[null]", "expected answer strings"),
    ('"[[""x""]]"', "expected answer strings"),
])
def test_gt_bad_answers(tmp_path, cell, words):
    gt = GT.replace('q2,science,[],[]', f"q2,science,[],{cell}")
    e = error(tmp_path, gt=gt)
    assert (e.file, e.row) == ("gt.csv", 3)
    assert "answers" in e.problem and words in e.problem


def test_gt_duplicate_question_names_the_second_row(tmp_path):
    e = error(tmp_path, gt=GT + "q2,history,[],[]\n")
    assert (e.file, e.row) == ("gt.csv", 5)
    assert "duplicate question_id 'q2'" in e.problem and "first on row 3" in e.problem


def test_gt_duplicate_after_stripping_whitespace(tmp_path):
    e = error(tmp_path, gt=GT + " q1 ,history,[],[]\n")
    assert (e.file, e.row) == ("gt.csv", 5)


@pytest.mark.parametrize("column", ["question_id", "theme"])
def test_gt_empty_id_or_theme(tmp_path, column):
    row = ",history,[],[]" if column == "question_id" else "q9,,[],[]"
    e = error(tmp_path, gt=GT + row + "\n")
    assert (e.file, e.row) == ("gt.csv", 5) and "is empty" in e.problem


def test_gt_without_rows(tmp_path):
    e = error(tmp_path, gt="question_id,theme,paragraph_ids,answers\n")
    assert e.file == "gt.csv" and "no rows" in e.problem


# ---- submissions ----------------------------------------------------------------------------

@pytest.mark.parametrize("column", ["question_id", "paragraph_id", "answer", "inference_ms"])
def test_submission_missing_column(tmp_path, column):
    lines = SUB.splitlines()
    header = lines[0].replace(column, "zz")
    e = error(tmp_path, subs={"A": "\n".join([header, *lines[1:]]) + "\n"})
    assert (e.file, e.row) == ("A.csv", 1) and f"missing column {column!r}" in e.problem


def test_submission_duplicate_question(tmp_path):
    e = error(tmp_path, subs={"A": SUB + "q1,p1,Paris,3\n"})
    assert (e.file, e.row) == ("A.csv", 5)
    assert "duplicate question_id 'q1'" in e.problem and "first on row 2" in e.problem


def test_submission_missing_questions_says_how_many_and_names_the_first(tmp_path):
    e = error(tmp_path, subs={"A": "question_id,paragraph_id,answer,inference_ms\nq2,,,1\n"})
    assert (e.file, e.row) == ("A.csv", None)
    assert "2 question(s)" in e.problem and "'q1'" in e.problem


def test_submission_unknown_question(tmp_path):
    e = error(tmp_path, subs={"A": SUB + "q77,p1,x,1\n"})
    assert (e.file, e.row) == ("A.csv", 5) and "'q77' is not in the ground truth" in e.problem


def test_submission_empty_question_id(tmp_path):
    e = error(tmp_path, subs={"A": SUB + ",p1,x,1\n"})
    assert (e.file, e.row) == ("A.csv", 5) and "is empty" in e.problem


@pytest.mark.parametrize(("value", "words"), [
    ("-1", "finite number >= 0"),
    ("NaN", ""),
    ("nan", ""),
    ("inf", ""),
    ("-inf", ""),
    ("abc", "not a number"),
    ("", "missing"),
])
def test_submission_bad_inference_ms(tmp_path, value, words):
    sub = SUB.replace("q2,,,50.5", f"q2,,,{value}")
    e = error(tmp_path, subs={"A": sub})
    assert (e.file, e.row) == ("A.csv", 3)
    assert "inference_ms" in e.problem and words in e.problem


def test_second_submission_error_names_its_file(tmp_path):
    e = error(tmp_path, subs={"A": SUB, "B": SUB.replace("q3,12,sun,0", "q3,12,sun,-0.5")})
    assert (e.file, e.row) == ("B.csv", 4)


def test_a_row_with_a_stray_comma(tmp_path):
    e = error(tmp_path, subs={"A": SUB + "q9,p1,Paris, France,1\n"})
    assert (e.file, e.row) == ("A.csv", 5) and "field" in e.problem


# ---- theme weights --------------------------------------------------------------------------

@pytest.mark.parametrize(("weights", "row", "words"), [
    ("theme,w\nhistory,1\nscience,1\n", 1, "missing column 'weight'"),
    ("theme,weight\nhistory,1\nscience,1\nart,1\n", 4, "'art' is not a theme"),
    ("theme,weight\nhistory,1\nscience,1\nhistory,2\n", 4, "duplicate theme 'history'"),
    ("theme,weight\nhistory,-1\nscience,1\n", 2, "finite number >= 0"),
    ("theme,weight\nhistory,NaN\nscience,1\n", 2, "weight"),
    ("theme,weight\nhistory,inf\nscience,1\n", 2, "weight"),
    ("theme,weight\nhistory,lots\nscience,1\n", 2, "not a number"),
    ("theme,weight\nhistory,\nscience,1\n", 2, "missing"),
    ("theme,weight\n,1\nscience,1\n", 2, "is empty"),
    ("theme,weight\nhistory,0\nscience,0\n", None, "at least one must be > 0"),
    ("theme,weight\nhistory,1\n", None, "no weight for theme 'science'"),
])
def test_bad_theme_weights(tmp_path, weights, row, words):
    e = error(tmp_path, weights=weights)
    assert (e.file, e.row) == ("w.csv", row)
    assert words in e.problem


# ---- parameters -----------------------------------------------------------------------------

@pytest.mark.parametrize(("params", "name", "words"), [
    ({"time_threshold": 0}, "time_threshold", "expected a number in (0, ∞)"),
    ({"time_threshold": -5}, "time_threshold", "expected a number"),
    ({"time_threshold": "fast"}, "time_threshold", "expected a number"),
    ({"time_threshold": float("nan")}, "time_threshold", "expected a number"),
    ({"weight_draws": 0}, "weight_draws", "expected an integer"),
    ({"weight_draws": 2.5}, "weight_draws", "expected an integer"),
    ({"seed": -1}, "seed", "expected an integer"),
    ({"weights": {"history": -1, "science": 1}}, "weights", "expected name:value pairs"),
    ({"weights": {"history": 1, "art": 1}}, "weights", "expected names from"),
    ({"weights": {"history": 0, "science": 0}}, "weights", "at least one weight > 0"),
    ({"weights": {"history": 1}}, "weights", "none for 'science'"),
    ({"colour": 1}, "colour", "unknown parameter"),
])
def test_bad_parameters_name_the_parameter(tmp_path, params, name, words):
    scorer = Scorer(load(tmp_path))
    with pytest.raises(InputError) as e:
        scorer.leaderboard(**params)
    assert e.value.file == name and e.value.row is None
    assert words in e.value.problem
