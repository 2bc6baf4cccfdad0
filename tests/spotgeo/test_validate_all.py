"""The Data page's report for a spotGEO bundle: every bad entry of every file at once (up to
25), each named by its file, its position and its sequence and frame, as the README promises —
not only the first problem the loader stops at."""

from __future__ import annotations

import io
import json

import pytest

import scoring
from scoring.core.validate import check_inputs
from scoring.spotgeo.validate import validate


def entry(seq: int, frame: int, coords=((10.0, 20.0),), **extra) -> dict:
    return {"sequence_id": seq, "frame": frame, "num_objects": len(coords), "object_coords": [list(c) for c in coords],
            **extra}


GT = [entry(1, f) for f in range(1, 6)] + [entry(2, f) for f in range(1, 6)]


def named(name: str, value) -> io.BytesIO:
    f = io.BytesIO(value if isinstance(value, bytes) else json.dumps(value).encode())
    f.name = name
    return f


def check(gt=GT, subs=None):
    subs = subs if subs is not None else {"alpha.json": GT}
    return validate(ground_truth=named("gt.json", gt), submissions=[(n[:-5], named(n, v)) for n, v in subs.items()])


def entries(errors):
    return [(e.file, getattr(e, "entry", None)) for e in errors]


def test_a_good_bundle_has_no_problem():
    assert check() == []


def test_every_bad_entry_of_a_submission_is_named():
    sub = [dict(e) for e in GT]
    sub[1] = {**sub[1], "num_objects": 3}  # entry 2: count and points disagree
    sub[4] = {**sub[4], "object_coords": [[700.0, 20.0]]}  # entry 5: x off the image
    sub[8] = dict(GT[7])  # entry 9: (2, 3) again, first at entry 8
    found = check(subs={"alpha.json": sub})
    assert entries(found) == [("alpha.json", 2), ("alpha.json", 5), ("alpha.json", 9)]
    assert "num_objects is 3" in found[0].problem
    assert "(sequence_id 1, frame 5)" in found[1].problem
    assert "duplicate (sequence_id, frame): also entry 8" in found[2].problem
    # (the left-out entries leave frames of the ground truth unmatched: not reported again)
    with pytest.raises(scoring.InputError) as err:  # the loader stops at the first
        scoring.get("spotgeo").load(ground_truth=named("gt.json", GT), submissions=[("alpha", named("alpha.json", sub))])
    assert err.value.entry == 2


def test_bad_ground_truth_entries_are_named_and_submissions_still_checked_entry_by_entry():
    gt = [dict(e) for e in GT]
    gt[0] = {**gt[0], "frame": 9}  # entry 1: no such frame number
    gt[6] = "x"  # entry 7: not an object
    sub = [dict(e) for e in GT]
    sub[2] = {**sub[2], "sequence_id": -1}
    found = check(gt=gt, subs={"alpha.json": sub, "beta.json": GT})
    assert entries(found) == [("gt.json", 1), ("gt.json", 7), ("alpha.json", 3)]


def test_a_file_that_is_not_json_has_its_one_problem_and_a_clean_file_is_aligned():
    found = check(subs={"alpha.json": b"[{\"sequence_id\": 1,", "beta.json": GT[:-1]})
    assert [e.file for e in found] == ["alpha.json", "beta.json"]
    assert "missing" in found[1].problem  # beta lacks (2, 5): the load's own alignment check


def test_every_bad_entry_up_to_25_then_a_count_of_more():
    sub = [dict(e) for e in GT]
    for i in (0, 3, 6):
        sub[i] = {**sub[i], "num_objects": 2}
    subs = {f"t{k:02d}.json": sub for k in range(10)}  # 30 bad entries
    found, more = check_inputs(scoring.get("spotgeo"), ground_truth=named("gt.json", GT),
                               submissions=[(n[:-5], named(n, v)) for n, v in subs.items()])
    assert len(found) == 25 and more
    assert entries(found[:4]) == [("t00.json", 1), ("t00.json", 4), ("t00.json", 7), ("t01.json", 1)]
