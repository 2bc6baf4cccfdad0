"""The QA metric family (docs/qa.md): paragraph accuracy and answer token F1 per theme, an
inference-time penalty, weighted themes, and the rank under unknown (hidden) weights."""

from .competition import Competition, load_competition, paragraph_correct
from .explain import explain_question
from .family import FAMILY, csv_columns, leaderboard_document
from .hidden import hidden_weight_ranks, weight_draws, winner_at, winner_regions
from .normalize import answer_f1, f1_tokens, normalize_answer, token_lists, tokens
from .params import FIXED_COLUMNS, METRICS, PARAMS, STAGES, theme_columns
from .scorer import Scorer, theme_scores

__all__ = [
    "FAMILY", "FIXED_COLUMNS", "METRICS", "PARAMS", "STAGES", "Competition", "Scorer", "answer_f1",
    "csv_columns", "explain_question", "f1_tokens", "hidden_weight_ranks", "leaderboard_document",
    "load_competition", "normalize_answer", "paragraph_correct", "theme_columns", "theme_scores",
    "token_lists", "tokens", "weight_draws", "winner_at", "winner_regions",
]
