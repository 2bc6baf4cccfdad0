"""The figures of ``--help``: each option's help ends in its default, written from the
parameter's declaration (``scoring.core.params.Param``) — the value the command uses when the
option is left out."""

from __future__ import annotations

from typing import Any

from .registry import claim


def default_text(p: Any) -> str:
    """The default as the command line writes it: ``0.5``, ``iou``, ``none``, ``a,b``, ``on``."""
    if p.kind == "bool":
        return "on" if p.default else "off"
    default = p.to_json(p.default)
    if default in (None, [], ()):
        return "none"
    return ",".join(map(str, default)) if isinstance(default, list) else str(default)


@claim("help.option", states="the parameter's declaration (Param: help, default)",
       shown=("CLI: every command's --help",))
def option(p: Any) -> str:
    """The option's help: the declaration's words, then ``(default X)`` — none for a required
    option, nor for one whose words state their own default (a default derived from other
    options: "(default 7, or one more than the thresholds …)")."""
    return p.help if p.cli_required or "(default " in p.help else f"{p.help} (default {default_text(p)})"
