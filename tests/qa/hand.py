"""A small competition computed by hand (used by the figure, API and CLI tests).

Ground truth: theme ``alpha`` q1 (the seed's three answers), q2; theme ``beta`` q3
(unanswerable: no paragraph, no answer).

Team A — alpha: q1 paragraph right, "problem pushed" (F1 0.8, the seed's example), 300 ms;
q2 paragraph wrong, "problem pushed" against "token word problem" (1 common token of 2 and
3: F1 2·1/(2+3) = 0.4), 500 ms. So accuracy 1/2, F1 0.6, AIT 400 ms: at T = 200 the
multiplier is 1/2 and score 0.55 (spec §5). beta: q3 no paragraph (a true negative) and
"The." (nothing after normalisation: F1 1), 100 ms: score 2.

Team B — alpha: q1 right, "WORD problem, pushed!" (F1 1), 100 ms; q2 right, "" (F1 0),
100 ms: accuracy 1, F1 0.5, AIT 100: score 1.5. beta: q3 "p9" (wrong), "none" (F1 0), 0 ms:
score 0.
"""

from __future__ import annotations

from pathlib import Path

GT = ('question_id,theme,paragraph_ids,answers\n'
      'q1,alpha,"[""p1""]","[""random token word"", ""token word problem"", ""word problem pushed""]"\n'
      'q2,alpha,"[""p2""]","[""token word problem""]"\n'
      'q3,beta,[],[]\n')
A = ("question_id,paragraph_id,answer,inference_ms\n"
     "q3,,The.,100\n"
     "q1,p1,problem pushed,300\n"
     "q2,p9,problem pushed,500\n")
B = ("question_id,paragraph_id,answer,inference_ms\n"
     'q1,p1,"WORD problem, pushed!",100\n'
     "q2,p2,,100\n"
     "q3,p9,none,0\n")
WEIGHTS = "theme,weight\nalpha,3\nbeta,0\n"

# theme scores at T = 200: A (0.55, 2), B (1.5, 0)
EQUAL = {"A": 0.5 * 0.55 + 0.5 * 2, "B": 0.5 * 1.5 + 0.5 * 0}        # 1.275, 0.75
FILE_WEIGHTS = {"A": 3 * 0.55 + 0 * 2, "B": 3 * 1.5}                  # 1.65, 4.5
# T = 400: A's alpha AIT is not above T: multiplier 1, score 1.1
T400 = {"A": 0.5 * 1.1 + 0.5 * 2, "B": 0.75}
# T = 50: A alpha 50/400 · 1.1, beta 50/100 · 2; B alpha 50/100 · 1.5, beta 0 (AIT 0)
T50 = {"A": 0.5 * (0.125 * 1.1) + 0.5 * (0.5 * 2), "B": 0.5 * (0.5 * 1.5)}
# the weights w = (λ, 1 − λ) where A ranks first: 0.55λ + 2(1 − λ) >= 1.5λ, i.e. λ <= 40/59
A_SHARE = 40 / 59


def write(folder: Path, weights: bool = False) -> dict:
    (folder / "subs").mkdir(parents=True, exist_ok=True)
    (folder / "gt.csv").write_text(GT, encoding="utf-8")
    (folder / "subs" / "A.csv").write_text(A, encoding="utf-8")
    (folder / "subs" / "B.csv").write_text(B, encoding="utf-8")
    out = {"ground_truth": folder / "gt.csv", "submissions": [folder / "subs"]}
    if weights:
        (folder / "w.csv").write_text(WEIGHTS, encoding="utf-8")
        out["theme_weights"] = folder / "w.csv"
    return out
