"""The typed parameters (issue 23, item 5): ``ParamSpec.validate`` returns a read-only
``Params`` that is not validated again when passed on; ``**params`` stays the public shim."""

from __future__ import annotations

import copy
import math
from unittest import mock

import pytest

import scoring
from scoring.core.errors import InputError
from scoring.core.params import Param, Params, ParamSpec
from tests.shovel_ready.frames import gt_frame, sub_frame

SPEC = ParamSpec([
    Param("w", 0.5, low=0, high=1, slider=(0, 1, 0.1)),
    Param("alpha", 50.0, low=0, allow_inf=True),
    Param("attrs", (), kind="names", choices_from="attributes"),
])
CTX = {"attributes": ["a", "b"]}


def counted():
    """Patch the work of a validation (``ParamSpec._validate``) to count calls."""
    calls = []
    orig = ParamSpec._validate

    def work(self, given, context):
        calls.append(dict(given))
        return orig(self, given, context)
    return calls, mock.patch.object(ParamSpec, "_validate", work)


def test_validate_returns_params_and_passes_them_on_unchecked():
    calls, patch = counted()
    with patch:
        p = SPEC.validate({"w": "0.25", "attrs": "b"}, context=CTX)
        assert isinstance(p, Params) and isinstance(p, dict)
        assert p == {"w": 0.25, "alpha": 50.0, "attrs": ("b",)} and p.w == 0.25
        assert SPEC.validate(p, context=CTX) is p            # the same data values: not again
        assert SPEC.validate(p) is p                         # no data values to check against
        assert len(calls) == 1
        assert SPEC.validate(p, context={"attributes": ["b", "c"]}) is not p  # other data: checked again
        assert SPEC.validate(p, w=1) == {**p, "w": 1.0}     # a change: checked again
        assert len(calls) == 3


def test_a_params_of_another_spec_or_unchecked_against_data_is_checked():
    other = ParamSpec([Param("w", 0.5, low=0, high=1), Param("alpha", 50.0, low=0, allow_inf=True),
                       Param("attrs", (), kind="names", choices_from="attributes")])
    p = other.validate(w=0.2)
    assert SPEC.validate(p) is not p and SPEC.validate(p).spec is SPEC
    unchecked = SPEC.validate(attrs=["zzz"])                 # no data values given: names not checked
    with pytest.raises(InputError, match="attrs"):
        SPEC.validate(unchecked, context=CTX)                # against the data: 'zzz' is not one of them


def test_params_are_read_only_and_replace_validates():
    p = SPEC.validate(w=0.5, context=CTX)
    for change in (lambda: p.__setitem__("w", 2), lambda: p.update(w=2), lambda: p.pop("w"),
                   lambda: p.setdefault("x", 1), lambda: p.clear(), lambda: p.__delitem__("w")):
        with pytest.raises(TypeError, match="read-only"):
            change()
    assert p["w"] == 0.5
    q = p.replace(alpha="inf")
    assert q["alpha"] == math.inf and p["alpha"] == 50.0 and q.fits(CTX)
    with pytest.raises(InputError, match="w"):
        p.replace(w=3)
    assert copy.deepcopy(p) is p
    make, args = p.__reduce__()  # what a pickle to a worker process rebuilds: a plain dict
    assert make(*args) == p and type(make(*args)) is dict
    with pytest.raises(AttributeError):
        _ = p.colour


def test_values_checks_only_the_named():
    assert SPEC.values(alpha="∞", w=1) == (math.inf, 1.0)
    with pytest.raises(InputError, match="w"):
        SPEC.values(w=2)
    with pytest.raises(InputError, match="colour"):
        SPEC.values(colour=1)


GT = gt_frame([("e1", "Claim", "0 1 2 3 4 5"), ("e2", "Claim", "0 1 2 3")])
SUB = sub_frame([("e1", "Claim", "0 1 2 3"), ("e2", "Claim", "0 1 2 3")])


def test_the_scorer_takes_params_once_and_keywords_as_before():
    comp = scoring.load_competition(ground_truth=GT, submissions={"s": SUB, "t": SUB})
    scorer = scoring.Scorer(comp)
    calls, patch = counted()
    with patch:
        p = scorer.check(w=0.3, threshold=0.5)
        lb = scorer.leaderboard(p)
        scorer.final_ranks(p)
        scorer.unit_stats(p)
        scorer.group_scores(p)
        scorer.warnings(p)
        assert len(calls) == 1                                # checked once, then passed on
        by_name = scorer.leaderboard(w=0.3, threshold=0.5)    # the public shim: checked, same numbers
        assert len(calls) == 2
    assert lb.equals(by_name)
    with pytest.raises(InputError, match="w"):
        scorer.leaderboard(w=2)


def _sample(fam):
    """The family's sample data, as its inputs' paths lay it out."""
    sources = {}
    for inp in fam.inputs:
        where = fam.sample_dir / inp.path if inp.path else None
        if where is not None and inp.path.endswith("/"):
            sources[inp.role] = sorted(where.glob(f"*{inp.suffix}"))
        elif where is not None and where.is_file():
            sources[inp.role] = where
    return fam.load(**sources)


@pytest.mark.slow
def test_every_family_scorer_returns_its_checked_params_as_they_are():
    for fam in scoring.registry.families():
        comp = _sample(fam)
        scorer = fam.scorer(comp)
        p = scorer.check()
        assert isinstance(p, Params), fam.name
        assert scorer.check(p) is p or scorer.check(p) == p, fam.name   # QA spells its weights out again
        calls, patch = counted()
        with patch:
            scorer.leaderboard(p)
            scorer.unit_stats(p)
        assert calls == [], fam.name
