"""Randomly damaged files: loading and scoring either work or raise one InputError naming the
file — never another exception (a traceback)."""

from __future__ import annotations

import random

import pytest

from scoring.core.errors import InputError
from scoring.difficulty import Scorer, load_competition

SAMPLES = ("sample_id,text,label,bias\n"
           "s1,good movie,1,0.9\ns2,\"bad, plot\",0,0.6\ns3,good plot,1,0.4\ns4,nothing,0,0\ns5,bad movie,1,\n")
PREDS = ("model,sample_id,p0,p1,predicted\n"
         "A,s1,0.2,0.8,1\nA,s2,0.4,0.6,1\nA,s3,0.3,0.7,1\nA,s4,0.95,0.05,0\nA,s5,0.6,0.4,0\n"
         "B,s1,0.1,0.9,1\nB,s2,0.9,0.1,0\nB,s3,0.2,0.8,1\nB,s4,0.8,0.2,0\nB,s5,0.3,0.7,1\n")
TRAIN = "good movie\nbad plot\n"
PIECES = [",", "\"", "\n", "\r\n", " ", "x", "-1", "1e309", "nan", "\x00", "\xff", "p2", "label", "s1", "A", ""]


def damage(text: str, rng: random.Random) -> bytes:
    data = text
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(data) + 1)
        op = rng.random()
        if op < 0.4:
            data = data[:i] + data[i + rng.randint(1, 4):]
        elif op < 0.8:
            data = data[:i] + rng.choice(PIECES) + data[i:]
        else:
            lines = data.split("\n")
            rng.shuffle(lines)
            data = "\n".join(lines)
    raw = data.encode("utf-8", "surrogatepass")
    return raw.replace("\xff".encode(), b"\xff") if rng.random() < 0.5 else raw


@pytest.mark.parametrize("seed", range(150))
def test_damaged_files_never_crash(seed):
    rng = random.Random(seed)
    which = rng.choice(["samples", "predictions", "train", "both"])
    samples = damage(SAMPLES, rng) if which in ("samples", "both") else SAMPLES.encode()
    preds = damage(PREDS, rng) if which in ("predictions", "both") else PREDS.encode()
    train = damage(TRAIN, rng) if which == "train" else TRAIN.encode()
    try:
        comp = load_competition(samples, preds, train)
    except InputError as e:
        assert e.file in ("samples.csv", "predictions.csv", "train.txt") and "\n" not in str(e)
        return
    scorer = Scorer(comp)
    for params in (dict(metric="wmprob"), dict(metric="wsbias", ease_column="bias", split_mode="threshold"),
                   dict(metric="wood", split_mode="continuous", scale_by_difficulty=True)):
        try:
            lb = scorer.leaderboard(**params)
        except InputError:
            continue
        assert len(lb) == len(comp.submission_names)
