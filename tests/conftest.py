from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

from doctree.store.documents import DocumentsRepository

# Shared, busy machines: no per-example deadline, and slow data generation is not a failure.
settings.register_profile("doctree", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("doctree")


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "doctree.db"


@pytest.fixture
def repo(db_path):
    r = DocumentsRepository(db_path)
    yield r
    r.close()
