"""The load's shortcuts each equal the plain computation they skip: the first token of a
predictionstring, the canonical-range test, trimming only what needs it, essay codes from a
prebuilt array, and the after-removal tables derived from the raw ones instead of re-paired."""

from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from scoring.core import tables
from scoring.shovel_ready.data import load_ground_truth_table, parse_submission
from scoring.shovel_ready.parse import _first_token, canonical_ranges
from scoring.shovel_ready.prepare import removed_tables, tables_of
from scoring.shovel_ready.segments import remove_overlaps
from tests.shovel_ready import randomcomp


def _strings(seed: int, n: int = 3000) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        kind = rng.random()
        a = rng.choice([0, 1, 7, 9, 10, 99, 100, 999, 1000, 12345, 999999, 1048570])
        b = a + rng.randint(0, 12)
        words = list(range(a, b + 1))
        if kind < 0.5:
            s = " ".join(map(str, words))  # canonical
        elif kind < 0.6:
            s = " ".join(map(str, words[:-1] + [b + 1]))  # a gap at the end
        elif kind < 0.65:
            s = " ".join(f"{w:03d}" for w in words)  # leading zeros
        elif kind < 0.7:
            s = " ".join(map(str, words)).replace(" ", "  ", 1)  # a double space
        elif kind < 0.75:
            s = " ".join(map(str, reversed(words)))
        elif kind < 0.8:
            s = rng.choice(["", "x", "1x 2", "12345678 12345679", "-1 0", "5", "1e3", "0 1 2 3 4 5 6 7 8 9 10"])
        elif kind < 0.9:
            s = " ".join(map(str, words)) + rng.choice([" ", "\t", ""])
        else:
            s = str(rng.randint(0, 10**9))
        out.append(s)
    return out


def _first_token_py(s: str) -> int:
    head = s.split(" ")[0]
    return int(head) if head.isdigit() and head.isascii() and 1 <= len(head) <= 7 else -1


@pytest.mark.parametrize("seed", range(3))
def test_first_token_equals_python(seed):
    strings = _strings(seed)
    arr = pa.array(strings, type=pa.string())
    offs = np.frombuffer(arr.buffers()[1], dtype=np.int32).astype(np.int64)
    data = np.frombuffer(arr.buffers()[2], dtype=np.uint8)
    got = _first_token(data, offs[:-1], np.diff(offs))
    assert got.tolist() == [_first_token_py(s) for s in strings]


@pytest.mark.parametrize("seed", range(3))
def test_canonical_ranges_equal_the_definition(seed):
    strings = _strings(seed)
    mask, a, b = canonical_ranges(pd.Series(strings, dtype=pd.StringDtype("pyarrow", na_value=np.nan)))
    for s, m, lo, hi in zip(strings, mask.tolist(), a.tolist(), b.tolist(), strict=True):
        toks = s.split(" ")
        canonical = (len(s) > 0 and all(t.isdigit() for t in toks)
                     and s == " ".join(map(str, range(int(toks[0]), int(toks[0]) + len(toks)))))
        # a shortcut, never a verdict: it may leave a range whose numbers could pass 2^20 to the parser
        in_reach = canonical and int(toks[0]) + (len(s) + 1) // 2 + 2 < 1 << 20
        assert m == in_reach, s
        if m:
            assert (lo, hi) == (int(toks[0]), int(toks[-1])), s
    assert mask.mean() > 0.4  # the canonical share of the mix


def test_trim_skips_only_columns_without_edge_space():
    cases = [["a", "b c", ""], [" a", "b"], ["a ", "b"], ["a\t", "b"], ["\u00a0a", "b"], ["a\u3000", "b"],
             ["é", "b"], ["", ""], []]
    for cells in cases:
        arr = pa.array(cells, type=pa.string())
        assert tables._trim(arr).to_pylist() == pc.utf8_trim_whitespace(arr).to_pylist(), cells
        sliced = pa.array(["  x  ", *cells, " y"], type=pa.string()).slice(1, len(cells))
        assert tables._trim(sliced).to_pylist() == pc.utf8_trim_whitespace(sliced).to_pylist(), cells


def test_codes_from_a_prebuilt_array_equal_codes_from_a_list():
    col = tables.read_table(pd.DataFrame({"id": ["b", "zz", "a", "b", ""]}), "x")["id"]
    assert tables.codes(col, ["a", "b"]).tolist() == [1, -1, 0, 1, -1]
    assert tables.codes(col, pa.array(["a", "b"])).tolist() == [1, -1, 0, 1, -1]
    assert tables.empty_cells(col).tolist() == [False, False, False, False, True]


def _as_set(t) -> set:
    return set(zip(t.p.tolist(), t.g.tolist(), t.inter.tolist(), t.d.tolist(), strict=True))


