"""Worked examples: the memo's own numbers, recomputed live by the engine beside what the memo prints."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

import scoring
import ui

ui.page_header(
    "Worked examples",
    "Every example in the memo, computed live by the engine and set beside the number the memo "
    "prints (“memo says”). A ✓ means the engine agrees with the memo to the precision the memo "
    "prints; a ✗ would point at a disagreement worth investigating.",
)

OK, BAD = "✓", "✗"


def _agrees(engine: float, memo: float, decimals: int) -> str:
    """✓ when the engine's value rounds to the memo's printed value (half a unit in the last digit)."""
    return OK if abs(engine - memo) <= 0.5 * 10.0 ** (-decimals) + 1e-9 else BAD


def _span(words) -> str:
    """Word indices as runs (``ui.span_text``: '10–29'); 'discarded' for a discarded segment."""
    return "discarded" if not words else ui.span_text(list(words))


# --------------------------------------------------------------------------------------------
# 1. Overlap removal (memo §1)
# --------------------------------------------------------------------------------------------
st.subheader("1 · Overlap removal (memo §1)")
st.markdown(
    "An essay of 100 words with six predicted segments, listed in the order the memo gives them. "
    "The engine sorts them by their first word, then removes every word an earlier segment "
    "already used; a shortened segment survives only when it keeps at least 2 contiguous words."
)

# The memo's segments (first word, last word), in the memo's listing order.
MEMO_SEGMENTS = {"A": (50, 64), "B": (10, 29), "C": (25, 44), "D": (90, 99), "E": (80, 94), "F": (45, 69)}
# The memo's printed result.
MEMO_AFTER = {"A": None, "B": (10, 29), "C": (30, 44), "D": (95, 99), "E": (80, 94), "F": (45, 69)}

names = list(MEMO_SEGMENTS)
after = scoring.remove_overlaps([range(a, b + 1) for a, b in MEMO_SEGMENTS.values()])
rows = []
for name, (a, b), kept in zip(names, MEMO_SEGMENTS.values(), after, strict=True):
    memo = MEMO_AFTER[name]
    memo_words = None if memo is None else tuple(range(memo[0], memo[1] + 1))
    engine_words = None if kept is None else tuple(kept)
    rows.append(
        {
            "Segment": name,
            "Submitted": f"{a}–{b}",
            "Engine: after removal": _span(engine_words),
            "Memo says": _span(memo_words),
            "Agrees": OK if engine_words == memo_words else BAD,
        }
    )
overlap_table = pd.DataFrame(rows)
st.dataframe(overlap_table, hide_index=True, width="stretch", key="ex_overlap_table")

st.plotly_chart(ui.overlap_removal_figure(MEMO_SEGMENTS, after), key="ex_overlap_chart")

# --------------------------------------------------------------------------------------------
# 2. Fractional true positives (memo §2.5, Table 1)
# --------------------------------------------------------------------------------------------
st.subheader("2 · Fractional true positives (memo §2.5, Table 1)")
st.markdown(
    "Five prediction/ground-truth pairs (threshold 0.51). Each pair's fractional true positive is "
    "`w × q + (1 − w) × d[E]`, where `q` is the overlap quality (max-overlap or IoU) and `d[E]` the "
    "probability the prediction gives the correct effectiveness label. The memo prints the values "
    "for `w = 0.5`; for any other `w` the “memo says” column applies the memo's formula to the "
    "overlaps and probabilities the memo states for each example."
)
w = st.slider("Segmentation weight w for these examples", 0.0, 1.0, 0.5, 0.05, key="ex_w")

# Segments built to match the memo's description of each example (word indices),
# and the memo's stated overlaps: (o_P, o_G, IoU as the memo gives it, d[E]).
TABLE1 = [
    # a: 10-word P and G sharing 9 words; o_P = o_G = 0.9, IoU 9/11, d = 0.8
    dict(ex="a", gt=range(0, 10), pred=range(1, 11), memo_q_max=0.9, memo_iou=9 / 11, d=0.8, max=0.85, iou=0.809),
    # b: the same segments, d = 0.4
    dict(ex="b", gt=range(0, 10), pred=range(1, 11), memo_q_max=0.9, memo_iou=9 / 11, d=0.4, max=0.65, iou=0.609),
    # c: 10-word P and G sharing 7 words; o_P = o_G = 0.7, IoU 7/13, d = 0.8
    dict(ex="c", gt=range(0, 10), pred=range(3, 13), memo_q_max=0.7, memo_iou=7 / 13, d=0.8, max=0.75, iou=0.669),
    # d: 5-word P with 4 words inside a 10-word G; o_P = 0.8, o_G = 0.4 -> no match
    dict(ex="d", gt=range(0, 10), pred=range(6, 11), memo_q_max=None, memo_iou=None, d=1.0, max=0.0, iou=0.0),
    # e: 6-word P inside a 10-word G; o_P = 1, o_G = 0.6, IoU 0.6, d = 1
    dict(ex="e", gt=range(0, 10), pred=range(0, 6), memo_q_max=1.0, memo_iou=0.6, d=1.0, max=1.0, iou=0.8),
]
MEMO_W = 0.5
THRESHOLD = 0.51


def _memo_value(example: dict, quality: str, w: float) -> float:
    """The memo's printed value at w = 0.5, else the memo's formula with the memo's stated numbers."""
    if math.isclose(w, MEMO_W):
        return example[quality]
    q = example["memo_q_max"] if quality == "max" else example["memo_iou"]
    if q is None:  # not a match in the memo: TP_P = 0 whatever w is
        return 0.0
    return w * q + (1 - w) * example["d"]


