"""The layers only look down, and no modules import each other in a circle (docs/architecture.md).

Every import of every module of ``scoring/``, ``lab/``, ``pages/`` and ``app.py`` is read from
the source (the AST: imports inside functions and under ``TYPE_CHECKING`` count too; an import
of ``a.b.c`` counts as one of ``a.b.c``, not of its parent packages), and

* a module imports nothing of a higher layer (:data:`LAYERS`: the engine, then the Streamlit-free
  words, charts and report, then the UI's rooms, then the pages);
* the engine and the Streamlit-free layers never import Streamlit;
* no group of modules imports each other in a circle;
* every module of ``lab/`` is in a room of :data:`LAYERS` (a new file goes into a room).

The checker runs on planted trees too, so a broken rule is seen to fail.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: (rank, module prefix): a module's rank is that of the longest prefix naming it (``lab.families``
#: alone is the FamilyUI declarations; ``lab.families.<family>`` a family's pages). A module may
#: import modules of its own rank or lower.
LAYERS: tuple[tuple[int, str], ...] = (
    (0, "scoring"),          # the engine
    (1, "lab.words"),        # Streamlit-free: words, then figures and table frames, then the HTML report
    (2, "lab.charts"),
    (3, "lab.report"),
    (4, "lab.families="),    # the package itself: FamilyUI, PageSpec, the registry of UI modules
    (5, "lab.data"),         # the Streamlit UI's rooms
    (6, "lab.view"),
    (7, "lab.families"),
    (7, "lab.robustness"),
    (8, "pages"),            # the pages and the router
    (8, "app="),
)
#: the ranks that never import Streamlit
NO_STREAMLIT = 3


def rank(module: str) -> int | None:
    """The layer of ``module`` (None: in none)."""
    best, length = None, -1
    for r, prefix in LAYERS:
        exact = prefix.endswith("=")
        name = prefix.rstrip("=")
        if (module == name or (not exact and module.startswith(name + "."))) and len(name) > length:
            best, length = r, len(name)
    return best


def modules(root: Path) -> dict[str, Path]:
    """Every module of the product under ``root``: dotted name -> file."""
    files = [p for top in ("scoring", "lab", "pages") for p in (root / top).rglob("*.py")]
    files += [root / "app.py"] if (root / "app.py").is_file() else []
    out = {}
    for p in files:
        parts = list(p.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


def imports(module: str, path: Path, known: set[str]) -> Iterator[tuple[str, int]]:
    """``(imported name, line)`` for every import in ``path``: a module of ``known`` when it names
    one (``from pkg import mod`` names ``pkg.mod``), else the name as written (``streamlit``)."""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                yield (sub if sub in known else target), node.lineno


def graph(root: Path) -> tuple[dict[str, set[str]], list[str]]:
    """The import graph between the product's modules, and every broken layer rule, in words."""
    mods = modules(root)
    known = set(mods)
    edges: dict[str, set[str]] = {m: set() for m in mods}
    problems = []
    for m, path in sorted(mods.items()):
        r = rank(m)
        where = path.relative_to(root)
        if r is None:
            problems.append(f"{where}: in no layer or room (tests/test_layers.py LAYERS)")
            continue
        for name, line in imports(m, path, known):
            if name.split(".")[0] == "streamlit" and r <= NO_STREAMLIT:
                problems.append(f"{where}:{line}: imports {name} in a Streamlit-free layer")
            target = name
            while target and target not in known:
                target = target.rpartition(".")[0]
            if not target or target == m:
                continue
            edges[m].add(target)
            t = rank(target)
            if t is not None and t > r:
                problems.append(f"{where}:{line}: {m} (layer {r}) imports {target} (layer {t}, higher)")
    return edges, problems


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other in a circle (strongly connected components
    of more than one module; Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_every_layer_only_looks_down_and_the_lower_ones_never_import_streamlit():
    edges, problems = graph(ROOT)
    assert len(edges) > 150  # the walk saw the product (scoring, lab, pages, app.py)
    assert problems == []


def test_no_modules_import_each_other_in_a_circle():
    edges, _ = graph(ROOT)
    assert circles(edges) == []


def test_the_engines_command_line_reaches_no_ui():
    """``python -m scoring``'s modules, followed import by import, stay in the engine."""
    edges, _ = graph(ROOT)
    seen, todo = set(), ["scoring.__main__", "scoring.cli"]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo += edges[m]
    assert seen and all(m.split(".")[0] == "scoring" for m in seen), sorted(seen)


# ---- the checker on planted trees: each broken rule is found ----------------------------------------
def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")
    return tmp_path


GOOD = {
    "scoring/__init__.py": "",
    "scoring/core/__init__.py": "",
    "scoring/core/ranking.py": "import numpy as np\n",
    "lab/words/__init__.py": "",
    "lab/words/text.py": "from scoring.core import ranking\n",
    "lab/charts/__init__.py": "",
    "lab/charts/common.py": "from ..words.text import md\n",
    "lab/report/__init__.py": "from ..charts import common\nfrom . import html\n",
    "lab/report/html.py": "",
    "lab/families/__init__.py": "from ..words import text\n",
    "lab/families/qa.py": "import streamlit as st\nfrom . import FamilyUI\nfrom ..view import current\n",
    "lab/data/__init__.py": "",
    "lab/data/store.py": "import streamlit as st\nfrom .. import families\n",
    "lab/view/__init__.py": "",
    "lab/view/current.py": "from ..data import store\nfrom lab.report import html\n",
    "lab/robustness/__init__.py": "from ..view import current\n",
    "pages/leaderboard.py": "from lab.families import qa\nfrom lab import robustness\n",
    "app.py": "from lab.view import current\n",
}


def test_the_checker_passes_a_tree_that_keeps_the_rules(tmp_path):
    edges, problems = graph(_tree(tmp_path, GOOD))
    assert problems == [] and circles(edges) == []
    assert edges["lab.report"] == {"lab.charts.common", "lab.report.html"}
    assert edges["lab.families.qa"] == {"lab.families", "lab.view.current"}
    assert edges["pages.leaderboard"] == {"lab.families.qa", "lab.robustness"}


@pytest.mark.parametrize("rel, text, expected", [
    ("scoring/core/ranking.py", "def f():\n    from lab.view import current\n", "scoring.core.ranking (layer 0) imports "
     "lab.view.current (layer 6, higher)"),
    ("lab/data/store.py", "from ..view import current\n", "lab.data.store (layer 5) imports lab.view.current"),
    ("lab/families/__init__.py", "from .qa import UI\n", "lab.families (layer 4) imports lab.families.qa (layer 7"),
    ("lab/charts/common.py", "from lab.report import html\n", "lab.charts.common (layer 2) imports lab.report.html"),
    ("lab/report/html.py", "def f():\n    import streamlit\n", "lab/report/html.py:2: imports streamlit in a "
     "Streamlit-free layer"),
    ("lab/words/text.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from streamlit import x\n",
     "imports streamlit in a Streamlit-free layer"),
    ("scoring/core/cli.py", "from lab.report.cli import run\n", "scoring.core.cli (layer 0) imports lab.report"),
    ("lab/helpers.py", "", "lab/helpers.py: in no layer or room"),
])
def test_the_checker_names_each_broken_rule(tmp_path, rel, text, expected):
    _, problems = graph(_tree(tmp_path, {**GOOD, rel: text}))
    assert len(problems) == 1 and expected in problems[0], problems


def test_the_checker_finds_circles_within_a_layer(tmp_path):
    files = {**GOOD, "lab/view/nav.py": "from . import state\n", "lab/view/state.py": "from .sidebar import x\n",
             "lab/view/sidebar.py": "def f():\n    from .nav import y\n"}
    edges, problems = graph(_tree(tmp_path, files))
    assert problems == [] and circles(edges) == [["lab.view.nav", "lab.view.sidebar", "lab.view.state"]]
    files["lab/view/sidebar.py"] = ""
    assert circles(graph(_tree(tmp_path, files))[0]) == []
