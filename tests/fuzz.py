"""Mangled text for the families' fuzz tests: one to four random edits (delete a character,
insert a piece of the family's alphabet, swap two characters), seeded by the caller's ``rng``."""

from __future__ import annotations

import random
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