rows = []
for ex in TABLE1:
    p, g = set(ex["pred"]), set(ex["gt"])
    inter = len(p & g)
    engine = {
        q: scoring.fractional_tp(ex["pred"], ex["gt"], d=ex["d"], w=w, quality=q, threshold=THRESHOLD)
        for q in ("max", "iou")
    }
    memo = {q: _memo_value(ex, q, w) for q in ("max", "iou")}
    rows.append(
        {
            "Example": ex["ex"],
            "Prediction": _span(p),
            "Ground truth": _span(g),
            "o_P": inter / len(p),
            "o_G": inter / len(g),
            "IoU": inter / len(p | g),
            "d[E]": ex["d"],
            "Max: engine": engine["max"],
            "Max: memo says": memo["max"],
            "IoU: engine": engine["iou"],
            "IoU: memo says": memo["iou"],
            "Agrees": OK
            if _agrees(engine["max"], memo["max"], 3) == OK and _agrees(engine["iou"], memo["iou"], 3) == OK
            else BAD,
        }
    )
table1 = pd.DataFrame(rows)
st.dataframe(
    table1,
    hide_index=True,
    width="stretch",
    key="ex_table1",
    column_config=ui.number_columns(
        c for c in table1.columns if c not in ("Example", "Prediction", "Ground truth", "Agrees")
    ),
)

st.plotly_chart(
    ui.segment_pairs_figure([(ex["ex"], ex["gt"], ex["pred"]) for ex in TABLE1]), key="ex_table1_chart"
)

# --------------------------------------------------------------------------------------------
# 3. Bias aggregation (memo §3)
# --------------------------------------------------------------------------------------------
st.subheader("3 · Bias aggregation (memo §3)")
st.markdown(
    "Two equally sized sub-populations. Model *m* scores 0.7 on both; model *n* scores 0.6 and "
    "0.8. Uniform averaging (α = 0) ranks them the same; the hard minimum (α = ∞) gives *m* 0.7 "
    "and *n* 0.6. The softmin in between penalises *n* more as α grows."
)
alpha = st.slider("Temperature α for this example", 0.0, 200.0, 50.0, 1.0, key="ex_alpha")
MODELS = {"m": (0.7, 0.7), "n": (0.6, 0.8)}
# The memo's printed aggregate: uniform average and hard minimum.
MEMO_SOFTMIN = {"m": {0.0: 0.7, math.inf: 0.7}, "n": {0.0: 0.7, math.inf: 0.6}}
rows = []
for model, scores in MODELS.items():
    uniform = float(scoring.softmin(list(scores), [1, 1], alpha=0.0)[0])
    hard = float(scoring.softmin(list(scores), [1, 1], alpha=math.inf)[0])
    live, betas = scoring.softmin(list(scores), [1, 1], alpha=alpha)
    rows.append(
        {
            "Model": model,
            "Group scores": " / ".join(f"{s:.1f}" for s in scores),
            "α = 0: engine": uniform,
            "α = 0: memo says": MEMO_SOFTMIN[model][0.0],
            "α = ∞: engine": hard,
            "α = ∞: memo says": MEMO_SOFTMIN[model][math.inf],
            f"α = {alpha:g}: engine": float(live),
            f"β at α = {alpha:g}": " / ".join(f"{b:.3f}" for b in betas),
            "Agrees": OK
            if _agrees(uniform, MEMO_SOFTMIN[model][0.0], 1) == OK
            and _agrees(hard, MEMO_SOFTMIN[model][math.inf], 1) == OK
            else BAD,
        }
    )
