"""Every bad submission of a bundle named at once, for a family without its own ``validate``
(``scoring.core.validate.file_by_file``), tried on spotGEO's and QA's loaders as the Data page
passes uploads (both families now have their own ``validate``, row by row: tests/qa,
tests/spotgeo)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from scoring.core.validate import MAX_ERRORS, file_by_file
from scoring.registry import get as family

ROOT = Path(__file__).resolve().parents[2]


def check_inputs(fam, *, limit: int = MAX_ERRORS, **sources):
    """``scoring.core.validate.check_inputs`` for a family without a ``validate`` of its own."""
    found = file_by_file(fam, limit=limit + 1, **sources)
    return found[:limit], len(found) > limit


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


# ---- each file checked once (issue 31: "check every file" reloaded the ground truth per good file)
def _many(folder: str, suffix: str, k: int, bad_at: dict[int, bytes]) -> dict:
    """The sample's ground truth and ``k`` submissions named ``t00…``, cycling over the sample's
    files, with the files at the positions of ``bad_at`` replaced by broken bytes."""
    d = ROOT / "sample_data" / folder
    files = sorted((d / "submissions").glob(f"*{suffix}"))
    subs = []
    for i in range(k):
        name = f"t{i:02d}{suffix}"
        subs.append((f"t{i:02d}", NamedBytes(name, bad_at.get(i, files[i % len(files)].read_bytes()))))
    gt = d / f"ground_truth{suffix}"
    return {"ground_truth": NamedBytes(gt.name, gt.read_bytes()), "submissions": subs}


def _count_checks(monkeypatch, module, gt_fn: str, sub_fn: str, display_at: int) -> dict:
    """Count the family's reads of its ground truth and of each submission (by file name)."""
    counts: dict[str, int] = {}
    real_gt, real_sub = getattr(module, gt_fn), getattr(module, sub_fn)

    def gt(*a, **kw):
        counts["ground truth"] = counts.get("ground truth", 0) + 1
        return real_gt(*a, **kw)

    def sub(*a, **kw):
        counts[a[display_at]] = counts.get(a[display_at], 0) + 1
        return real_sub(*a, **kw)

    monkeypatch.setattr(module, gt_fn, gt)
    monkeypatch.setattr(module, sub_fn, sub)
    return counts


@pytest.mark.parametrize("fam_name, folder, suffix, bad", [
    ("spotgeo", "spotgeo", ".json", b"{\"not\": \"a list\"}"),
    ("qa", "qa", ".csv", b"question_id,paragraph_id,answer,inference_ms\nast-1-1,astronomy-1,x,fast\n"),
])
def test_each_file_is_checked_once(monkeypatch, fam_name, folder, suffix, bad):
    import scoring.qa.competition as qa
    import scoring.spotgeo.competition as sg

    module, gt_fn, sub_fn, display_at = ((sg, "load_ground_truth", "prepare_submission", 2) if fam_name == "spotgeo"
                                         else (qa, "load_ground_truth", "load_submission", 1))
    k = 12
    counts = _count_checks(monkeypatch, module, gt_fn, sub_fn, display_at)
    found, more = check_inputs(family(fam_name), **_many(folder, suffix, k, {4: bad}))
    assert [e.file for e in found] == [f"t04{suffix}"] and not more
    # one bad file among 12: two loads of the ground truth (the first load, then the files after
    # the bad one), each submission read once; the old check read the ground truth 12 times
    assert counts.pop("ground truth") == 2
    assert counts == {f"t{i:02d}{suffix}": 1 for i in range(k)}


def test_several_bad_files_each_named_and_each_file_read_once(monkeypatch):
    import scoring.spotgeo.competition as sg

    counts = _count_checks(monkeypatch, sg, "load_ground_truth", "prepare_submission", 2)
    broken = {1: b"[{\"sequence_id\": 1,", 5: b"{}", 9: b"7"}
    found, more = check_inputs(family("spotgeo"), **_many("spotgeo", ".json", 10, broken))
    assert [e.file for e in found] == ["t01.json", "t05.json", "t09.json"] and not more
    assert counts.pop("ground truth") == 3  # the first load, then after each of the first two bad files
    assert counts == {f"t{i:02d}.json": 1 for i in range(10)}  # the last bad file ends the check


def test_progress_counts_the_files_of_the_whole_check():
    seen = []
    broken = {2: b"{}"}
    found, _ = check_inputs(family("spotgeo"), progress=lambda d, n, name: seen.append((d, n)),
                            **_many("spotgeo", ".json", 6, broken))
    assert [e.file for e in found] == ["t02.json"]
    assert all(n == 6 for _, n in seen) and seen[-1] == (6, 6)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)  # never counts back
