"""The whole-piece reader (:mod:`scoring.spotgeo.fastread`) against the streaming reader.

For every file below — usual ones, and each damaged or re-styled in one place — the
engine's ``read_frames`` (fast reader first) and the streaming reader alone must give the
same frames (every array equal) or the same error message. And the fast reader must really
be the one that read the usual files (else the comparison would prove nothing), and must
decline every damaged one (``None``), leaving the words to the streaming reader.
"""

from __future__ import annotations

import io
import json
import random

import numpy as np
import pytest

from scoring.core.errors import InputError
from scoring.spotgeo import fastread
from scoring.spotgeo.stream import _read, _Text, read_frames


@pytest.fixture(autouse=True, params=["numpy", "compiled"])
def route(request, monkeypatch):
    """Every test twice: the pieces scanned by numpy, then by the compiled kernel (numba; in
    requirements.txt, so its absence fails here), whatever the file's size."""
    if request.param == "compiled":
        import scoring.spotgeo.kernels  # noqa: F401

        monkeypatch.setattr(fastread, "COMPILED_MIN_BYTES", 0)
        monkeypatch.setattr(fastread, "_EVERY_PIECE", True)  # the first piece and ground truths too
    else:
        monkeypatch.setattr(fastread, "COMPILED_MIN_BYTES", 1 << 62)
    return request.param


def entries(rng: random.Random, n_seq: int, *, brightness: bool = False, crowded: bool = False) -> list[dict]:
    out = []
    for s in rng.sample(range(1, 10_000), n_seq):
        for f in range(1, 6):
            n = rng.randint(20, 30) if crowded else rng.choice([0, 0, 1, 2, 3, 5])
            pts = [[rng.choice([round(rng.uniform(-0.5, 639.5), rng.randint(0, 6)), rng.randint(0, 639), 639.5,
                                -0.5, 0.1 + 0.2]),
                    rng.choice([round(rng.uniform(-0.5, 479.5), rng.randint(0, 6)), rng.randint(0, 479), -0.5])]
                   for _ in range(n)]
            e = {"sequence_id": s, "frame": f, "num_objects": n, "object_coords": pts}
            if brightness:
                e["object_brightness"] = [round(rng.uniform(0, 10), 2) for _ in range(n)]
            out.append(e)
    rng.shuffle(out)
    return out


def slow(data: bytes, ground_truth: bool):
    """The streaming reader alone: its frames, or its message."""
    try:
        return _read(_Text(io.BytesIO(data), "f.json"), "f.json", ground_truth, [])
    except InputError as e:
        return str(e)


def engine(data: bytes, ground_truth: bool):
    try:
        return read_frames(data, "f.json", ground_truth=ground_truth)
    except InputError as e:
        return str(e)


def same(a, b) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    arrays = ("seq", "frame", "start", "xy", "entry")
    if not all(np.array_equal(getattr(a, k), getattr(b, k)) for k in arrays):
        return False
    if (a.brightness is None) != (b.brightness is None):
        return False
    return a.brightness is None or np.array_equal(a.brightness, b.brightness)


STYLES = {
    "json.dumps": lambda e: json.dumps(e),
    "one per line": lambda e: "[\n" + ",\n".join(json.dumps(x) for x in e) + "\n]\n",
    "compact": lambda e: json.dumps(e, separators=(",", ":")),
    "indented": lambda e: json.dumps(e, indent=2),
    "tabs and CRLF": lambda e: json.dumps(e, indent="\t").replace("\n", "\r\n"),
}


@pytest.mark.parametrize("style", list(STYLES))
@pytest.mark.parametrize("chunk", [None, 300, 5000])
def test_usual_files_are_read_by_the_fast_reader_and_agree(style, chunk, monkeypatch):
    monkeypatch.setattr(fastread, "CHUNK", chunk or fastread.CHUNK)
    for seed in range(6):
        rng = random.Random(seed)
        gt = seed % 2 == 0
        data = STYLES[style](entries(rng, rng.randint(1, 12), brightness=gt, crowded=seed == 3)).encode()
        assert fastread.read_canonical(io.BytesIO(data), brightness=gt) is not None
        got, want = engine(data, gt), slow(data, gt)
        assert not isinstance(want, str)
        assert same(got, want), (style, seed)
        assert (got.brightness is not None) == gt


