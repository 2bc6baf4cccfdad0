"""The QA leaderboard (spec §3–§4), built so that a parameter change only re-aggregates.

What no parameter changes is summed once per (team, theme) in :class:`Scorer`: correct
paragraphs, answer F1 and inference time, and the question count per theme. A call to
:meth:`Scorer.leaderboard` then computes, for the time threshold ``T`` and the weights ``w``,

* ``accuracy_t``, ``f1_t``, ``AIT_t`` (means over the theme's questions),
* ``multiplier_t = T / AIT_t`` if ``AIT_t > T`` else 1, ``score_t = multiplier_t·(f1_t + accuracy_t)``,
* ``final_score = Σ_t w_t·score_t``, ranked with :func:`scoring.core.ranking.rank`,

and the rank under unknown weights (:mod:`.hidden`), cached per (``T``, ``K``, seed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..core.cache import LRU
from ..core.errors import InputError
from ..core.family import UnitStats
from ..core.params import Params
from ..core.params_typed import given
from ..core.ranking import order, rank
from .competition import Competition
from .hidden import DRAW_BUDGET, draw_blocks, hidden_weight_ranks, winner_regions
from .hidden import weight_draws as draw_weights
from .params import FIXED_COLUMNS, METRICS, PARAMS


def weighted_sum(score: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``Σ_t w_t·score_t`` over the last axis, exactly as far as floating point allows: the
    weights are divided by the largest first and the sum scaled back, so weights near the
    largest float (``1e308``) do not overflow on the way (the spec uses weights as given).

    >>> weighted_sum(np.array([[1.0, 0.5], [0.75, 0.25]]), np.array([1e308, 1e308])).tolist()
    [1.5e+308, 1e+308]
    """
    top = float(w.max()) if len(w) else 0.0
    if not top > 0:
        return score @ w
    with np.errstate(over="ignore"):  # past the largest float: inf, for the caller to refuse
        return (score @ (w / top)) * top


