"""Fixtures shared by the Shovel-Ready tests: the small-group competition (``smallgroup``)."""

from __future__ import annotations

import pytest

from tests.shovel_ready import smallgroup


@pytest.fixture(scope="module")
def sg_folder(tmp_path_factory):
    """The small-group competition's files, written once per test module."""
    d = tmp_path_factory.mktemp("smallgroup")
    smallgroup.write(d)
    return d


@pytest.fixture(scope="module")
def sg_scorer(sg_folder):
    """Its Shovel-Ready scorer (one per test module)."""
    return smallgroup.scorer(sg_folder)
