"""spotGEO files read entry by entry (issue 30.1, issue 31): the same messages whatever the
chunk and batch sizes, a bad first entry found without reading the rest, duplicate keys
refused, every encoding json.loads accepts."""

from __future__ import annotations

import json

import numpy as np
import pytest

import scoring.spotgeo as sg
from scoring.core.errors import InputError
from scoring.spotgeo import stream
from scoring.spotgeo.stream import read_frames
from tests.spotgeo.test_inputs import GOOD, GT_CASES, write


@pytest.mark.parametrize("chunk, batch", [(1, 1), (3, 2), (7, 1000)])
@pytest.mark.parametrize("text, message", GT_CASES)
def test_every_message_survives_any_chunking(tmp_path, monkeypatch, chunk, batch, text, message):
    monkeypatch.setattr(stream, "CHUNK", chunk)
    monkeypatch.setattr(stream, "BATCH", batch)
    gt = write(tmp_path / "gt.json", text)
    with pytest.raises(InputError) as e:
        read_frames(gt, "gt.json", ground_truth=True)
    assert str(e.value) == f"gt.json: {message}"


@pytest.mark.parametrize("chunk, batch", [(1, 1), (5, 2), (1 << 20, 4096)])
def test_valid_files_read_the_same_at_any_chunking(tmp_path, monkeypatch, chunk, batch):
    monkeypatch.setattr(stream, "CHUNK", chunk)
    monkeypatch.setattr(stream, "BATCH", batch)
    entries = [{"sequence_id": s, "frame": f, "num_objects": 1, "object_coords": [[s + 0.25, f * 1e-3]],
                "object_brightness": [float(s * f)]} for s in (3, 1, 2) for f in (2, 1)]
    text = json.dumps(entries, indent=2).replace("0.001", "1e-3")
    report: list[str] = []
    fr = read_frames(write(tmp_path / "gt.json", text), "gt.json", ground_truth=True, report=report)
    assert report == []
    assert fr.seq.tolist() == [1, 1, 2, 2, 3, 3] and fr.frame.tolist() == [1, 2] * 3
    assert fr.entry.tolist() == [4, 3, 6, 5, 2, 1]
    assert fr.xy.tolist() == [[1.25, 0.001], [1.25, 0.002], [2.25, 0.001], [2.25, 0.002], [3.25, 0.001],
                              [3.25, 0.002]]
    assert fr.brightness.tolist() == [1.0, 2.0, 2.0, 4.0, 3.0, 6.0]


@pytest.mark.parametrize("key", ["object_coords", "num_objects", "sequence_id"])
def test_duplicate_keys_are_refused(tmp_path, key):
    """Issue 31: an entry with a key twice kept the last one silently."""
    text = json.dumps(GOOD)
    first = GOOD[1]
    dup = '{"sequence_id": 1, "frame": 2, "num_objects": 0, "object_coords": [], ' + \
        f'"{key}": {json.dumps(first[key])}' + "}"
    text = text.replace(json.dumps(first), dup)
    assert text.count(f'"{key}"') == 4
    with pytest.raises(InputError) as e:
        sg.load_competition(write(tmp_path / "gt.json", text), {"A": GOOD})
    assert str(e.value) == f"gt.json: entry 2: the key '{key}' appears twice in one object"


def test_encodings(tmp_path):
    text = json.dumps(GOOD)
    for data in (text.encode("utf-16"), text.encode("utf-32-be"), b"\xef\xbb\xbf" + text.encode()):
        p = tmp_path / "gt.json"
        p.write_bytes(data)
        assert read_frames(p, "gt.json").n_frames == 3


def test_a_bad_first_entry_reads_one_chunk(tmp_path, monkeypatch):
    """Issue 30: the whole file became Python objects before entry 1 was checked."""
    good = json.dumps(GOOD[0])
    text = '[{"frame": 1, "num_objects": 0, "object_coords": []},' + ",".join([good] * 60_000) + "]"
    assert len(text) > 4 * stream.CHUNK
    reads = []
    real = stream._Text.more
    monkeypatch.setattr(stream._Text, "more", lambda self, *a: reads.append(1) or real(self, *a))
    with pytest.raises(InputError, match=r"^gt.json: entry 1 \(frame 1\): missing key 'sequence_id'$"):
        read_frames(write(tmp_path / "gt.json", text), "gt.json")
    assert len(reads) <= 2


def test_arrays_instead_of_objects_fail_at_once(tmp_path, monkeypatch):
    text = "[" + ",".join(["[1, 1, 0, []]"] * 400_000) + "]"
    reads = []
    real = stream._Text.more
    monkeypatch.setattr(stream._Text, "more", lambda self, *a: reads.append(1) or real(self, *a))
    with pytest.raises(InputError, match=r"^gt.json: entry 1: expected an object with keys"):
        read_frames(write(tmp_path / "gt.json", text), "gt.json")
    assert len(reads) <= 2


def test_a_long_string_across_chunks_is_one_value(tmp_path, monkeypatch):
    monkeypatch.setattr(stream, "CHUNK", 64)
    entries = [{**e, "note": "x" * 5000} for e in GOOD]
    fr = read_frames(write(tmp_path / "gt.json", json.dumps(entries)), "gt.json")
    assert fr.n_frames == 3 and np.array_equal(fr.counts, [2, 0, 1])


G = json.dumps(GOOD[0])


@pytest.mark.parametrize("text", [f'[{G}] x', f'[{G},\n  {{"sequence_id": 1,\n   "frame" 1}}]', f'[{G} {G}]',
                                  f'[{G},]', f'[{G}, "abc', f'[{G},\n\n  tru'])
def test_syntax_errors_name_line_and_column_as_json_loads(tmp_path, monkeypatch, text):
    """The message of a whole-file json.loads (the reference), at any chunk size."""
    with pytest.raises(json.JSONDecodeError) as j:
        json.loads(text)
    message = f"not valid JSON (line {j.value.lineno}, column {j.value.colno}: {j.value.msg})"
    for chunk in (1, 4, 1 << 20):
        monkeypatch.setattr(stream, "CHUNK", chunk)
        with pytest.raises(InputError) as e:
            read_frames(write(tmp_path / "gt.json", text), "gt.json")
        assert str(e.value) == f"gt.json: {message}"


@pytest.mark.parametrize("batch", [1, 3, 4096])
def test_problems_in_file_order(tmp_path, monkeypatch, batch):
    """A bad entry before bad text is the first problem, whatever the batch size."""
    monkeypatch.setattr(stream, "BATCH", batch)
    for text, message in [(f'[{G}, {{"a": 1}}] x', "entry 2: missing key 'sequence_id'"),
                          (f'[{G}, {{"a": 1}}, {{"a": 1, "a": 2}}]', "entry 2: missing key 'sequence_id'"),
                          (f'[{G}, 7 x]', "entry 2: expected an object with keys sequence_id, frame, "
                                          "num_objects, object_coords, got a number"),
                          (f'[{G}, {G}, ' + "[" * 200 + "]" * 200 + "]",
                           "entry 2 (sequence_id 1, frame 1): duplicate (sequence_id, frame): also entry 1")]:
        with pytest.raises(InputError) as e:
            read_frames(write(tmp_path / "gt.json", text), "gt.json")
        assert str(e.value) == f"gt.json: {message}"
