"""A spotGEO JSON file read incrementally: entries parsed and validated as they arrive (spec §1).

The file is read in chunks of :data:`CHUNK` bytes, decoded (UTF-8/16/32, as ``json.loads``
detects them), and every chunk is scanned for the JSON limits (nesting depth, number length:
:mod:`scoring.core.jsonsafe`) before it is parsed. The top-level array is walked entry by
entry with the C parser (``JSONDecoder.raw_decode``, duplicate keys refused); every
:data:`BATCH` entries are validated at once by :func:`scoring.spotgeo.data.check_batch`
(vectorised) and kept only as compact arrays (ids, counts, coordinates), so a bad entry 1 is
reported after the first chunk, and memory stays a small multiple of the valid data (the
README's limits table gives the measured multiple) instead of ~35× the file.

Messages are those of a whole-file ``json.loads`` (line and column of the problem), then the
first bad entry in file order, exactly as before.
"""

from __future__ import annotations

import codecs
import io
import json
from pathlib import Path

import numpy as np

from ..core import limits
from ..core.errors import InputError
from ..core.jsonsafe import Bounds, BoundsExceeded, DuplicateKey, decoder, loads_bounded
from ..core.sources import source_bytes
from . import fastread
from .data import (
    BRIGHTNESS_KEY,
    KEYS,
    Frames,
    Invalid,
    brightness_of,
    check_batch,
    entry_error,
    frames_from_arrays,
)

CHUNK = 1 << 20  # bytes read at once
BATCH = 4096  # entries validated at once
_WS = " \t\n\r"
_KINDS = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}


def _open(src, name: str):
    """A binary stream of the source, within ``MAX_FILE_BYTES`` (checked before reading)."""
    if isinstance(src, (list, tuple)):
        try:
            return io.BytesIO(json.dumps(list(src)).encode())
        except (TypeError, ValueError) as e:
            raise InputError(name, None, f"not JSON data ({e})") from None
    if isinstance(src, (str, Path)):
        p = Path(src)
        if p.is_dir():
            raise InputError(name, None, "expected a JSON file, got a folder")
        if p.exists() and p.stat().st_size <= limits.MAX_FILE_BYTES:
            return p.open("rb")
    return io.BytesIO(source_bytes(src, name))  # the size check and its message


class NotJSON(InputError):
    """The text is not JSON, or breaks a JSON limit (entries before it are checked first)."""


class _Text:
    """The decoded text of a stream, held from the current entry on: ``buf[pos:]`` is unread;
    ``more()`` appends the next chunk (scanned for the JSON limits first). Keeps the line and
    column of ``buf[0]`` for messages."""

    def __init__(self, raw, name: str):
        self.raw, self.name = raw, name
        head = raw.read(4)
        try:
            enc = json.detect_encoding(head)
        except Exception:  # noqa: BLE001 - any undecodable start is "not text"
            enc = "utf-8"
        self.decode = codecs.getincrementaldecoder(enc)("strict").decode
        self.bounds = Bounds()
        self.buf, self.pos, self.eof = "", 0, False
        self.over: NotJSON | None = None  # a JSON limit broken further on
        self.line, self.col = 1, 1  # of buf[0]
        self._push(head)

    def _push(self, data: bytes) -> None:
        final = not data
        try:
            text = self.decode(data, final)
        except UnicodeDecodeError:
            raise InputError(self.name, None, "not valid JSON (not UTF-8, UTF-16 or UTF-32 text)") from None
        if not self.buf and self.line == 1 and self.col == 1 and text.startswith("\ufeff"):
            text = text[1:]  # a byte-order mark, as json.loads(bytes) allows
        try:
            self.bounds.feed(text)
        except BoundsExceeded as e:  # parse up to it: an earlier bad entry is the first problem
            self.over = NotJSON(self.name, None, f"JSON {e.problem}, line {e.line}")
            text = text.encode("utf-8", "surrogatepass")[:e.offset].decode("utf-8", "surrogatepass")
        self.buf += text
        self.eof = final

    def more(self, at_least: int = CHUNK) -> bool:
        """Read on (at least ``at_least`` bytes); False at the end of the file."""
        if self.over is not None:
            raise self.over
        if self.eof:
            return False
        self.trim()
        self._push(self.raw.read(max(at_least, CHUNK)))
        return True

    def trim(self) -> None:
        """Drop the text before ``pos``, keeping the line and column it ends at."""
        done = self.buf[:self.pos]
        nl = done.count("\n")
        if nl:
            self.line += nl
            self.col = len(done) - done.rfind("\n")
        else:
            self.col += len(done)
        self.buf, self.pos = self.buf[self.pos:], 0

    def skip_ws(self) -> str:
        """The next non-blank character ('' at the end of the file), ``pos`` on it."""
        while True:
            n = len(self.buf)
            while self.pos < n and self.buf[self.pos] in _WS:
                self.pos += 1
            if self.pos < n:
                return self.buf[self.pos]
            if not self.more():
                return ""

    def error(self, msg: str, at: int) -> InputError:
        before = self.buf[:at]
        nl = before.count("\n")
        line = self.line + nl
        col = (at - before.rfind("\n")) if nl else self.col + at
        return NotJSON(self.name, None, f"not valid JSON (line {line}, column {col}: {msg})")

    def rest(self) -> str:
        while self.more(1 << 30):
            pass
        return self.buf[self.pos:]


