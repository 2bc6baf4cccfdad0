"""Property tests of the leaderboard takeaway, the --help figures and the validation report:
random leaderboards (ties, points, every stage order), every parameter of every family plus random
declarations, random lists of problems — each sentence parsed back and checked against the
numbers recomputed here from the JSON of the result it states."""

from __future__ import annotations

import argparse
import json
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest

from scoring import registry
from scoring.claims import board, help, validation
from scoring.claims.words import markdown
from scoring.core.params import Param, ParamSpec
from tests.claims.parse import agrees

CASES = {"leaderboard.winner": 600, "help.option": 400, "data.validation": 300}


@dataclass(frozen=True)
class FakeStage:
    id: str
    label: str

    @property
    def rank(self) -> str:
        return f"{self.id}_rank"


def ranks_by_hand(x: np.ndarray) -> np.ndarray:
    return np.array([1 + int((x > v).sum()) for v in x])


def random_board(rng, n: int, k: int, points: bool):
    stages = [FakeStage(f"s{i}", f"Stage {i}") for i in range(k)]
    names = [f"t{i}{rng.choice(['', 'x', '-v2', '_b'])}" for i in range(n)]
    data = {"submission": names}
    for s in stages:
        x = rng.integers(0, 8, n) / (2 if points else 8) if rng.random() < 0.5 else rng.random(n) * (40 if points else 1)
        if points:
            x = np.round(x * 2) / 2
        data[s.id] = x
        data[s.rank] = ranks_by_hand(x)
    lb = pd.DataFrame(data)
    lb = lb.sort_values([stages[-1].rank, "submission"]).reset_index(drop=True)
    return lb, stages


def stage_of(stages, words, name):
    return next(s for s in stages if words.get(s.id, (s.label, ""))[0] == name)


def shown(pts: bool, value: float, printed: str) -> bool:
    """A point count is printed exactly, without decimals it does not have; a score rounds."""
    if pts:
        return re.fullmatch(r"-?[\d,]+(\.5)?", printed) is not None and float(printed.replace(",", "")) == value
    return agrees(printed, value)


WIN_STEP = re.compile(r"(\S+) wins: (\d+)(?:st|nd|rd|th) on (.+?), (.+) lifts it past (\S+) by ([\d.e-]+)"
                      r"(?:; (\S+), 1st on (.+?), ends (\d+)(?:st|nd|rd|th))?\.")
WIN_ALL = re.compile(r"(\S+) wins, (1st at every stage|ahead of (\S+) at every stage), by ([\d.e-]+) in the end"
                     r"(?:; (\S+), 1st on (.+?), ends (\d+)(?:st|nd|rd|th))?\.")
TIE = re.compile(r"(.+) tie for first on (.+) \(([\d.,-]+)\)\.")


def test_winner_takeaway_states_the_leaderboards_own_numbers():
    rng = np.random.default_rng(505)
    for case in range(CASES["leaderboard.winner"]):
        n, k = int(rng.integers(0, 8)), int(rng.integers(2, 6))
        pts = bool(rng.random() < 0.3)
        lb, stages = random_board(rng, n, k, pts)
        words = {s.id: (f"the {s.label.lower()}", f"step {i}") for i, s in enumerate(stages)} if rng.random() < 0.5 \
            else {}
        points = frozenset({stages[-1].id}) if pts else frozenset()
        text = board.winner(lb, stages, words, points=points)
        recs = json.loads(lb.to_json(orient="records"))
        final, first = stages[-1], stages[0]

        if not recs:
            assert text == "No submissions to rank yet."
            continue
        if len(recs) == 1:
            assert text == f"{recs[0]['submission']} is the only team."
            continue
        top = [r for r in recs if r[final.rank] == 1]
        if len(top) > 1:
            m = TIE.fullmatch(text)
            assert m, text
            assert set(re.split(r", | and ", m[1])) == {r["submission"] for r in top}
            assert stage_of(stages, words, m[2]) is final and shown(pts, top[0][final.id], m[3]), (case, text)
            assert len({r[final.id] for r in top}) == 1
            continue
        win = top[0]
        runner = min((r for r in recs if r is not win), key=lambda r: r[final.rank])
        lead = [r for r in recs if r[first.rank] == 1]
        m = WIN_ALL.fullmatch(text) or WIN_STEP.fullmatch(text)
        assert m, text
        assert m[1] == win["submission"]
        gap = abs(win[final.id] - runner[final.id])
        ahead = [win[s.rank] < runner[s.rank] for s in stages]
        if m.re is WIN_ALL:
            assert all(ahead)
            assert (m[2] == "1st at every stage") == all(win[s.rank] == 1 for s in stages)
            assert m[3] in (None, runner["submission"])
            assert shown(pts, gap, m[4]), (case, text, gap)
            tail = m.groups()[4:]
        else:
            assert not all(ahead) and ahead[-1]
            assert int(m[2]) == win[first.rank] and stage_of(stages, words, m[3]) is first
            step = next(i for i, s in enumerate(stages) if words.get(s.id, ("", ""))[1] == m[4]
                        or f"the “{s.label}” stage" == m[4])
            assert ahead[step] and not ahead[step - 1] and all(ahead[step:]), (case, text)  # it passes there for good
            assert m[5] == runner["submission"] and shown(pts, gap, m[6]), (case, text, gap)
            tail = m.groups()[6:]
        if tail[0] is None:
            assert not (len(lead) == 1 and lead[0] is not win and lead[0][final.rank] > 2)
        else:
            assert len(lead) == 1 and tail[0] == lead[0]["submission"] and stage_of(stages, words, tail[1]) is first
            assert int(tail[2]) == lead[0][final.rank] > 2