def test_parsed_lists_agree_with_their_json():
    for seed in range(6):
        rng = random.Random(seed)
        e = entries(rng, 5, brightness=seed % 2 == 0)
        assert same(read_frames(e, "f.json", ground_truth=True), slow(json.dumps(e).encode(), True))


BASE = ('[{"sequence_id": 3, "frame": 1, "num_objects": 2, "object_coords": [[1.5, 2], [3, 4.25]]},\n'
        '{"sequence_id": 3, "frame": 2, "num_objects": 0, "object_coords": []},\n'
        '{"sequence_id": 1, "frame": 5, "num_objects": 1, "object_coords": [[639.5, -0.5]]}]\n')

# one change each: (old, new) replaced once in BASE
DAMAGE = [
    ("1.5", "true"), ("1.5", "NaN"), ("1.5", "Infinity"), ("1.5", "1e400"), ("1.5", "01.5"), ("1.5", "1."),
    ("1.5", ".5"), ("1.5", "+1.5"), ("1.5", "-"), ("1.5", "1.5e"), ("1.5", "1 5"), ("1.5", '"1.5"'),
    ("1.5", "1" + "0" * 1200), ("1.5", "0." + "1" * 1100), ("1.5", "1e1"), ("1.5", "15E-1"), ("1.5", "-0"),
    ("1.5", "null"), ("1.5", "[1.5]"), ("1.5", "{}"),
    ('"frame": 1', '"frame": 1.0'), ('"frame": 1', '"frame": 6'), ('"frame": 1', '"frame": -1'),
    ('"frame": 1', '"frame": 01'), ('"sequence_id": 3', '"sequence_id": 9007199254740992'),
    ('"sequence_id": 3', '"sequence_id": 99999999999999999999999'), ('"sequence_id": 3', '"sequence_id": 0'),
    ('"num_objects": 2', '"num_objects": 3'), ('"num_objects": 2', '"num_objects": 31'),
    ('"num_objects": 2', '"num_objects": -0'),
    ('"frame": 2', '"frame": 1'),  # a duplicate (sequence_id, frame)
    ('"frame"', '"fr\\u0061me"'), ('"frame"', '"Frame"'), ('"frame"', '"frame "'), ('"frame"', "'frame'"),
    ('"frame": 1, ', '"frame": 1, "frame": 1, '), ('"frame": 1, ', '"frame": 1, "extra": 1, '),
    ('"frame": 1, ', ""), ('"sequence_id": 3, "frame": 1', '"frame": 1, "sequence_id": 3'),
    ("[[1.5, 2]", "[[1.5, 2, 3]"), ("[[1.5, 2]", "[[1.5]"), ("[[1.5, 2]", "[1.5, 2"), ("[3, 4.25]", "[3, 500]"),
    ("[3, 4.25]", "[640, 4.25]"), ("[3, 4.25]", "[3, 4.25],"), ("]]},", "]]}"), ("]]},", "]]},,"),
    ("]]},", "]]} ,"), ("}]\n", "},]\n"), ("}]\n", "}]]\n"), ("}]\n", "}] x\n"), ("}]\n", "}"),
    ("[{", "{"), ("[{", "[ {"), ("[{", "\ufeff[{"), ("[{", "[[{"), (", ", ",\x0c"), (", ", ",\u00a0"),
    ('{"sequence_id": 1, "frame": 5, "num_objects": 1', '{"num_objects": 2, "frame": 5, "sequence_id": 1'),
    ('{"sequence_id": 1, "frame": 5, "num_objects": 1', '{"sequence_id": 1, "frame": 5, "sequence_id": 1'),
    ('"frame": 5', '"fxame": 5'), ('"object_coords": []', '"object_coordz": []'),
    ("[[1.5, 2]", "[[1.5 , 2]"), ('"object_coords": []', '"object_coords": {}'),
    ('"object_coords": []', '"object_coords": [[]]'), ('"object_coords": []', '"object_coords": null'),
]


