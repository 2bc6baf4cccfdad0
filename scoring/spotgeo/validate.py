"""Every problem of a spotGEO bundle at once (the Data page's report), not only the first.

A file whose first problem is an entry's (spec §1's rules, a repeated (sequence_id, frame)) is
read again whole and each entry checked (:func:`scoring.spotgeo.data.check_batch` from each bad
entry on), so every bad entry is named, each with its position and its sequence and frame
(at most ``PER_FILE`` a file, ``limit`` in all). A file that is not JSON, or not an array of
entries, has that one problem. Submissions are aligned with the ground truth only when both
are clean (a left-out entry would otherwise be reported again as a missing frame).
"""

from __future__ import annotations

from pathlib import Path

from ..core.errors import InputError
from ..core.jsonsafe import loads_bounded
from ..core.sources import expand_submissions, source_bytes, source_name
from ..core.validate import MAX_ERRORS, PER_FILE, stopped
from .competition import align, ground_truth_from_frames
from .data import Invalid, check_batch, entry_error
from .stream import read_frames


def entry_errors(src, name: str, *, limit: int = PER_FILE, ground_truth: bool = False):
    """``(problems, frames)`` of one file: no problem and its frames, or up to ``limit``
    problems (in entry order) and None."""
    if not isinstance(src, (str, Path, list, tuple)):
        try:
            src = source_bytes(src, name)  # an upload is read once
        except InputError as e:
            return [e], None
    try:
        return [], read_frames(src, name, ground_truth=ground_truth, report=[])
    except InputError as e:
        first = e
    if getattr(first, "entry", None) is None:
        return [first], None  # not JSON, not an array of entries, empty: the file's one problem
    if limit <= 1:
        return stopped([first]), None
    try:
        entries = list(src) if isinstance(src, (list, tuple)) else \
            loads_bounded(source_bytes(src, name), what=name)
    except InputError:
        return [first], None
    if not isinstance(entries, list):
        return [first], None
    found = every_bad_entry(entries, name, limit) or [first]
    return (stopped(found) if len(found) >= limit else found), None


def every_bad_entry(entries: list, name: str, limit: int) -> list[InputError]:
    """Every entry that breaks a rule, then every repeat of a (sequence_id, frame) among the
    others, in entry order (at most ``limit``).

    >>> e = [{"sequence_id": 1, "frame": 1, "num_objects": 0, "object_coords": []}, 7,
    ...      {"sequence_id": 1, "frame": 1, "num_objects": 0, "object_coords": []}, {"frame": 2}]
    >>> for x in every_bad_entry(e, "s.json", 10): print(x)
    s.json: entry 2: expected an object with keys sequence_id, frame, num_objects, object_coords, got a number
    s.json: entry 3 (sequence_id 1, frame 1): duplicate (sequence_id, frame): also entry 1
    s.json: entry 4 (frame 2): missing key 'sequence_id'
    """
    found: dict[int, InputError] = {}
    at = 0
    while at < len(entries) and len(found) < limit:
        try:
            check_batch(entries[at:])
            break
        except Invalid as bad:
            i = at + bad.index
            found[i] = entry_error(name, i, entries[i], bad.problem)
            at = i + 1
    first_of: dict[tuple[int, int], int] = {}
    for i, e in enumerate(entries[:at] if len(found) >= limit else entries):
        if i in found:
            continue
        key = (e["sequence_id"], e["frame"])
        if key in first_of:
            found[i] = entry_error(name, i, e, f"duplicate (sequence_id, frame): also entry {first_of[key] + 1}")
        else:
            first_of[key] = i
    return [found[i] for i in sorted(found)][:limit]


def validate(*, ground_truth, submissions, limit: int = MAX_ERRORS, progress=None) -> list[InputError]:
    """Up to ``limit`` problems of the bundle, each naming its file and entry; an empty list
    when the bundle loads."""
    errors: list[InputError] = []

    def room() -> int:
        return min(PER_FILE, max(0, limit - len(errors)))

    found, gt_frames = entry_errors(ground_truth, source_name(ground_truth, "ground_truth.json"), limit=room(),
                                    ground_truth=True)
    errors += found
    gt = ground_truth_from_frames(gt_frames) if gt_frames is not None else None
    if gt is None:
        stopped(errors)  # the submissions are matched against the ground truth once it loads
    try:
        items = expand_submissions(submissions, suffix=".json")
    except InputError as e:
        return (errors + [e])[:limit]
    if not items:
        errors.append(InputError("submissions", None, "no submission given"))
    for k, (name, src, display) in enumerate(items):
        if progress is not None:
            progress(k, len(items), name)
        if not room():
            break
        found, frames = entry_errors(src, display, limit=room())
        errors += found
        if frames is not None and gt is not None:
            try:
                align(frames, gt, display)
            except InputError as e:
                errors.append(e)
    if progress is not None:
        progress(len(items), len(items), "")
    return errors[:limit]

