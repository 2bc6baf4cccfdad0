"""The two rule sets of spotGEO scoring (spec §2–§3) and the four places where they differ.

The challenge's published definition (the **seed** rules) and the starter kit's code, which
ran on the official server (the **starter-kit** rules), agree on everything except:

1. ``squared`` — a true positive at distance ε ≤ d costs ``d²`` (seed) or ``d`` (kit);
2. ``pooled`` — the MSE is ``ΣSSE / Σ(TP + FN + FP)`` over the whole submission (seed) or
   the *sum* over sequences of each sequence's ``SSE_k / (TP_k + FN_k + FP_k)`` (kit);
3. ``edge`` — a true positive at exactly ``d = τ`` costs ``τ²`` (seed) or 0 (kit: it keeps
   only distances ``< τ`` in its error sum);
4. ``constant`` — the matching replaces distances beyond τ by a constant larger than
   ``min(M, N)·τ`` (seed), or by the kit's fixed 1000, which finds fewer true positives when
   ``min(M, N)·τ ≥ 1000`` (only at large τ).

A :class:`RuleSet` says which side of each difference applies; :data:`SEED` and
:data:`STARTER_KIT` are the two real ones, and the Rules page switches one difference at a
time.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

KIT_CONSTANT = 1000.0
RULES = ("seed", "starter-kit")
RULE_LABELS = {"seed": "Published definition (seed)", "starter-kit": "Starter-kit code (official server)"}


@dataclass(frozen=True)
class RuleSet:
    """One side of each of the four differences (True = the published definition's)."""

    squared: bool = True
    pooled: bool = True
    edge: bool = True
    constant: bool = True

    @property
    def power(self) -> int:
        return 2 if self.squared else 1

    def with_kit(self, difference: str) -> RuleSet:
        """This rule set with one difference switched to the starter kit's side."""
        return replace(self, **{difference: False})


SEED = RuleSet()
STARTER_KIT = RuleSet(False, False, False, False)
RULESETS = {"seed": SEED, "starter-kit": STARTER_KIT}

#: the four differences: (field, title, the definition's side, the kit's side)
DIFFERENCES = (
    ("squared", "d vs d² in the error", "a true positive at ε ≤ d ≤ τ adds d²",
     "a true positive at ε ≤ d < τ adds d (not squared)"),
    ("pooled", "pooled vs summed MSE", "MSE = ΣSSE / Σ(TP + FN + FP) over the whole submission",
     "MSE = Σ over sequences of SSE_k / (TP_k + FN_k + FP_k): a sum, not a mean"),
    ("edge", "the d = τ edge", "a true positive at exactly d = τ adds τ²",
     "a true positive at exactly d = τ adds nothing (only d < τ enters the sum)"),
    ("constant", "the matching's cost constant",
     "distances beyond τ cost more than min(M, N)·τ: always the most true positives",
     "distances beyond τ cost the fixed 1000: fewer true positives possible when min(M, N)·τ ≥ 1000"),
)


def ruleset(rules: str | RuleSet) -> RuleSet:
    """The :class:`RuleSet` of a name (``seed`` / ``starter-kit``) or the set itself."""
    if isinstance(rules, RuleSet):
        return rules
    try:
        return RULESETS[rules]
    except KeyError:
        raise ValueError(f"expected rules in {', '.join(RULES)}, got {rules!r}") from None


def cost_constant(tau: float, m: int, rules: RuleSet = SEED) -> float:
    """The cost of a pair beyond τ in the assignment of an M × N frame, ``m = min(M, N)``:
    anything larger than ``m·τ`` under the definition, 1000 under the starter kit.

    >>> cost_constant(10.0, 30), cost_constant(10.0, 30, STARTER_KIT)
    (311.0, 1000.0)
    """
    return (m + 1) * tau + 1.0 if rules.constant else KIT_CONSTANT


def penalty(d, *, tau: float, epsilon: float, rules: RuleSet = SEED) -> np.ndarray:
    """π(d) of true positives (``d ≤ τ``): 0 below ε, else d² (seed) or d (kit); the kit's
    0 at exactly d = τ.

    >>> penalty([1.0, 5.0, 10.0], tau=10.0, epsilon=3.0).tolist()
    [0.0, 25.0, 100.0]
    >>> penalty([1.0, 5.0, 10.0], tau=10.0, epsilon=3.0, rules=STARTER_KIT).tolist()
    [0.0, 5.0, 0.0]
    """
    d = np.asarray(d, dtype=float)
    inside = (d >= epsilon) & ((d <= tau) if rules.edge else (d < tau))
    return np.where(inside, d**rules.power, 0.0)


def frame_sse(tp_d, fp: int, fn: int, *, tau: float, epsilon: float, rules: RuleSet = SEED) -> float:
    """``SSE = Σ_TP π(d) + τ²·(FN + FP)`` of one frame (0 for an empty frame).

    >>> frame_sse([1.0, 5.0], 2, 1, tau=10.0, epsilon=3.0)   # the seed's worked example
    325.0
    """
    return float(penalty(tp_d, tau=tau, epsilon=epsilon, rules=rules).sum() + tau**2 * (fp + fn))


def prf(tp, fp, fn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 from (pooled) counts; every 0/0 is 0.

    >>> [float(v) for v in prf(2, 2, 1)]
    [0.5, 0.6666666666666666, 0.5714285714285715]
    """
    tp, fp, fn = (np.asarray(v, dtype=float) for v in (tp, fp, fn))
    p = np.divide(tp, tp + fp, out=np.zeros(np.broadcast(tp, fp).shape), where=(tp + fp) > 0)
    r = np.divide(tp, tp + fn, out=np.zeros(np.broadcast(tp, fn).shape), where=(tp + fn) > 0)
    f1 = np.divide(2 * p * r, p + r, out=np.zeros(np.broadcast(p, r).shape), where=(p + r) > 0)
    return p, r, f1
