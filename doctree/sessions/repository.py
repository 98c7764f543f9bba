"""Sessions, their history, and invalidation: which sessions the memory worker must collect.

`SessionsRepository` is the one object callers open on a database: it composes the
parts, one noun a module — sessions (`sessions.py`), their records (`records.py`), the
end of a session (`lifecycle.py`), a worker's claims (`claims.py`) and hand-overs
(`handover.py`). All session SQL lives in these modules.
"""

from __future__ import annotations

from doctree.sessions.claims import Claims
from doctree.sessions.handover import HandOver
from doctree.sessions.lifecycle import Lifecycle


class SessionsRepository(Lifecycle, Claims, HandOver):
    """Sessions and session history in a doctree database (a path or an open connection)."""
