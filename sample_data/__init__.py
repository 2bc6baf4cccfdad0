"""The embedded sample competition (synthetic; see ``docs/sample_data.md``).

``SAMPLE_DIR`` is the committed competition written by ``python -m sample_data.generate``;
``sample_paths()`` gives the paths the dashboard loads on first start.
"""

from __future__ import annotations

import json
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
SAMPLE_DIR = PACKAGE_DIR / "competition"
TEAMS_PATH = PACKAGE_DIR / "teams.json"


def sample_paths() -> dict:
    """Paths of the committed sample: ground_truth, submissions (sorted list), demographics,
    runtimes, essays and teams (the team profiles, name -> sentence)."""
    return {
        "ground_truth": SAMPLE_DIR / "ground_truth.csv",
        "submissions": sorted((SAMPLE_DIR / "submissions").glob("*.csv")),
        "demographics": SAMPLE_DIR / "demographics.csv",
        "runtimes": SAMPLE_DIR / "runtimes.csv",
        "essays": SAMPLE_DIR / "essays.csv",
        "teams": TEAMS_PATH,
    }


def team_profiles() -> dict[str, str]:
    """Team name -> one-sentence profile, in the order the generator lists the teams."""
    return json.loads(TEAMS_PATH.read_text(encoding="utf-8"))
