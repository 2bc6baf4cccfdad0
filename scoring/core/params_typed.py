"""A family's parameters once validated: :class:`Params`, a read-only ``dict`` that remembers
the :class:`~scoring.core.params.ParamSpec` that checked it (so passing it on does not check
it again), and :func:`given`, the one mapping of ``f(p, **named)``.

The split is one-way: ``scoring.core.params`` imports this module, never the reverse; what a
``Params`` needs of its spec is the :class:`Checker` protocol (``ParamSpec`` has it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class Checker(Protocol):
    """What :class:`Params` asks of the spec that checked it (``scoring.core.params.ParamSpec``)."""

    def validate(self, values: Mapping[str, Any] | None = None, *,
                 context: Mapping[str, Sequence[str]] | None = None) -> Params: ...

    def context_key(self, context: Mapping[str, Sequence[str]] | None) -> tuple | None: ...


def given(values: Mapping[str, Any] | None, named: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """Parameters passed as one mapping and by name (``f(p, w=0.5)``), as one mapping: the
    mapping itself when none is named, so checked :class:`Params` pass on unchecked again.

    >>> given({"w": 0.5}, {}), given({"w": 0.5}, {"alpha": 1})
    ({'w': 0.5}, {'w': 0.5, 'alpha': 1})
    """
    return values if not named else {**(values or {}), **named}


class Params(dict):
    """A family's parameters, validated: a read-only ``dict`` (so ``**p`` and JSON work) that
    remembers the :class:`ParamSpec` that checked it and the data values it was checked
    against, so that passing it on does not validate it again (``ParamSpec.validate`` returns
    it as it is). Values read as attributes too (``p.w``). A change is a new object, validated:
    :meth:`replace`. Pickled (e.g. to a worker process) it is a plain ``dict``.
    """

    __slots__ = ("spec", "context")

    def __init__(self, values: Mapping[str, Any], *, spec: Checker, context: tuple | None = None):
        super().__init__(values)
        self.spec = spec
        self.context = context

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def _read_only(self, *args, **kwargs):
        raise TypeError("Params are read-only: use .replace(name=value) (validated) or dict(params)")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self):
        return dict, (dict(self),)

    def __copy__(self) -> Params:
        return self

    def __deepcopy__(self, memo) -> Params:
        return self

    def fits(self, context: Mapping[str, Sequence[str]] | None) -> bool:
        """Whether these values were checked against the data values of ``context`` (None:
        nothing to check against)."""
        return context is None or self.context == self.spec.context_key(context)

    def replace(self, **changes) -> Params:
        """These parameters with ``changes``, validated (against the same data values)."""
        ctx = None if self.context is None else dict(self.context)
        return self.spec.validate({**self, **changes}, context=ctx)

    def derive(self, **changes) -> Params:
        """These parameters with values an engine resolved from them (e.g. "the data's
        weights" spelled out), not validated again: for the engine's own resolution steps."""
        return Params({**self, **changes}, spec=self.spec, context=self.context)
