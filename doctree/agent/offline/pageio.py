"""The offline agent's side of the document tools: calls, reads, version-checked writes.

It reads every page before it changes it, remembers what reads showed (a page's children,
pages known not to exist) so as not to read pages that cannot be there, and retries a write
that lost a race against another writer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from doctree.agent.offline.pages import Page, Read, parse_read
from doctree.errors import DoctreeError


class _Result(Protocol):
    content: str
    is_error: bool


class ToolsLike(Protocol):
    def call(self, name: str, input: dict) -> _Result: ...


@dataclass
class RunSummary:
    """What one offline run did: its tool calls, the pages it changed, and notes for people."""

    owner: str
    session_id: str
    backend: str = "offline"
    stop_reason: str = "end_turn"
    turns: int = 0
    tool_calls: int = 0
    tool_errors: int = 0
    changed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: sentences the user said and asked, in the same session, not to be kept, each with
    #: the time of its message: the caller takes them out of that message of the session's
    #: record (`doctree.memory.erase.withhold`)
    withheld: list[tuple[str, str]] = field(default_factory=list)
    #: what an earlier session said (its id -> the sentences and the assistant's words
    #: restating them, each with its message's time) that the user asked here to forget: the caller takes them out of
    #: that session's record the same way
    withheld_earlier: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def __str__(self) -> str:
        notes = "".join(f"; {n}" for n in self.notes)
        return (
            f"offline run for session {self.session_id} of {self.owner}: "
            f"{self.tool_calls} tool calls ({self.tool_errors} errors), "
            f"{len(self.changed)} pages changed{notes}"
        )


class OfflineAgentError(DoctreeError):
    """A tool answered in a way the offline agent cannot work with (a bug, not bad input)."""


class PageIO:
    """Document tool calls for one run, counted in its summary."""

    def __init__(self, root: str, tools: ToolsLike, summary: RunSummary):
        self.root = root
        self.tools = tools
        self.summary = summary
        # What reads showed: a page's children, and pages known not to exist. They spare
        # reading pages that cannot be there; a write or a conflict refreshes them.
        self.listing: dict[str, set[str]] = {}
        self.absent: set[str] = set()

    def call(self, name: str, input: dict) -> _Result:
        self.summary.tool_calls += 1
        result = self.tools.call(name, input)
        if result.is_error:
            self.summary.tool_errors += 1
        return result

    def _known_absent(self, path: str) -> bool:
        probe = path
        while probe.count("/") >= 1:
            parent = probe.rsplit("/", 1)[0]
            if probe in self.absent:
                return True
            if parent in self.listing and probe not in self.listing[parent]:
                return True
            probe = parent
        return False

    def read(self, path: str, *, fresh: bool = False) -> Read | None:
        """`document_read`, parsed; None when the page does not exist."""
        if not fresh and self._known_absent(path):
            return None
        r = self.call("document_read", {"path": path})
        if r.is_error:
            if "not found" in r.content or "does not exist" in r.content:
                self.absent.add(path)
                return None
            raise OfflineAgentError(f"document_read {path}: {r.content}")
        if not r.content.startswith("path: "):
            self.absent.add(path)  # the memory root, before anything was written
            return None
        page = parse_read(r.content)
        self.listing[path] = {child for child, _ in page.children}
        return page

    def _written(self, path: str, *, created: bool) -> None:
        """After a write: the page and the parents the store created exist, with these children."""
        chain = [path]
        while chain[-1].count("/") >= 2:
            chain.append(chain[-1].rsplit("/", 1)[0])
        new = [created if p == path else self._known_absent(p) for p in chain]
        child = None
        for probe, was_new in zip(chain, new, strict=True):
            self.absent.discard(probe)
            if was_new:
                self.listing[probe] = {child} if child else set()
            parent = probe.rsplit("/", 1)[0]
            if parent in self.listing:
                self.listing[parent].add(probe)
            child = probe

    def update(self, path: str, title: str, change) -> Page:
        """Read `path`, let `change(page)` edit it, write it back if it changed (version-checked)."""
        for attempt in range(3):
            current = self.read(path, fresh=attempt > 0)
            page = Page.parse(current.body, title) if current and current.body else Page(title)
            change(page)
            body = page.render()
            if current is not None and body == current.body:
                return page
            r = self.call(
                "document_write",
                {"path": path, "body": body, "expected_version": current.version if current else 0},
            )
            if not r.is_error:
                self._written(path, created=current is None)
                if path not in self.summary.changed:
                    self.summary.changed.append(path)
                return page
            if "conflict" not in r.content:
                # A page the store refuses (e.g. over its size limit) is left as it is and
                # reported, so that one page never blocks the session's other pages.
                self.summary.notes.append(
                    f"{path} not written: {r.content.removeprefix('error: ')}"
                )
                return page
        raise OfflineAgentError(f"document_write {path}: still conflicting after 3 attempts")
