"""The command line says what it read as notes and what it changed as warnings: each column's
role is a ``note:``, a team left out by ``drop_empty`` a ``warning:``."""

from __future__ import annotations

import json

from tests.cli import run_cli


def test_column_roles_are_notes_and_a_dropped_team_is_a_warning(tmp_path):
    results = tmp_path / "r.csv"
    # 'Average' is a published aggregate by its name; team 'c' has no value: left out by drop_empty
    results.write_text("model,Average,A,B\na,0.5,0.4,0.6\nb,0.3,0.2,0.4\nc,,-,-\n", encoding="utf-8")
    recipe = tmp_path / "recipe.json"
    recipe.write_text(json.dumps({"inputs": {"results": {"drop_empty": True, "missing_marks": ["-", ""]}}}))
    res = run_cli("custom", "leaderboard", "--results", str(results), "--recipe", str(recipe))
    assert res.returncode == 0, res.stderr
    lines = res.stderr.splitlines()
    notes = [x for x in lines if x.startswith("note: ")]
    warnings = [x for x in lines if x.startswith("warning: ")]
    assert any("2 unit column(s): 'A', 'B'" in x for x in notes), lines
    assert any("'Average'" in x and "published aggregate" in x for x in notes), lines
    assert not any("unit column(s)" in x or "'Average'" in x for x in warnings), lines
    assert any("1 team(s) without any value left out" in x and "'c'" in x for x in warnings), lines
