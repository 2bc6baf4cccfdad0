"""Start here: what Leaderboard Lab is, the five metric families in a sentence each, what each page
answers, where to begin, and the glossary of the terms the pages use."""

import streamlit as st

from lab import families
from lab.families import ROBUSTNESS_PAGES, SHARED_PAGES
from lab.view import nav
from lab.words import glossary
from lab.words.text import md
from scoring import registry

nav.ensure_app_entry()
FAMS = [f for f in registry.families() if families.ui(f).pages]


def _pages(specs) -> None:
    """Each page as a link, with the question it answers beside it."""
    for p in specs:
        left, right = st.columns([1, 3], vertical_alignment="center")
        left.page_link(p.path, label=p.title, icon=p.icon)
        right.markdown(md(p.answers))


st.title("Start here")
st.markdown(
    "**Leaderboard Lab** shows how each parameter of a composite leaderboard metric moves a competition's "
    "ranking — stage by stage, group by group — and how sure that ranking is. It has "
    f"{nav.count_words(len(FAMS))} metric families, each a menu at the top with its own pages and its parameters "
    "in the sidebar; four pages that test any family's ranking for luck (*Robustness*); and a *Data* page for "
    "your own files. Every page's settings are in its address: a copied link opens the same view."
)

st.subheader("Where to begin")
st.markdown(
    "- **New to composite metrics?** Open Shovel-Ready's *Leaderboard* and move *w* or *α* in the sidebar: the "
    "ranking follows. *Worked examples* then takes the metric apart with the memo's own numbers.\n"
    "- **Have a results table** (HELM, Open LLM, GLUE, or your own)? Custom's *Leaderboard* composes a "
    "leaderboard from it; upload yours on *Data*.\n"
    "- **Wondering whether a ranking is luck?** *Rank intervals* says who could have won with another sample of "
    "the data; *Shake-up* how much a final board will differ from the public one."
)
first = next(p for p in families.ui(FAMS[0]).pages)
st.page_link(first.path, label=f"Begin with {nav.section_label(FAMS[0])}'s {first.title}", icon=":material/start:")

st.subheader(f"The {nav.count_words(len(FAMS))} metric families")
for fam in FAMS:
    fui = families.ui(fam)
    with st.container(border=True):
        st.markdown(f"**{md(fam.title)}** — {md(fui.about)}")
        _pages(fui.pages)

st.subheader("How sure is the ranking? (any family)")
st.markdown("These pages work on whichever family you pick at their top; the sidebar follows.")
_pages(ROBUSTNESS_PAGES)

st.subheader("Your own data")
_pages([p for p in SHARED_PAGES if p.url_path != "start"])

st.subheader("Glossary", anchor="glossary")
st.markdown("The terms the pages use without stopping to explain them (each page names its own in a tooltip).")
st.markdown("\n".join(f"- **{md(term)}** — {text}" for term, text in glossary.TERMS.items()))
