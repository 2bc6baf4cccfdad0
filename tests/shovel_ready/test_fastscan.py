"""The compiled pass over a submission written the usual way (:mod:`scoring.shovel_ready.fastscan`)
against the general reader: on valid files of that layout it must give the same table, codes,
ranges and parse; on anything else it must step aside (or still agree), so that every problem
is found and named by the general reader."""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest

from scoring.core.errors import InputError
from scoring.shovel_ready import data as D
from scoring.shovel_ready import fastscan, jit
from scoring.shovel_ready.data import EssayIds, load_ground_truth_table, parse_submission, scan_submission
from scoring.shovel_ready.explain import fp1_score
from scoring.shovel_ready.prepare import prepare_submission, worker_context

pytest.importorskip("numba")

CLASSES = ["Lead", "Position", "Claim", "Counterclaim", "Rebuttal", "Evidence", "Concluding Statement"]
HEADER = "id,class,predictionstring,Effective,Ineffective\n"


def _essay(rng, k: int) -> str:
    return f"{k:04d}{rng.integers(16 ** 8):08X}"


def _competition(rng, essays: int = 30, rows: int = 400, holes: float = 0.1) -> tuple[bytes, list[str]]:
    """A ground truth and the records of a submission in the usual layout (one essay's rows
    together, essays in random order, canonical ranges, a share of holed or reordered lists)."""
    ids = [_essay(rng, k) for k in range(essays)]
    gt = ["id,discourse_type,predictionstring,discourse_effectiveness"]
    for e in ids:
        start = 0
        for _ in range(int(rng.integers(1, 6))):
            size = int(rng.integers(1, 60))
            gt.append(f"{e},{rng.choice(CLASSES)},{' '.join(map(str, range(start, start + size)))},"
                      f"{rng.choice(['Effective', 'Ineffective'])}")
            start += size + int(rng.integers(0, 5))
    records = []
    for e in rng.choice(ids, size=rows // 8):
        for _ in range(8):
            a = int(rng.integers(0, 3000 if rng.random() < 0.9 else 200_000))
            words = list(range(a, a + int(rng.integers(1, 80))))
            if rng.random() < holes:
                words = [w for w in words if rng.random() < 0.8] or [a]
                if rng.random() < 0.3:
                    words = words[::-1]
            p = f"{rng.random():.{int(rng.integers(0, 6))}f}"
            records.append(f"{e},{rng.choice(CLASSES)},{' '.join(map(str, words))},{p},{1 - float(p):.6f}")
    return ("\n".join(gt) + "\n").encode(), records


def _file(records: list[str], header: str = HEADER, end: str = "\n") -> bytes:
    return (header + "\n".join(records) + end).encode()


def _both(monkeypatch, src: bytes, keep=None):
    """``scan_submission`` by the general reader and by the compiled pass (all sizes)."""
    monkeypatch.setattr(fastscan, "COMPILED_MIN_BYTES", 1 << 62)
    general = scan_submission(src, "s.csv", keep)
    monkeypatch.setattr(fastscan, "COMPILED_MIN_BYTES", 0)
    return general, scan_submission(src, "s.csv", keep, compiled=True)


def _same_scan(a: D.ScannedSubmission, b: D.ScannedSubmission) -> None:
    pd.testing.assert_frame_equal(a.table, b.table, check_exact=True)
    assert a.table.attrs.keys() == b.table.attrs.keys()
    assert list(a.table.attrs["rows"]) == list(b.table.attrs["rows"])
    assert a.table.attrs.get("header") == b.table.attrs.get("header")
    assert a.essay.tolist() == b.essay.tolist() and a.essay_values.equals(b.essay_values)
    assert a.cls.tolist() == b.cls.tolist() and a.cls_values.equals(b.cls_values)
    # a range is recognised by the compiled pass where it starts below LINE_NUMBERS (else it is
    # parsed as a list of words, to the same segments)
    (ma, aa, ba), (mb, ab, bb) = a.ranges, b.ranges
    assert (mb == (ma & (ba < fastscan.LINE_NUMBERS))).all()
    assert aa[mb].tolist() == ab[mb].tolist() and ba[mb].tolist() == bb[mb].tolist()


def _same_parse(a: D.ParsedSubmission, b: D.ParsedSubmission) -> None:
    for f in ("essay", "cls", "row", "size", "wmin", "wmax", "run_seg", "run_lo", "run_hi"):
        assert getattr(a.segs, f).tolist() == getattr(b.segs, f).tolist(), f
    assert np.array_equal(a.probs, b.probs) and a.kept.tolist() == b.kept.tolist() and a.notes == b.notes


def _outcome(monkeypatch, src: bytes, gt, minimum: int):
    monkeypatch.setattr(fastscan, "COMPILED_MIN_BYTES", minimum)
    try:
        return parse_submission(src, "s.csv", gt, compiled=True)
    except InputError as e:
        return str(e)


@pytest.mark.parametrize("seed", range(6))
def test_usual_files_give_what_the_general_reader_gives(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    gt_bytes, records = _competition(rng)
    gt = load_ground_truth_table(gt_bytes, "gt.csv", [])
    src = _file(records, end="\n" if seed % 2 else "")  # with and without a last line end
    general, fast = _both(monkeypatch, src)
    assert isinstance(general.source, pd.DataFrame)
    assert isinstance(fast.source, fastscan.UsualScan)  # taken by the compiled pass, not declined
    assert not fast.ranges[0].all() and fast.ranges[0].any()  # both kinds of rows were there
    _same_scan(general, fast)
    _same_parse(parse_submission(general, "s.csv", gt), parse_submission(fast, "s.csv", gt))
    # with the probability columns left out, as FP1 reads a submission
    general, fast = _both(monkeypatch, src, keep=set(D.SUB_COLUMNS))
    assert isinstance(fast.source, fastscan.UsualScan)
    _same_scan(general, fast)


def test_columns_in_another_order_and_more_labels(monkeypatch):
    rng = np.random.default_rng(11)
    _, records = _competition(rng, rows=80, holes=0)
    moved = []
    for rec in records:
        e, c, ps, p, q = rec.split(",")
        moved.append(f"{p},{ps},x{e},{q},{c},0")
    src = _file(moved, header="Effective,predictionstring,id,Ineffective,class,Adequate\n")
    general, fast = _both(monkeypatch, src)
    assert isinstance(fast.source, fastscan.UsualScan)
    _same_scan(general, fast)


DAMAGE = {
    "a quoted cell": lambda t: t.replace(",Lead,", ',"Lead",', 1),
    "a quoted predictionstring": lambda t: t.replace("\n", '\nq1,Claim,"3 4",0.5,0.5\n', 1),
    "CRLF line ends": lambda t: t.replace("\n", "\r\n"),
    "a space after a class": lambda t: t.replace(",Claim,", ",Claim ,", 1),
    "a space before an id": lambda t: t.replace("\n", "\n ", 2),
    "a space inside a predictionstring": lambda t: t.replace(" ", "  ", 1),
    "a space after a predictionstring": lambda t: _cell(t, 3, 2, "1 2 3 "),
    "an empty class": lambda t: t.replace(",Claim,", ",,", 1),
    "an empty predictionstring": lambda t: _cell(t, 3, 2, ""),
    "an empty probability": lambda t: _cell(t, 3, 3, ""),
    "a blank line": lambda t: t.replace("\n", "\n\n", 3),
    "a blank last line": lambda t: t + "\n",
    "a tab": lambda t: t.replace(",Claim,", ",Cl\taim,", 1),
    "a non-ASCII class": lambda t: t.replace(",Claim,", ",Cläim,", 1),
    "a non-ASCII id": lambda t: _cell(t, 4, 0, "é1"),
    "a NUL byte": lambda t: t.replace(",Claim,", ",Cl\x00aim,", 1),
    "a DEL byte": lambda t: t.replace(",Claim,", ",Cl\x7faim,", 1),
    "a field too many": lambda t: _cell(t, 5, 4, "0.5,0.5"),
    "a field too few": lambda t: _cell(t, 5, 4, None),
    "an exponent": lambda t: _cell(t, 2, 3, "5e-1"),
    "a sign": lambda t: _cell(t, 2, 3, "+0.5"),
    "a negative probability": lambda t: _cell(t, 2, 3, "-0.5"),
    "a leading dot": lambda t: _cell(t, 2, 3, ".5"),
    "a trailing dot": lambda t: _cell(t, 2, 3, "1."),
    "nan": lambda t: _cell(t, 2, 3, "nan"),
    "a probability over 1": lambda t: _cell(t, 2, 3, "1.5"),
    "20 significant digits": lambda t: _cell(t, 2, 3, "0.12345678901234567891"),
    "30 decimals": lambda t: _cell(t, 2, 3, "0." + "0" * 29 + "1"),
    "many leading zeros": lambda t: _cell(t, 2, 3, "0" * 40 + ".5"),
    "a bad word index": lambda t: _cell(t, 2, 2, "1 x 3"),
    "a negative word index": lambda t: _cell(t, 2, 2, "-1 0 1"),
    "leading zeros in a word index": lambda t: _cell(t, 2, 2, "007 8 9"),
    "an unknown class": lambda t: t.replace(",Claim,", ",claim,", 1),
    "an unknown essay": lambda t: _cell(t, 2, 0, "NOPE"),
    "a byte-order mark": lambda t: "\ufeff" + t,
    "a header with a space": lambda t: t.replace("class", "class ", 1),
    "a header without class": lambda t: t.replace("class", "kind", 1),
    "a repeated column": lambda t: t.replace("Ineffective", "Effective", 1),
    "a quote in the header": lambda t: t.replace("class", '"class"', 1),
    "only a header": lambda t: t.split("\n")[0] + "\n",
    "70 classes": lambda t: "\n".join([t.rstrip("\n")] + [f"x{k},K{k},1,0.5,0.5" for k in range(70)]) + "\n",
    "a cell over the limit": lambda t: _cell(t, 2, 0, "E" * 5000),
}


def _cell(text: str, row: int, col: int, value: str | None) -> str:
    lines = text.split("\n")
    fields = lines[row - 1].split(",")
    if value is None:
        del fields[col]
    else:
        fields[col] = value
    lines[row - 1] = ",".join(fields)
    return "\n".join(lines)


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_restyled_or_damaged_files_get_the_general_reader_s_answer(kind, monkeypatch):
    """Whatever the compiled pass declines or accepts, the outcome (a parse, or the error
    message naming the file, row and problem) is the general reader's."""
    rng = np.random.default_rng(5)
    gt_bytes, records = _competition(rng, rows=64)
    gt = load_ground_truth_table(gt_bytes, "gt.csv", [])
    text = DAMAGE[kind](_file(records).decode())
    if kind == "a cell over the limit":
        monkeypatch.setattr("scoring.core.limits.MAX_CELL_BYTES", 4000)
    src = text.encode("utf-8")
    general = _outcome(monkeypatch, src, gt, 1 << 62)
    fast = _outcome(monkeypatch, src, gt, 0)
    if isinstance(general, str):
        assert fast == general
    else:
        _same_parse(general, fast)
        pd.testing.assert_frame_equal(general.table, fast.table, check_exact=True)


@pytest.mark.parametrize("kind", ["a quoted cell", "CRLF line ends", "a space after a class", "an empty class",
                                  "a blank line", "a tab", "a non-ASCII class", "a field too many",
                                  "a field too few", "an exponent", "a trailing dot",
                                  "a header with a space", "a cell over the limit", "70 classes"])
def test_what_is_not_the_usual_layout_is_declined(kind, monkeypatch):
    """The compiled pass steps aside (the general reader then decides), rather than read a
    file it is not written for."""
    rng = np.random.default_rng(5)
    _, records = _competition(rng, rows=64)
    if kind == "a cell over the limit":
        monkeypatch.setattr("scoring.core.limits.MAX_CELL_BYTES", 4000)
    src = DAMAGE[kind](_file(records).decode()).encode("utf-8")
    assert fastscan.scan_usual(src) is None
    assert fastscan.scan_usual(_file(records)) is not None


def test_numbers_are_the_correctly_rounded_doubles():
    """mantissa / 10**decimals in doubles: exact, as a correctly rounding parser gives, for up
    to 2**53 and 22 decimals; longer numbers (a double written with 17 digits) go to arrow's
    parser, as in the general reader."""
    rng = np.random.default_rng(3)
    cells = ["0", "1", "0.1", "0.3", "0.7", "1.0", "0.999999999999999", "9007199254740992", "9007199254740993",
             "0.0000000000000000000001", "0." + "0" * 29 + "1", "123456789.012345", "0.14100000000000001",
             "0.9359999999999999", "0.12345678901234567891", "0" * 40 + ".5"]
    for _ in range(400):  # a mantissa below 2**53 with 0 to 22 decimals
        m, d = str(int(rng.integers(2 ** int(rng.integers(1, 54))))), int(rng.integers(0, 23))
        m = m.rjust(d + 1, "0")
        cells.append(f"{m[:len(m) - d]}.{m[len(m) - d:]}" if d else m)
    cells += [repr(float(x)) for x in rng.random(200)]  # as pandas writes float64: up to 17 digits
    src = _file([f"e{k},Lead,1 2,{c},{c}" for k, c in enumerate(cells)], header="id,class,predictionstring,P,Q\n")
    got = fastscan.scan_usual(src)
    assert got is not None
    assert got.numbers["P"].tolist() == [float(c) for c in cells]  # Python's float() rounds correctly
    assert got.numbers["Q"].tolist() == [float(c) for c in cells]
    assert sum(len(c.replace(".", "").lstrip("0")) > 15 for c in cells) > 150  # many went to arrow


def test_more_long_numbers_than_two_a_record_are_left_to_the_general_reader(monkeypatch):
    """The room kept for numbers arrow converts is two a record (proportional to the file
    whatever its width); a file with more is read by the general reader, to the same result."""
    cells = ",".join(["0.14100000000000001"] * 3)
    header = "id,class,predictionstring,A,B,C\n"
    wide = _file([f"e{k},Lead,1 2,{cells}" for k in range(50)], header=header)
    assert fastscan.scan_usual(wide) is None
    two = _file([f"e{k},Lead,1 2,{cells.rsplit(',', 1)[0]},0.5" for k in range(50)], header=header)
    got = fastscan.scan_usual(two)
    assert got is not None and got.numbers["B"].tolist() == [0.14100000000000001] * 50
    general, fast = _both(monkeypatch, wide)
    assert isinstance(fast.source, pd.DataFrame)
    _same_scan(general, fast)


def test_only_files_from_the_threshold_on_take_the_compiled_route(monkeypatch, tmp_path):
    rng = np.random.default_rng(2)
    _, records = _competition(rng, rows=200)
    path = tmp_path / "s.csv"
    path.write_bytes(_file(records))
    size = path.stat().st_size
    monkeypatch.setattr(fastscan, "COMPILED_MIN_BYTES", size + 1)
    assert isinstance(scan_submission(path, "s.csv", compiled=True).source, pd.DataFrame)
    monkeypatch.setattr(fastscan, "COMPILED_MIN_BYTES", size)
    assert isinstance(scan_submission(path, "s.csv", compiled=True).source, fastscan.UsualScan)
    # where numba is missing, the general reader reads every file
    monkeypatch.setattr(jit, "_compiled", [None])
    assert isinstance(scan_submission(path, "s.csv", compiled=True).source, pd.DataFrame)


def test_a_process_loads_the_compiled_pass_only_when_told(monkeypatch, tmp_path):
    """Loading numba costs a process a fixed 0.6-0.8 s: a file uses the compiled pass without
    being told only where this process holds it already."""
    rng = np.random.default_rng(2)
    _, records = _competition(rng, rows=200)
    path = tmp_path / "s.csv"
    path.write_bytes(_file(records))
    monkeypatch.setattr(fastscan, "COMPILED_MIN_BYTES", 0)
    monkeypatch.setattr(jit, "_compiled", [])  # as in a new process
    monkeypatch.setattr(fastscan, "_general_bytes", 0)
    assert isinstance(scan_submission(path, "s.csv").source, pd.DataFrame)
    assert fastscan.loaded() is None  # not imported on the way
    assert isinstance(scan_submission(path, "s.csv", compiled=True).source, fastscan.UsualScan)
    assert fastscan.loaded() is not None
    assert isinstance(scan_submission(path, "s.csv").source, fastscan.UsualScan)  # held now: used


def test_a_process_that_has_read_enough_by_the_general_reader_loads_it(monkeypatch, tmp_path):
    """A process never told (a pool's worker that stays, a server) loads the compiled pass once
    it has read COMPILED_MIN_VOLUME of large files the slower way."""
    rng = np.random.default_rng(2)
    _, records = _competition(rng, rows=200)
    path = tmp_path / "s.csv"
    path.write_bytes(_file(records))
    size = path.stat().st_size
    monkeypatch.setattr(fastscan, "COMPILED_MIN_BYTES", 0)
    monkeypatch.setattr(fastscan, "COMPILED_MIN_VOLUME", 3 * size)
    monkeypatch.setattr(fastscan, "_general_bytes", 0)
    monkeypatch.setattr(jit, "_compiled", [])
    routes = [type(scan_submission(path, "s.csv").source) for _ in range(5)]
    assert routes == [pd.DataFrame] * 3 + [fastscan.UsualScan] * 2
    assert fastscan._general_bytes == 3 * size


@pytest.mark.parametrize("workers, volume, told", [(1, 1000, True), (1, 10 ** 9, False), (2, 10 ** 3, True),
                                                   (2, None, False)])
def test_a_competition_asks_for_the_compiled_pass_when_each_process_reads_enough(workers, volume, told,
                                                                                 monkeypatch, tmp_path):
    from scoring.shovel_ready import competition

    rng = np.random.default_rng(6)
    gt_bytes, records = _competition(rng, rows=160)
    subs = {f"s{k}": _file(records[k::4]) for k in range(4)}
    total = sum(len(b) for b in subs.values())
    # (2, None): the volume set just above half the bytes, so that one process would be told,
    # each of two is not
    monkeypatch.setattr(fastscan, "COMPILED_MIN_VOLUME", volume if volume is not None else total // 2 + 1)
    seen = []
    real = competition.worker_context

    def spying(*args, **kw):
        ctx = real(*args, **kw)
        seen.append(ctx.compiled)
        return ctx

    monkeypatch.setattr(competition, "worker_context", spying)
    monkeypatch.setattr(competition, "POOL_MIN_BYTES", 0)
    comp = competition.load_competition(ground_truth=gt_bytes, submissions=subs, workers=workers)
    comp.close()
    assert seen == [told]


def test_a_file_declined_is_read_once(monkeypatch, tmp_path):
    """The bytes read for the compiled pass go to the general reader (no second read)."""
    path = tmp_path / "s.csv"
    path.write_bytes(b"id,class,predictionstring\n\"e1\",Lead,1 2\n")
    monkeypatch.setattr(fastscan, "COMPILED_MIN_BYTES", 0)
    reads = []
    real = D.read_table

    def counting(src, *args, **kw):
        reads.append(type(src))
        return real(src, *args, **kw)

    monkeypatch.setattr(D, "read_table", counting)
    scan = scan_submission(path, "s.csv", compiled=True)
    assert reads == [bytes] and scan.table["id"].tolist() == ["e1"]


def test_scoring_never_builds_the_text_table(monkeypatch):
    """Preparing a submission reads no cell as text: the table of a usual scan is built only
    for a caller that asks for it (and is then the general reader's)."""
    rng = np.random.default_rng(8)
    gt_bytes, records = _competition(rng, rows=160)
    gt = load_ground_truth_table(gt_bytes, "gt.csv", [])
    src = _file(records)
    monkeypatch.setattr(fastscan, "COMPILED_MIN_BYTES", 0)
    built = []
    real = fastscan.UsualScan.table

    def counting(self):
        built.append(1)
        return real(self)

    monkeypatch.setattr(fastscan.UsualScan, "table", counting)
    fast = prepare_submission(src, "s", gt, compiled=True)
    assert built == []
    monkeypatch.setattr(fastscan, "COMPILED_MIN_BYTES", 1 << 62)
    general = prepare_submission(src, "s", gt)
    assert (fast.fp1, fast.overlap_removed, fast.notes) == (general.fp1, general.overlap_removed, general.notes)
    assert bytes(fast.buffer) == bytes(general.buffer)
    monkeypatch.setattr(fastscan, "COMPILED_MIN_BYTES", 0)
    ps = parse_submission(src, "s", gt, compiled=True)
    assert built == []
    assert len(ps.table) == len(records)
    assert built == [1]


def test_fp1_from_files_is_the_same_by_either_route(monkeypatch, tmp_path):
    rng = np.random.default_rng(4)
    gt_bytes, records = _competition(rng, rows=240)
    (tmp_path / "gt.csv").write_bytes(gt_bytes)
    (tmp_path / "s.csv").write_bytes(_file(records))
    monkeypatch.setattr(fastscan, "COMPILED_MIN_BYTES", 1 << 62)
    general = fp1_score(tmp_path / "gt.csv", tmp_path / "s.csv")
    monkeypatch.setattr(fastscan, "COMPILED_MIN_BYTES", 0)
    fastscan.compiled()  # held by this process: a file read for FP1 uses it
    scans = []
    real = fastscan.scan_usual
    monkeypatch.setattr(fastscan, "scan_usual", lambda *a, **kw: scans.append(real(*a, **kw)) or scans[-1])
    assert fp1_score(tmp_path / "gt.csv", tmp_path / "s.csv") == general
    assert len(scans) == 1 and isinstance(scans[0], fastscan.UsualScan)


def test_a_worker_is_sent_the_essay_ids_as_one_array():
    rng = np.random.default_rng(1)
    gt_bytes, _ = _competition(rng, essays=200)
    gt = load_ground_truth_table(gt_bytes, "gt.csv", [])
    ctx = worker_context(gt, None)
    assert isinstance(ctx.gt.essays, EssayIds)
    assert len(ctx.gt.essays) == len(gt.essays) and list(ctx.gt.essays) == gt.essays
    assert ctx.gt.essays[3] == gt.essays[3] and ctx.gt.essays[2:5] == gt.essays[2:5]
    # one object for the ids, not one for each: the context pickles to fewer objects' worth
    as_list = pickle.dumps(gt.essays)
    assert len(pickle.dumps(ctx.gt.essays)) < len(as_list) + 4096
    assert gt.essay_index == {e: i for i, e in enumerate(gt.essays)}