@pytest.mark.parametrize("old,new", DAMAGE, ids=[f"{o}->{n}"[:40] for o, n in DAMAGE])
def test_damaged_or_restyled_files_agree(old, new):
    text = BASE.replace(old, new, 1)
    assert text != BASE
    for encoding in ("utf-8", "utf-16"):
        try:
            data = text.encode(encoding)
        except UnicodeEncodeError:
            continue
        for gt in (False, True):
            got, want = engine(data, gt), slow(data, gt)
            assert same(got, want), (old, new, encoding, got, want)


def test_damage_is_declined_by_the_fast_reader():
    """The fast reader reads a damaged file only when the streaming reader accepts it too
    (a restyling such as extra spaces); every file the streaming reader refuses it declines —
    but a duplicate (sequence_id, frame), which ``read_frames`` finds in its arrays afterwards."""
    assert fastread.read_canonical(io.BytesIO(BASE.encode())) is not None
    declined = 0
    for old, new in DAMAGE:
        if (old, new) == ('"frame": 2', '"frame": 1'):
            continue
        data = BASE.replace(old, new, 1).encode()
        got = fastread.read_canonical(io.BytesIO(data), brightness=True)
        if got is None:
            declined += 1
        else:
            assert not isinstance(slow(data, True), str), (old, new)
    assert declined >= len(DAMAGE) - 8


def test_brightness_on_some_entries_only_is_left_to_the_streaming_reader():
    e = entries(random.Random(4), 3, brightness=True)
    del e[4]["object_brightness"]
    data = json.dumps(e).encode()
    report: list[str] = []
    got = read_frames(data, "gt.json", ground_truth=True, report=report)
    assert got.brightness is None and report and "object_brightness ignored" in report[0]
    assert fastread.read_canonical(io.BytesIO(data), brightness=True) is None


def test_numbers_are_converted_as_python_does():
    """Arrow's string → float64 against Python's float on awkward decimals (halfway cases,
    17 significant digits, tiny and huge exponents)."""
    rng = random.Random(0)
    texts = ["0.1", "0.30000000000000004", "639.4999999999999", "2.2250738585072014e-308", "4.9e-324",
             "1.7976931348623157e308", "9007199254740993", "123456789012345678901234567890", "1e-400"]
    texts += [f"{rng.uniform(-0.5, 639.5):.{rng.randint(1, 20)}f}" for _ in range(3000)]
    texts += [repr(rng.uniform(0, 1) * 10 ** rng.randint(-30, 30)) for _ in range(3000)]
    import pyarrow as pa
    import pyarrow.compute as pc
    got = pc.cast(pa.array(texts), pa.float64()).to_pylist()
    assert got == [float(t) for t in texts]


def _convert(texts: list[str]):
    blob = "".join(t + "," for t in texts).encode()
    length = np.array([len(t) for t in texts])
    start = np.concatenate(([0], np.cumsum(length + 1)[:-1]))
    return fastread._numbers(np.frombuffer(blob, np.uint8), start, length)


