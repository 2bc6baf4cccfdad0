"""The match-table store's files: Arrow IPC, typed, read back as they were written, and a
damaged or foreign file an InputError naming it (never a traceback, never arrays that index
out of bounds)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

import scoring
from scoring.shovel_ready.tablestore import (
    PAIR_COLUMNS,
    PRED_COLUMNS,
    SubTables,
    pack,
    read_file,
    unpack,
    write_tables,
)


def tables(n: int, m: int, seed: int, big_class: bool = False) -> SubTables:
    rng = np.random.default_rng(seed)
    pred = [rng.integers(0, 50, n) for _ in PRED_COLUMNS]
    if big_class:
        pred[1] = pred[1] + 40_000  # past int16
    return SubTables(*pred, rng.integers(0, max(n, 1), m), rng.integers(0, 30, m), rng.integers(1, 9, m),
                     rng.random(m))


def same(a: SubTables, b: SubTables) -> bool:
    return all(np.array_equal(getattr(a, c), getattr(b, c)) for c in PRED_COLUMNS + PAIR_COLUMNS)


@pytest.mark.parametrize("removed", [True, False])
@pytest.mark.parametrize("big_class", [True, False])
def test_both_modes_come_back_as_written_from_memory_and_from_a_file(tmp_path, removed, big_class):
    raw = tables(40, 70, 1, big_class)
    rem = tables(35, 50, 2, big_class) if removed else None
    buf, layout, dtypes = pack(raw, rem)
    assert dtypes[1] == ("i" if big_class else "h")  # the class codes' type follows their range
    assert pa.ipc.open_file(buf).schema.field("d").type == pa.list_(pa.float64())  # a typed Arrow file
    path = write_tables(tmp_path, buf)
    for removal in (False, True):
        want = rem if removal and rem is not None else raw
        got_mem, got_file = unpack(buf, layout, dtypes, removal), read_file(path, layout, dtypes, removal)
        assert same(got_mem, want) and same(got_file, want)
        assert not got_file.p.flags.writeable  # views, not copies to be changed
        assert got_mem.essay.dtype == np.int32 and got_mem.d.dtype == np.float64


def test_identical_tables_give_identical_bytes():  # the cache names files by their content
    a, b = pack(tables(20, 30, 5), None)[0], pack(tables(20, 30, 5), None)[0]
    assert a.to_pybytes() == b.to_pybytes()


def test_no_predictions_at_all(tmp_path):
    empty = tables(0, 0, 3)
    buf, layout, dtypes = pack(empty, None)
    got = read_file(write_tables(tmp_path, buf), layout, dtypes, True)
    assert got.n == 0 and got.n_pairs == 0


def damaged(buf: bytes) -> dict[str, bytes]:
    cut = len(buf) // 2
    flipped = bytearray(buf)
    flipped[cut: cut + 64] = b"\xff" * 64
    return {"truncated": buf[:cut], "empty": b"", "not-arrow": b"id,class\ne1,Lead\n" * 20,
            "pickle": b"\x80\x04\x95" + b"\x00" * 200, "overwritten-middle": bytes(flipped)}


@pytest.mark.parametrize("case", ["truncated", "empty", "not-arrow", "pickle", "overwritten-middle"])
def test_a_damaged_file_is_an_input_error_naming_it(tmp_path, case):
    buf, layout, dtypes = pack(tables(300, 500, 7), tables(200, 300, 8))
    path = tmp_path / "x.tables"
    path.write_bytes(damaged(buf.to_pybytes())[case])
    for removal in (False, True):
        try:
            got = read_file(str(path), layout, dtypes, removal)
        except scoring.InputError as e:
            assert e.file == str(path) and "damaged" in e.problem
        else:  # bytes overwritten inside the values may still read: then exactly as long as written
            assert case == "overwritten-middle" and (got.n, got.n_pairs) == tuple(layout[int(removal)])
            assert got.p.min() >= 0 and got.p.max() < got.n


def test_a_file_of_other_tables_is_refused(tmp_path):
    # a well-formed Arrow file whose lengths, types or pair positions differ from what was written
    buf, layout, dtypes = pack(tables(30, 40, 1), None)
    other, _, _ = pack(tables(31, 40, 1), None)
    path = write_tables(tmp_path, other)
    with pytest.raises(scoring.InputError, match="damaged"):
        read_file(path, layout, dtypes, False)
    with pytest.raises(scoring.InputError, match="schema"):
        read_file(path, np.array([[31, 40], [31, 40]]), "iiiiiiiii", False)
    bad = tables(30, 40, 1)
    bad.p[3] = 30  # one past the last prediction
    path = write_tables(tmp_path, pack(bad, None)[0])
    with pytest.raises(scoring.InputError, match="outside the predictions"):
        read_file(path, layout, dtypes, False)
    with pytest.raises(scoring.InputError) as err:
        read_file(str(tmp_path / "gone.tables"), layout, dtypes, False)
    assert err.value.file.endswith("gone.tables")
