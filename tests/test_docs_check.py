"""README.md and docs/*.md name only what this repository has (``tests/docscheck.py``): every
path, file, module, command and option exists and parses — each option one that its command's
``--help`` lists — nothing points outside the repository, and every figure the README quotes from
a benchmark or a simulation names its command and its design. The check is shown to fail on
deliberately broken copies of the README."""

from __future__ import annotations

import pytest

from tests import docscheck

DOCS = [docscheck.ROOT / "README.md", *sorted((docscheck.ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d.name)
def test_every_path_module_command_and_option_a_doc_names_exists(doc):
    assert docscheck.check_text(doc.read_text(encoding="utf-8"), doc) == []


def test_every_readme_figure_names_its_command_and_design():
    assert docscheck.figure_problems((docscheck.ROOT / "README.md").read_text(encoding="utf-8")) == []


README = (docscheck.ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("old, new, found", [
    ("[`docs/robustness.md`](docs/robustness.md)", "[`docs/robustness.md`](docs/robustnes.md)",
     "the link 'docs/robustnes.md' leads to no file"),
    ("| `docs/metric.md` |", "| `docs/metric.md`, `../shared/SPEC.md` |", "outside the repository"),
    ("`sample_data/competition/`", "`sample_data/competitions/`", "the path 'sample_data/competitions/' does not"),
    ("`scoring.core.jsonsafe.loads_bounded`", "`scoring.core.jsonsafe.loads_bound`", "has no 'loads_bound'"),
    ("python -m scoring qa leaderboard --ground-truth", "python -m scoring qa leaderbord --ground-truth",
     "'python -m scoring qa leaderbord' does not exist"),
    ("[--tau 10 --rules starter-kit]", "[--tau 10 --rule starter-kit]", "option --rule is not in"),
    ("`python -m benchmarks hostile`", "`python -m benchmarks hostil`", "benchmark 'hostil' does not exist"),
    ("--bootstrap 1000   # rank sets", "--bootstraps 1000   # rank sets", "option --bootstraps is not in"),
])
def test_the_check_fails_on_a_deliberately_broken_readme(old, new, found):
    assert old in README
    problems = docscheck.check_text(README.replace(old, new, 1), docscheck.ROOT / "README.md")
    assert any(found in p for p in problems), problems


def test_the_figure_check_fails_on_a_figure_without_its_command_or_design():
    row = "| `qa` (10,000 questions × 20 teams): a threshold move / 10,000 weight draws |"
    assert row in README
    broken = README.replace(row, "| a threshold move / 10,000 weight draws |")
    problems = docscheck.figure_problems(broken)
    assert any("without the command" in p for p in problems) and any("without its design" in p for p in problems)
