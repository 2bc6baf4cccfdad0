"""Mangled text for the families' fuzz tests: one to four random edits (delete a character,
insert a piece of the family's alphabet, swap two characters), seeded by the caller's ``rng``;
and :func:`edge_numbers`, numbers swapped for ones at the edge of float (the link fuzzer's and
the Custom fuzzer's, issue 39)."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence


def mangle(text: str, rng: random.Random, alphabet: Sequence[str]) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        i = rng.randrange(len(chars) + 1)
        if op < 0.4 and chars:
            del chars[min(i, len(chars) - 1)]
        elif op < 0.8:
            chars.insert(i, rng.choice(alphabet))
        elif chars:
            j = rng.randrange(len(chars))
            chars[min(i, len(chars) - 1)], chars[j] = chars[j], chars[min(i, len(chars) - 1)]
    return "".join(chars)


#: numbers at the edge of float (issue 39): near the largest, past it, integers of hundreds of
#: digits (what a JSON recipe or a link can hold), hex and underscores (what TOML reads), subnormal
EDGE_NUMBERS = ["1e308", "-1e308", "1.7976931348623157e308", "-1.7976931348623157e308", "1e-308", "5e-324", "-0",
                "9" * 400, "-" + "9" * 400, "0x" + "f" * 300, "1" + "_000" * 120, "1e309", str(2 ** 1024)]
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])")


def edge_numbers(text: str, rng: random.Random, k: int = 2) -> str:
    """``text`` with up to ``k`` of its numbers (seeded picks) replaced by :data:`EDGE_NUMBERS`."""
    spots = list(_NUMBER.finditer(text))
    for m in sorted(rng.sample(spots, min(k, len(spots))), key=lambda m: -m.start()):
        text = text[:m.start()] + rng.choice(EDGE_NUMBERS) + text[m.end():]
    return text
