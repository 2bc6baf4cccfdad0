"""The Data page's report for a QA bundle: every bad row of the ground truth, of each
submission and of the theme weights at once (up to 25), each with its file and spreadsheet
row (header = row 1), as the README promises — not only the first problem the loader stops at."""

from __future__ import annotations

import io

import pytest

import scoring
from scoring.core.validate import check_inputs
from scoring.qa.validate import validate

GT = ('question_id,theme,paragraph_ids,answers\n'
      'q1,sky,"[""p1""]","[""a""]"\n'
      'q2,sky,"[""p2""]","[""b""]"\n'
      'q3,sea,"[""p3""]","[""c""]"\n'
      'q4,sea,"[""p4""]","[""d""]"\n')
SUB = "question_id,paragraph_id,answer,inference_ms\nq1,p1,a,10\nq2,p2,b,11\nq3,p3,c,12\nq4,p4,d,13\n"
WEIGHTS = "theme,weight\nsky,1\nsea,2\n"


def named(name: str, text: str) -> io.BytesIO:
    f = io.BytesIO(text.encode())
    f.name = name
    return f


def rows(errors):
    return [(e.file, e.row) for e in errors]


def check(gt=GT, subs=None, weights=None):
    subs = subs if subs is not None else {"alpha.csv": SUB}
    return validate(ground_truth=named("gt.csv", gt), submissions=[(n[:-4], named(n, t)) for n, t in subs.items()],
                    theme_weights=None if weights is None else named("w.csv", weights))


def test_a_good_bundle_has_no_problem_and_loads():
    assert check(weights=WEIGHTS) == []
    comp = scoring.get("qa").load(ground_truth=named("gt.csv", GT), submissions=[("alpha", named("a.csv", SUB))])
    assert comp.submission_names == ["alpha"]


def test_every_bad_submission_row_is_named_and_the_gap_they_leave_is_not_a_problem():
    # row 3: inference_ms 'fast'; row 4: empty inference_ms; row 5: -1 ms. Leaving the rows
    # out leaves q2, q3 and q4 without an answer: not reported (the file has them; they are bad)
    bad = "question_id,paragraph_id,answer,inference_ms\nq1,p1,a,10\nq2,p2,b,fast\nq3,p3,c,\nq4,p4,d,-1\n"
    found = check(subs={"alpha.csv": bad})
    assert rows(found) == [("alpha.csv", 3), ("alpha.csv", 4), ("alpha.csv", 5)]
    assert "'fast' is not a number" in found[0].problem
    assert "inference_ms is missing" in found[1].problem
    assert ">= 0, got '-1'" in found[2].problem
    # the loader itself stops at one of them
    with pytest.raises(scoring.InputError) as err:
        scoring.get("qa").load(ground_truth=named("gt.csv", GT), submissions=[("alpha", named("alpha.csv", bad))])
    assert (err.value.file, err.value.row) in rows(found)


def test_a_question_the_file_never_answers_is_still_reported():
    # q9 (row 4) is bad and left out; q3 was never answered: that gap is the file's, not the check's
    bad = "question_id,paragraph_id,answer,inference_ms\nq1,p1,a,10\nq2,p2,b,11\nq9,p3,c,12\nq4,p4,d,13\n"
    found = check(subs={"alpha.csv": bad})
    assert rows(found) == [("alpha.csv", None), ("alpha.csv", 4)]  # (a problem of no row first)
    assert "1 question(s) of the ground truth are missing (first: 'q3')" in found[0].problem
    assert "question_id 'q9' is not in the ground truth" in found[1].problem


def test_bad_ground_truth_rows_are_each_named_and_submissions_checked_without_their_questions():
    # rows 3 and 5: answers that are not JSON lists. q2 and q4 are left out of the ground truth,
    # and so of the submissions: alpha's other rows are checked and its bad row 4 is still named
    bad_gt = GT.replace('"[""b""]"', '"[b"').replace('"[""d""]"', "oops")
    sub = SUB.replace("q3,p3,c,12", "q3,p3,c,slow")
    found = check(gt=bad_gt, subs={"alpha.csv": sub, "beta.csv": SUB})
    assert rows(found) == [("gt.csv", 3), ("gt.csv", 5), ("alpha.csv", 4)]
    assert all("answers" in e.problem for e in found[:2])


def test_every_bad_file_and_row_up_to_25_then_a_count_of_more():
    lines = [f"q{i},p{i},a,{'x' if i > 1 else 1}" for i in range(1, 5)]  # rows 3-5 bad in each file
    bad = "question_id,paragraph_id,answer,inference_ms\n" + "\n".join(lines) + "\n"
    subs = {f"t{k:02d}.csv": bad for k in range(10)}  # 30 bad rows
    fam = scoring.get("qa")
    found, more = check_inputs(fam, ground_truth=named("gt.csv", GT),
                               submissions=[(n[:-4], named(n, t)) for n, t in subs.items()])
    assert len(found) == 25 and more
    assert rows(found[:4]) == [("t00.csv", 3), ("t00.csv", 4), ("t00.csv", 5), ("t01.csv", 3)]


def test_every_bad_theme_weight_row_and_no_echo_of_the_rows_left_out():
    # row 2: weight 'heavy'; row 3: theme 'lake' is no theme. Leaving them out leaves both
    # themes without a weight: not reported again
    found = check(weights="theme,weight\nsky,heavy\nlake,1\nsea,2\n")
    assert rows(found) == [("w.csv", 2), ("w.csv", 3)]
    assert "'heavy'" in found[0].problem and "'lake'" in found[1].problem
