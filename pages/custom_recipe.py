"""Custom Recipe: the current recipe (how the inputs are read and every stage's choice) as one
JSON document — saved, edited and loaded back — and the shipped recipes with their commands."""

import streamlit as st

from lab.families import custom as cu
from lab.view import current, links

FAM = cu.FAM
TITLE = "Recipe"

view = current.begin(FAM, TITLE)
p, lb = view.params, view.leaderboard
current.header(FAM, TITLE, "A recipe is one JSON document: how to read the results (team column, missing marks, "
               "`a/b` cells, lower-is-better units) and the choice of every stage. The sidebar and the link hold the "
               "stages; save them here as a recipe, or load one into the sidebar. The command line runs the same "
               "document: `python -m scoring custom leaderboard --results R --recipe recipe.json`.")

text = cu.recipe_text(p)
left, right = st.columns(2)
with left:
    st.subheader("Current recipe")
    st.code(text, language="json")
    st.download_button("Save recipe (JSON)", text.encode("utf-8"), file_name="recipe.json", mime="application/json",
                       key="cu_recipe_save", on_click="ignore", icon=":material/download:")
with right:
    st.subheader("Load a recipe")
    st.file_uploader("Recipe file (JSON, or TOML by a .toml name)", type=["json", "toml"], key="cu_recipe_file")
    st.button("Apply the file's recipe", key="cu_recipe_apply_file", icon=":material/play_arrow:",
              on_click=cu.apply_recipe_input, args=("file",))
    st.text_area("…or paste / edit one", value="", height=220, key="cu_recipe_text",
                 placeholder='{"stages": {"across": "borda"}}')
    st.button("Apply the pasted recipe", key="cu_recipe_apply", icon=":material/play_arrow:",
              on_click=cu.apply_recipe_input, args=("text",))  # before the sidebar is drawn: its widgets take the stages
    links.draw(st.checkbox, "A recipe that says how to read the inputs (its inputs section) reads the data shown again",
               cu.RECIPE_REREAD,
               help="its reading options (team column, roles of the columns, missing marks, a/b cells, lower-is-"
                    "better units, drop_empty …) apply to the files of the data shown: they are loaded again, as "
                    "your upload (kept in the link). Off: only the stages are applied.")
    problem = st.session_state.pop(cu.RECIPE_OUTCOME, None)
    if problem is not None:
        if problem:
            st.error(f"The recipe cannot be applied: {problem}", icon=":material/error:")
        else:
            st.success("The recipe's stages are in the sidebar.", icon=":material/check:")
    st.caption("Each button applies its own source. To choose how a new table is read — what every column is, "
               "the missing marks, the directions — upload it on the Data page: its guided import writes the "
               "recipe's reading options.")

st.subheader("Shipped recipes")
for name, (label, folder) in cu.DATASETS.items():
    rel = folder.relative_to(cu.SAMPLE.parents[1])
    teams = " --teams " + str(rel / "teams.tsv") if (folder / "teams.tsv").is_file() else ""
    teams += " --units " + str(rel / "units.csv") if (folder / "units.csv").is_file() and folder != cu.SAMPLE else ""
    with st.expander(label):
        st.code((folder / "recipe.json").read_text(encoding="utf-8"), language="json")
        st.button("Apply these stages to the data shown", key=f"cu_recipe_ship_{name}", on_click=cu.apply_recipe_input,
                  args=(name,), help="the recipe's stages only (its reading options are for its own table); the "
                                     "sidebar's Leaderboard box shows the table itself")
        st.code(f"python -m scoring custom leaderboard --results {rel / 'results.tsv'} --recipe {rel / 'recipe.json'}"
                f"{teams}", language="bash")