def theme_scores(acc: np.ndarray, f1: np.ndarray, ait: np.ndarray, threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """``(multiplier, score)`` per theme: ``T / AIT`` when ``AIT > T`` else 1, times ``F1 + accuracy``.

    The spec's figure (§5): accuracy 0.5, mean F1 0.6, AIT 400 ms at T = 200 gives 0.55.

    >>> m, s = theme_scores(np.array([0.5]), np.array([0.6]), np.array([400.0]), 200.0)
    >>> float(m[0]), round(float(s[0]), 12)
    (0.5, 0.55)
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        mult = np.where(ait > threshold, threshold / np.where(ait > 0, ait, 1.0), 1.0)
    return mult, mult * (f1 + acc)


class Scorer:
    """Precomputes a competition so that :meth:`leaderboard` only re-aggregates (module doc)."""

    def __init__(self, competition: Competition):
        self.comp = competition
        self.names = list(competition.submission_names)
        self.themes = list(competition.themes)
        theme = np.asarray(competition.theme, dtype=np.int64)
        n_th = len(self.themes)
        self.n = np.bincount(theme, minlength=n_th).astype(float)  # questions per theme

        def means(x: np.ndarray) -> np.ndarray:  # teams × themes: one bincount per team, no themes × questions
            out = np.zeros((x.shape[0], n_th))
            for i, row in enumerate(x):
                out[i] = np.bincount(theme, weights=row, minlength=n_th)
            return out / self.n
        self.acc, self.f1, self.ait = means(competition.correct), means(competition.f1), means(competition.ms)
        self._cache = LRU(16)
        self._draws = LRU(2)

    # ---- parameters ------------------------------------------------------------------------
    def check(self, p: Mapping[str, Any] | None = None, /, **params) -> dict:
        """Validated, complete parameters; ``weights`` resolved (None: the competition's default
        weights) and given for every theme, in sorted theme order."""
        p = PARAMS.validate(given(p, params), context={"themes": self.themes})
        w = p["weights"]
        if w is None:
            w = self.comp.default_weights
        missing = [t for t in self.themes if t not in w]
        if missing:
            raise InputError("weights", None, f"expected a weight for every theme, got none for {missing[0]!r}")
        return p.derive(weights={t: float(w[t]) for t in self.themes})

    def weight_vector(self, weights: dict) -> np.ndarray:
        return np.array([weights[t] for t in self.themes], dtype=float)

    def final_scores(self, score: np.ndarray, weights: dict) -> np.ndarray:
        """``Σ_t w_t·score_t`` per team (:func:`weighted_sum`); an :class:`InputError` when the
        true value is past the largest float (weights near 1e308), never an infinite score."""
        final = weighted_sum(score, self.weight_vector(weights))
        if not np.isfinite(final).all():
            top = max(weights.values())
            raise InputError("weights", None, f"the weighted sum of the theme scores is larger than the largest "
                                              f"number (largest weight {top:g}); divide every weight by the same "
                                              "number (the ranking stays the same)")
        return final

    # ---- per theme --------------------------------------------------------------------------
    def theme_scores(self, time_threshold: float = 200.0) -> tuple[np.ndarray, np.ndarray]:
        """``(multiplier, score)``, each (teams × themes), at the threshold ``T``."""
        return theme_scores(self.acc, self.f1, self.ait, float(time_threshold))

    def hidden(self, p: Params | None = None, /, *, time_threshold: float = 200.0, weight_draws: int = 10000,
               seed: int = 0) -> dict:
        """Rank under unknown weights (spec §4): ``p_first``, ``best_rank``, ``median_rank``,
        ``worst_rank`` and ``rank_share`` per team (cached per threshold, K and seed); given
        checked parameters ``p``, it reads those three from them."""
        p = self.check(p) if isinstance(p, Params) else self.check(
            time_threshold=time_threshold, weight_draws=weight_draws, seed=seed)
        key = (p["time_threshold"], p["weight_draws"], p["seed"])

        def run():
            n_th, k, seed = len(self.themes), p["weight_draws"], p["seed"]
            if n_th * k <= DRAW_BUDGET * 4:  # kept for the next threshold move
                draws = self._draws.get((k, seed), lambda: draw_weights(n_th, k, seed=seed))
            else:  # many themes: drawn again block by block, never a themes × K matrix
                draws = draw_blocks(n_th, k, seed=seed)
            return hidden_weight_ranks(self.theme_scores(p["time_threshold"])[1], draws)
        return self._cache.get(key, run)

    def leaderboard(self, p: Mapping[str, Any] | None = None, /, **params) -> pd.DataFrame:
        """The leaderboard (spec §6) as a DataFrame: ``submission, final_score, rank, p_first,
        best_rank, median_rank, worst_rank`` and per theme (sorted) ``<theme>:accuracy, :f1,
        :ait_ms, :multiplier, :score``; rows by rank, then name. Keyword arguments:
        ``time_threshold, weights, weight_draws, seed``. ``lb.attrs`` holds ``themes`` and the
        resolved ``weights``."""
        p = self.check(p, **params)
        mult, score = self.theme_scores(p["time_threshold"])
        final = self.final_scores(score, p["weights"])
        h = self.hidden(p)
        data = {"submission": self.names, "final_score": final, "rank": rank(final), "p_first": h["p_first"],
                "best_rank": h["best_rank"], "median_rank": h["median_rank"], "worst_rank": h["worst_rank"]}
        # the per-theme columns as one block (teams × themes·5), not one array per column
        block = np.stack((self.acc, self.f1, self.ait, mult, score), axis=2).reshape(len(self.names), -1)
        per_theme = pd.DataFrame(block, columns=[f"{t}:{m}" for t in self.themes for m in METRICS])
        df = pd.concat([pd.DataFrame(data), per_theme], axis=1)
        df = df.iloc[order(self.names, data["rank"])].reset_index(drop=True)
        df.attrs["themes"] = list(self.themes)
        df.attrs["weights"] = dict(p["weights"])
        return df

    # ---- views the pages need ----------------------------------------------------------------
    def theme_table(self, p: Mapping[str, Any] | None = None, /, **params) -> pd.DataFrame:
        """One row per (team, theme): ``accuracy, f1, metric, ait_ms, multiplier, score, weight,
        weight_share`` (the weight over the sum of weights) and ``contribution = weight·score``."""
        p = self.check(p, **params)
        mult, score = self.theme_scores(p["time_threshold"])
        self.final_scores(score, p["weights"])  # refused past the largest float, as the leaderboard
        w = self.weight_vector(p["weights"])
        share = (w / w.max()) / (w / w.max()).sum()  # no overflow for weights near 1e308
        T, n_th = len(self.names), len(self.themes)
        return pd.DataFrame({
            "submission": np.repeat(self.names, n_th), "theme": np.tile(self.themes, T),
            "accuracy": self.acc.ravel(), "f1": self.f1.ravel(), "metric": (self.acc + self.f1).ravel(),
            "ait_ms": self.ait.ravel(), "multiplier": mult.ravel(), "score": score.ravel(),
            "weight": np.tile(w, T), "weight_share": np.tile(share, T), "contribution": (score * w).ravel(),
        })

    def rank_changes(self, p: Mapping[str, Any] | None = None, /, **params) -> pd.DataFrame:
        """Final score and rank under the given weights beside those under equal weights
        (``1 / n`` each): ``submission, final_score, rank, equal_final_score, equal_rank,
        rank_change`` (positive: the weights move the team up), in leaderboard order."""
        p = self.check(p, **params)
        score = self.theme_scores(p["time_threshold"])[1]
        final = self.final_scores(score, p["weights"])
        equal = score.mean(axis=1) if len(self.themes) else np.zeros(len(self.names))
        r, re_ = rank(final), rank(equal)
        df = pd.DataFrame({"submission": self.names, "final_score": final, "rank": r, "equal_final_score": equal,
                           "equal_rank": re_, "rank_change": re_ - r})
        return df.iloc[order(self.names, r)].reset_index(drop=True)

    def speed_table(self, p: Mapping[str, Any] | None = None, /,
                    *, step_ms: float = 10.0, **params) -> pd.DataFrame:
        """Per (team, theme): ``ait_ms``, ``threshold``, ``over_ms = max(0, AIT − T)``,
        ``multiplier``, ``score``, and ``gain`` — what the final score gains when the theme's AIT
        drops by ``step_ms`` (default 10 ms): ``w_t·(F1_t + acc_t)·(m_t(AIT − step) − m_t(AIT))``;
        ``gain_all`` is the team's gain when every theme's AIT drops by ``step_ms``."""
        if not (isinstance(step_ms, (int, float)) and not isinstance(step_ms, bool) and step_ms > 0):
            raise InputError("step_ms", None, f"expected a number > 0, got {step_ms!r}")
        p = self.check(p, **params)
        T = p["time_threshold"]
        w = self.weight_vector(p["weights"])
        mult, score = self.theme_scores(T)
        faster = theme_scores(self.acc, self.f1, np.maximum(self.ait - step_ms, 0.0), T)[0]
        top = w.max()
        with np.errstate(over="ignore"):
            gain = (w / top) * (self.acc + self.f1) * (faster - mult) * top
        n_th = len(self.themes)
        return pd.DataFrame({
            "submission": np.repeat(self.names, n_th), "theme": np.tile(self.themes, len(self.names)),
            "ait_ms": self.ait.ravel(), "threshold": T, "over_ms": np.maximum(self.ait - T, 0.0).ravel(),
            "multiplier": mult.ravel(), "score": score.ravel(), "gain": gain.ravel(),
            "gain_all": np.repeat(gain.sum(axis=1), n_th),
        })

    def winner_regions(self, p: Mapping[str, Any] | None = None, /, *, themes=None, **params) -> dict:
        """Which team ranks first where on the weight simplex (:func:`.hidden.winner_regions`).

        ``themes``: 2 or 3 themes to vary (default: every theme, when there are 2 or 3). The
        chosen themes share the weight they have together, ``m = Σ_chosen w_t``, split as
        ``m·λ`` with ``λ`` on the simplex; every other theme keeps its given weight. So team
        ``i`` scores ``c_i + m·(λ · s_i)`` with ``c_i`` its weighted score on the other themes —
        affine in ``λ`` and, since ``Σλ = 1``, the same as the scores ``m·s_i + c_i`` on the
        simplex. Returns ``themes``, ``current`` (the given weights of the chosen themes as
        shares of ``m``, the point to mark; None when ``m = 0``) and ``regions``.
        """
        p = self.check(p, **params)
        chosen = list(self.themes) if themes is None else [str(t) for t in themes]
        unknown = [t for t in chosen if t not in self.themes]
        if unknown or len(set(chosen)) != len(chosen) or len(chosen) not in (2, 3):
            raise InputError("themes", None, f"expected 2 or 3 distinct themes of ({', '.join(self.themes)}), "
                                             f"got {', '.join(chosen) or 'none'}")
        pos = {t: j for j, t in enumerate(self.themes)}
        idx = [pos[t] for t in chosen]
        rest = [j for j in range(len(self.themes)) if j not in idx]
        w = self.weight_vector(p["weights"])
        w = w / w.max()  # the regions and the shares do not change with the scale
        score = self.theme_scores(p["time_threshold"])[1]
        m = float(w[idx].sum())
        offset = score[:, rest] @ w[rest] if rest else np.zeros(len(self.names))
        return {"themes": chosen, "current": (w[idx] / m).tolist() if m > 0 else None,
                "regions": winner_regions(m * score[:, idx] + offset[:, None], self.names)}

    # ---- per-unit statistics ---------------------------------------------------------------
    def unit_stats(self, p: Mapping[str, Any] | None = None, /, **params) -> UnitStats:
        """What every team earned on every question, as additive sums (:class:`UnitStats`).

        Units are questions, a question's cell is its theme; ``team`` (questions × teams × 3)
        holds paragraph correct (0/1), answer F1 and inference ms; ``shared`` a 1 per question.
        ``score`` divides the theme sums by the theme's count and applies §3 with the given
        threshold and weights (a theme with no question in a subset scores 0). Keys:
        ``final_score`` and ``<theme>:score``.
        """
        p = self.check(p, **params)
        c = self.comp
        team = np.stack([c.correct.T, c.f1.T, c.ms.T], axis=2)
        T, w, themes = p["time_threshold"], self.weight_vector(p["weights"]), list(self.themes)

        def score(team_sums: np.ndarray, shared_sums: np.ndarray) -> dict[str, np.ndarray]:
            n = shared_sums[..., 0][..., None, :, None]  # (…, 1, themes, 1)
            sums = np.swapaxes(team_sums, -3, -2)  # (…, teams, themes, 3)
            with np.errstate(invalid="ignore", divide="ignore"):
                mean = np.where(n > 0, sums / n, 0.0)
            s = theme_scores(mean[..., 0], mean[..., 1], mean[..., 2], T)[1]
            out = {"final_score": weighted_sum(s, w)}
            out.update({f"{t}:score": s[..., j] for j, t in enumerate(themes)})
            return out

        return UnitStats(units=list(c.questions), cell=c.theme, n_cells=len(themes), team=team,
                         shared=np.ones((len(c.questions), 1)), score=score, final="final_score",
                         names=list(self.names))


__all__ = ["FIXED_COLUMNS", "Scorer", "theme_scores"]