def test_winner_takeaway_escapes_every_name_in_markdown():
    lb = pd.DataFrame({"submission": ["*a*[x](y)", "b_"], "s0": [0.5, 1.0], "s0_rank": [2, 1], "s1": [1.0, 0.2],
                       "s1_rank": [1, 2]})
    text = board.winner(lb, [FakeStage("s0", "S0"), FakeStage("s1", "S1")], style=markdown(lambda s: f"<{s}>"))
    assert text.startswith("**<*a*[x](y)>** wins") and "**<b_>**" in text


# ---- --help --------------------------------------------------------------------------------------
RANGE = re.compile(r"in ([\[(])\s*(-?[\d.]+|-∞)\s*,\s*(-?[\d.]+|∞|inf)\s*([\])])")


def parsed_default(p: Param, text: str):
    m = re.search(r"\(default (.+)\)$", text)
    assert m, text
    v = m[1]
    if p.kind == "bool":
        return {"on": True, "off": False}[v]
    if v == "none":
        return p.to_json(p.default) if p.to_json(p.default) in (None, [], ()) else "not none"
    if p.kind in ("names", "floats"):
        return [x if p.kind == "names" else float(x) for x in v.split(",")]
    if p.kind in ("float", "int"):
        return float(v)
    return v


def random_param(rng, i: int) -> Param:
    kind = str(rng.choice(["float", "int", "bool", "choice", "names", "floats"]))
    low, high = sorted(rng.integers(-5, 50, 2).tolist())
    if kind == "float":
        default = float(np.round(rng.uniform(low, high + 1), int(rng.integers(0, 4))))
        return Param(f"p{i}", min(default, high + 1.0), low=float(low), high=float(high + 1), help=f"help {i}")
    if kind == "int":
        return Param(f"p{i}", int(rng.integers(low, high + 1)), kind="int", low=low, high=high + 1, help="n")
    if kind == "bool":
        return Param(f"p{i}", bool(rng.random() < 0.5), kind="bool", help="a switch",
                     cli_negative=f"--no-p{i}" if rng.random() < 0.3 else None)
    if kind == "choice":
        ch = tuple(f"c{j}" for j in range(int(rng.integers(1, 5))))
        return Param(f"p{i}", str(rng.choice(ch)), kind="choice", choices=ch, help="pick one")
    if kind == "names":
        return Param(f"p{i}", tuple(f"a{j}" for j in range(int(rng.integers(0, 3)))), kind="names", help="names")
    return Param(f"p{i}", tuple(float(x) for x in rng.integers(0, 9, int(rng.integers(1, 4)))), kind="floats",
                 help="numbers")


