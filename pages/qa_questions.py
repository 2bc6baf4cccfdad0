"""QA Questions: one question — its accepted paragraphs and answers, every team's paragraph and
answer, the tokens after normalisation and the answer F1."""

import streamlit as st

from lab.charts import qa as charts
from lab.families import qa
from lab.view import current, links
from lab.words.text import md

FAM = qa.FAM
TITLE = "Questions"
KEY = "qa_question"

comp = current.begin(FAM, TITLE).comp  # (the question does not depend on the sidebar's parameters)
questions = list(comp.questions)
known = set(questions)
question = links.value(qa.QUESTION, options=questions, default=questions[0], follow_default=True)
ex = qa.explain(question)

current.header(
    FAM, TITLE,
    "A paragraph is right when the question lists it, or when no paragraph answers the question and the team "
    "names none. Answers are normalised as in SQuAD (lower case, no punctuation, no a/an/the, split on blanks); "
    "F1 = 2 × tokens in common ÷ (tokens in the answer + tokens in the accepted answer), the best over the "
    "accepted answers.",
    takeaway=qa.question_takeaway(ex),
)
links.draw(st.selectbox, "Question", qa.QUESTION, options=questions, default=questions[0], follow_default=True,
           format_func=qa.question_label(comp), help="Type to search by id, theme or words; the question you pick is "
                                                "kept in the page's address.")
if ex["question"]:
    st.markdown(f"**{md(ex['question'])}** — theme {md(ex['theme'])}")
else:
    st.markdown(f"Theme {md(ex['theme'])} (the ground truth has no question text).")

st.subheader("Accepted paragraphs")
texts = qa.paragraphs()
if not ex["paragraph_ids"]:
    st.markdown("None: no paragraph answers this question, so the right prediction is *no paragraph* "
                "(an empty paragraph_id).")
for pid in ex["paragraph_ids"]:
    with st.container(border=True):
        st.markdown(f"**{md(pid)}**")
        text = texts.get(pid)
        st.markdown(md(text) if text else "No text for this paragraph (upload a paragraphs file on the Data page).")

st.subheader("Accepted answers")
st.dataframe(charts.answers_table(ex), hide_index=True, key="qa_q_answers",
             column_config={"Tokens after normalisation": st.column_config.ListColumn()})

st.subheader("Every team's answer")
teams = charts.teams_table(ex)
st.dataframe(teams, hide_index=True, key="qa_q_teams", column_config={
    "Tokens after normalisation": st.column_config.ListColumn(),
    "F1": st.column_config.NumberColumn(format="%.3f", help="The best F1 over the accepted answers"),
    "Time (ms)": st.column_config.NumberColumn(format="%.1f"),
    **{c: st.column_config.NumberColumn(format="%.3f") for c in teams.columns if c.startswith("F1 vs")},
})
