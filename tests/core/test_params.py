"""The declarative parameter spec: validation, links, presets and the command line."""

from __future__ import annotations

import argparse
import math

import pytest

from scoring.core.errors import InputError
from scoring.core.params import Param, ParamSpec

SPEC = ParamSpec([
    Param("w", 0.5, low=0, high=1, slider=(0, 1, 0.1), help="weight"),
    Param("t", 0.51, low=0, high=1, low_open=True, slider=(0.5, 0.95, 0.01), help="threshold"),
    Param("alpha", 50.0, low=0, allow_inf=True, slider=(0, 200, 1), expected_text="a number >= 0 or 'inf'",
          help="temperature"),
    Param("n", 7, kind="int", low=2, high=7, help="splits"),
    Param("mode", "a", kind="choice", choices=("a", "b"), help="mode"),
    Param("on", True, kind="bool", cli_negative="--off", help="switch"),
    Param("attrs", (), kind="names", choices_from="attributes", help="groups"),
    Param("cuts", None, kind="floats", low=0, high=1, help="thresholds"),
    Param("weights", None, kind="mapping", low=0, choices_from="themes", cli=None, help="weights"),
], check=lambda v: (_ for _ in ()).throw(ValueError("n", "expected n >= 3 in mode b"))
    if v["mode"] == "b" and v["n"] < 3 else None)


def test_defaults_and_normalisation():
    v = SPEC.validate()
    assert v == {"w": 0.5, "t": 0.51, "alpha": 50.0, "n": 7, "mode": "a", "on": True, "attrs": (), "cuts": None,
                 "weights": None}
    v = SPEC.validate(w="0.25", alpha="inf", n="3", mode="B", on="off", attrs="x, y", cuts="0.2,0.4",
                      weights=["t1:1", "t2:0.5"], context={"attributes": ["x", "y"], "themes": ["t1", "t2"]})
    assert v["w"] == 0.25 and v["alpha"] == math.inf and v["n"] == 3 and v["mode"] == "b" and v["on"] is False
    assert v["attrs"] == ("x", "y") and v["cuts"] == (0.2, 0.4) and v["weights"] == {"t1": 1.0, "t2": 0.5}


@pytest.mark.parametrize("kw, name, words", [
    ({"w": 1.5}, "w", "expected a number in [0, 1], got 1.5"),
    ({"w": "x"}, "w", "expected a number in [0, 1]"),
    ({"w": float("nan")}, "w", "expected"),
    ({"t": 0}, "t", "(0, 1]"),
    ({"alpha": -1}, "alpha", "a number >= 0 or 'inf'"),
    ({"n": 2.5}, "n", "an integer in [2, 7]"),
    ({"n": True}, "n", "an integer"),
    ({"mode": "c"}, "mode", "one of a, b"),
    ({"on": "maybe"}, "on", "true or false"),
    ({"attrs": ["z"]}, "attrs", "'z'"),
    ({"attrs": ["x", "x"]}, "attrs", "distinct"),
    ({"cuts": "0.2,2"}, "cuts", "expected"),
    ({"weights": {"t3": 1}}, "weights", "'t3'"),
    ({"speed": 1}, "speed", "unknown parameter"),
    ({"mode": "b", "n": 2}, "n", "n >= 3 in mode b"),
])
def test_every_bad_value_names_the_parameter(kw, name, words):
    with pytest.raises(InputError) as err:
        SPEC.validate(kw, context={"attributes": ["x"], "themes": ["t1"]})
    assert err.value.file == name and words in err.value.problem


def test_slider_range_and_link_text():
    assert SPEC["t"].in_slider(0.6) and not SPEC["t"].in_slider(0.3)
    assert SPEC["alpha"].in_slider(math.inf)  # the ∞ switch shows it
    assert SPEC["alpha"].to_text(math.inf) == "inf" and SPEC["w"].to_text(0.25) == "0.25"
    assert SPEC["attrs"].to_text(()) == [""] and SPEC["on"].to_text(False) == "false"
    assert SPEC.to_json({"alpha": math.inf, "attrs": ("x",)}) == {"alpha": "inf", "attrs": ["x"]}


def test_command_line_options_help_and_errors():
    p = argparse.ArgumentParser()
    SPEC.add_arguments(p)
    helptext = " ".join(p.format_help().split())
    assert "--w W weight (default 0.5)" in helptext and "--off" in helptext and "--weights" not in helptext
    args = p.parse_args(["--w", "0.2", "--off", "--attrs", "x"])
    assert SPEC.from_args(args, context={"attributes": ["x"]})["on"] is False
    with pytest.raises(InputError) as err:
        SPEC.from_args(p.parse_args(["--w", "7"]))
    assert str(err.value) == "--w: expected a number in [0, 1], got '7'"
