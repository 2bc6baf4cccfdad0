"""A competition where 2 essays without demographics decide the winner (issue 12, item 3).

60 essays with demographics (30 ``ell_status=Yes``, 30 ``No``) and 2 without; one Claim per
essay, words 0-9, labelled Effective. Worked by hand at w = 0.5, IoU, α = 50, no runtimes:

* ``steady`` predicts every claim exactly with p(Effective) = 0.8: a match earns
  TP = 0.5·1 + 0.5·0.8 = 0.9, so on any set of n essays TP = 0.9n, FP = 0, FN = 0.1n and
  F1 = 0.9 / (0.9 + 0.05) = 18/19 ≈ 0.947368 — on every group, so its bias score is 18/19.
* ``gambler`` predicts the 60 claims with demographics exactly with p = 1 (TP 1 each) and
  nothing on the 2 others: segment score 60 / (60 + ½·2) = 60/61 ≈ 0.983607 (1st), group
  scores Yes 1, No 1, (missing) 0. The softmin weights are ∝ n·e^(−50·s): 30e^−50, 30e^−50
  and 2, so the 2-essay group takes 2 / (2 + 60e^−50) ≈ 100 % and the bias score is ≈ 0
  (60e^−50 / 2 ≈ 5.8e−21): ``steady`` wins.
* Leaving the 2 essays out of the groups: ``gambler`` has 1 on both groups, bias 1.0, and
  wins; its segment score still counts the 2 essays (60/61).
"""

from __future__ import annotations

N_EACH = 30
MISSING_IDS = ("m1", "m2")
IDS = [f"y{i}" for i in range(N_EACH)] + [f"n{i}" for i in range(N_EACH)] + list(MISSING_IDS)
WORDS = " ".join(str(i) for i in range(10))

GT = "id,discourse_type,predictionstring,discourse_effectiveness\n" + "".join(
    f"{e},Claim,{WORDS},Effective\n" for e in IDS)
STEADY = "id,class,predictionstring,Effective,Ineffective\n" + "".join(f"{e},Claim,{WORDS},0.8,0.2\n" for e in IDS)
GAMBLER = "id,class,predictionstring,Effective,Ineffective\n" + "".join(
    f"{e},Claim,{WORDS},1.0,0.0\n" for e in IDS if e not in MISSING_IDS)
DEMO = "id,ell_status\n" + "".join(f"y{i},Yes\n" for i in range(N_EACH)) + "".join(f"n{i},No\n" for i in range(N_EACH))

STEADY_SCORE = 18 / 19
GAMBLER_SEGMENT = 60 / 61


def files() -> dict[str, str]:
    return {"ground_truth.csv": GT, "submissions/steady.csv": STEADY, "submissions/gambler.csv": GAMBLER,
            "demographics.csv": DEMO}


def write(folder) -> None:
    """Write the competition's files under ``folder`` (a ``pathlib.Path``)."""
    for rel, text in files().items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)


def scorer(folder):
    """The Shovel-Ready scorer of the competition written under ``folder``."""
    import scoring

    comp = scoring.load_competition(ground_truth=folder / "ground_truth.csv", submissions=[folder / "submissions"],
                                    demographics=folder / "demographics.csv")
    return scoring.Scorer(comp)
