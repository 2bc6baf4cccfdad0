"""Whether this process holds the compiled loops of :mod:`.kernels` (numba).

A leaf module (it imports nothing of the package), so that both the reader
(:mod:`.fastscan`, which decides when to load them) and the pairing
(:mod:`.segments`, :mod:`.fp1`, which use them once they are loaded) can ask.
"""

from __future__ import annotations

_compiled: list = []  # [the kernels module, or None where numba is missing], found on first use


def _import_kernels():
    try:
        from . import kernels
    except ImportError:  # pragma: no cover - numba missing: the numpy code
        return None
    return kernels


def compiled():
    """:mod:`.kernels` (numba), imported on first use; None where numba is missing."""
    if not _compiled:
        _compiled.append(_import_kernels())
    return _compiled[0]


def loaded():
    """:mod:`.kernels` when this process has imported it already, else None (never imports)."""
    return _compiled[0] if _compiled else None
