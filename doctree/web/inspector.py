"""What every page of the inspector needs: the store, whose memory, who writes, CSRF, and the
templates; and the open repositories the requests served side by side borrow."""

from __future__ import annotations

import hmac
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse

from doctree.errors import DoctreeError
from doctree.store.documents import Actor, DocumentsRepository
from doctree.web.templating import templates

KEEP_OPEN = 8
"""Repositories kept open between requests; more are opened while more requests are served
at once (at most as many as Starlette's thread pool runs), and closed once done."""


class Repositories:
    """The open repositories of one database that the inspector's requests borrow, one each:
    the pages run in Starlette's thread pool, side by side, and a connection (SQLite's or
    PostgreSQL's) serves one request at a time, so no request sees another's transaction."""

    def __init__(self, db: str, first: DocumentsRepository | None = None, keep: int = KEEP_OPEN):
        self.db = db
        self.keep = keep
        self._idle: list[DocumentsRepository] = [first] if first is not None else []
        self._lock = threading.Lock()
        self._closed = False

    @contextmanager
    def borrow(self) -> Iterator[DocumentsRepository]:
        """An open repository no other request uses, given back afterwards. One a request
        failed in with something other than a doctree error is closed, not given back."""
        with self._lock:
            repo = self._idle.pop() if self._idle else None
        if repo is None:
            repo = DocumentsRepository(self.db)
        keep = True
        try:
            yield repo
        except (DoctreeError, HTTPException):
            raise
        except BaseException:
            keep = False
            raise
        finally:
            with self._lock:
                if keep and not self._closed and len(self._idle) < self.keep:
                    self._idle.append(repo)
                    repo = None
            if repo is not None:
                repo.close()

    def close(self) -> None:
        """Close the idle repositories; one still borrowed is closed when given back."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for repo in idle:
            repo.close()


@dataclass(frozen=True)
class Site:
    """What every request shares: whose memory, who writes, the CSRF token of the forms, the
    database's name for the header."""

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

    def page(
        self, request: Request, template: str, *, title: str, status: int = 200, **context: Any
    ) -> HTMLResponse:
        """`template` (which extends base.html) as a page; `side`: the tree beside it."""
        context.setdefault("side", None)
        return templates().TemplateResponse(
            request,
            template,
            {
                "title": title,
                "owner": self.owner,
                "db_label": self.db_label,
                "csrf": self.csrf,
                **context,
            },
            status_code=status,
        )


@dataclass(frozen=True)
class Inspector:
    """One request's view: the site's settings and a repository of its own."""

    site: Site
    repo: DocumentsRepository
    request: Request

    @property
    def owner(self) -> str:
        return self.site.owner

    @property
    def actor(self) -> Actor:
        return self.site.actor

    @property
    def csrf(self) -> str:
        return self.site.csrf

    def check_csrf(self, form_value: object) -> None:
        self.site.check_csrf(form_value)

    def page(self, template: str, *, title: str, status: int = 200, **context: Any) -> HTMLResponse:
        return self.site.page(self.request, template, title=title, status=status, **context)
