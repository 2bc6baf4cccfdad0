"""The randomized comparison has teeth: each deliberately broken variant of the reference
(``reference.py``) must disagree with the engine on some of the random competitions.

A variant replaces one rule of the SPEC with a plausible mistake. If the engine agreed with a
broken reference on every random competition, the comparison would not be checking that rule.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

import scoring
from tests.shovel_ready import randomcomp
from tests.shovel_ready import reference as ref
from tests.shovel_ready.test_reference_random import compare, parameter_sets

SEEDS = range(40)


def _removal_used_only_kept(segments):
    """§2 broken: ``used`` grows by the kept words only (not by all words of S)."""
    sets = [frozenset(s) for s in segments]
    order = sorted(range(len(sets)), key=lambda i: (min(sets[i]), i))
    used, out = set(), [None] * len(sets)
    for i in order:
        s, r = sets[i], sets[i] - used
        keep = s if r == s else (frozenset(r) if len(r) >= 2 and max(r) - min(r) + 1 == len(r) else None)
        out[i] = keep
        used |= keep or set()
    return out


def _removal_no_contiguity(segments):
    """§2 broken: a trimmed remainder survives without being contiguous."""
    sets = [frozenset(s) for s in segments]
    order = sorted(range(len(sets)), key=lambda i: (min(sets[i]), i))
    used, out = set(), [None] * len(sets)
    for i in order:
        s, r = sets[i], sets[i] - used
        out[i] = s if r == s else (frozenset(r) if len(r) >= 2 else None)
        used |= s
    return out


def _removal_last_row_first(segments):
    """§2 broken: ties on the first word go to the later row."""
    sets = [frozenset(s) for s in segments]
    order = sorted(range(len(sets)), key=lambda i: (min(sets[i]), -i))
    used, out = set(), [None] * len(sets)
    for i in order:
        s, r = sets[i], sets[i] - used
        out[i] = s if r == s else (frozenset(r) if len(r) >= 2 and max(r) - min(r) + 1 == len(r) else None)
        used |= s
    return out


def _candidate_strict(st, threshold):
    """§3 broken: a candidate needs overlaps strictly above the threshold."""
    return st.inter > 0 and st.o_p > threshold + ref.TOL and st.o_g > threshold + ref.TOL


def _quality_max_for_iou(st, quality):
    """§3 broken: the IoU quality grades by max(o_P, o_G)."""
    return Fraction(1) if quality == "binary" else max(st.o_p, st.o_g)


def _key_always_iou(st, quality):
    """§3 broken: matching order by IoU whatever the quality."""
    return st.iou


def _tp_ignores_effectiveness(st, d, w, quality):
    """§3 broken: the fractional TP forgets the effectiveness probability."""
    return ref.quality_value(st, quality)


def _softmin_ignores_sizes(scores, sizes=None, *, alpha):
    """§4 broken: groups weigh alike whatever their size."""
    scores = [float(s) for s in scores]
    if math.isinf(alpha):
        return min(scores)
    m = min(scores)
    wts = [math.exp(-alpha * (s - m)) for s in scores]
    return math.fsum(w * s for w, s in zip(wts, scores, strict=True)) / math.fsum(wts)


def _dense_ranks(values):
    """§6 broken: dense ranks (1, 2, 2, 3) instead of 1224."""
    distinct = sorted(set(round(v, 9) for v in values.values()), reverse=True)
    return {k: 1 + distinct.index(round(v, 9)) for k, v in values.items()}


def _boost_fastest_of_all(scores, runtimes, *, band=0.05, max_boost=0.05, window=0.2):
    """§5 broken: the boost's reference runtime is the fastest of all teams, eligible or not."""
    rows = _REAL["efficiency_boost"](scores, runtimes, band=band, max_boost=max_boost, window=window)
    known = [runtimes[k] for k in scores if k in runtimes]
    if not known:
        return rows
    fastest = min(known)
    for k, r in rows.items():
        if r.eligible:
            ratio = runtimes[k] / fastest
            b = max(0.0, max_boost * (1 - (ratio - 1) / window)) if ratio <= 1 + window + ref.TOL else 0.0
            r.boost = 0.0 if b < ref.TOL else b
            r.final_score = r.score * (1 + r.boost)
    ranks = ref.competition_ranks({k: r.final_score for k, r in rows.items()})
    for k, r in rows.items():
        r.rank = ranks[k]
    return rows


def _fp1_without_quirks(gts, preds, cls):
    """FP1 broken: the reference's +1 FP / +1 FN quirks left out."""
    tp, fp, fn = _REAL["fp1_class_counts"](gts, preds, cls)
    g_c = [g for g in gts if g.cls == cls]
    p_c = [p for p in preds if p.cls == cls]
    with_pred, with_gt = {p.essay for p in p_c}, {g.essay for g in g_c}
    fp -= any(g.essay not in with_pred for g in g_c)
    fn -= any(p.essay not in with_gt for p in p_c)
    return tp, fp, fn


_REAL = {"efficiency_boost": ref.efficiency_boost, "fp1_class_counts": ref.fp1_class_counts}

VARIANTS = {
    "removal: used grows by kept words only": ("remove_overlaps", _removal_used_only_kept),
    "removal: no contiguity check": ("remove_overlaps", _removal_no_contiguity),
    "removal: later row first on ties": ("remove_overlaps", _removal_last_row_first),
    "candidates: strictly above the threshold": ("is_candidate", _candidate_strict),
    "quality: IoU graded as max overlap": ("quality_value", _quality_max_for_iou),
    "matching order: always by IoU": ("selection_key", _key_always_iou),
    "fractional TP: no effectiveness term": ("tp_value", _tp_ignores_effectiveness),
    "softmin: group sizes ignored": ("softmin", _softmin_ignores_sizes),
    "ranks: dense instead of 1224": ("competition_ranks", _dense_ranks),
    "boost: fastest of all teams": ("efficiency_boost", _boost_fastest_of_all),
    "FP1: quirks left out": ("fp1_class_counts", _fp1_without_quirks),
}

_COMPETITIONS: dict[int, tuple] = {}


def _competition(seed: int):
    if seed not in _COMPETITIONS:
        comp = randomcomp.random_competition(seed)
        engine = scoring.load_competition(ground_truth=comp.ground_truth, submissions=comp.submissions,
                                          demographics=comp.demographics, runtimes=comp.runtimes)
        _COMPETITIONS[seed] = (comp, scoring.Scorer(engine))
    return _COMPETITIONS[seed]


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_comparison_catches_a_broken_reference(name, monkeypatch):
    attr, broken = VARIANTS[name]
    monkeypatch.setattr(ref, attr, broken)
    for seed in SEEDS:
        comp, scorer = _competition(seed)
        for params in parameter_sets(seed, comp):
            try:
                compare(comp, scorer, params)
            except AssertionError:
                return  # caught: one disagreement is all this test asks for
    pytest.fail(f"{name}: the engine agrees with the broken reference on all {len(SEEDS)} competitions")