@pytest.mark.parametrize("seed", range(0, 120, 7))
def test_removed_tables_equal_a_fresh_pairing(seed):
    rc = randomcomp.random_competition(seed)
    gt = load_ground_truth_table(rc.ground_truth, "gt", [])
    for name, df in rc.submissions.items():
        ps = parse_submission(df, name, gt)
        raw = tables_of(ps.segs, ps.probs, gt)
        rem, kept = remove_overlaps(ps.segs)
        trimmed = np.flatnonzero(rem.size != ps.segs.size[kept])
        derived = removed_tables(raw, rem, kept, trimmed, ps.probs[kept], gt)
        fresh = tables_of(rem, ps.probs[kept], gt)
        assert _as_set(derived) == _as_set(fresh), (seed, name)
        assert len(derived.p) == len(fresh.p) and np.all(np.diff(derived.p) >= 0)  # ordered by prediction


@pytest.mark.parametrize("seed", range(4))
def test_string_views_equal_the_strings(seed):
    # canonical_ranges compares each string as a string_view built from its first 8 bytes;
    # that view must be the string (cut to 0 bytes where asked), at any slice offset
    from scoring.shovel_ready.parse import _as_views, _words_at

    rng = random.Random(seed)
    strings = ["".join(rng.choice("0123 x") for _ in range(rng.randint(0, 20))) for _ in range(400)]
    arr = pa.array(strings, type=pa.large_string()).slice(rng.randint(0, 7))
    n = len(arr)
    offs = np.frombuffer(arr.buffers()[1], dtype=np.int64)[arr.offset: arr.offset + n + 1]
    data = np.frombuffer(arr.buffers()[2], dtype=np.uint8)
    cut = np.array([rng.random() < 0.3 for _ in range(n)])
    length = np.where(cut, 0, np.diff(offs))
    views = _as_views(arr, data, offs[:-1], length, _words_at(data, offs[:-1]))
    views.validate(full=True)
    assert views.to_pylist() == ["" if c else s for s, c in zip(arr.to_pylist(), cut.tolist(), strict=True)]


def test_words_at_reads_eight_bytes_little_endian_with_zeros_past_the_end():
    from scoring.shovel_ready.parse import _words_at

    raw = bytes(range(1, 40))
    data = np.frombuffer(raw, dtype=np.uint8)
    starts = np.arange(len(raw) + 1)
    got = _words_at(data, starts)
    assert got.tolist() == [int.from_bytes(raw[s:s + 8].ljust(8, b"\0"), "little") for s in starts.tolist()]


def test_read_table_keep_checks_the_whole_header_but_converts_only_kept_columns():
    df = pd.DataFrame({"id": ["a"], "x": [" 1 "], "extra": [2]})
    kept = tables.read_table(df, "t", keep={"id", "x"})
    assert list(kept.columns) == ["id", "x"] and kept["x"].tolist() == ["1"]
    bad = pd.DataFrame([["a", "b", "c"]], columns=["id", "x", "x"])
    with pytest.raises(Exception, match="duplicate column 'x'"):
        tables.read_table(bad, "t", keep={"id"})


def test_fp1_ground_truth_ignores_effectiveness():
    # FP1 reads no effectiveness: an empty or missing column changes nothing
    import scoring

    gt = pd.DataFrame({"id": ["a", "a"], "discourse_type": ["Claim", "Lead"], "predictionstring": ["1 2 3", "5 6"],
                       "discourse_effectiveness": ["Effective", ""]})
    sub = pd.DataFrame({"id": ["a"], "class": ["Claim"], "predictionstring": ["1 2"]})
    # Claim: 1 TP -> F1 1; Lead: 1 FN -> F1 0; macro 0.5
    assert scoring.fp1_score(gt, sub) == 0.5
    assert scoring.fp1_score(gt.drop(columns="discourse_effectiveness"), sub) == 0.5
    assert scoring.load_ground_truth(gt).labels == []


@pytest.mark.parametrize("seed", range(3))
def test_single_spaced_tokens_equal_the_general_parser(seed):
    # the fast reader of word lists (arrow split and cast) answers only when every token is 1-7 digits
    # one space apart; then it equals numpy's parser; otherwise it leaves the strings to it
    from scoring.shovel_ready.parse import _single_spaced_tokens

    rng = random.Random(seed)
    strings = [s for s in _strings(seed, 600) if s]
    for start in range(0, len(strings), 40):
        chunk = strings[start:start + 40]
        arr = pa.array(chunk, type=pa.large_string()).slice(1)
        got = _single_spaced_tokens(arr)
        expected_ok = all(all(t.isdigit() and t.isascii() and len(t) <= 7 for t in s.split(" ")) for s in chunk[1:])
        assert (got is not None) == expected_ok, chunk[1:]
        if got is not None:
            values, counts = got
            assert values.tolist() == [int(t) for s in chunk[1:] for t in s.split(" ")]
            assert counts.tolist() == [len(s.split(" ")) for s in chunk[1:]]
    holed = " ".join(str(w) for w in sorted(rng.sample(range(5000), 50)))
    values, counts = _single_spaced_tokens(pa.array([holed, "7"], type=pa.string()))
    assert values.tolist() == [*map(int, holed.split(" ")), 7] and counts.tolist() == [50, 1]


