"""JSON from users, read with bounded nesting and number length, and without duplicate keys.

Python's :mod:`json` turns a document nested 100,000 levels deep into a ``RecursionError``
and an integer of 5,000 digits into a ``ValueError`` (the interpreter's int-string limit), and
quietly keeps the last of two equal keys of an object. Everything here checks the text
*before* it is parsed, in one vectorised pass (:class:`Bounds`, which also reads a stream
chunk by chunk), and refuses with an :class:`~scoring.core.errors.InputError` that names the
file or parameter, the line, and the limit with its ``LAB_*`` variable
(:data:`~scoring.core.limits.MAX_JSON_DEPTH`, :data:`~scoring.core.limits.MAX_JSON_NUMBER_CHARS`).

Use :func:`loads_bounded` wherever JSON comes from a user: uploads, link parameters
(``pin=``), presets, recipes, JSON cells of a CSV::

    from scoring.core.jsonsafe import loads_bounded
    value = loads_bounded(text, what="pin")                  # InputError("pin", None, ...)
    value = loads_bounded(cell, what="gt.csv", row=7)        # "gt.csv, row 7: ..."

A long stream (spotGEO's ground truth) feeds :class:`Bounds` chunk by chunk and parses with
:func:`decoder` (the same duplicate-key rule), see ``scoring/spotgeo/stream.py``.
"""

from __future__ import annotations

import json
import re

import numpy as np

from . import limits
from .errors import InputError

_OPEN = np.zeros(256, dtype=np.int8)
_OPEN[[ord("["), ord("{")]] = 1
_OPEN[[ord("]"), ord("}")]] = -1
_NUMBER = np.zeros(256, dtype=bool)
_NUMBER[[ord(c) for c in "0123456789+-.eE"]] = True
_QUOTE, _BACKSLASH, _NEWLINE = ord('"'), ord("\\"), ord("\n")
SLICE = 1 << 17  # bytes scanned at once (the scan's arrays: ~20 bytes per byte)


class DuplicateKey(ValueError):
    """An object of the document holds one key twice (raised while parsing)."""

    def __init__(self, key: str):
        self.key = key
        shown = key if len(key) <= 40 else key[:37] + "..."
        super().__init__(f"the key {shown!r} appears twice in one object")


def _no_duplicates(pairs: list) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set = set()
        for k, _ in pairs:
            if k in seen:
                raise DuplicateKey(k)
            seen.add(k)
    return out


def decoder() -> json.JSONDecoder:
    """A :class:`json.JSONDecoder` that raises :class:`DuplicateKey` for an object with one
    key twice (the standard one keeps the last silently).

    >>> decoder().decode('{"a": 1, "b": {"c": 2}}')
    {'a': 1, 'b': {'c': 2}}
    >>> decoder().decode('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    scoring.core.jsonsafe.DuplicateKey: the key 'a' appears twice in one object
    """
    return json.JSONDecoder(object_pairs_hook=_no_duplicates)


_DECODER = decoder()


class BoundsExceeded(ValueError):
    """The text goes deeper than ``max_depth`` or holds a number longer than ``max_number``
    characters; ``line`` (1-based) is where, ``offset`` the byte of the chunk (UTF-8)."""

    def __init__(self, problem: str, line: int, offset: int = 0):
        self.problem, self.line, self.offset = problem, line, offset
        super().__init__(f"line {line}: {problem}")


