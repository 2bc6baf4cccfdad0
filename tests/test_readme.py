"""The README opens with exactly two commands: one that installs and starts the app, one that
installs everything and runs the whole suite — the same install and test command as ``.ci/run``."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _opening_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text, re.S)
    first_prose = text.split("```")[0]
    assert first_prose.startswith("# Leaderboard Lab")
    return [b.strip() for b in blocks[:2]]


def test_two_one_line_commands_open_the_readme():
    app_cmd, test_cmd = _opening_commands()
    assert "\n" not in app_cmd and "\n" not in test_cmd
    assert app_cmd.startswith("python3 -m venv .venv && ") and app_cmd.endswith("streamlit run app.py")
    assert test_cmd.startswith("python3 -m venv .venv && ") and test_cmd.endswith("python -m pytest")
    # nothing between the title and the second command but the two labels
    head = (ROOT / "README.md").read_text().split(test_cmd)[0]
    assert head.count("```") == 3


def test_the_commands_install_every_requirements_file_that_ci_installs():
    app_cmd, test_cmd = _opening_commands()
    files = sorted(p.name for p in ROOT.glob("requirements*.txt"))
    assert "requirements.txt" in files
    assert re.findall(r"-r (\S+)", app_cmd) == ["requirements.txt"]
    assert sorted(re.findall(r"-r (\S+)", test_cmd)) == files  # .ci/run installs requirements*.txt
    ci = (ROOT / ".ci" / "run").read_text()
    assert "requirements*.txt" in ci and ".venv/bin/ruff check ." in ci
    assert ci.rstrip().splitlines()[-1] == ".venv/bin/python -m pytest" == test_cmd.split(" && ")[-1]
