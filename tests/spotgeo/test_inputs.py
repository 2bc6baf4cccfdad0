"""Every input problem of spec §1 is one error naming the file, the entry and the problem —
through the Python API and the command line (exit 2, one line, no traceback) — and the
vectorised check agrees with the entry-by-entry scan on randomly damaged files."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import numpy as np
import pytest

import scoring.spotgeo as sg
from scoring.cli import main
from scoring.core.errors import InputError
from scoring.spotgeo.data import _fast, _first_problem, entry_problem

GOOD = [
    {"sequence_id": 1, "frame": 1, "num_objects": 2, "object_coords": [[10.5, 20], [30, 40.25]]},
    {"sequence_id": 1, "frame": 2, "num_objects": 0, "object_coords": []},
    {"sequence_id": 7, "frame": 5, "num_objects": 1, "object_coords": [[639.5, -0.5]]},
]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def damaged(i: int, **change) -> str:
    data = copy.deepcopy(GOOD)
    data[i].update(change)
    for k, v in change.items():
        if v is DROP:
            del data[i][k]
    return json.dumps(data)


DROP = object()

# (file text, the message after "gt.json: ")
GT_CASES = [
    ("", "the file is empty"),
    ("  \n", "the file is empty"),
    ("[{", "not valid JSON (line 1, column 3: Expecting property name enclosed in double quotes)"),
    ("{}", "expected a JSON array of entries, got an object"),
    ('"text"', "expected a JSON array of entries, got a string"),
    ("[]", "the file has no entries (an empty array)"),
    ("[1]", "entry 1: expected an object with keys sequence_id, frame, num_objects, object_coords, got a number"),
    (damaged(1, frame=DROP), "entry 2 (sequence_id 1): missing key 'frame'"),
    (damaged(0, sequence_id=True), "entry 1 (frame 1): sequence_id must be an integer >= 1, got true"),
    (damaged(0, sequence_id="1"), 'entry 1 (frame 1): sequence_id must be an integer >= 1, got "1"'),
    (damaged(0, sequence_id=1.0), "entry 1 (frame 1): sequence_id must be an integer >= 1, got 1.0"),
    (damaged(0, sequence_id=0), "entry 1 (sequence_id 0, frame 1): sequence_id must be an integer >= 1, got 0"),
    (damaged(0, sequence_id=2**53), f"entry 1 (sequence_id {2**53}, frame 1): sequence_id must be at most "
                                    f"{2**53 - 1}, got {2**53}"),
    (damaged(0, sequence_id=10**30), f"entry 1 (sequence_id {10**30}, frame 1): sequence_id must be at most "
                                     f"{2**53 - 1}, got {10**30}"),
    (damaged(2, frame=6), "entry 3 (sequence_id 7, frame 6): frame must be an integer in 1-5, got 6"),
    (damaged(2, frame=0), "entry 3 (sequence_id 7, frame 0): frame must be an integer in 1-5, got 0"),
    (damaged(2, frame=False), "entry 3 (sequence_id 7): frame must be an integer in 1-5, got false"),
    (damaged(1, num_objects=-1), "entry 2 (sequence_id 1, frame 2): num_objects must be an integer in 0-30, got -1"),
    (damaged(1, num_objects=31, object_coords=[[1, 1]] * 31),
     "entry 2 (sequence_id 1, frame 2): num_objects must be an integer in 0-30, got 31"),
    (damaged(1, num_objects=None), "entry 2 (sequence_id 1, frame 2): num_objects must be an integer in 0-30, "
                                   "got null"),
    (damaged(0, num_objects=3), "entry 1 (sequence_id 1, frame 1): num_objects is 3 but object_coords has 2 points"),
    (damaged(2, num_objects=0), "entry 3 (sequence_id 7, frame 5): num_objects is 0 but object_coords has 1 point"),
    (damaged(1, object_coords={}), "entry 2 (sequence_id 1, frame 2): object_coords must be an array of [x, y] "
                                   "pairs, got {}"),
    (damaged(0, object_coords=[[1, 2], [3]]),
     "entry 1 (sequence_id 1, frame 1): object_coords point 2 must be a pair [x, y], got [3]"),
    (damaged(0, object_coords=[[1, 2], [3, 4, 5]]),
     "entry 1 (sequence_id 1, frame 1): object_coords point 2 must be a pair [x, y], got [3, 4, 5]"),
    (damaged(0, object_coords=[[1, 2], 7]),
     "entry 1 (sequence_id 1, frame 1): object_coords point 2 must be a pair [x, y], got 7"),
    (damaged(0, object_coords=[["1", 2], [3, 4]]),
     'entry 1 (sequence_id 1, frame 1): object_coords point 1: x must be a number, got "1"'),
    (damaged(0, object_coords=[[1, 2], [3, True]]),
     "entry 1 (sequence_id 1, frame 1): object_coords point 2: y must be a number, got true"),
    (damaged(0, object_coords=[[640, 2], [3, 4]]),
     "entry 1 (sequence_id 1, frame 1): object_coords point 1: x = 640 is outside [-0.5, 639.5]"),
    (damaged(0, object_coords=[[1, 2], [3, -0.6]]),
     "entry 1 (sequence_id 1, frame 1): object_coords point 2: y = -0.6 is outside [-0.5, 479.5]"),
    (damaged(0, object_coords=[[1, 2], [3, 479.51]]),
     "entry 1 (sequence_id 1, frame 1): object_coords point 2: y = 479.51 is outside [-0.5, 479.5]"),
    (json.dumps(GOOD).replace("40.25", "NaN"),
     "entry 1 (sequence_id 1, frame 1): object_coords point 2: y must be a finite number, got nan"),
    (json.dumps(GOOD).replace("40.25", "1e400"),
     "entry 1 (sequence_id 1, frame 1): object_coords point 2: y must be a finite number, got inf"),
    (json.dumps(GOOD).replace("40.25", "-Infinity"),
     "entry 1 (sequence_id 1, frame 1): object_coords point 2: y must be a finite number, got -inf"),
    (json.dumps(GOOD).replace("40.25", "1" * 400),
     f"entry 1 (sequence_id 1, frame 1): object_coords point 2: y = {'1' * 37}... is outside [-0.5, 479.5]"),
    (json.dumps(GOOD + [GOOD[1]]), "entry 4 (sequence_id 1, frame 2): duplicate (sequence_id, frame): also entry 2"),
    (json.dumps([GOOD[0], GOOD[1], GOOD[0], GOOD[1]]),
     "entry 3 (sequence_id 1, frame 1): duplicate (sequence_id, frame): also entry 1"),
    # the first problem in file order wins
    (json.dumps([GOOD[0], {**GOOD[1], "frame": 9}, {**GOOD[2], "num_objects": 5}]),
     "entry 2 (sequence_id 1, frame 9): frame must be an integer in 1-5, got 9"),
]


@pytest.mark.parametrize("text, message", GT_CASES)
def test_ground_truth_errors(tmp_path, text, message):
    gt = write(tmp_path / "gt.json", text)
    sub = write(tmp_path / "subs" / "A.json", json.dumps(GOOD))
    with pytest.raises(InputError) as e:
        sg.load_competition(gt, [sub])
    assert str(e.value) == f"gt.json: {message}"


def test_bytes_that_are_not_text(tmp_path):
    gt = tmp_path / "gt.json"
    gt.write_bytes(b"\xff\xfe\x00\xd8garbage")
    with pytest.raises(InputError, match=r"^gt.json: not valid JSON"):
        sg.load_competition(gt, {"A": GOOD})


def test_deep_nesting_and_huge_integers(tmp_path):
    """Issue 28: 100,000 levels and a 5,000-digit integer are refused by the JSON limits,
    before any parsing, naming the limit and its variable."""
    with pytest.raises(InputError, match=r"^gt.json: JSON nested deeper than 100 levels \(LAB_MAX_JSON_DEPTH"):
        sg.load_competition(write(tmp_path / "gt.json", "[" * 100000 + "]" * 100000), {"A": GOOD})
    with pytest.raises(InputError, match=r"^gt.json: JSON a number longer than 1000 characters "
                                         r"\(LAB_MAX_JSON_NUMBER_CHARS"):
        sg.load_competition(write(tmp_path / "gt.json", "[" + "9" * 5000 + "]"), {"A": GOOD})


@pytest.mark.parametrize("entries, message", [
    (GOOD[:2], "1 (sequence_id, frame) pair of the ground truth missing (first: sequence_id 7, frame 5)"),
    (GOOD[2:], "2 (sequence_id, frame) pairs of the ground truth missing (first: sequence_id 1, frame 1)"),
    (GOOD + [{**GOOD[1], "sequence_id": 9}, {**GOOD[1], "sequence_id": 8}],
     "2 (sequence_id, frame) pairs not in the ground truth (first: entry 4, sequence_id 9, frame 2)"),
    ([{**GOOD[0], "object_coords": [[1, 2]]}] + GOOD[1:],
     "entry 1 (sequence_id 1, frame 1): num_objects is 2 but object_coords has 1 point"),
])
def test_submission_errors(tmp_path, entries, message):
    gt = write(tmp_path / "gt.json", json.dumps(GOOD))
    good = write(tmp_path / "subs" / "a-good.json", json.dumps(GOOD))
    bad = write(tmp_path / "subs" / "b-bad.json", json.dumps(entries))
    with pytest.raises(InputError) as e:
        sg.load_competition(gt, [good, bad])
    assert str(e.value) == f"b-bad.json: {message}"


def test_submission_sources(tmp_path):
    gt = write(tmp_path / "gt.json", json.dumps(GOOD))
    write(tmp_path / "one" / "A.json", json.dumps(GOOD))
    write(tmp_path / "two" / "A.json", json.dumps(GOOD))
    write(tmp_path / "two" / "notes.txt", "not a submission")
    with pytest.raises(InputError, match="duplicate submission name 'A'"):
        sg.load_competition(gt, [tmp_path / "one", tmp_path / "two"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="contains no .json file"):
        sg.load_competition(gt, [tmp_path / "empty"])
    with pytest.raises(InputError, match="file not found"):
        sg.load_competition(gt, [tmp_path / "nope.json"])
    with pytest.raises(InputError, match="^one: expected a JSON file, got a folder"):
        sg.load_competition(tmp_path / "one", [tmp_path / "two"])
    comp = sg.load_competition(gt, [tmp_path / "two", write(tmp_path / "B.json", json.dumps(GOOD))])
    assert comp.submission_names == ["A", "B"]  # folders expand to *.json only
    # bytes, file-likes and parsed lists work too
    comp = sg.load_competition(gt.read_bytes(), {"x": (tmp_path / "B.json").open("rb"), "y": GOOD})
    assert comp.submission_names == ["x", "y"]


def test_extra_keys_ignored_and_brightness(tmp_path):
    extra = [{**e, "score": [0.5] * e["num_objects"], "note": "x"} for e in GOOD]
    bright = [{**e, "object_brightness": [2.5] * e["num_objects"]} for e in GOOD]
    comp = sg.load_competition(bright, {"A": extra})
    assert comp.has_brightness and comp.report == []
    assert comp.gt.brightness.tolist() == [2.5, 2.5, 2.5]
    bad = copy.deepcopy(bright)
    bad[2]["object_brightness"] = ["bright"]
    comp = sg.load_competition(bad, {"A": GOOD})
    assert not comp.has_brightness
    assert comp.report == ["ground_truth.json: object_brightness ignored (entry 3: not 1 finite numbers)"]


def test_cli_bad_input_is_one_line_exit_2(tmp_path, capsys):
    gt = write(tmp_path / "gt.json", damaged(0, num_objects=3))
    write(tmp_path / "subs" / "A.json", json.dumps(GOOD))
    code = main(["spotgeo", "leaderboard", "--ground-truth", str(gt), "--submissions", str(tmp_path / "subs")])
    err = capsys.readouterr().err
    assert code == 2
    lines = [x for x in err.splitlines() if x.startswith("error")]
    assert lines == ["error: gt.json: entry 1 (sequence_id 1, frame 1): num_objects is 3 but object_coords has "
                     "2 points"]
    assert "Traceback" not in err


def test_fast_check_agrees_with_the_scan():
    """Random damage to a valid file: the vectorised check accepts exactly when the plain
    scan finds nothing."""
    rng = random.Random(4)
    values = [0, 1, 5, 6, 30, 31, -1, 2**53, 1.0, 0.5, True, None, "1", [], {}, [1, 2], [[1, 2]], 639.5, 640,
              float("nan"), 479.5, -0.5, -0.51]
    base = [{"sequence_id": s, "frame": f, "num_objects": 2, "object_coords": [[1.5 * s, 2.0 * f], [3, 4]]}
            for s in range(1, 6) for f in range(1, 6)]
    accepted = rejected = 0
    for _ in range(3000):
        data = copy.deepcopy(base)
        e = rng.choice(data)
        k = rng.choice(["sequence_id", "frame", "num_objects", "object_coords", "x", "y", "drop", "dup"])
        if k in ("x", "y"):
            e["object_coords"][rng.randint(0, 1)][k == "y"] = rng.choice(values)
        elif k == "drop":
            del e[rng.choice(list(e))]
        elif k == "dup":
            data.append(copy.deepcopy(rng.choice(data)))
        else:
            e[k] = rng.choice(values)
        fast_ok = _fast(data) is not None
        try:
            _first_problem(data, "f.json")
            scan_ok = True
        except InputError:
            scan_ok = False
        assert fast_ok == (all(entry_problem(x) is None for x in data)), (k, e)
        dup_free = fast_ok and len({(x["sequence_id"], x["frame"]) for x in data}) == len(data)
        assert scan_ok == (fast_ok and dup_free), (k, e)
        accepted += scan_ok
        rejected += not scan_ok
    assert accepted > 100 and rejected > 1000


def test_brightness_checked_whole_then_the_first_bad_entry_named():
    from scoring.spotgeo.data import brightness_of

    counts = np.array([2, 0, 1])
    good = [{"object_brightness": [1, 2.5]}, {"object_brightness": []}, {"object_brightness": [3]}]
    vals, why = brightness_of(good, counts)
    assert vals.tolist() == [1.0, 2.5, 3.0] and why is None
    for bad, entry in (([1, True], 1), ([1, 10**400], 1), ([1, float("nan")], 1), ([1, "2"], 1), ([1], 1)):
        entries = [{"object_brightness": bad}, *good[1:]]
        assert brightness_of(entries, counts, offset=4) == (None, "entry 5: not 2 finite numbers"), entry
    assert brightness_of([good[0], {}, good[2]], counts) == (None, "entry 2: missing")
    assert brightness_of([good[0], good[1], {"object_brightness": [float("inf")]}], counts)[1] == \
        "entry 3: not 1 finite numbers"
