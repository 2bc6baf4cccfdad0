"""The registry of sentence kinds: one entry per kind of sentence the product writes from its
numbers, the function that writes it, the result object whose numbers it states, and where it
is shown. ``tests/claims`` holds a seeded property test for every entry (a test fails when a
kind has none)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar


@dataclass(frozen=True)
class Kind:
    """One kind of sentence.

    Attributes
    ----------
    name : str
        ``area.kind``, e.g. ``shakeup.advice``.
    write : callable
        The function that writes it (its arguments: the result object and words).
    states : str
        The result object whose numbers the sentence states, e.g. ``advice_from()'s record``.
    shown : tuple of str
        Where a reader meets it (page, command line, JSON, report).
    """

    name: str
    write: Callable[..., object]
    states: str
    shown: tuple[str, ...]


KINDS: dict[str, Kind] = {}

F = TypeVar("F", bound=Callable[..., object])


def claim(name: str, *, states: str, shown: tuple[str, ...]) -> Callable[[F], F]:
    """Register the decorated function as the writer of the sentence kind ``name``."""

    def register(fn: F) -> F:
        if name in KINDS:
            raise ValueError(f"expected a new sentence kind, got {name!r} twice")
        KINDS[name] = Kind(name, fn, states, tuple(shown))
        return fn

    return register
