"""The docs check: every path, file, module, command and option that README.md and docs/*.md name
exists in this repository and parses, and every figure the README quotes from a benchmark or a
simulation names the command and the design it came from. ``check_text(text, doc)`` returns the
problems of one document, each naming the document, the line and the problem
(``tests/test_docs_check.py`` runs it on every document and on deliberately broken copies).

What counts as what (in code spans, code blocks and link targets):

- a **path**: a token starting with a top-level entry of the repository (``scoring/``,
  ``docs/``, ``app.py``, ``requirements*.txt``, …), or a relative link target; ``<family>``,
  ``<team>`` and ``*`` stand for any match. A path that leaves the repository (``../``,
  ``/work/``, ``shared/``) is always a problem;
- a **module**: ``scoring.x.y`` (also ``lab.``, ``tests.``, ``benchmarks.``), an attribute
  allowed at its end (``scoring.core.jsonsafe.loads_bounded``, ``scoring.fp1_score(…)``);
- a **command**: ``python -m scoring <family> <command> --option …`` (the family and command
  exist, each option is one that command's ``--help`` lists; ``<family>``: every family),
  ``python -m benchmarks NAME [--option]``, ``python -m tests.… [--option]``, ``pytest PATH``;
- an **option**: a code span that starts with ``--``: some command lists it.
"""

from __future__ import annotations

import argparse
import functools
import glob
import importlib
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOP = ("app.py", "scoring/", "lab/", "pages/", "tests/", "docs/", "sample_data/", "benchmarks/", ".ci/",
       ".streamlit/", "requirements", "pyproject.toml", "README.md")
OUTSIDE = re.compile(r"(^|[\s(`'\"])(\.\./|/work/|shared/(?:SPEC|specs|seeds|real))")
PLACEHOLDERS = {"<family>": ("shovel_ready", "spotgeo", "qa", "difficulty", "custom", "competition"),
                "<team>": ("*",)}
MODULE = re.compile(r"^(scoring|lab|tests|benchmarks)(\.[A-Za-z_]\w*)+(\(.*\))?$")


def spans(text: str) -> list[tuple[int, str]]:
    """``(line, content)`` of every inline code span and every line of a code block (a line
    ending in ``\\`` joined to the next)."""
    out, block, joined, start = [], False, "", 0
    for i, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith("```"):
            block = not block
            continue
        if block:
            if not joined:
                start = i
            joined += line.rstrip("\\").rstrip() + " " if line.rstrip().endswith("\\") else line
            if not line.rstrip().endswith("\\"):
                out.append((start, joined.strip()))
                joined = ""
            continue
        out += [(i, s) for s in re.findall(r"`([^`\n]+)`", line)]
    return out


def links(text: str) -> list[tuple[int, str]]:
    """``(line, target)`` of every markdown link to a file (not in code; not a web address or an anchor)."""
    out, block = [], False
    for i, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith("```"):
            block = not block
        if block:
            continue
        prose = re.sub(r"`[^`\n]*`", "", line)
        out += [(i, t) for t in re.findall(r"\]\(([^)\s]+)\)", prose) if not re.match(r"[a-z]+:|#", t)]
    return out


def _exists(path: str, base: Path) -> bool:
    path = path.split("#")[0].rstrip(":,.;")
    options = [path]
    for key, values in PLACEHOLDERS.items():
        if key in path:
            options = [o.replace(key, v) for o in options for v in values]
    options = [re.sub(r"<[^>]+>", "*", o) for o in options]  # any other placeholder: anything
    return any(glob.glob(str(base / o)) for o in options)


@functools.cache
def scoring_options() -> dict[tuple[str, str], set[str]]:
    """``(family, command) -> options`` of every ``python -m scoring`` command (family ``""``:
    the commands without a family; command ``""``: the family's own options)."""
    from scoring.cli import build_parser

    out: dict[tuple[str, str], set[str]] = {}

    def sub_choices(parser):
        acts = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        return acts[0].choices if acts else {}

    for name, fp in sub_choices(build_parser()).items():
        inner = sub_choices(fp)
        if inner:
            for cmd, cp in inner.items():
                out[(name, cmd)] = {o for a in cp._actions for o in a.option_strings}
        else:
            out[("", name)] = {o for a in fp._actions for o in a.option_strings}
    return out


