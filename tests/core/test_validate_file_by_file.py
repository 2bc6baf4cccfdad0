"""Every bad submission of a bundle named at once, for a family without its own ``validate``
(``scoring.core.validate.file_by_file``): spotGEO and QA, as the Data page passes uploads."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from scoring.core.validate import check_inputs
from scoring.registry import get as family

ROOT = Path(__file__).resolve().parents[2]


class NamedBytes(io.BytesIO):
    """An upload: bytes with the file's name (as Streamlit's UploadedFile)."""

    def __init__(self, name: str, data: bytes):
        super().__init__(data)
        self.name = name


def _bundle(folder: str, suffix: str, broken: dict[str, bytes]) -> dict:
    """The sample's files as uploads (named bytes), with some submissions replaced."""
    d = ROOT / "sample_data" / folder
    subs = [(p.stem, NamedBytes(p.name, broken.get(p.name, p.read_bytes())))
            for p in sorted((d / "submissions").glob(f"*{suffix}"))]
    gt = d / f"ground_truth{suffix}"
    return {"ground_truth": NamedBytes(gt.name, gt.read_bytes()), "submissions": subs}


def test_spotgeo_names_every_bad_submission():
    broken = {"cautious.json": b"[{\"sequence_id\": 1,", "steady.json": b"{\"not\": \"a list\"}"}
    found, more = check_inputs(family("spotgeo"), **_bundle("spotgeo", ".json", broken))
    assert not more
    assert sorted(e.file for e in found) == ["cautious.json", "steady.json"]  # one each, the good five say nothing


def test_qa_names_every_bad_submission_and_a_clean_bundle_has_none():
    broken = {"deep-reader.csv": b"question_id,paragraph_id,answer\nast-1-1,astronomy-1,x\n",
              "loud-caps.csv": b"question_id,paragraph_id,answer,inference_ms\nast-1-1,astronomy-1,x,fast\n",
              "word-salad.csv": b"question_id,paragraph_id,answer,inference_ms\nast-1-1,astronomy-1,x,fast\n"}
    fam = family("qa")
    found, more = check_inputs(fam, **_bundle("qa", ".csv", broken))
    assert sorted(e.file for e in found) == ["deep-reader.csv", "loud-caps.csv", "word-salad.csv"]
    assert any("inference_ms" in str(e) for e in found)
    assert check_inputs(fam, **_bundle("qa", ".csv", {})) == ([], False)


@pytest.mark.parametrize("limit", [1, 2])
def test_the_cap_says_there_is_more(limit):
    broken = {n: b"{" for n in ("cautious.json", "steady.json", "four-off.json")}
    found, more = check_inputs(family("spotgeo"), limit=limit, **_bundle("spotgeo", ".json", broken))
    assert len(found) == limit and more