def _value(text: _Text, dec: json.JSONDecoder, index: int):
    """The JSON value at ``pos`` (an entry), reading on while it may be cut by the chunk end."""
    margin = limits.MAX_JSON_NUMBER_CHARS + 16  # a cut token fails within this of the end
    while True:
        try:
            value, end = dec.raw_decode(text.buf, text.pos)
        except json.JSONDecodeError as e:
            near_end = e.pos >= len(text.buf) - margin or e.msg.startswith("Unterminated string")
            if near_end and text.more(len(text.buf) - text.pos):  # double what is pending: linear overall
                continue
            raise text.error(e.msg, e.pos) from None
        except DuplicateKey as e:  # (a bad entry before it is still the first problem)
            raise NotJSON(text.name, None, f"entry {index + 1}: {e}") from None
        except RecursionError:  # pragma: no cover - the depth limit comes first
            raise InputError(text.name, None, "not valid JSON (nested too deeply)") from None
        if end >= len(text.buf) and text.more():  # a number (or literal) may go on
            continue
        text.pos = end
        return value


def read_frames(src, name: str, *, ground_truth: bool = False, report: list[str] | None = None) -> Frames:
    """Read, validate and return the :class:`~scoring.spotgeo.data.Frames` of one file (a path,
    bytes, a file-like or an already parsed list): piece by piece with numpy when it is written
    the usual way (:mod:`~.fastread`), else entry by entry (module doc) — the same frames
    either way, and every message from the entry-by-entry reader."""
    if isinstance(src, (list, tuple)):
        got = _from_parsed(src, name, ground_truth)
        if got is not None:
            return got
    raw = _open(src, name)
    try:
        fast = fastread.read_canonical(raw, brightness=ground_truth)
        if fast is not None:
            seq, frame, counts, xy, bright = fast
            try:
                out, point_order = frames_from_arrays(name, seq, frame, counts, xy)
            except InputError:
                pass  # a duplicate (sequence_id, frame): the entry-by-entry reader words it
            else:
                if bright is not None:
                    out.brightness = bright[point_order]
                return out
        raw.seek(0)
        return _read(_Text(raw, name), name, ground_truth, report)
    finally:
        raw.close()


def _from_parsed(entries, name: str, ground_truth: bool) -> Frames | None:
    """The frames of already parsed entries that hold exactly the keys of spec §1 (and a
    ground truth's well-formed brightness) and are valid — checked as the streaming reader
    checks a batch, without writing them out as JSON and reading them back; else None (then
    they are, so that every message is the streaming reader's)."""
    keys = set(KEYS)
    want = (keys, keys | {BRIGHTNESS_KEY}) if ground_truth else (keys,)
    if not entries or not all(type(e) is dict and e.keys() in want for e in entries):
        return None
    try:
        seq, frame, counts, xy = check_batch(list(entries))
        out, point_order = frames_from_arrays(name, seq, frame, counts, xy)
    except (Invalid, InputError):
        return None
    if ground_truth and any(BRIGHTNESS_KEY in e for e in entries):
        b, problem = brightness_of(entries, counts)
        if problem is not None:
            return None  # the warning is the streaming reader's to give
        out.brightness = b[point_order]
    return out


