"""Every scoring command reads a custom recipe's stages as its defaults — not only
``leaderboard``: the shake-up and the report of the HELM Lite sample use its mean win rate."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pandas as pd

from tests.cli import run_cli, run_report

ROOT = Path(__file__).resolve().parents[2]
RESULTS, RECIPE = ROOT / "sample_data/custom/results.tsv", ROOT / "sample_data/custom/recipe.json"


def _win_rates() -> pd.DataFrame:
    """HELM's per-scenario win rate by hand: the share of the other models with a value that the
    model beats, ties half, missing cells skipped (models × scenarios)."""
    df = pd.read_csv(RESULTS, sep="\t").set_index("Model").drop(columns="Mean win rate")
    df = df.apply(pd.to_numeric, errors="coerce")
    out = {}
    for col in df:
        v = df[col].dropna()
        out[col] = (v.rank(method="average") - 1) / (len(v) - 1)
    return pd.DataFrame(out)


def test_shakeup_of_the_helm_recipe_counts_its_mean_win_rate():
    res = run_cli("custom", "shakeup", "--results", RESULTS, "--recipe", RECIPE, "--format", "json",
                  "--public-fraction", "0.3")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["parameters"]["across"] == "winrate"
    # 10 scenarios, 3 public: all 120 splits are enumerated, so the probability is exact
    wr = _win_rates()
    same = 0.0
    for pub in combinations(wr.columns, 3):
        priv = [c for c in wr.columns if c not in pub]
        a, b = wr[list(pub)].mean(axis=1), wr[priv].mean(axis=1)
        # the public leaders (scores within 1e-9 of the best tie), and the share of them that lead in private
        lead_a, lead_b = set(a.index[a >= a.max() - 1e-9]), set(b.index[b >= b.max() - 1e-9])
        same += len(lead_a & lead_b) / len(lead_a)
    assert f"{round(100 * same / 120)}% of the time" in doc["sentence"], (same, doc["sentence"])


def test_report_of_the_helm_recipe_states_its_rule(tmp_path):
    out = tmp_path / "r.html"
    res = run_report("custom", "--results", RESULTS, "--recipe", RECIPE, "--out", out)
    assert res.returncode == 0, res.stderr
    assert "winrate" in out.read_text(encoding="utf-8")
