"""What the offline agent's tests share: a transcript written from (kind, time, content)
messages, one run of the offline memory agent over it, and the lines of the pages it wrote."""

from __future__ import annotations

from doctree.agent.offline import OfflineMemoryAgent
from doctree.interop.tools import MemoryTools
from doctree.sessions.transcripts import format_transcript, parse_transcript
from doctree.store.documents import DocumentsRepository


def transcript(session: str, *messages: tuple[str, str, object], agent: str = "main") -> str:
    return format_transcript(
        [{"kind": k, "time": t, "content": c} for k, t, c in messages],
        owner=agent,
        session_id=session,
    )


def run(repo: DocumentsRepository, text: str, *, run_id: int | None = None):
    t = parse_transcript(text)
    tools = MemoryTools(repo, t.owner, session_id=t.session_id, run_id=run_id)
    return OfflineMemoryAgent().run(text, tools)


def everything(repo: DocumentsRepository, *, archive: bool = True) -> str:
    """The bodies of every current page (`archive=False`: not the session pages under the
    archive)."""
    return "\n".join(
        d.body for d in repo.documents("main", "~/memory") if archive or "/archive/" not in d.path
    )


def facts_after(repo: DocumentsRepository, message: str, day: str) -> str:
    """The current facts after one user message said at `day` (answered "Noted.") is read."""
    run(repo, transcript("s-said", ("user", day, message), ("assistant", day, "Noted.")))
    return current_facts(repo)


def page_lines(repo: DocumentsRepository, owner: str = "main") -> tuple[list[str], list[str]]:
    """The current lines and the Past lines of the pages a person reads (no archive, no
    list of recent sessions)."""
    now: list[str] = []
    past: list[str] = []
    for d in repo.documents(owner, "~/memory"):
        if "/archive/" in d.path:
            continue
        section = ""
        for ln in d.body.splitlines():
            if ln.startswith("## "):
                section = ln[3:]
            elif ln.startswith("- ") and section == "Past":
                past.append(ln)
            elif ln.startswith("- ") and section != "Recent sessions":
                now.append(ln)
    return now, past


def current_facts(repo: DocumentsRepository, *, corrections: bool = True) -> str:
    """The fact lines that hold now on the pages a person reads: no Past, no session lists,
    nothing marked past (`corrections=False` also leaves out the corrections page)."""
    lines: list[str] = []
    for d in repo.documents("main", "~/memory"):
        if "/archive/" in d.path or (not corrections and d.path.endswith("/corrections")):
            continue
        for section in d.body.split("## Past")[0].split("\n## ")[1:]:
            name, *rest = section.split("\n")
            if name.strip() not in ("Recent sessions", "Sessions", "Related"):
                lines += [ln for ln in rest if ln.startswith("- ") and " — past: " not in ln]
    return "\n".join(lines)


def past_facts(repo: DocumentsRepository) -> str:
    """The lines marked past on the pages a person reads."""
    return "\n".join(
        ln
        for d in repo.documents("main", "~/memory")
        if "/archive/" not in d.path
        for ln in d.body.split("\n")
        if " — past: " in ln
    )