def _read(text: _Text, name: str, ground_truth: bool, report: list[str] | None) -> Frames:
    first = text.skip_ws()
    if first == "":
        raise InputError(name, None, "the file is empty")
    if first != "[":
        value = loads_bounded(text.rest(), what=name)
        raise InputError(name, None, f"expected a JSON array of entries, got {_KINDS.get(type(value), 'a number')}")
    text.pos += 1
    dec = decoder()
    parts: list[tuple] = []
    bright = _Brightness(name) if ground_truth else None
    batch: list = []
    n = 0
    try:
        c = text.skip_ws()
        if c == "]":
            text.pos += 1
        while c != "]":
            batch.append(_value(text, dec, n + len(batch)))
            c = text.skip_ws()
            if c == ",":
                text.pos += 1
                c = text.skip_ws()
                if c == "]":  # a trailing comma: the parser's own message
                    _value(text, dec, n + len(batch))
            elif c == "]":
                text.pos += 1
            else:
                raise text.error("Expecting ',' delimiter", text.pos)
            if len(batch) >= BATCH or c == "]":
                _add(parts, batch, n, name, bright)
                n += len(batch)
                batch = []
        if text.skip_ws() != "":
            raise text.error("Extra data", text.pos)
    except NotJSON:  # a bad entry before the bad text is the first problem
        _add(parts, batch, n, name, bright)
        if parts:
            frames_from_arrays(name, *(np.concatenate([p[k] for p in parts]) for k in range(4)))
        raise
    if n == 0:
        raise InputError(name, None, "the file has no entries (an empty array)")
    seq, frame, counts, xy = (np.concatenate([p[k] for p in parts]) for k in range(4))
    out, point_order = frames_from_arrays(name, seq, frame, counts, xy)
    if bright is not None:
        b = bright.result(report)
        if b is not None:
            out.brightness = b[point_order]
    return out


def _add(parts: list, batch: list, offset: int, name: str, bright) -> None:
    """Validate a batch of entries (file positions ``offset`` on) and keep it as arrays."""
    if not batch:
        return
    try:
        arrays = check_batch(batch)
    except Invalid as bad:  # the first bad entry; an earlier duplicate (sequence_id, frame) comes first
        i = bad.index
        seq = np.concatenate([p[0] for p in parts] + [np.array([e["sequence_id"] for e in batch[:i]], np.int64)])
        frame = np.concatenate([p[1] for p in parts] + [np.array([e["frame"] for e in batch[:i]], np.int64)])
        frames_from_arrays(name, seq, frame, np.zeros(len(seq), np.int64), np.zeros((0, 2)))  # raises on one
        raise entry_error(name, offset + i, batch[i], bad.problem) from None
    parts.append(arrays)
    if bright is not None:
        bright.add(batch, arrays[2], offset)


class _Brightness:
    """The optional ``object_brightness`` of a ground truth, gathered batch by batch: used when
    every entry has it well formed, else ignored with a warning naming the first entry that
    lacks it (extra keys never make a file invalid)."""

    def __init__(self, name: str):
        self.name, self.seen, self.problem, self.values = name, False, None, []

    def add(self, batch: list, counts: np.ndarray, offset: int) -> None:
        self.seen = self.seen or any(BRIGHTNESS_KEY in e for e in batch)
        if self.problem is None:
            vals, problem = brightness_of(batch, counts, offset)
            self.problem = problem
            self.values.append(vals)

    def result(self, report: list[str] | None) -> np.ndarray | None:
        if not self.seen:
            return None
        if self.problem is not None:
            if report is not None:
                report.append(f"{self.name}: {BRIGHTNESS_KEY} ignored ({self.problem})")
            return None
        return np.concatenate(self.values)
