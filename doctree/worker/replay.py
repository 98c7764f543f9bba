"""Replaying transcripts through the live path: session, history, sleep, worker tick, handler.

Each transcript becomes a session of its agent: its records are appended as history (so the
6th record invalidates it, by the real rule), the session is put to sleep at its end
(invalidating it like an idle agent), and a worker tick hands it to the handler (the memory
agent). A transcript whose records the session already holds is not appended twice.

`doctree.compose.replay_pipeline` builds a `Replayer` with the memory agent runtime of a
backend; `doctree replay` and the benchmarks use it:

    with replay_pipeline(Settings(backend="offline"), repo) as replayer:
        outcome = replayer.replay(text, source="01-personal-assistant.md")
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from doctree.errors import ConflictError, UserError
from doctree.sessions.repository import SessionsRepository
from doctree.sessions.transcripts import Transcript, parse_transcript
from doctree.store.documents import DocumentsRepository
from doctree.worker.worker import MemoryAgentHandler, MemoryWorker, TranscriptJob

#: Worker ticks one transcript may take (a session with new records is handed over again).
MAX_TICKS = 100


@dataclass
class ReplayOutcome:
    """What replaying one transcript did: the session, its history, the runs and changes."""

    source: str
    owner: str
    session_id: str
    messages: int
    appended: int = 0
    skipped: int = 0  # records the session already held
    runs: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    pending: bool = False  # still invalidated after the ticks (e.g. waiting for a retry)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class CollectingHandler:
    """A worker handler that passes each job to `inner` and keeps (job, result) of each."""

    def __init__(self, inner: MemoryAgentHandler):
        self.inner = inner
        self.results: list[tuple[TranscriptJob, Any]] = []

    def handle(self, job: TranscriptJob) -> Any:
        result = self.inner.handle(job)
        self.results.append((job, result))
        return result


def append_transcript(
    sessions: SessionsRepository, transcript: Transcript, owner: str
) -> tuple[int, int]:
    """Append the transcript's records the session does not hold yet; returns
    (appended, skipped). The session must belong to `owner`, and its history must be the
    start of the transcript (or hold all of it)."""
    s = sessions.ensure(owner, transcript.session_id, created_at=transcript.started)
    existing = sessions.history(s.id)
    messages = list(transcript.messages)
    held = 0
    for record, message in zip(existing, messages, strict=False):
        if (record.kind, record.time, record.content) != (
            message.kind,
            message.time,
            message.content,
        ):
            raise UserError(
                f"session {s.id!r}: its history differs from the transcript at record "
                f"{held + 1} ({record.kind} at {record.time}); replay it under another session id"
            )
        held += 1
    if held < len(existing):
        raise UserError(
            f"session {s.id!r}: holds {len(existing)} records, more than the transcript's "
            f"{len(messages)}; replay it under another session id"
        )
    # one transaction, one session lookup and one count for the whole transcript
    sessions.append_many(s.id, ((m.kind, m.content, m.time) for m in messages[held:]))
    return len(messages) - held, held


class Replayer:
    """Replays transcripts into `repo` through a worker on `repo`'s connection, handing each
    session to `handler`. Closing it closes the worker and the handler (if it has `close`)."""

    def __init__(self, repo: DocumentsRepository, handler: MemoryAgentHandler):
        self.repo = repo
        self.handler = CollectingHandler(handler)
        self.sessions = SessionsRepository(repo.conn)
        self.worker = MemoryWorker(repo.conn, handler=self.handler)

    def replay(self, text: str, *, source: str, owner: str | None = None) -> ReplayOutcome:
        """Replay one transcript (markdown, docs/transcripts.md) as `owner`'s (None: the
        agent the transcript names); `source` names it in messages."""
        transcript = parse_transcript(text, source=source)
        owner = owner or transcript.owner
        outcome = ReplayOutcome(source, owner, transcript.session_id, len(transcript.messages))
        try:
            outcome.appended, outcome.skipped = append_transcript(self.sessions, transcript, owner)
        except ConflictError as e:
            raise UserError(f"{source}: {e}") from None
        self.sessions.sleep(transcript.session_id)
        self.handler.results.clear()
        for _ in range(MAX_TICKS):
            tick = self.worker.tick()
            if transcript.session_id in tick.failed:
                outcome.error = self.sessions.require(transcript.session_id).last_error
                break
            pending = self.sessions.require(transcript.session_id).invalidated_at is not None
            if not pending or not (tick.processed or tick.raced or tick.exempt):
                break
        outcome.runs = [run_summary(self.repo, job, result) for job, result in self.handler.results]
        s = self.sessions.require(transcript.session_id)
        outcome.pending = s.invalidated_at is not None
        if outcome.pending and outcome.error is None and s.last_error:
            outcome.error = f"waiting for a retry after: {s.last_error}"
        return outcome

    def close(self) -> None:
        self.worker.close()
        close = getattr(self.handler.inner, "close", None)
        if close is not None:
            close()

    def __enter__(self) -> Replayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_summary(repo: DocumentsRepository, job: TranscriptJob, result: Any) -> dict[str, Any]:
    """One memory-agent run of a replay as a dict: its row, usage, versions and notes."""
    run = result.run
    versions = repo.log(job.owner, "~", run_id=run.id, limit=None)
    changes = [
        {"path": v.path, "operation": v.operation, "version": v.version}
        for v in sorted(versions, key=lambda v: v.id)
    ]
    return {
        "run_id": run.id,
        "session_id": job.session_id,
        "owner": job.owner,
        "records": [job.first_history_id, job.last_history_id],
        "backend": run.backend,
        "model": run.model,
        "status": run.status,
        "stop_reason": run.stop_reason,
        "turns": run.turns,
        "tool_calls": run.tool_calls,
        "tool_errors": run.tool_errors,
        "usage": {
            "input_tokens": run.input_tokens,
            "output_tokens": run.output_tokens,
            "cache_read_tokens": run.cache_read_tokens,
            "cache_write_tokens": run.cache_write_tokens,
            "cost_usd": run.cost_usd,
        },
        "changes": changes,
        "notes": list(getattr(result.summary, "notes", None) or []),
    }
