"""What every page of the inspector needs: the store, whose memory, who writes, CSRF."""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from starlette.exceptions import HTTPException
from starlette.responses import HTMLResponse

from doctree.store.documents import Actor, DocumentsRepository
from doctree.web import html as h


@dataclass
class Inspector:
    """What every page needs: the store, whose memory, who writes, the CSRF token."""

    repo: DocumentsRepository
    owner: str
    actor: Actor
    csrf: str
    db_label: str = ""

    def check_csrf(self, form_value: object) -> None:
        """Refuse a form whose CSRF token is not this inspector's (403)."""
        if not isinstance(form_value, str) or not hmac.compare_digest(
            form_value.encode(), self.csrf.encode()
        ):
            raise HTTPException(403, "the form's CSRF token is missing or stale: reload the page")

    def page(self, title: str, body: str, status: int = 200, *, side: str = "") -> HTMLResponse:
        return HTMLResponse(
            h.layout(title, body, owner=self.owner, db=self.db_label, side=side),
            status_code=status,
        )
