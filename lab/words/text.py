"""Every string a user controls (file, team and column names, cell values, link values)
reaches the page as text, never as markdown or HTML.

:func:`md` escapes a string for Streamlit's markdown (``st.markdown``, captions, warnings,
errors, widget labels), so ``[x](https://evil.example)`` or ``![t](…)`` stays literal;
:func:`html` escapes it for Plotly labels and hover text, which render a few HTML tags
(``<a href>`` among them). Tables (``st.dataframe``) and ``st.text``/``st.code`` show text
as it is and need neither.
"""

from __future__ import annotations

import html as _html
import re

from scoring.claims.words import markdown

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$:])")


#: Streamlit's markdown turns bare URLs and e-mail addresses into links *after* it has read
#: the escapes (GitHub's autolink extension works on the text), so those get a word joiner
#: (U+2060, invisible) that breaks the pattern without changing what a reader sees.
_AUTOLINK = re.compile(r"(?i)(://|\bwww\.|@)")
_JOINER = "\u2060"


def md(text: object) -> str:
    """``text`` shown literally inside markdown: each markdown/HTML character backslashed,
    URL and e-mail patterns broken (see ``_AUTOLINK``), line breaks kept as spaces.

    >>> md("[login](https://evil.example)").replace(_JOINER, "^")
    '\\\\[login\\\\]\\\\(https\\\\:^\\\\/\\\\/evil\\\\.example\\\\)'
    """
    s = " ".join(str(text).splitlines()) if "\n" in str(text) or "\r" in str(text) else str(text)
    s = _AUTOLINK.sub(lambda m: m.group()[0] + _JOINER + m.group()[1:], s)
    return _MD_SPECIAL.sub(r"\\\1", s).replace("/", "\\/")


#: the claims layer's sentences as markdown: names escaped (:func:`md`) and in bold
MD = markdown(lambda s: md(s))


def html(text: object) -> str:
    """``text`` for a Plotly label or hover text: HTML-escaped.

    >>> html('<a href="x">t</a>')
    '&lt;a href=&quot;x&quot;&gt;t&lt;/a&gt;'
    """
    return _html.escape(str(text), quote=True)