def test_numbers_in_numpy_are_pythons_floats():
    """The conversion (one Arrow string array: RE2, then the cast) against Python's float, bit for
    bit — the sign of zero included — on random decimals of up to 20 digits."""
    rng = random.Random(1)
    texts = ["0", "-0", "0.0", "-0.0", "0.1", "0.30000000000000004", "639.4999999999999", "123456789012345",
             "999999999999999", "0.000000000000001", "9007199254740993", "1234567890123456789", "-639.5"]
    for _ in range(4000):
        whole = str(rng.randint(0, 10 ** rng.randint(0, 8)))
        frac = "".join(rng.choice("0123456789") for _ in range(rng.randint(0, 12)))
        texts.append(("-" if rng.random() < 0.3 else "") + whole + ("." + frac if frac else ""))
    for group in (texts[:13], [t for t in texts if len(t.replace("-", "").replace(".", "")) <= 15], texts):
        values, integral = _convert(group)
        want = [float(t) if "." in t else float(int(t)) for t in group]
        assert [v.hex() for v in values.tolist()] == [w.hex() for w in want]
        assert integral.tolist() == ["." not in t for t in group]


@pytest.mark.parametrize("bad", ["01", "1.", ".5", "-", "--1", "1-", "+1", "1..2", "0.", "-.5", "00.5", "1.2.3",
                                 "-01", "1.-2"])
def test_numbers_outside_the_grammar_are_refused(bad):
    assert _convert(["1.5", bad])[0] is None
    assert _convert(["1.5", bad + "0" * 20])[0] is None or bad in ("1.", "0.")  # the long (Arrow) path too


def test_the_route_asked_for_is_the_one_that_reads(route, monkeypatch):
    """A spy on the compiled scan: it reads every piece on the compiled route, none on numpy's
    (else the comparisons above would test one route twice)."""
    from scoring.spotgeo import kernels

    calls = []
    scan = kernels.scan_piece
    monkeypatch.setattr(kernels, "scan_piece", lambda *a: calls.append(len(a[0])) or scan(*a))
    monkeypatch.setattr(fastread, "CHUNK", 400)
    data = json.dumps(entries(random.Random(2), 4, crowded=True)).encode()
    assert fastread.read_canonical(io.BytesIO(data)) is not None
    assert (len(calls) > 2) == (route == "compiled") and (route == "compiled" or not calls)


def test_files_from_the_threshold_on_take_the_compiled_route(monkeypatch):
    """By default, from the second piece of a submission on; never for a ground truth (numba's
    fixed memory is not taken for a file read once, nor for a first piece that fails) --
    unless the process holds the kernels already."""
    from scoring.spotgeo import kernels, matching

    monkeypatch.setattr(fastread, "_EVERY_PIECE", False)
    monkeypatch.setattr(matching, "_compiled", [])  # a process that has not loaded the kernels
    monkeypatch.setattr(fastread, "CHUNK", 2000)
    calls = []
    scan = kernels.scan_piece
    monkeypatch.setattr(kernels, "scan_piece", lambda *a: calls.append(1) or scan(*a))
    data = json.dumps(entries(random.Random(3), 12, crowded=True)).encode()
    monkeypatch.setattr(fastread, "COMPILED_MIN_BYTES", len(data) + 1)
    small = fastread.read_canonical(io.BytesIO(data))
    assert small is not None and not calls
    monkeypatch.setattr(fastread, "COMPILED_MIN_BYTES", len(data))
    assert fastread.read_canonical(io.BytesIO(data), brightness=True) is not None and not calls
    assert fastread.read_canonical(io.BytesIO(b"[[1, 2]]" + b" " * len(data))) is None and not calls
    assert matching.loaded() is None
    got = fastread.read_canonical(io.BytesIO(data))
    assert calls and all(np.array_equal(x, y) for x, y in zip(got[:4], small[:4], strict=True))
    pieces = len(calls)  # the second piece on
    assert matching.loaded() is kernels  # the submission loaded them
    bright = fastread.read_canonical(io.BytesIO(data), brightness=True)
    assert len(calls) == 2 * pieces + 2  # now the ground truth too: its first entry alone, then every piece
    assert all(np.array_equal(x, y) for x, y in zip(bright[:4], small[:4], strict=True))


def test_loaded_never_imports_the_kernels(monkeypatch):
    from scoring.spotgeo import matching

    monkeypatch.setattr(matching, "_compiled", [])
    assert matching.loaded() is None and matching._compiled == []
