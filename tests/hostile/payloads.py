"""A competition whose every user-controlled string is a markdown or HTML payload: team
(file) names, a discourse type, a demographic column and its values, essay text — and link
values. Nothing of it may become a link, an image or markup on any page."""

from __future__ import annotations

import re
from pathlib import Path

EVIL = "evil.example"
TEAMS = {
    "<img src=x onerror=alert(1)>": 0.8,
    "[click me](https:evil.example)": 0.6,
    "=HYPERLINK(1)": 0.7,
    "**bold** _it_ $x$ :red[r]": 0.5,
}
CLASS = "[Claim](https://evil.example/c)"
ATTR = "[grp](https://evil.example/g)"
VALUES = ("<img src=https://evil.example/v.png>", "![i](https://evil.example/i.png)")
LINK = {
    "w": "[Session expired - click to log in](https://evil.example/login)",
    "threshold": "![t](https://evil.example/x.png)",
    "team": "<img src=https://evil.example/t.png>",
    "attributes": ATTR,
}


def write(folder: Path) -> Path:
    """The payload competition laid out like ``sample_data/competition/``."""
    (folder / "submissions").mkdir(parents=True)
    gt = ["id,discourse_type,predictionstring,discourse_effectiveness"]
    demo = [f'id,"{ATTR}"']
    essays = ["id,text"]
    for e in range(8):
        gt.append(f'e{e},"{CLASS}",0 1 2 3 4,Effective')
        gt.append(f"e{e},Lead,10 11 12 13,Ineffective")
        demo.append(f'e{e},"{VALUES[e % 2]}"')
        essays.append(f'e{e},"<script>x</script> [a](https://evil.example/w) ' + " ".join(f"w{i}" for i in range(14)) + '"')
    (folder / "ground_truth.csv").write_text("\n".join(gt) + "\n")
    (folder / "demographics.csv").write_text("\n".join(demo) + "\n")
    (folder / "essays.csv").write_text("\n".join(essays) + "\n")
    rt = ["submission,runtime"]
    for k, (team, p) in enumerate(TEAMS.items()):
        rows = ["id,class,predictionstring,Effective,Ineffective"]
        for e in range(8):
            if (e + k) % 4:
                rows.append(f'e{e},"{CLASS}",0 1 2 3,{p},{1 - p:.3g}')
            rows.append(f"e{e},Lead,10 11 12 13,{1 - p:.3g},{p}")
        (folder / "submissions" / f"{team}.csv").write_text("\n".join(rows) + "\n")
        rt.append(f'"{team}",{10 + k}')
    (folder / "runtimes.csv").write_text("\n".join(rt) + "\n")
    return folder


_LIVE = [
    re.compile(r"(?<!\\)\]\((?:https?:|mailto:)?[^)]*" + re.escape(EVIL)),  # a markdown link or image
    re.compile(r"(?<!\\)<\s*(?:a|img|script|iframe)\b", re.I),  # raw HTML
    re.compile(r"(?<![\\/])https?://" + re.escape(EVIL)),  # an autolink
]


def live_markup(text: str) -> str | None:
    """The first piece of ``text`` that markdown would turn into a link, image or HTML."""
    for pattern in _LIVE:
        m = pattern.search(text)
        if m:
            return m.group()
    return None