class Bounds:
    """A vectorised scan of JSON text, fed in chunks of any size: the nesting depth (``[``/``{``
    outside strings) and the length of every number-like run outside strings (digits, signs,
    ``.``, ``e``) must stay within the limits. It does not check that the text is JSON (the
    parser does that); it only makes sure the parser can neither recurse deeper nor meet a
    number longer than the limits. The state between chunks: inside a string or not, an
    escaping backslash pending, the depth, the current number run, lines seen.

    >>> b = Bounds(max_depth=2, max_number=3)
    >>> b.feed('[["a]]]]\\\\"", 123], ')
    >>> b.feed('[[1]]]')
    Traceback (most recent call last):
    ...
    scoring.core.jsonsafe.BoundsExceeded: line 1: nested deeper than 2 levels (LAB_MAX_JSON_DEPTH raises the limit)
    """

    def __init__(self, *, max_depth: int | None = None, max_number: int | None = None):
        self.max_depth = limits.MAX_JSON_DEPTH if max_depth is None else int(max_depth)
        self.max_number = limits.MAX_JSON_NUMBER_CHARS if max_number is None else int(max_number)
        self.in_string = False
        self.escape = False  # the previous chunk ended in an odd run of backslashes inside a string
        self.depth = 0
        self.run = 0  # length of the number-like run the previous chunk ended in
        self.lines = 0  # newlines seen before this chunk

    def feed(self, chunk: str | bytes) -> None:
        """Scan the next chunk (text, or UTF-8 bytes); raise :class:`BoundsExceeded`. A long
        chunk is scanned in slices of :data:`SLICE` bytes, so the scan's own arrays stay small."""
        data = chunk.encode("utf-8", "surrogatepass") if isinstance(chunk, str) else bytes(chunk)
        for a in range(0, len(data), SLICE):
            try:
                self._scan(np.frombuffer(data, dtype=np.uint8, count=min(SLICE, len(data) - a), offset=a))
            except BoundsExceeded as e:
                e.offset += a
                raise

    def _scan(self, b: np.ndarray) -> None:
        n = len(b)
        pos = np.arange(n, dtype=np.int32)
        # quotes escaped by an odd run of backslashes (a run reaching the chunk's start adds the carry)
        bs = b == _BACKSLASH
        last_other = np.maximum.accumulate(np.where(bs, -1, pos))
        q = np.flatnonzero(b == _QUOTE)
        before = q - 1 - np.where(q > 0, last_other[np.maximum(q - 1, 0)], -1)
        before = before + ((before == q) & self.escape)  # the run started in the previous chunk
        real = q[before % 2 == 0]
        # inside a string after position i: the state toggles at every real quote
        toggles = np.zeros(n, dtype=np.int32)
        toggles[real] = 1
        inside = (np.cumsum(toggles, dtype=np.int32) + self.in_string) % 2 == 1
        outside = ~inside
        outside[real] = True  # a quote itself is neither a bracket nor a digit
        step = np.where(outside, _OPEN[b], 0).astype(np.int32)
        depth = np.cumsum(step, dtype=np.int32) + self.depth
        over = np.flatnonzero(depth > self.max_depth)
        if len(over):
            raise BoundsExceeded(f"nested deeper than {self.max_depth} levels (LAB_MAX_JSON_DEPTH raises the limit)",
                                 self._line(b, int(over[0])), int(over[0]))
        num = outside & _NUMBER[b]
        last_break = np.maximum.accumulate(np.where(num, -1, pos))
        run = pos - last_break + np.where(last_break < 0, self.run, 0)
        long = np.flatnonzero(num & (run > self.max_number))
        if len(long):
            raise BoundsExceeded(f"a number longer than {self.max_number} characters "
                                 "(LAB_MAX_JSON_NUMBER_CHARS raises the limit)", self._line(b, int(long[0])),
                                 int(long[0]))
        # carry the state to the next chunk
        self.in_string = bool(inside[-1])
        tail = n - 1 - int(last_other[-1])  # backslashes at the end of the chunk
        self.escape = bool(self.in_string and ((tail + (self.escape if tail == n else 0)) % 2 == 1))
        self.depth = int(depth[-1])
        self.run = int(run[-1]) if num[-1] else 0
        self.lines += int(np.count_nonzero(b == _NEWLINE))

    def _line(self, b: np.ndarray, i: int) -> int:
        return self.lines + int(np.count_nonzero(b[:i] == _NEWLINE)) + 1


def _cheap_ok(text: str, max_depth: int, max_number: int) -> bool:
    """True when a short text cannot break the limits (no scan needed): few enough brackets
    and no run of number characters as long as the limit anywhere."""
    if text.count("[") + text.count("{") <= max_depth and len(text) <= max_number:
        return True
    return text.count("[") + text.count("{") <= max_depth and _long_run(max_number).search(text) is None


_RUNS: dict[int, re.Pattern] = {}


def _long_run(n: int) -> re.Pattern:
    if n not in _RUNS:
        _RUNS[n] = re.compile(r"[0-9+\-.eE]{" + str(n + 1) + "}")
    return _RUNS[n]


