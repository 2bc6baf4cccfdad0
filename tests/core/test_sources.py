"""``path_of``: the file an item of ``expand_submissions`` is read from (for the pool's readahead)."""

from __future__ import annotations

from scoring.core.sources import expand_submissions, path_of


def test_path_of_an_item(tmp_path):
    f = tmp_path / "a.csv"
    f.write_bytes(b"id\n")
    assert [path_of(it) for it in expand_submissions([f])] == [f]
    assert path_of(("a", str(f), "a.csv")) == f
    assert path_of(("a", b"id\n", "a.csv")) is None
    assert [path_of(it) for it in expand_submissions({"a": b"id\n"})] == [None]
