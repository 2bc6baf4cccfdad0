"""Bad input: one InputError naming the file, the spreadsheet row (header = row 1) and the
problem; never a traceback, nothing half-loaded. Also the formats a spreadsheet writes (BOM,
CRLF, quotes, blank lines) and parameter errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.core.errors import InputError
from scoring.difficulty import Scorer, load_competition

SAMPLES = "sample_id,label,bias,note\ns1,1,0.9,x\ns2,0,0.5,y\ns3,1,,z\n"
PREDS = "model,sample_id,p0,p1,predicted\nA,s1,0.1,0.9,1\nA,s2,0.8,0.2,0\nA,s3,0.5,0.5,0\n"


def load(samples=SAMPLES, preds=PREDS, train=None, **kw):
    return load_competition(samples.encode() if isinstance(samples, str) else samples,
                            preds.encode() if isinstance(preds, str) else preds, train, **kw)


def error(**kw) -> InputError:
    with pytest.raises(InputError) as e:
        load(**kw)
    return e.value


@pytest.mark.parametrize("samples, row, words", [
    ("sample_id,bias\ns1,0.5\n", 1, "missing column 'label'"),
    ("id,label\ns1,1\n", 1, "missing column 'sample_id'"),
    ("sample_id,label\ns1,1\n,0\n", 3, "sample_id is empty"),
    ("sample_id,label\ns1,1\ns2,\n", 3, "label is empty"),
    ("sample_id,label\ns1,1\ns2,0\ns1,0\n", 4, "duplicate sample_id 's1' (first on row 2)"),
    ("sample_id,label\n", None, "no samples"),
    ("sample_id,label\ns1,1\ns2,0,9\n", 3, "the row has 3 fields but the header has 2"),
    ("sample_id,label,label\ns1,1,1\n", 1, "duplicate column 'label'"),
    ("", None, "the file is empty"),
])
def test_bad_samples(samples, row, words):
    e = error(samples=samples)
    assert (e.file, e.row) == ("samples.csv", row) and words in e.problem, str(e)
    assert "\n" not in str(e)


@pytest.mark.parametrize("preds, row, words", [
    ("model,sample_id,p0,p1\nA,s1,0.1,0.9\n", 1, "missing column 'predicted'"),
    ("model,sample_id,p0,predicted\nA,s1,0.1,1\n", 1, "missing column 'p1'"),
    ("model,sample_id,p0,p1,predicted\nA,s1,0.1,0.9,1\nA,s9,0.8,0.2,0\n", 3, "sample_id 's9' is not in samples.csv"),
    ("model,sample_id,p0,p1,predicted\nA,s1,0.1,0.9,1\nA,,0.8,0.2,0\n", 3, "sample_id is empty"),
    (PREDS + "A,s2,0.3,0.7,1\n", 5, "duplicate row for model 'A' and sample 's2' (first on row 3)"),
    ("model,sample_id,p0,p1,predicted\nA,s1,0.1,0.9,1\nA,s2,0.8,0.2,0\n", None,
     "model 'A' has no row for sample 's3' (row 4 of samples.csv)"),
    (PREDS + "B,s1,0.1,0.9,1\n", None, "model 'B' has no row for sample 's2'"),
    ("model,sample_id,p0,p1,predicted\nA,s1,0.1,0.9,1\nA,s2,x,0.2,0\nA,s3,0.5,0.5,0\n", 3, "p0 'x' is not a number"),
    ("model,sample_id,p0,p1,predicted\nA,s1,0.1,0.9,1\nA,s2,,0.2,0\nA,s3,0.5,0.5,0\n", 3, "p0 is missing"),
    ("model,sample_id,p0,p1,predicted\nA,s1,0.1,0.9,1\nA,s2,0.8,1.5,0\nA,s3,0.5,0.5,0\n", 3,
     "probability p1 = 1.5 is outside [0, 1]"),
    ("model,sample_id,p0,p1,predicted\nA,s1,0.1,0.9,1\nA,s2,0.8,-0.2,0\nA,s3,0.5,0.5,0\n", 3, "outside [0, 1]"),
    ("model,sample_id,p0,p1,predicted\nA,s1,0.1,0.9,1\nA,s2,nan,0.2,0\nA,s3,0.5,0.5,0\n", 3, "p0 'nan' is not a number"),
    ("model,sample_id,p0,p1,predicted\nA,s1,0.1,0.9,1\n,s2,0.8,0.2,0\n", 3, "model is empty"),
    ("model,sample_id,p0,p1,predicted\nA,s1,0.1,0.9,1\nA,s2,0.8,0.2,0,7\n", 3, "the row has 6 fields"),
    ("model,sample_id,p0,p1,predicted\n", None, "no predictions"),
    ("\x00\x01binary", None, "binary data"),
])
def test_bad_predictions(preds, row, words):
    e = error(preds=preds)
    assert (e.file, e.row) == ("predictions.csv", row) and words in e.problem, str(e)


def test_rows_are_spreadsheet_rows_with_blank_lines_quotes_crlf_and_bom():
    # a blank line (row 3) and a quoted cell spanning two lines (one record, row 4, as a spreadsheet
    # shows it): the bad record is row 5
    preds = ('\ufeffmodel,sample_id,p0,p1,predicted\r\nA,s1,0.1,0.9,1\r\n\r\n"A",s2,0.8,0.2,"0\n"\r\n'
             'A,s9,0.5,0.5,0\r\n')
    e = error(preds=preds.encode("utf-8"))
    assert (e.row, "sample_id 's9'" in e.problem) == (5, True), str(e)
    # the same layout, valid: it loads, cells stripped ("0\n" -> "0")
    good = preds.replace("s9", "s3")
    comp = load(preds=good.encode("utf-8"))
    assert comp.predictions.correct.tolist() == [[True, True, False]]


def test_quirks_are_warnings_not_errors():
    preds = ("model,sample_id,p0,p1,predicted\nA,s1,0.1,0.9,label\nA,s2,0.5,0.2,0\nA,s3,0.5,0.5,\n"
             "B,s1,0.1,0.9,1\nB,s2,0.8,0.2,0\nB,s3,0.5,0.5,1\n")
    comp = load(preds=preds)
    assert comp.predictions.correct.tolist() == [[False, True, False], [True, True, True]]
    (not_gold,) = [r for r in comp.report if "not a gold label" in r]
    assert "2 rows" in not_gold and "2 ('label')" in not_gold and "4 ('')" in not_gold
    (off,) = [r for r in comp.report if "sum to more than" in r]
    assert "1 row " in off and "A 1 (row 3)" in off
    assert comp.predictions.confidence[0, 1] == 0.5  # still the row's largest probability
    assert any("'bias' is empty for 1 of 3 samples" in r for r in comp.report)


def test_extra_probability_column_counts_for_confidence():
    # p2 (a class no sample has) is a probability column too: confidence = max(p0, p1, p2)
    preds = "model,sample_id,p0,p1,p2,predicted\nA,s1,0.1,0.2,0.7,2\nA,s2,0.8,0.1,0.1,0\nA,s3,0.5,0.5,0,0\n"
    comp = load(preds=preds)
    assert comp.predictions.confidence[0].tolist() == [0.7, 0.8, 0.5]
    assert comp.predictions.prob_columns == ["p0", "p1", "p2"]


def test_rows_in_any_order_and_spaces_around_cells():
    preds = "model,sample_id,p0,p1,predicted\nB,s3,0.5,0.5,1\n A ,s2 ,0.8,0.2, 0\nA,s1,0.1,0.9,1\nB,s1,0.1,0.9,1\n" \
            "A,s3,0.5,0.5,0\nB, s2,0.8,0.2,0\n"
    comp = load(preds=preds)
    assert comp.submission_names == ["B", "A"]  # first appearance
    assert comp.predictions.correct.tolist() == [[True, True, True], [True, True, False]]


@pytest.mark.parametrize("column, row, words", [
    ("note", 2, "column 'note' is not numeric ('x')"),
    ("nope", 1, "no column 'nope' to use as the ease column (numeric columns: bias)"),
    ("label", 1, "column 'label' is the samples' label, not an ease column"),
])
def test_bad_ease_column_names_the_samples_file(column, row, words):
    sc = Scorer(load())
    with pytest.raises(InputError) as e:
        sc.leaderboard(metric="wsbias", ease_column=column)
    assert (e.value.file, e.value.row) == ("samples.csv", row) and words in e.value.problem, str(e.value)


@pytest.mark.parametrize("params, name, words", [
    (dict(metric="wsbias"), "ease_column", "required with metric wsbias"),
    (dict(metric="wood"), "ease_column", "required with metric wood unless a training-text file"),
    (dict(metric="nope"), "metric", "expected one of wsbias, wood, wmprob"),
    (dict(split_mode="continuous", splits=3), "splits", "not used with split mode continuous"),
    (dict(split_mode="continuous", weights="square"), "weights", "not used with split mode continuous"),
    (dict(split_mode="continuous", thresholds="0.5"), "thresholds", "not used with split mode continuous"),
    (dict(thresholds="0.5"), "thresholds", "only used with split mode threshold"),
    (dict(split_mode="threshold", thresholds="0.6,0.4"), "thresholds", "expected increasing thresholds"),
    (dict(split_mode="threshold", splits=4, thresholds="0.2,0.4"), "thresholds", "expected 3 thresholds for 4"),
    (dict(split_mode="threshold", thresholds="0.1,0.2,0.3,0.4,0.5,0.6,0.7"), "thresholds", "expected 1 to 6"),
    (dict(splits=3, weights="1,2"), "weights", "expected 3 weights for 3 splits"),
    (dict(weights="1,-2"), "weights", "non-negative numbers"),
    (dict(weights="heavy"), "weights", "expected linear, square, log, reverse"),
    (dict(splits=8), "splits", "expected an integer in [2, 7]"),
    (dict(splits=1), "splits", "expected an integer in [2, 7]"),
    (dict(sts_top=0), "sts_top", "expected an integer in [1, 100]"),
    (dict(reward="much"), "reward", "expected a number"),
    (dict(penalty=float("nan")), "penalty", "expected a number"),
    (dict(alpha=1), "alpha", "unknown parameter"),
])
def test_bad_parameters(params, name, words):
    sc = Scorer(load())
    with pytest.raises(InputError) as e:
        sc.leaderboard(**params)
    assert e.value.file == name and e.value.row is None and words in e.value.problem, str(e.value)


def test_bad_training_file():
    texts = "sample_id,label,text\ns1,1,good\ns2,0,bad\ns3,1,x\n"
    e = error(samples=texts, train=b"good\n\xff\xfe bad\n")
    assert (e.file, e.row) == ("train.txt", 2) and "not UTF-8" in e.problem
    e = error(samples=texts, train=b"\n  \n\n")
    assert e.file == "train.txt" and "no training text" in e.problem
    e = error(samples=texts, train=b"a\n, .\n")
    assert "no words in the training texts" in e.problem
    e = error(train=b"good movie\n")  # SAMPLES has no text column
    assert (e.file, e.row) == ("samples.csv", 1) and "missing column 'text'" in e.problem


def test_files_by_path_and_names(tmp_path):
    (tmp_path / "my_samples.csv").write_text(SAMPLES)
    (tmp_path / "my_preds.csv").write_text(PREDS.replace("A,s2", "A,s7"))
    with pytest.raises(InputError) as e:
        load_competition(tmp_path / "my_samples.csv", tmp_path / "my_preds.csv")
    assert str(e.value) == "my_preds.csv, row 3: sample_id 's7' is not in my_samples.csv (1 such row)"
    with pytest.raises(InputError) as e:
        load_competition(tmp_path / "missing.csv", tmp_path / "my_preds.csv")
    assert "file not found" in str(e.value)


def test_a_single_label_and_its_one_probability_column():
    samples = "sample_id,label\ns1,yes\ns2,yes\n"
    preds = "model,sample_id,pyes,predicted\nA,s1,0.995,yes\nA,s2,0.9,no\n"
    comp = load(samples=samples, preds=preds)
    assert comp.predictions.confidence.tolist() == [[0.995, 0.9]]  # the column as read
    assert comp.predictions.correct.tolist() == [[True, False]]
    (off,) = [r for r in comp.report if "sum to more than" in r]  # 0.995 is within 0.01 of 1; 0.9 is not
    assert "1 row " in off and "(row 3)" in off


def test_a_model_block_twice_is_a_duplicate():
    block = "A,s1,0.1,0.9,1\nA,s2,0.8,0.2,0\nA,s3,0.5,0.5,0\n"
    e = error(preds="model,sample_id,p0,p1,predicted\n" + block + block)
    assert (e.file, e.row) == ("predictions.csv", 5) and "duplicate row for model 'A' and sample 's1' (first on " \
                                                         "row 2)" in e.problem


def _padded_samples(nul: bool) -> bytes:
    # more than 64 KiB of rows, then (optionally) a NUL byte inside a late cell
    rows = "".join(f"x{i},1,0.5,{'n' * 60}\n" for i in range(1200))
    data = (SAMPLES + rows).encode()
    assert len(data) > 65536
    return data + (b"late,0,0.1,a\x00b\n" if nul else b"late,0,0.1,ab\n")


def _padded_preds(samples: bytes, nul: bool) -> bytes:
    ids = [line.split(b",")[0].decode() for line in samples.splitlines()[1:]]
    body = "".join(f"A,{i},0.5,0.5,1\n" for i in ids[:-1]).encode()
    last = f"A,{ids[-1]},0.5,0.5,1".encode()
    return b"model,sample_id,p0,p1,predicted\n" + body + (last.replace(b",1", b",\x001") if nul else last) + b"\n"


def test_a_nul_byte_after_the_first_64_kib_is_refused():
    """Issue 31: the fast readers looked for NUL in the first 64 KiB only; the rest got through."""
    good = _padded_samples(False)
    load(samples=good, preds=_padded_preds(good, False))  # the same files without the NUL byte load
    e = error(samples=_padded_samples(True))
    assert e.file == "samples.csv" and "binary data" in e.problem, str(e)
    e = error(samples=good, preds=_padded_preds(good, True))
    assert e.file == "predictions.csv" and "binary data" in e.problem, str(e)
    texts = "sample_id,label,text\ns1,1,good\ns2,0,bad\ns3,1,x\n"
    train = b"good movie\n" * 7000  # 77,000 bytes
    load(samples=texts, train=train)
    e = error(samples=texts, train=train + b"bad \x00 plot\n")
    assert (e.file, e.row) == ("train.txt", 7001) and "binary data" in e.problem, str(e)


def test_wood_similarities_are_bounded(monkeypatch):
    """Issue 31: WOOD costs samples × training texts (10⁶ lines: 60 s); over LAB_MAX_WOOD_PAIRS the
    training file is refused, naming the numbers, before any similarity is computed."""
    from scoring.difficulty import sts

    texts = "sample_id,label,text\ns1,1,good\ns2,0,bad\ns3,1,x\n"
    train = b"good movie\nbad plot\nfine\n"  # 3 samples × 3 texts = 9 similarities
    monkeypatch.setattr(sts, "MAX_PAIRS", 9)
    assert load(samples=texts, train=train).n_train == 3  # at the limit: fine
    monkeypatch.setattr(sts, "MAX_PAIRS", 8)
    monkeypatch.setattr(sts, "sts_table", lambda *a, **k: pytest.fail("similarities computed over the limit"))
    e = error(samples=texts, train=train)
    assert e.file == "train.txt" and e.row is None
    assert e.problem.startswith("3 training texts × 3 samples = 9 similarities for WOOD, over the limit of 8 "
                                "(LAB_MAX_WOOD_PAIRS)"), str(e)


def test_wood_limit_from_the_environment(tmp_path):
    (tmp_path / "s.csv").write_text("sample_id,label,text\ns1,1,good\ns2,0,bad\ns3,1,x\n")
    (tmp_path / "p.csv").write_text(PREDS)
    (tmp_path / "t.txt").write_text("good movie\nbad plot\n" * 50)  # 100 texts × 3 samples = 300
    args = [sys.executable, "-m", "scoring", "difficulty", "leaderboard", "--samples", str(tmp_path / "s.csv"),
            "--predictions", str(tmp_path / "p.csv"), "--train", str(tmp_path / "t.txt"), "--metric", "wood"]
    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k != "LAB_MAX_WOOD_PAIRS"}
    ok = subprocess.run(args, cwd=root, capture_output=True, text=True, timeout=120, env=env)
    assert ok.returncode == 0, ok.stderr
    bad = subprocess.run(args, cwd=root, capture_output=True, text=True, timeout=120,
                         env={**env, "LAB_MAX_WOOD_PAIRS": "299"})
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().splitlines()[-1] == (
        "error: t.txt: 100 training texts × 3 samples = 300 similarities for WOOD, over the limit of 299 "
        "(LAB_MAX_WOOD_PAIRS): use fewer training texts, or bring each sample's similarity as a column of the "
        "samples file (ease_column)")


def test_decreasing_thresholds_are_one_error_on_every_entry_point():
    """Issue 28: split_mode=threshold&thresholds=0.9,0.1 reached the rank-interval, stability and
    pinned-compare pages. The engine's own parameter check (PARAMS, run by every entry point:
    the CLI's options, a link's or a pin's values, each stability cell, the per-sample
    statistics behind rank intervals) refuses it with the same words; the CLI: test_cli."""
    from scoring.core.stability import Axis, stability_map
    from scoring.difficulty import FAMILY, PARAMS

    sc = Scorer(load())
    expected = ("thresholds", None, "expected increasing thresholds t1 < t2 < …, got 0.9,0.1")
    link = {"metric": "wmprob", "split_mode": "threshold", "thresholds": "0.9,0.1"}  # as a link's text
    calls = [lambda: PARAMS.validate(link), lambda: FAMILY.params.validate(dict(link), context={"ease_columns": []}),
             lambda: sc.check(**link), lambda: sc.leaderboard(**link), lambda: sc.unit_stats(**link),
             lambda: sc.leaderboard(split_mode="threshold", thresholds=[0.9, 0.1]),
             lambda: sc.leaderboard(split_mode="threshold", thresholds="0.5,0.5")]
    for i, call in enumerate(calls):
        with pytest.raises(InputError) as e:
            call()
        got = (e.value.file, e.value.row, e.value.problem)
        assert got == expected or (i == len(calls) - 1 and got[2].endswith("got 0.5,0.5")), (i, got)
    # a stability cell with them is an invalid cell (NaN τ), never an exception
    grid = stability_map(FAMILY, sc, {"metric": "wmprob", "split_mode": "threshold", "thresholds": "0.2"},
                         Axis("thresholds", ["0.2", "0.9,0.1"]), Axis("splits", [None]))
    assert grid["valid"].tolist() == [True, False]