def check_bounds(text: str | bytes, *, what: str, row: int | None = None, max_depth: int | None = None,
                 max_number_digits: int | None = None) -> None:
    """Raise an :class:`InputError` naming ``what`` (and ``row``) when ``text`` nests deeper
    than ``max_depth`` or holds a number longer than ``max_number_digits`` characters
    (defaults: :data:`~scoring.core.limits.MAX_JSON_DEPTH`, :data:`~scoring.core.limits.MAX_JSON_NUMBER_CHARS`).

    >>> check_bounds("[" * 500 + "]" * 500, what="pin")
    Traceback (most recent call last):
    ...
    scoring.core.errors.InputError: pin: JSON nested deeper than 100 levels (LAB_MAX_JSON_DEPTH raises the limit), line 1
    """
    depth = limits.MAX_JSON_DEPTH if max_depth is None else int(max_depth)
    number = limits.MAX_JSON_NUMBER_CHARS if max_number_digits is None else int(max_number_digits)
    if isinstance(text, str) and _cheap_ok(text, depth, number):
        return
    try:
        Bounds(max_depth=depth, max_number=number).feed(text)
    except BoundsExceeded as e:
        raise InputError(what, row, f"JSON {e.problem}, line {e.line}") from None


def check_tree(doc, *, what: str, max_depth: int | None = None) -> None:
    """Raise an :class:`InputError` naming ``what`` when a parsed document (dicts and lists)
    nests deeper than ``max_depth`` (:data:`~scoring.core.limits.MAX_JSON_DEPTH`): for a
    format whose text the scan of :func:`check_bounds` cannot bound, such as TOML, where the
    dotted key ``a.b.c = 1`` nests without a bracket. Iterative (no recursion to exhaust).

    >>> check_tree({"a": {"b": [1, {"c": 2}]}}, what="recipe.toml", max_depth=4)
    >>> deep = {}
    >>> node = deep
    >>> for _ in range(3000):
    ...     node["k"] = node = {}
    >>> check_tree(deep, what="recipe.toml")
    Traceback (most recent call last):
    ...
    scoring.core.errors.InputError: recipe.toml: nested deeper than 100 levels (LAB_MAX_JSON_DEPTH raises the limit)
    """
    depth = limits.MAX_JSON_DEPTH if max_depth is None else int(max_depth)
    stack = [(doc, 1)]
    while stack:
        node, level = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        for child in children:
            if isinstance(child, (dict, list)):
                if level + 1 > depth:
                    raise InputError(what, None, f"nested deeper than {depth} levels (LAB_MAX_JSON_DEPTH raises "
                                                 "the limit)")
                stack.append((child, level + 1))


def loads_bounded(text: str | bytes, *, what: str, row: int | None = None, max_depth: int | None = None,
                  max_number_digits: int | None = None, duplicate_keys: bool = False):
    """``json.loads`` for text from a user: bounded depth and number length checked first
    (:func:`check_bounds`), duplicate keys refused (unless ``duplicate_keys``), and every
    failure an :class:`InputError` naming ``what`` (a file or parameter) and ``row`` (a
    spreadsheet row, or None) — never a ``RecursionError`` or ``ValueError``.

    >>> loads_bounded('{"tau": 5, "rules": "seed"}', what="pin")
    {'tau': 5, 'rules': 'seed'}
    >>> loads_bounded("[" + "9" * 5000 + "]", what="gt.json")
    Traceback (most recent call last):
    ...
    scoring.core.errors.InputError: gt.json: JSON a number longer than 1000 characters (LAB_MAX_JSON_NUMBER_CHARS raises the limit), line 1
    >>> loads_bounded('{"a": 1, "a": 2}', what="x.csv", row=3)
    Traceback (most recent call last):
    ...
    scoring.core.errors.InputError: x.csv, row 3: not valid JSON (the key 'a' appears twice in one object)
    """
    if isinstance(text, (bytes, bytearray, memoryview)):
        raw = bytes(text)
        try:
            text = raw.decode(json.detect_encoding(raw))
        except (UnicodeDecodeError, LookupError):
            raise InputError(what, row, "not valid JSON (not UTF-8, UTF-16 or UTF-32 text)") from None
        if text.startswith("\ufeff"):
            text = text[1:]
    check_bounds(text, what=what, row=row, max_depth=max_depth, max_number_digits=max_number_digits)
    try:
        if duplicate_keys:
            return json.loads(text)
        return _DECODER.decode(text)
    except json.JSONDecodeError as e:
        raise InputError(what, row, f"not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except DuplicateKey as e:
        raise InputError(what, row, f"not valid JSON ({e})") from None
    except (RecursionError, ValueError) as e:  # not reachable within the bounds; kept as a last guard
        raise InputError(what, row, f"not valid JSON ({type(e).__name__})") from None