softmin_table = pd.DataFrame(rows)
st.dataframe(softmin_table, hide_index=True, width="stretch", key="ex_softmin_table")

# --------------------------------------------------------------------------------------------
# 4. Efficiency boost (memo §4.1, Tables 2 and 3)
# --------------------------------------------------------------------------------------------
st.subheader("4 · Efficiency boost (memo §4.1, Tables 2 and 3)")
st.markdown(
    "The memo's two leaderboards with its parameters: eligibility band 5 %, maximum boost 5 %, "
    "slowdown window 20 %. The memo prints boosted scores rounded to two or three decimals; "
    "agreement is checked to the precision printed."
)

# (model, metric score, runtime, memo's boosted score as printed, decimals printed)
TABLE2 = [
    ("Red", 0.6, 50, 0.6, 1),
    ("Blue", 0.595, 45, 0.606, 3),
    ("Green", 0.59, 48, 0.59, 2),
    ("Yellow", 0.58, 40, 0.609, 3),
]
TABLE2_ORDER = ["Yellow", "Blue", "Red", "Green"]
TABLE3 = [
    ("Red", 0.6, 50.4, 0.623, 3),
    ("Green", 0.59, 48, 0.62, 2),
    ("Blue", 0.55, 45, 0.55, 2),
    ("Yellow", 0.25, 5, 0.25, 2),
]
TABLE3_ORDER = ["Red", "Green", "Blue", "Yellow"]


def _efficiency_section(title: str, table: list, memo_order: list[str], key: str) -> None:
    scores = {m: s for m, s, _, _, _ in table}
    runtimes = {m: r for m, _, r, _, _ in table}
    res = scoring.efficiency_boost(scores, runtimes, band=0.05, max_boost=0.05, window=0.2)
    res = res.set_index("submission")
    rows = []
    for model, score, runtime, memo, decimals in table:
        final = float(res.loc[model, "final_score"])
        rows.append(
            {
                "Model": model,
                "Metric score": score,
                "Runtime (s)": runtime,
                "Eligible": "yes" if bool(res.loc[model, "eligible"]) else "no",
                "Boost": f"{100 * float(res.loc[model, 'boost']):.3f} %",
                "Boosted score: engine": final,
                "Boosted score: memo says": memo,
                "Rank: engine": int(res.loc[model, "rank"]),
                "Rank: memo says": memo_order.index(model) + 1,
                "Agrees": OK
                if _agrees(final, memo, decimals) == OK
                and int(res.loc[model, "rank"]) == memo_order.index(model) + 1
                else BAD,
            }
        )
    st.markdown(f"**{title}**")
    st.dataframe(
        pd.DataFrame(rows),
        hide_index=True,
        width="stretch",
        key=key,
        column_config={
            "Boosted score: engine": st.column_config.NumberColumn(format="%.5f"),
        },
    )
    engine_order = list(res.sort_values(["rank"]).index)
    st.caption(
        f"Final order — engine: {', '.join(engine_order)}; memo says: {', '.join(memo_order)} "
        f"{OK if engine_order == memo_order else BAD}"
    )


_efficiency_section("Table 2 — example (a)", TABLE2, TABLE2_ORDER, "ex_table2")
_efficiency_section("Table 3 — example (b)", TABLE3, TABLE3_ORDER, "ex_table3")
