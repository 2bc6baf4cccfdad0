"""The embedded spotGEO sample competition (synthetic; see docs/spotgeo.md).

``SAMPLE_DIR`` holds the files written by ``python -m sample_data.spotgeo.generate``.
"""

from __future__ import annotations

import json
from pathlib import Path

SAMPLE_DIR = Path(__file__).resolve().parent


def sample_paths() -> dict:
    """Paths of the committed sample: ground_truth, submissions (sorted list), teams."""
    return {
        "ground_truth": SAMPLE_DIR / "ground_truth.json",
        "submissions": sorted((SAMPLE_DIR / "submissions").glob("*.json")),
        "teams": SAMPLE_DIR / "teams.json",
    }


def team_profiles() -> dict[str, str]:
    """Team name -> one-sentence profile, in the generator's order."""
    return json.loads((SAMPLE_DIR / "teams.json").read_text(encoding="utf-8"))
