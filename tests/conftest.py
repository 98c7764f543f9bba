from __future__ import annotations

import pytest

from doctree.store import DocumentsRepository


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "doctree.db"


@pytest.fixture
def repo(db_path):
    r = DocumentsRepository(db_path)
    yield r
    r.close()