def test_a_bad_token_found_while_scanning_is_reported_in_its_turn():
    # the submission's word lists are read before the ground truth is known; a bad token
    # found then is reported after the checks that come first (here: a probability) and
    # names its spreadsheet row, counting the dropped empty rows
    gt = pd.DataFrame({"id": ["a"], "discourse_type": ["Claim"], "predictionstring": ["1 2 3"],
                       "discourse_effectiveness": ["Effective"]})
    g = load_ground_truth_table(gt, "gt", [])
    sub = pd.DataFrame({"id": ["a", "a", "a"], "class": ["Claim"] * 3, "predictionstring": ["", "1 3", "4 x"],
                        "Effective": ["1", "1", "1"]})
    with pytest.raises(Exception) as err:
        parse_submission(sub, "s", g)
    assert err.value.row == 4 and "'x'" in err.value.problem
    sub.loc[0, "Effective"] = "2"
    with pytest.raises(Exception) as err:
        parse_submission(sub, "s", g)
    assert err.value.row == 2 and "outside [0, 1]" in err.value.problem


def test_row_order_ties_counts_every_prediction_sharing_a_start():
    from scoring.shovel_ready.data import row_order_ties
    from scoring.shovel_ready.segments import segs_from_sets

    # essay 0: two start at word 5 (and one at 7); essay 1: three start at 5; essay 2: one
    sets = [{5, 6}, {5}, {7, 8}, {5, 6, 7}, {5, 9}, {5}, {1}]
    segs = segs_from_sets(sets, essay=np.array([0, 0, 0, 1, 1, 1, 2]))
    assert row_order_ties(segs) == 2 + 3
    assert row_order_ties(segs_from_sets([{1}, {2}], essay=np.array([0, 0]))) == 0


def test_codes_of_an_arrow_array_equal_codes_of_its_column():
    col = tables.read_table(pd.DataFrame({"id": ["b", "zz", "a", "b"]}), "x")["id"]
    assert tables.codes(tables.arrow_array(col), ["a", "b"]).tolist() == tables.codes(col, ["a", "b"]).tolist()


def test_text_columns_that_look_like_numbers_stay_text_as_written():
    # grades, flags and codes look like numbers or booleans to a typing parser; they must stay
    # exactly as written; only the column declared numeric comes back as numbers
    data = b"id,grade,flag,code,p\n007,11,True,1.50,0.25\nb, 09 ,False,2,1\n"
    df = tables.read_table(data, "t.csv", numeric=lambda c: c == "p")
    assert df["id"].tolist() == ["007", "b"]
    assert df["grade"].tolist() == ["11", "09"]  # trimmed, leading zero kept
    assert df["flag"].tolist() == ["True", "False"]
    assert df["code"].tolist() == ["1.50", "2"]
    assert df["p"].tolist() == [0.25, 1.0]
    assert all(str(df[c].dtype) == "str" for c in ("id", "grade", "flag", "code"))
    assert df.attrs["rows"].tolist() == [2, 3]


@pytest.mark.parametrize("seed", range(6))
def test_spans_apart_equals_every_pair_checked(seed):
    # the ground truth's quick overlap check: True exactly when no two segments of one essay
    # have spans that meet, checked here pair by pair; inputs in reading order and shuffled
    from scoring.shovel_ready.segments import segs_from_sets, spans_apart

    rng = random.Random(seed)
    for case in range(300):
        sets, essay = [], []
        for e in range(rng.randint(1, 4)):
            at = rng.randint(0, 5)
            for _ in range(rng.randint(1, 6)):
                size = rng.randint(1, 6)
                words = set(range(at, at + size))
                if size > 2 and rng.random() < 0.3:
                    words.discard(at + 1)  # a hole
                sets.append(words)
                essay.append(e)
                at += size + (rng.randint(-3, 3) if rng.random() < 0.2 else rng.randint(0, 3))
                at = max(at, 0)
        order = list(range(len(sets)))
        if case % 2:
            rng.shuffle(order)
        sets, essay = [sets[i] for i in order], [essay[i] for i in order]
        meet = any(essay[i] == essay[j] and max(min(sets[i]), min(sets[j])) <= min(max(sets[i]), max(sets[j]))
                   for i in range(len(sets)) for j in range(i))
        segs = segs_from_sets(sets, essay=np.array(essay))
        assert spans_apart(segs) is (not meet), (sets, essay)


def test_ground_truth_overlaps_are_still_found_when_spans_meet():
    # e1's two Claims interleave without sharing a word (holes): nothing to report; e2's two
    # Leads share word 5: both rows are reported
    gt = ("id,discourse_type,predictionstring,discourse_effectiveness\n"
          "e1,Claim,0 2 4,Effective\ne1,Claim,1 3 5,Effective\n"
          "e2,Lead,1 2 3 4 5,Effective\ne2,Lead,5 6 7,Adequate\ne2,Claim,9 10,Effective\n")
    report: list[str] = []
    load_ground_truth_table(gt.encode(), "gt.csv", report)
    assert report == ["gt.csv: 2 ground-truth row(s) overlap or duplicate another segment of the same class in the "
                      "same essay (kept and scored)"]
    report = []
    load_ground_truth_table(gt.replace("5 6 7", "6 7").encode(), "gt.csv", report)
    assert report == []