@functools.cache
def help_options(*module_and_args: str) -> frozenset[str]:
    """The options a ``python -m MODULE ARGS --help`` lists (a benchmark, a test script)."""
    r = subprocess.run([sys.executable, "-m", *module_and_args, "--help"], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    return frozenset(re.findall(r"(?<![\w-])(--[a-z][\w-]*)", r.stdout))


@functools.cache
def benchmark_names() -> frozenset[str]:
    r = subprocess.run([sys.executable, "-m", "benchmarks", "--list"], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    return frozenset(r.stdout.split())


@functools.cache
def report_options() -> dict[str, set[str]]:
    """``family -> options`` of ``python -m lab.report <family>`` (the report's own command)."""
    from lab.report.__main__ import build_parser

    acts = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return {fam: {o for a in fp._actions for o in a.option_strings} for fam, fp in acts[0].choices.items()}


def every_option() -> set[str]:
    """Every option of the project's commands: ``python -m scoring``, ``python -m lab.report``, and
    the exported program's ``score.py`` (docs/export.md)."""
    from scoring.export.program import codabench_parser

    exported = {o for a in codabench_parser()._actions for o in a.option_strings}
    return set().union(*scoring_options().values(), *report_options().values(), exported)


def _module(token: str) -> str | None:
    """The problem of a dotted name that is not importable (None: it is)."""
    name = re.sub(r"\(.*\)$", "", token)
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        for attr in parts[k:]:
            if not hasattr(obj, attr):
                return f"module {token!r}: {'.'.join(parts[:k])} has no {attr!r}"
            obj = getattr(obj, attr)
        return None
    return f"module {token!r} cannot be imported"


def _options(tokens: list[str]) -> list[str]:
    return [t.strip("[]").split("=")[0] for t in tokens if t.strip("[]").startswith("--")]


def _command(cmd: str) -> list[str]:
    """The problems of one command line."""
    try:
        tokens = shlex.split(cmd.replace("…", " ").replace("|", " "))
    except ValueError:
        tokens = cmd.split()
    tokens = [t for t in tokens if t not in ("...",)]
    if "-m" in tokens:
        tokens = tokens[tokens.index("-m") + 1:]
    elif not (tokens and tokens[0].endswith("pytest")):
        return []
    if not tokens:
        return []
    if tokens[0].endswith("pytest"):
        paths = [t for t in tokens[1:] if not t.startswith("-") and "/" in t]
        return [f"pytest path {p!r} does not exist" for p in paths if not _exists(p, ROOT)]
    module, rest = tokens[0], tokens[1:]
    if module == "scoring":
        table = scoring_options()
        words = [t for t in rest if not t.startswith("-")]
        if not words:
            return []
        fams = {f for f, _ in table if f}
        if words[0] in fams or words[0] == "<family>":
            fam_list = sorted(fams) if words[0] == "<family>" else [words[0]]
            if len(words) < 2:
                return []
            cmd_name = words[1]
        else:
            fam_list, cmd_name = [""], words[0]
        problems = []
        for fam in fam_list:
            key = (fam, cmd_name)
            if key not in table:
                problems.append(f"command 'python -m scoring {fam} {cmd_name}' does not exist".replace("  ", " "))
                continue
            for opt in _options(rest):
                if opt not in table[key]:
                    problems.append(f"option {opt} is not in 'python -m scoring {fam} {cmd_name} --help'"
                                    .replace("  ", " "))
        return problems
    if module == "lab.report":
        table = report_options()
        words = [t for t in rest if not t.startswith("-")]
        if not words:
            return []
        fam_list = sorted(table) if words[0] == "<family>" else [words[0]]
        problems = []
        for fam in fam_list:
            if fam not in table:
                problems.append(f"command 'python -m lab.report {fam}' does not exist")
                continue
            problems += [f"option {o} is not in 'python -m lab.report {fam} --help'" for o in _options(rest)
                         if o not in table[fam]]
        return problems
    if module == "benchmarks":
        name = rest[0] if rest and not rest[0].startswith("-") else "shovel-ready"
        if name in ("NAME", "…") or re.search(r"[<\[]", name):  # a placeholder
            return []
        if name not in benchmark_names():
            return [f"benchmark {name!r} does not exist (python -m benchmarks --list)"]
        opts = [o for o in _options(rest) if o != "--list"]
        known = help_options("benchmarks", name) if opts else frozenset()
        return [f"option {o} is not in 'python -m benchmarks {name} --help'" for o in opts if o not in known]
    if module.startswith("tests"):
        problem = _module(module)
        if problem:
            return [problem]
        opts = _options(rest)
        known = help_options(module) if opts else frozenset()
        return [f"option {o} is not in 'python -m {module} --help'" for o in opts if o not in known]
    return []


def check_text(text: str, doc: Path) -> list[str]:
    """Every problem of one document (module doc)."""
    where = doc.relative_to(ROOT) if doc.is_absolute() else doc
    base = (ROOT / where).parent
    problems = []
    for i, line in enumerate(text.splitlines(), start=1):
        m = OUTSIDE.search(line)
        if m:
            problems.append(f"{where}, line {i}: names {m.group(2)!r}, outside the repository")
    for i, target in links(text):
        if not _exists(target, base):
            problems.append(f"{where}, line {i}: the link {target!r} leads to no file of the repository")
    options = every_option()
    for i, s in spans(text):
        s = s.strip()
        if "python -m " in s or s.startswith(("pytest ", ".venv/bin/python", "python3 ")):
            for cmd in re.split(r"&&|;", s):
                if "python -m " in cmd or cmd.strip().startswith("pytest "):
                    problems += [f"{where}, line {i}: {p}" for p in _command(cmd.split("#")[0])]
            continue
        token = s.split()[0] if s.split() else ""
        if token.startswith(TOP) and not token.startswith("tests/<family>/reference") or token.startswith(
                ("tests/", "docs/")):
            if not _exists(token, ROOT):
                problems.append(f"{where}, line {i}: the path {token!r} does not exist")
        elif MODULE.match(token):
            problem = _module(token)
            if problem:
                problems.append(f"{where}, line {i}: {problem}")
        elif token.startswith("--") and re.fullmatch(r"--[a-z][\w-]*", token) and token not in options:
            extra = set().union(*(help_options("benchmarks", b) for b in ("spotgeo", "scale", "crowd")))
            if token not in extra:
                problems.append(f"{where}, line {i}: option {token} is in no command's --help")
    return problems


# ---- the README's measured figures ---------------------------------------------------------------
FIGURE = re.compile(r"\b\d[\d,.]*\s?(?:ms|s|min)\b(?![-\w])|\b(?:peaks?|RSS|measured)\b|\bin a simulation\b|"
                    r"\d+% of the time")
DESIGN = re.compile(r"(\d[\d,.]*\s?(?:×\s?\d[\d,]*\s)?(?:essays|submissions|teams|units|themes|groups|files|models|"
                    r"replicates|splits|rows|columns|cells|questions|sequences|samples|test sets)|"
                    r"sample|FP1[- ]scale|crowded|tie6|leader design|\d[\d,.]* MB of CSV|\d[\d,.]* ?MB [\w -]*file)")
COMMAND = re.compile(r"python -m (benchmarks|scoring|tests\.[\w.]+|pytest [^`]*tests/)")


def blocks(text: str) -> list[tuple[int, str, str]]:
    """``(line, text, context)``: each paragraph, and each table row with its table's header as context."""
    out, para, start, header = [], [], 0, ""
    lines = text.splitlines()
    in_code = False
    for i, line in enumerate(lines, start=1):
        if line.strip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        if line.startswith("|"):
            if para:
                out.append((start, " ".join(para), ""))
                para = []
            if i < len(lines) and re.match(r"\|[-| :]+\|$", lines[i].strip()):
                header = line
            elif not re.match(r"\|[-| :]+\|$", line.strip()):
                out.append((i, line, header))
            continue
        header = header if line.startswith("|") else ""
        if not line.strip() or line.startswith("#"):
            if para:
                out.append((start, " ".join(para), ""))
            para = []
            continue
        if not para:
            start = i
        para.append(line)
    if para:
        out.append((start, " ".join(para), ""))
    return out


def figure_problems(text: str, doc: str = "README.md") -> list[str]:
    """A block quoting a time or a size it measured must name the command (a benchmark, a
    simulation, the engine's) and the design (the data it ran on): in the block itself or, for a
    table row, in the table's header."""
    problems = []
    for i, block, context in blocks(text):
        if not FIGURE.search(re.sub(r"`[^`]*`", "", block)):
            continue
        whole = block + " " + context
        # a row of a table whose header names the command: the row names which one (`qa`, `scale …`)
        named = COMMAND.search(block) or (context and COMMAND.search(context) and re.search(
            r"`(" + "|".join(map(re.escape, benchmark_names())) + r")[` ]", block))
        if not named:
            problems.append(f"{doc}, line {i}: a measured figure without the command it came from: {block[:90]!r}")
        if not DESIGN.search(whole):
            problems.append(f"{doc}, line {i}: a measured figure without its design (the data): {block[:90]!r}")
    return problems
