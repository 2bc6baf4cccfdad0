"""One question explained (spec §2): the accepted paragraphs and answers, each team's
paragraph and answer, the tokens after normalisation and the F1 against every accepted
answer. It re-derives nothing: the per-question numbers are the competition's own, and the
tokens come from the same normaliser the loader uses."""

from __future__ import annotations

import pandas as pd

from .competition import Competition
from .normalize import f1_tokens, tokens


def explain_question(comp: Competition, question_id: str) -> dict:
    """Everything about one question.

    Returns ``question_id``, ``theme``, ``question`` (the ground truth's optional
    ``question`` text, else None), ``paragraph_ids`` and ``answers`` (accepted),
    ``answer_tokens`` (the normalised tokens of each accepted answer; for an unanswerable
    question the empty answer ``[]``), and ``teams``: a DataFrame with one row per team —
    ``submission, row`` (the spreadsheet row in its file), ``paragraph_id``,
    ``paragraph_correct``, ``answer``, ``tokens``, ``f1_per_answer`` (a list, one per accepted
    answer), ``best_answer`` (index of the first accepted answer reaching the maximum),
    ``f1``, ``inference_ms``.
    """
    gt = comp.gt
    try:
        q = gt.questions.index(str(question_id))
    except ValueError:
        raise KeyError(f"unknown question {question_id!r}") from None
    accepted = gt.answers[q]
    gold = [tokens(a) for a in (accepted or [""])]
    rows = []
    for t, sub in enumerate(comp.predictions):
        answer = sub.answer[q].as_py()
        toks = tokens(answer)
        per = [f1_tokens(toks, g) for g in gold]
        rows.append({"submission": sub.name, "row": int(sub.rows[q]), "paragraph_id": sub.paragraph[q].as_py(),
                     "paragraph_correct": bool(comp.correct[t, q]), "answer": answer, "tokens": toks,
                     "f1_per_answer": per, "best_answer": per.index(max(per)), "f1": float(comp.f1[t, q]),
                     "inference_ms": float(comp.ms[t, q])})
    return {"question_id": gt.questions[q], "theme": gt.themes[int(gt.theme[q])],
            "question": gt.text[q] if gt.text is not None else None,
            "paragraph_ids": list(gt.paragraph_ids[q]), "answers": list(accepted), "answer_tokens": gold,
            "teams": pd.DataFrame(rows, columns=["submission", "row", "paragraph_id", "paragraph_correct", "answer",
                                                 "tokens", "f1_per_answer", "best_answer", "f1", "inference_ms"])}
