"""scoring.core.jsonsafe: JSON from users with bounded depth and number length, no duplicate
keys; the vectorised chunked scan agrees with a character-by-character one."""

from __future__ import annotations

import json
import random

import pytest

from scoring.core import jsonsafe, limits
from scoring.core.errors import InputError
from scoring.core.jsonsafe import Bounds, BoundsExceeded, check_bounds, loads_bounded


def stray_backslash(text: str) -> int:
    """Where the first backslash outside a string is (the parser stops there), else the length."""
    in_string = escape = False
    for i, c in enumerate(text):
        if in_string:
            if escape:
                escape = False
            elif c == "\\":
                escape = True
            elif c == '"':
                in_string = False
        elif c == "\\":
            return i
        elif c == '"':
            in_string = True
    return len(text)


def slow_bounds(text: str) -> tuple[int, int]:
    """(maximum depth, longest number-like run outside strings), one character at a time."""
    depth = best = run = longest = 0
    in_string = escape = False
    for c in text:
        if in_string:
            if escape:
                escape = False
            elif c == "\\":
                escape = True
            elif c == '"':
                in_string = False
            run = 0
            continue
        if c == '"':
            in_string, run = True, 0
            continue
        depth += (c in "[{") - (c in "]}")
        best = max(best, depth)
        run = run + 1 if c in "0123456789+-.eE" else 0
        longest = max(longest, run)
    return best, longest


def fast_bounds(text: str, cuts: list[int]) -> tuple[int, int]:
    """The same two numbers found by feeding Bounds the pieces between ``cuts``: the smallest
    limits it accepts."""
    def ok(d, n):
        b = Bounds(max_depth=d, max_number=n)
        try:
            for a, z in zip([0] + cuts, cuts + [len(text)], strict=True):
                b.feed(text[a:z])
        except BoundsExceeded:
            return False
        return True
    d = next(d for d in range(0, 40) if ok(d, 10_000))
    n = next(n for n in range(0, 40) if ok(10_000, n))
    return d, n


ALPHABET = ['[', ']', '{', '}', '"', '\\', '\\\\', '\\"', '1', '23', 'e', '-', ' ', ',', ':', 'x', '\n', 'é']


@pytest.mark.parametrize("slice_bytes", [1, 3, 1 << 17])
def test_chunked_scan_agrees_with_the_character_scan(monkeypatch, slice_bytes):
    monkeypatch.setattr(jsonsafe, "SLICE", slice_bytes)  # a chunk is also scanned in slices
    rng = random.Random(7)
    for _ in range(400):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 40)))
        # JSON has no backslash outside a string: the parser stops at one, so only the text
        # before it must be measured exactly (and the scan of the whole sees at least as much)
        stop = stray_backslash(text)
        cuts = sorted(rng.sample(range(stop + 1), k=min(stop + 1, rng.randint(0, 6))))
        assert fast_bounds(text[:stop], cuts) == slow_bounds(text[:stop]), (text[:stop], cuts)
        full = fast_bounds(text, [c for c in cuts if c < len(text)])
        assert full[0] >= slow_bounds(text[:stop])[0] and full[1] >= slow_bounds(text[:stop])[1]


def test_limits_name_themselves_and_the_line():
    with pytest.raises(InputError) as e:
        loads_bounded("[\n" * 150 + "]" * 150, what="pin")
    assert str(e.value) == ("pin: JSON nested deeper than 100 levels (LAB_MAX_JSON_DEPTH raises the limit), "
                            "line 101")
    with pytest.raises(InputError, match=r"^up\.json: JSON a number longer than 1000 characters "
                                         r"\(LAB_MAX_JSON_NUMBER_CHARS raises the limit\)"):
        loads_bounded(b"[" + b"9" * 5000 + b"]", what="up.json")
    # issue 28's reproducers: 100,000 levels and 5,000 digits are InputErrors, not RecursionError/ValueError
    with pytest.raises(InputError, match="nested deeper"):
        loads_bounded("[" * 100_000 + "]" * 100_000, what="x")
    with pytest.raises(BoundsExceeded) as e:  # the offset counts from the chunk's start across slices
        Bounds(max_depth=3).feed(" " * 300_000 + "[[[[1]]]]")
    assert e.value.offset == 300_003
    assert limits.MAX_JSON_DEPTH == 100 and limits.MAX_JSON_NUMBER_CHARS == 1000


def test_within_the_limits_it_is_json_loads():
    doc = {"a": [1, 2.5e-3, "x\\\"[[[[", {"b": None}], "deep": [[[[[[1]]]]]], "n": -12345678901234567890}
    text = json.dumps(doc)
    assert loads_bounded(text, what="x") == doc
    assert loads_bounded(text.encode("utf-16"), what="x") == doc
    assert loads_bounded(b"\xef\xbb\xbf" + text.encode(), what="x") == doc
    check_bounds("[" * 100 + "]" * 100, what="x")  # exactly at the limit
    # brackets and digits inside strings do not count
    check_bounds(json.dumps(["[" * 500 + "9" * 5000]), what="x")


def test_duplicate_keys_and_bad_text():
    with pytest.raises(InputError, match=r"^p: not valid JSON \(the key 'k' appears twice in one object\)$"):
        loads_bounded('[{"k": 1, "j": {"k": 0}, "k": 2}]', what="p")
    assert loads_bounded('{"k": 1, "k": 2}', what="p", duplicate_keys=True) == {"k": 2}
    with pytest.raises(InputError, match=r"^f.csv, row 4: not valid JSON \(line 1, column 2"):
        loads_bounded("[", what="f.csv", row=4)
    with pytest.raises(InputError, match="not UTF-8"):
        loads_bounded(b"\xff\xfe\x00\xd8garbage", what="f")


def test_custom_limits():
    with pytest.raises(InputError, match="deeper than 2 levels"):
        loads_bounded("[[[1]]]", what="x", max_depth=2)
    with pytest.raises(InputError, match="longer than 3 characters"):
        loads_bounded("[1234]", what="x", max_number_digits=3)
    assert loads_bounded("[[1]]", what="x", max_depth=2) == [[1]]
