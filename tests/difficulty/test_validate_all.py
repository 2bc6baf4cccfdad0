"""The Data page's report for a difficulty bundle: every bad row of the samples and of the
predictions at once, each with its file and spreadsheet row (header = row 1), not only the
first problem the loader stops at."""

from __future__ import annotations

import scoring
from scoring.core.validate import check_inputs
from scoring.difficulty.validate import validate

SAMPLES = "sample_id,label,bias\ns1,1,0.9\ns2,0,0.5\ns3,1,0.1\ns4,0,0.3\n"
PREDS = ("model,sample_id,p0,p1,predicted\n"
         "A,s1,0.1,0.9,1\nA,s2,0.8,0.2,0\nA,s3,0.5,0.5,0\nA,s4,0.6,0.4,0\n")


def rows(errors):
    return [(e.file, e.row) for e in errors]


def test_a_good_bundle_has_no_problem():
    assert validate(samples=SAMPLES.encode(), predictions=PREDS.encode()) == []


def test_every_bad_sample_row_is_named():
    # row 3: empty label; row 5: s1 again (first on row 2)
    bad = "sample_id,label,bias\ns1,1,0.9\ns2,,0.5\ns3,1,0.1\ns1,0,0.3\n"
    found = validate(samples=bad.encode(), predictions=PREDS.encode())
    assert rows(found) == [("samples.csv", 3), ("samples.csv", 5)]  # predictions: once the samples load
    assert "label is empty" in found[0].problem and "duplicate sample_id 's1' (first on row 2)" in found[1].problem


def test_every_bad_prediction_row_is_named_and_the_gap_they_leave_is_not_a_problem():
    # row 3: p0 'x'; row 5: p1 = 1.5. Leaving them out leaves s2 and s4 without a row for A:
    # that is not reported (the file has those rows; they are only bad).
    bad = ("model,sample_id,p0,p1,predicted\n"
           "A,s1,0.1,0.9,1\nA,s2,x,0.2,0\nA,s3,0.5,0.5,0\nA,s4,0.6,1.5,0\n")
    found = validate(samples=SAMPLES.encode(), predictions=bad.encode())
    assert rows(found) == [("predictions.csv", 3), ("predictions.csv", 5)]
    assert "p0 'x' is not a number" in found[0].problem and "p1 = 1.5 is outside [0, 1]" in found[1].problem


def test_a_prediction_for_an_unknown_sample_and_a_bad_cell_are_both_named():
    bad = ("model,sample_id,p0,p1,predicted\n"
           "A,s1,0.1,0.9,1\nA,s2,0.8,0.2,0\nA,s9,0.5,0.5,0\nA,s3,0.5,0.5,0\nA,s4,0.6,x,0\n")
    found = validate(samples=SAMPLES.encode(), predictions=bad.encode())
    assert rows(found) == [("predictions.csv", 4), ("predictions.csv", 6)]
    assert "'s9' is not in samples.csv" in found[0].problem and "p1 'x' is not a number" in found[1].problem


def test_a_missing_row_alone_is_still_reported():
    short = "model,sample_id,p0,p1,predicted\nA,s1,0.1,0.9,1\nA,s2,0.8,0.2,0\nA,s3,0.5,0.5,0\n"
    found = validate(samples=SAMPLES.encode(), predictions=short.encode())
    assert len(found) == 1 and found[0].row is None and "has no row for sample 's4'" in found[0].problem


def test_the_data_page_check_uses_it_and_caps_the_count():
    fam = scoring.get("difficulty")
    assert fam.validate is not None
    many = "sample_id,label\n" + "".join(f"s{i},\n" for i in range(40))  # 40 empty labels, rows 2..41
    found, more = check_inputs(fam, samples=many.encode(), predictions=PREDS.encode(), limit=5)
    assert rows(found) == [("samples.csv", r) for r in range(2, 7)] and more


def test_training_texts_are_checked_by_a_load_once_the_rows_are_clean():
    found = validate(samples=SAMPLES.encode(), predictions=PREDS.encode(), train=b"one text\nanother\n")
    assert len(found) == 1 and "missing column 'text'" in found[0].problem  # WOOD from texts needs them


def test_with_several_models_a_bad_row_does_not_make_the_others_rows_look_unknown():
    """Leaving out model A's bad row for s2 sets s2 aside; model B's row for s2 goes with it —
    it must not be reported as "sample_id 's2' is not in samples.csv" (it is in the file)."""
    bad = ("model,sample_id,p0,p1,predicted\n"
           "A,s1,0.1,0.9,1\nA,s2,abc,0.2,0\nA,s3,0.5,0.5,0\nA,s4,0.6,0.4,0\n"
           "B,s1,0.1,0.9,1\nB,s2,0.8,0.2,0\nB,s3,0.5,0.5,0\nB,s4,0.6,0.4,0\nB,s9,0.6,0.4,0\n")
    found = validate(samples=SAMPLES.encode(), predictions=bad.encode())
    assert rows(found) == [("predictions.csv", 3), ("predictions.csv", 10)]  # the bad cell; the unknown s9
    assert "p0 'abc' is not a number" in found[0].problem and "'s9' is not in samples.csv" in found[1].problem


def test_the_shipped_sample_with_one_bad_cell_gives_exactly_that_cell():
    """The SST-2 data (10 models × 872 samples): one bad probability is one problem, not ten."""
    folder = scoring.get("difficulty").sample_dir
    samples = (folder / "samples.csv").read_bytes()
    lines = (folder / "predictions.csv").read_text().splitlines(keepends=True)
    header = lines[0].rstrip("\n").split(",")
    cells = lines[6].rstrip("\n").split(",")
    cells[header.index("p1")] = "abc"
    lines[6] = ",".join(cells) + "\n"  # spreadsheet row 7
    found = validate(samples=samples, predictions="".join(lines).encode())
    assert rows(found) == [("predictions.csv", 7)] and "p1 'abc' is not a number" in found[0].problem
