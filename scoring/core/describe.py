"""The families' reference page, written from their declarations (``python -m scoring docs``).

``docs/families.md`` is this output; a test keeps the committed file equal to it, so the
documented inputs, parameters, ranges, defaults, stages and columns are the ones the code
uses.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from .family import Family
from .params import Param


def _value(v) -> str:
    if v is None or v == () or v == []:
        return "—"
    if isinstance(v, float) and math.isinf(v):
        return "∞"
    if isinstance(v, bool):
        return "on" if v else "off"
    if isinstance(v, (tuple, list)):
        return ", ".join(map(str, v))
    return f"{v:g}" if isinstance(v, float) else str(v)


def _param_row(p: Param) -> str:
    valid = p.expected
    if p.slider is not None:
        lo, hi, step = p.slider
        scale = 100 if p.percent else 1
        unit = " %" if p.percent else ""
        shown = f"{lo * scale:g}–{hi * scale:g}{unit}, step {step * scale:g}"
    else:
        shown = "—"
    flag = p.cli_negative or p.flag or "—"
    choices = ""
    if p.kind == "choice" and p.choices:
        choices = " (" + ", ".join(f"`{c}`" + (f" {p.choice_labels[c]}" if c in p.choice_labels else "")
                                  for c in p.choices) + ")"
    elif p.choices_from:
        choices = f" (from the data: {p.choices_from})"
    return (f"| `{p.name}` | {_value(p.default)} | {valid}{choices} | {shown} | `{flag}` | "
            f"{p.help.replace('|', '/')} |")


def family_markdown(fam: Family) -> str:
    """One family's section: inputs, parameters, stages and the CSV columns."""
    lines = [f"## {fam.title} (`{fam.name}`)", "", f"{fam.summary[:1].upper() + fam.summary[1:]}. "
             f"Scoring unit: the {fam.unit}.", "",
             f"`python -m scoring {fam.name} leaderboard …`" + (
                 f"; other commands: {', '.join(f'`{c}`' for c in fam.commands)}" if fam.commands else ""), "",
             "| input | option | required | what |", "|---|---|---|---|"]
    for i in fam.inputs:
        lines.append(f"| {i.label} | `{i.flag}` | {'yes' if i.required else 'no'} | {i.help.replace('|', '/')} |")
    lines += ["", "| parameter | default | valid values | sidebar slider | option | what |",
              "|---|---|---|---|---|---|"]
    lines += [_param_row(p) for p in fam.params]
    lines += ["", "| stage | column | rank column | better |", "|---|---|---|---|"]
    for s in fam.stages:
        lines.append(f"| {s.label} | `{s.id}` | `{s.rank}` | {'higher' if s.higher_is_better else 'lower'} |")
    lines += ["", "CSV columns, in order: " + ", ".join(f"`{c}`" for c in fam.columns) + "."]
    return "\n".join(lines) + "\n"


def families_markdown(families: Iterable[Family]) -> str:
    head = ("# Metric families\n\nWritten by `python -m scoring docs` from each family's declaration "
            "(`scoring/<family>/`); do not edit by hand. The formulas are in each family's own page "
            "(`docs/metric.md` for Shovel-Ready).\n\n")
    return head + "\n".join(family_markdown(f) for f in families)
