"""The committed spotGEO sample: reproducible from its seed, small, and telling the stories
its teams were built for (docs/spotgeo.md, "The sample competition")."""

from __future__ import annotations

import filecmp

import pytest

import scoring.spotgeo as sg
from sample_data.spotgeo import SAMPLE_DIR, sample_paths, team_profiles
from sample_data.spotgeo.generate import TEAMS, generate
from scoring.spotgeo.explain import fn_by_brightness, rules_differences, sequence_costs


@pytest.fixture(scope="module")
def sc() -> sg.Scorer:
    p = sample_paths()
    return sg.Scorer(sg.load_competition(p["ground_truth"], p["submissions"]))


def order(sc, **params) -> list[str]:
    return sc.leaderboard(**params)["submission"].tolist()


def table(sc, **params):
    return sc.leaderboard(**params).set_index("submission")


def test_regenerates_byte_for_byte(tmp_path):
    generate(tmp_path)
    for rel in ["ground_truth.json", "teams.json", *(f"submissions/{t.name}.json" for t in TEAMS)]:
        assert filecmp.cmp(tmp_path / rel, SAMPLE_DIR / rel, shallow=False), rel
    assert sorted(p.name for p in (SAMPLE_DIR / "submissions").glob("*.json")) == sorted(
        f"{t.name}.json" for t in TEAMS)


def test_size_and_shape(sc):
    total = sum(p.stat().st_size for p in SAMPLE_DIR.rglob("*.json"))
    assert total < 3_000_000
    assert sc.K == 300 and sc.comp.gt.n_frames == 1500 and sc.comp.has_brightness and sc.comp.report == []
    assert 6 <= sc.S <= 9 and list(team_profiles()) == [t.name for t in TEAMS]
    assert sc.comp.frames_of(1) == [1, 2, 3, 4, 5] and sc.comp.frames_of(301) == []
    assert sc.comp.sequences == list(range(1, 301))
    counts = sc.comp.gt.frames.counts
    assert counts.max() <= 30 and (counts >= 20).any() and (counts == 0).any()


def test_lab_twins_tie_on_f1_and_mse_decides(sc):
    """sharp-eye, four-off and near-enough share one detector: equal TP/FP/FN at τ = 10, so
    the MSE orders them — precise first under both rule sets."""
    t = table(sc)
    twins = t.loc[["sharp-eye", "four-off", "near-enough"]]
    assert twins["tp"].nunique() == twins["fp"].nunique() == twins["fn"].nunique() == 1
    assert order(sc)[:3] == ["sharp-eye", "four-off", "near-enough"]
    assert t["f1"].idxmax() == "sharp-eye"


def test_epsilon_story_four_off(sc):
    """4 px off: at ε = 3 every true positive costs 16; at ε = 5 nothing, while sharp-eye's
    few points beyond 5 px still cost — four-off moves to first."""
    assert order(sc, epsilon=3)[:2] == ["sharp-eye", "four-off"]
    assert order(sc, epsilon=5)[:2] == ["four-off", "sharp-eye"]
    assert order(sc, epsilon=5, rules="starter-kit")[:2] == ["four-off", "sharp-eye"]


def test_rules_story_near_enough(sc):
    """A third of near-enough's points are 7-9 px off: d² (seed) punishes them more than
    four-off's 4 px everywhere, d (kit) less — the rule sets order them differently."""
    seed, kit = table(sc), table(sc, rules="starter-kit")
    assert (seed.loc["four-off", "rank"], seed.loc["near-enough", "rank"]) == (2, 3)
    assert (kit.loc["four-off", "rank"], kit.loc["near-enough", "rank"]) == (3, 2)
    assert (seed.loc["four-off", "rank_change"], seed.loc["near-enough", "rank_change"]) == (1, -1)
    assert (kit.loc["near-enough", "other_rules_rank"], kit.loc["four-off", "other_rules_rank"]) == (3, 2)
    diff = rules_differences(sc)
    moved = {d["key"]: d["moved"] for d in diff["differences"]}
    assert moved["squared"] == 2  # d vs d² alone swaps them
    assert diff["ranks"].set_index("submission").loc["near-enough", "squared"] == 2


def test_tau_story(sc):
    """near-enough drops out as τ shrinks below 9 px; four-off below 4 px; at τ = 5 the
    4 px offset beats sharp-eye, whose farthest points fall outside."""
    assert order(sc, tau=10)[2] == "near-enough"
    t8 = table(sc, tau=8, epsilon=3)
    assert t8.loc["near-enough", "rank"] >= 5 and t8.loc["near-enough", "tp"] < t8.loc["sharp-eye", "tp"]
    assert order(sc, tau=5, epsilon=3)[0] == "four-off"
    t35 = table(sc, tau=3.5, epsilon=3)
    assert t35.loc["four-off", "rank"] == len(sc.names) and t35.loc["four-off", "tp"] < 100


def test_trigger_happy_and_cautious(sc):
    t = table(sc)
    assert t["fp"].idxmax() == "trigger-happy" and t["recall"].idxmax() == "trigger-happy"
    assert t["fp"].idxmin() == "cautious" and t["precision"].idxmax() == "cautious"
    assert t["recall"].idxmin() == "cautious"
    faint = {n: fn_by_brightness(sc, n, bins=[0, 3, 6, 1000]) for n in ("cautious", "trigger-happy")}
    # cautious misses almost every object fainter than 3 and finds the bright ones (> 6);
    # trigger-happy finds most of the faint ones
    assert faint["cautious"]["recall"].iloc[0] < 0.1 and faint["cautious"]["recall"].iloc[2] > 0.9
    assert faint["trigger-happy"]["recall"].iloc[0] > 0.5


def test_costliest_sequences_are_crowded_or_missed(sc):
    costs = sequence_costs(sc, "cautious")
    top = costs.iloc[0]
    assert top["fn"] > 0 and top["contribution"] == costs["contribution"].max()