def check_option(p: Param, text: str) -> None:
    if p.cli_required:
        assert "(default" not in text
        return
    if "(default " in p.help:  # a default the words derive: stated once, and true
        assert text == p.help and text.count("(default ") == 1
        from scoring.difficulty.params import DEFAULT_SPLITS, resolve

        base = {"metric": "wmprob", "ease_column": None, "sts_top": 25, "split_mode": "equal", "splits": None,
                "thresholds": None, "weights": None, "reward": 1.0, "penalty": -1.0, "scale_by_difficulty": False}
        if p.name == "splits":
            assert "(default 7, or one more than the thresholds / as many as the custom weights)" in text
            assert DEFAULT_SPLITS == 7 and resolve(base).n == 7
            assert resolve({**base, "split_mode": "threshold", "thresholds": (0.2, 0.5)}).n == 3
            assert resolve({**base, "weights": "1,2,3,4"}).n == 4
        else:
            assert p.name == "thresholds" and "(default i/n)" in text
            for n in range(2, 8):
                got = resolve({**base, "split_mode": "threshold", "splits": n}).thresholds
                assert got == pytest.approx([i / n for i in range(1, n)])
        return
    got = parsed_default(p, text)
    want = p.to_json(p.default)
    if p.kind in ("float", "int") and want is not None and not isinstance(want, str):
        assert got == pytest.approx(float(want)), (p.name, text)
    elif p.kind == "floats":
        assert got == pytest.approx([float(x) for x in want]), (p.name, text)
    elif got != "not none" and want not in (None, [], ()):
        assert got == (want if not isinstance(want, tuple) else list(want)), (p.name, text)
    # a range the words state is the range the declaration checks
    for m in RANGE.finditer(text.split("(default")[0]):
        if p.kind not in ("float", "int") or p.low is None or p.high is None:
            continue
        lo, hi = m[2], m[3]
        assert float(lo) == p.low and float(hi) == p.high, (p.name, text)
        assert (m[1] == "(") == p.low_open and (m[4] == ")") == p.high_open, (p.name, text)


def test_every_help_default_and_range_is_the_declarations():
    seen = 0
    for fam in registry.families():  # every real option, as --help prints it
        parser = argparse.ArgumentParser()
        fam.params.add_arguments(parser)
        helps = {a.dest: a.help for a in parser._actions if a.dest in fam.params}
        for p in fam.params:
            if p.flag is not None:
                check_option(p, helps[p.name])
                seen += 1
    rng = np.random.default_rng(606)
    for i in range(CASES["help.option"] - seen):
        p = random_param(rng, i)
        parser = argparse.ArgumentParser()
        ParamSpec([p]).add_arguments(parser)
        text = next(a.help for a in parser._actions if a.dest == p.name)
        assert text == help.option(p)
        check_option(p, text)
    assert seen > 40


def test_every_command_help_default_is_the_options_own_default():
    """Beyond the parameters: the other options of every command (--format, --seed, --confidence,
    the shake-up's --public-fraction, --splits, ...) state the default argparse holds."""
    from scoring.cli import build_parser

    def parsers(p):
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                for sub in a.choices.values():
                    yield sub
                    yield from parsers(sub)

    checked = 0
    for parser in parsers(build_parser()):
        for a in parser._actions:
            # "(default X)" states a value; "(default: words)" describes one (not a figure), except "none"
            m = re.search(r"\(default (\S[^)]*)\)$|\(default: (none)\)$", a.help or "")
            if not m or not a.option_strings:
                continue
            said = m[1] or m[2]
            if a.dest in ("splits", "thresholds") and "(default 7" in a.help or "(default i/n)" in a.help:
                continue  # a default the words derive (test above)
            if isinstance(a, (argparse._StoreTrueAction, argparse._StoreFalseAction)):
                on = a.default if isinstance(a, argparse._StoreTrueAction) else a.default
                assert said in ("on", "off") and (said == "on") == bool(on), (a.option_strings, a.help)
            elif a.default is None:
                assert said in ("none", "none given") or "(default " in (a.help or ""), (a.option_strings, a.help)
            else:
                assert said == str(a.default) or _same_number(said, a.default), (a.option_strings, a.help, a.default)
            checked += 1
    assert checked > 100


def _same_number(a, b) -> bool:
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return False


# ---- the validation report ---------------------------------------------------------------------------
def test_the_validation_count_is_a_count_only_when_every_file_was_checked_to_its_end():
    rng = np.random.default_rng(707)
    for _ in range(CASES["data.validation"]):
        n = int(rng.integers(1, 26))
        more = bool(rng.random() < 0.2) and n == 25
        probs = [{"File": f"f{int(rng.integers(0, 3))}.csv", "Row": str(int(rng.integers(2, 99))) if rng.random() < 0.8
                  else "—", "Stopped": bool(rng.random() < 0.15)} for _ in range(n)]
        text = validation.found(probs, more=more, limit=25)
        nums = [int(x) for x in re.findall(r"\b(\d+) problems?\b", text)]
        if more:
            assert f"first {n} problems" in text and "at least" not in text
            continue
        stopped = [p for p in probs if p["Stopped"]]
        assert nums == [n] and (("problem" if n == 1 else "problems") in text)
        assert ("at least" in text) == bool(stopped), text
        if stopped:
            assert stopped[0]["File"] in text
            assert (f"row {stopped[0]['Row']}" in text) == (stopped[0]["Row"] != "—")
        assert ("fix it " in text) == (n == 1)

