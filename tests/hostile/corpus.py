"""Hostile and careless inputs, one class per entry, each with what must happen.

A case mutates one file of the tiny competition (``tests/shovel_ready/tiny.py``) — or the
submissions folder — and says the outcome: ``("error", words)``: an ``InputError`` naming the
file, whose text holds ``words``; ``("ok", words)``: it loads and scores, with a warning
holding ``words`` when given; ``("any", "")``: either, but nothing else (no other exception).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tests.shovel_ready.tiny import TINY_ALPHA, TINY_BETA, TINY_DEMO, TINY_GT, TINY_RUNTIMES

GT, A, DEMO, RT = "ground_truth.csv", "submissions/Alpha.csv", "demographics.csv", "runtimes.csv"


@dataclass(frozen=True)
class Case:
    id: str
    file: str  # the file the case changes (its role's path in the competition folder)
    make: Callable[[bytes], bytes | None]  # the file's new bytes from the old (None: remove it)
    outcome: str  # error | ok | any
    words: str = ""
    extra: dict | None = None  # other files to add: {relative path: bytes}


def sub(text: str, old: str, new: str) -> Callable[[bytes], bytes]:
    def make(data: bytes) -> bytes:
        s = data.decode("utf-8")
        assert old in s, (old, s)
        return s.replace(old, new, 1).encode("utf-8")
    return make


def put(raw: bytes | str) -> Callable[[bytes], bytes]:
    return lambda _: raw.encode("utf-8") if isinstance(raw, str) else raw


def gt_ps(new: str) -> Callable[[bytes], bytes]:  # the first ground-truth predictionstring
    return sub(TINY_GT, "e1,Lead,0 1 2 3 4,", f"e1,Lead,{new},")


def a_ps(new: str) -> Callable[[bytes], bytes]:  # Alpha's first predictionstring
    return sub(TINY_ALPHA, "e1,Lead,0 1 2 3 4,", f"e1,Lead,{new},")


def a_prob(eff: str, ineff: str = "0.2") -> Callable[[bytes], bytes]:
    return sub(TINY_ALPHA, "e1,Lead,0 1 2 3 4,0.8,0.2", f"e1,Lead,0 1 2 3 4,{eff},{ineff}")


def rt(value: str) -> Callable[[bytes], bytes]:
    return sub(TINY_RUNTIMES, "Alpha,50", f"Alpha,{value}")


CASES = [
    # ---- whole files -------------------------------------------------------------------------
    Case("empty-file", GT, put(""), "error", "empty"),
    Case("only-newlines", GT, put("\n\n\r\n"), "error", "empty"),
    Case("only-bom", GT, put(b"\xef\xbb\xbf"), "error", ""),
    Case("header-only-gt", GT, put("id,discourse_type,predictionstring,discourse_effectiveness\n"), "error", "no rows"),
    Case("png-bytes", GT, put(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), "error", "binary"),
    Case("gzip-bytes", GT, put(b"\x1f\x8b\x08\x00\x00\x00\x00\x00"), "error", "binary"),
    Case("utf16", GT, lambda d: d.decode().encode("utf-16"), "error", "binary"),
    Case("latin1-byte", GT, lambda d: d.replace(b"e2,Claim", b"e\xe9,Claim"), "error", "UTF-8"),
    Case("nul-after-64k", GT, lambda d: d + b"e3,Lead,1 2," + b"x" * 70000 + b"\x00\n", "error", "binary"),
    Case("html-page", GT, put("<!doctype html><html><body><h1>404</h1></body></html>\n"), "error", "missing column"),
    Case("json-file", GT, put('[{"id": "e1"}]\n'), "error", "missing column"),
    Case("semicolons", GT, lambda d: d.replace(b",", b";"), "error", "missing column"),
    Case("tabs", GT, lambda d: d.replace(b",", b"\t"), "error", "missing column"),
    Case("crlf", GT, lambda d: d.replace(b"\n", b"\r\n"), "ok"),
    Case("lone-cr", GT, lambda d: d.replace(b"\n", b"\r"), "any"),
    Case("bom", GT, lambda d: b"\xef\xbb\xbf" + d, "ok"),
    Case("blank-lines", GT, lambda d: d.replace(b"\ne1,Claim", b"\n\n\ne1,Claim"), "ok"),
    Case("no-final-newline", GT, lambda d: d.rstrip(b"\n"), "ok"),
    Case("too-many-columns", GT, lambda d: d.replace(b"discourse_effectiveness", b"discourse_effectiveness"
                                                      + b"".join(b",c%d" % i for i in range(1001)), 1), "error",
         "columns"),
    Case("huge-cell", GT, gt_ps(" ".join(map(str, range(300_000)))), "error", "over the limit"),
    # ---- the header ----------------------------------------------------------------------------
    Case("misspelled-column", GT, sub(TINY_GT, "discourse_type", "discourse_typ"), "error", "did you mean"),
    Case("duplicate-column", GT, sub(TINY_GT, "discourse_effectiveness", "discourse_type"), "error",
         "duplicate column"),
    Case("empty-column-name", GT, sub(TINY_GT, "discourse_effectiveness\n", "discourse_effectiveness,\n"), "error",
         "field"),
    Case("extra-column", GT, lambda d: d.replace(b"effectiveness\n", b"effectiveness,note\n", 1)
         .replace(b"Effective\n", b"Effective,x\n").replace(b"Ineffective\n", b"Ineffective,y\n"), "ok"),
    Case("column-padding", GT, sub(TINY_GT, "id,discourse_type", " id , discourse_type "), "ok"),
    # ---- rows and quoting ----------------------------------------------------------------------
    Case("unterminated-quote", GT, sub(TINY_GT, "e2,Claim,0 1 2 3 4 5", 'e2,"Claim,0 1 2 3 4 5'), "error",
         "never closed"),
    Case("extra-field", GT, sub(TINY_GT, "e2,Claim,0 1 2 3 4 5,Effective", "e2,Claim,0 1 2 3 4 5,Effective,x"),
         "error", "fields"),
    Case("missing-field", GT, sub(TINY_GT, "e2,Claim,0 1 2 3 4 5,Effective", "e2,Claim,0 1 2 3 4 5"), "error",
         "fields"),
    Case("quoted-comma-label", GT, sub(TINY_GT, "e2,Claim,0 1 2 3 4 5,Effective", 'e2,Claim,0 1 2 3 4 5,"Eff,x"'),
         "error", "no probability column for the ground-truth label 'Eff,x'"),
    Case("quoted-comma-id", GT, sub(TINY_GT, "e2,Claim", '"e2,x",Claim'), "ok"),
    Case("multiline-cell", GT, sub(TINY_GT, "e2,Claim,0 1 2 3 4 5,Effective", 'e2,Claim,"0 1 2\n3 4 5",Effective'),
         "any"),
    Case("cell-padding", GT, sub(TINY_GT, "e2,Claim,0 1 2 3 4 5,Effective", "  e2 ,  Claim ,0 1 2 3 4 5 , Effective "),
         "ok"),
    Case("empty-id", GT, sub(TINY_GT, "e2,Claim", ",Claim"), "error", "'id' is empty"),
    Case("empty-class", GT, sub(TINY_GT, "e2,Claim", "e2,"), "error", "empty"),
    Case("empty-label", GT, sub(TINY_GT, "0 1 2 3 4 5,Effective", "0 1 2 3 4 5,"), "error", "empty"),
    Case("overlapping-gt", GT, lambda d: d + b"e1,Claim,6 7 8,Effective\n", "ok", "overlap"),
    Case("spreadsheet-formula-id", GT, sub(TINY_GT, "e2,Claim", "=HYPERLINK(1),Claim"), "ok"),
    # ---- predictionstrings ---------------------------------------------------------------------
    Case("empty-ps", GT, gt_ps(""), "ok", "empty predictionstring"),
    Case("spaces-ps", GT, gt_ps("   "), "ok", "empty predictionstring"),
    Case("negative-index", GT, gt_ps("0 -1 2"), "error", "negative"),
    Case("float-index", GT, gt_ps("0 1.5 2"), "error", "not a non-negative integer"),
    Case("huge-index", GT, gt_ps("0 99999999999999999999"), "error", "too large"),
    Case("nbsp", GT, gt_ps("0\u00a01 2"), "error", "U+00A0"),
    Case("em-space", GT, gt_ps("0\u20031 2"), "error", "U+2003"),
    Case("line-separator", GT, gt_ps("0\u20281 2"), "error", "U+2028"),
    Case("control-1c", GT, gt_ps("0\x1c1 2"), "error", "U+001C"),
    Case("nel-85", GT, gt_ps("0\x851 2"), "error", "U+0085"),
    Case("fullwidth-digits", GT, gt_ps("０ １"), "error", "not a non-negative integer"),
    Case("arabic-indic-digits", GT, gt_ps("٠ ١"), "error", "not a non-negative integer"),
    Case("plus-sign", GT, gt_ps("+0 1"), "error", "not a non-negative integer"),
    Case("leading-zeros", GT, gt_ps("000 001 002"), "ok"),
    Case("unsorted-duplicates", GT, gt_ps("4 3 2 1 0 0 2"), "ok"),
    Case("double-spaces", GT, gt_ps("0  1   2"), "ok"),
    Case("tab-in-ps", GT, gt_ps("0\t1 2"), "any"),
    Case("hex-index", GT, gt_ps("0x1 2"), "error", "not a non-negative integer"),
    # ---- submissions -----------------------------------------------------------------------------
    Case("prob-above-1", A, a_prob("1.5"), "error", "outside [0, 1]"),
    Case("prob-negative", A, a_prob("-0.2"), "error", "outside [0, 1]"),
    Case("prob-nan", A, a_prob("nan"), "error", "not a number"),
    Case("prob-inf", A, a_prob("inf"), "error", "outside [0, 1]"),
    Case("prob-empty", A, a_prob(""), "error", "missing"),
    Case("prob-word", A, a_prob("high"), "error", "not a number"),
    Case("prob-NA", A, a_prob("NA"), "error", "not a number"),
    Case("prob-true", A, a_prob("True"), "error", "not a number"),
    Case("prob-unicode-minus", A, a_prob("\u22120.2"), "error", "not a number"),
    Case("prob-hex", A, a_prob("0x1"), "error", "not a number"),
    Case("prob-decimal-comma", A, a_prob("0,8", "0,2"), "error", "fields"),
    Case("prob-exponent", A, a_prob("8e-1", "2E-1"), "ok"),
    Case("prob-padded", A, a_prob(" 0.8 ", " 0.2"), "ok"),
    Case("prob-sum-low", A, a_prob("0.7"), "error", "sum"),
    Case("prob-sum-within", A, a_prob("0.805"), "ok"),
    Case("prob-column-missing", A, lambda d: d.replace(b",Ineffective", b"").replace(b",0.2\n", b"\n")
         .replace(b",0.7\n", b"\n").replace(b",0.4\n", b"\n").replace(b",0.5\n", b"\n"), "error",
         "no probability column"),
    Case("no-prob-columns", A, put("id,class,predictionstring\ne1,Lead,0 1 2 3 4\n"), "ok", "no probability columns"),
    Case("class-wrong-case", A, lambda d: d.replace(b",Claim,", b",claim,"), "ok", "did you mean 'Claim'"),
    Case("header-only-submission", A, put("id,class,predictionstring,Effective,Ineffective\n"), "ok", "no rows"),
    Case("unknown-essay", A, lambda d: d + b"e9,Lead,0 1,0.5,0.5\n", "ok", "not in the ground truth"),
    Case("formula-essay-id", A, lambda d: d + b"=cmd|' /C calc'!A0,Lead,0 1,0.5,0.5\n", "ok",
         "not in the ground truth"),
    Case("markup-class", A, lambda d: d + b"e1,<img src=x onerror=alert(1)>,0 1,0.5,0.5\n", "ok",
         "classes the ground truth does not have"),
    Case("missing-class-column", A, sub(TINY_ALPHA, "id,class,", "id,klass,"), "error", "missing column 'class'"),
    Case("exact-duplicate-rows", A, lambda d: d + d.split(b"\n", 1)[1], "ok", "row order"),
    Case("submission-huge-cell", A, a_ps(" ".join(map(str, range(300_000)))), "error", "over the limit"),
    # ---- demographics ----------------------------------------------------------------------------
    Case("demo-duplicate-id", DEMO, lambda d: d + b"e1,No,M\n", "error", "duplicate id"),
    Case("demo-no-id", DEMO, sub(TINY_DEMO, "id,ell_status", "essay,ell_status"), "error", "missing column 'id'"),
    Case("demo-literal-missing", DEMO, sub(TINY_DEMO, "e2,No,M", "e2,(missing),M"), "error",
         "essays without demographics"),
    Case("demo-empty-value", DEMO, sub(TINY_DEMO, "e2,No,M", "e2,,M"), "ok"),
    Case("demo-unknown-essay", DEMO, lambda d: d + b"e9,No,F\n", "ok", "not in the ground truth"),
    Case("demo-markdown-column", DEMO, sub(TINY_DEMO, "gender", "[x](https://evil.example)"), "ok"),
    Case("demo-only-id", DEMO, put("id\ne1\ne2\n"), "ok", "no attribute columns"),
    # ---- runtimes --------------------------------------------------------------------------------
    Case("runtime-zero", RT, rt("0"), "error", "> 0"),
    Case("runtime-negative", RT, rt("-3"), "error", "> 0"),
    Case("runtime-inf", RT, rt("inf"), "error", "finite"),
    Case("runtime-nan", RT, rt("nan"), "error", "runtime"),
    Case("runtime-overflow", RT, rt("1e309"), "error", "finite"),
    Case("runtime-empty", RT, rt(""), "error", "missing"),
    Case("runtime-word", RT, rt("fast"), "error", "not a number"),
    Case("runtime-duplicate", RT, lambda d: d + b"Alpha,10\n", "error", "duplicate"),
    Case("runtime-unknown-team", RT, lambda d: d + b"Zeta,10\n", "ok", "unknown submissions"),
    Case("runtime-no-column", RT, sub(TINY_RUNTIMES, "runtime", "seconds"), "error", "missing column 'runtime'"),
    # ---- names and folders -----------------------------------------------------------------------
    Case("zero-width-name", A, lambda d: None, "error", "invisible", extra={"submissions/Al\u200bpha.csv": b""}),
    Case("bidi-name", A, lambda d: None, "error", "invisible", extra={"submissions/\u202eahplA.csv": b""}),
    Case("nfd-nfc-duplicate", A, lambda d: d, "error", "duplicate submission name",
         extra={"submissions/Caf\u00e9.csv": TINY_BETA.encode(), "submissions/Cafe\u0301.csv": TINY_BETA.encode()}),
    Case("hidden-file-ignored", A, lambda d: d, "ok", extra={"submissions/.Gamma.csv": b"\x00binary"}),
    Case("uppercase-suffix", A, lambda d: d, "ok", extra={"submissions/Shouty.CSV": TINY_BETA.encode()}),
    Case("other-suffix-ignored", A, lambda d: d, "ok", extra={"submissions/notes.txt": b"hello"}),
]


def fill_placeholders(cases: list[Case]) -> list[Case]:
    """The name cases put the Alpha submission under the hostile name (its bytes as given)."""
    out = []
    for c in cases:
        if c.extra and any(v == b"" for v in c.extra.values()):
            extra = {k: (TINY_ALPHA.encode() if v == b"" else v) for k, v in c.extra.items()}
            out.append(Case(c.id, c.file, c.make, c.outcome, c.words, extra))
        else:
            out.append(c)
    return out


CASES = fill_placeholders(CASES)
