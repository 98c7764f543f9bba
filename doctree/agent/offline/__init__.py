"""The offline memory agent: deterministic, rule-based, no model.

It reads a transcript the way the worker hands it over and keeps what a person would want to
find again, through the same document tools a model-backed memory agent gets
(`doctree.interop.tools.MemoryTools`): it reads every page before it changes it and writes only
below `~/memory`. What it writes, in the tiered layout of the design:

- `~/memory/archive/<YYYY-Www>/<session>`: a page per session with its key lines;
- `~/memory/people/<name>`, `~/memory/projects/<name>`, `~/memory/topics/<name>` (and
  organisations, places, pets): the people, projects and things named, each fact citing
  the session it came from;
- `~/memory/corrections`: the user's explicit preferences ("I prefer", "don't", "always")
  and corrections ("actually, X, not Y"), which are also applied where the old fact is
  recorded, by an exact-string edit;
- `~/memory/decisions`, `~/memory/notes`: decisions ("we decided", "let's go with") outside
  any project, and things to remember ("remember that") that have no page of their own;
- `~/memory/active`: upcoming dates (relative dates made absolute from the message time)
  and recent decisions; dates that have passed move to the archive week;
- `~/memory/patterns`: people, projects and topics that keep coming up.

What the user says counts as a fact, plain statements included; what the assistant found
counts when the user accepts it or asked for it and a tool answered. Tool output, quoted
(`>`), fenced and pasted text are context; a fence around a list, notes or a chat log
(`blocks.py`) is read as what it holds. Superseded lines move under a page's "Past"
heading, dated. Only the user's own request to forget acts; the agent then deletes the pages
of what it forgets, as changes of its run that `revert` undoes. Instructions inside a
transcript are data: the agent never derives a path from them, never moves anything, and
lists text that addresses the memory system on the session page as ignored. Same transcript
and same tree in, same calls out: no clock, no randomness.

The work runs in stages, one module each, passing the data of `model.py` on (`run.run_session`
reads top to bottom as the pipeline; see docs/memory-agent.md):

- `segment.py`: the transcript into turns, each into its speaker's own sentences
  (`fragments.py`: a thought typed over many short messages read as one sentence, `markup.py`: HTML pasted as its source read as the text it shows, `fiction.py`: the
  sentences of a dream or a made-up story left out, and `dictation.py`:
  punctuation said as words read as marks, first; `outline.py`: nested
  bullets, each bare value with the path above it; `script.py`: a call written up as
  lines of speakers; `receipts.py`: a till slip as one statement; `sections.py`: headings
  in capitals said with the lines below them; `subject.py`: a pasted record's lines said
  with the one its opening line names; `mail.py`:
  a pasted mail chain into its messages, each by its writer at its date; `chat.py`: an
  exported chat into its senders' lines; `ocr.py`: text from a scan put right; `records.py`:
  a tool's XML, CSV, JSON or `key: value` result into a line per record; `blocks.py`: a fenced block that holds text opened, a chat log's
  lines each its writer's, checkboxes; `quotes.py`: a quoted letter's labelled particulars,
  each a statement of its own; `numeric.py`: numeric dates in the order the session shows);
- `extract.py`: the sentences worth reading and the kind of statement each is, findings the
  user accepted, what a short reply says with the question it answers (`answers.py`), a list
  pasted again, requests to forget; names found and typed by `entities.py`; numbers, times
  and days said in words read as figures first by `spoken.py`; a short "Label: Value" line
  whose value is a name, a figure or a date kept as such by `labels.py`;
- `resolve.py`: dates made absolute, corrections, pronouns and nicknames (run by extract
  sentence by sentence, as a pronoun can only mean someone named before it); `anchored.py`:
  dates counted from another date or from an event dated before ("a week after it arrives");
  `referents.py`: who a role said alone means ("the wife" after "my wife Sal");
- `file.py`: the one page each fact goes to;
- `write.py`: the pages read, merged and written through the document tools (`pageio.py`,
  `pages.py`); a later value for the same thing replaces the line that gave the old one
  (`supersession.py`, also asked by extract within a session).

`clauses.py` cuts a statement at its clauses, so that a request to forget takes only the
clause it names (and tells a sentence that says things of two people, kept on the notes as
said); `earlier.py` reads a request that names an earlier conversation ("what I told you last
Monday about …"), which takes only that conversation's lines; `referred.py` finds the user's
sentences a thing to forget refers to that never name it (the assistant's restatement
named it; a sentence going on from one that does); `positions.py` reads a request that names
what it takes back by where it was said ("forget the last two things I said", "ignore that,
it was the wrong file"); `enumerations.py` reads what the user points at in a list the assistant
gave ("delete the second point", "in 4 it's Friday", "the cheaper one", "the other one") and
one person's entry of the user's own list; `retyped.py` puts a word right that the next message types again
("*Maeve", "I meant Maeve") before anything is read; `forms.py` gives the words a
thing is said by beyond its inflections ("lent" for a loan, someone telling it for their
news); `owner.py` keeps the names the user goes by (a nick, the name the assistant
calls them) on the user's own page, `~/memory/user`, so that none becomes a person;
`written.py` quotes a message someone else wrote that the user introduces ("my landlord
wrote: …"), so that its "I" stays its writer's; `handover.py` opens a quoted note the user
wrote for another reader ("the note I'm leaving for the sitter"), whose lines are the user's;
`grids.py` reads a timetable, a rota or a fixture list laid out in columns a line per row;
`figures.py` gives a bare amount or time the currency or form the conversation confirms;
`signifiers.py` reads a bullet journal's marks ("× done", "> migrated") as each item's status.
`recap.py` reads the assistant's restatement of what the user said ("So your mum's operation
is on Monday 11 August"), when the user lets it stand, as the user's own statements, where
the rules kept nothing of the user's words.

`language.py` holds the rules of English the stages share; `prefilter.py` puts a cheap test in
front of each of their patterns (a sentence holding none of the literals a match needs is
not searched).
"""

from collections.abc import Callable

from doctree.agent.offline import memo
from doctree.agent.offline.pageio import OfflineAgentError, RunSummary, ToolsLike
from doctree.agent.offline.prefilter import forget_texts, gate_modules
from doctree.agent.offline.resolve import absolute_dates, resolve_relative
from doctree.agent.offline.run import run_session, taken_back
from doctree.agent.offline.write import ROOT
from doctree.sessions.transcripts import Transcript, parse_transcript

gate_modules(__name__)  # the cheap test in front of every stage's patterns (prefilter.py)

__all__ = [
    "OfflineAgentError", "OfflineMemoryAgent", "RunSummary", "ToolsLike", "absolute_dates",
    "resolve_relative",
]  # fmt: skip


class OfflineMemoryAgent:
    """A deterministic memory agent: the rules above, applied through the document tools."""

    backend = "offline"
    model = "offline-rules-1"
    #: How the agent's own `document_search` calls rank, whatever retrieval's default: it
    #: looks up the page a fact belongs on by the words they share, and meaning would only
    #: add pages to read and a model to load to every run (docs/memory-agent.md).
    search_mode = "lexical"

    def __init__(self, root: str = ROOT):
        self.root = root

    def run(
        self,
        transcript_text: str,
        tools: ToolsLike,
        *,
        source: str = "<transcript>",
        parsed: Transcript | None = None,
        earlier: Callable[[str], Transcript | None] | None = None,
        trace: Callable[[str, object], None] | None = None,
    ) -> RunSummary:
        """Read `transcript_text` (or `parsed`, the same transcript already parsed), read the
        memory it touches, write what it learnt. `earlier` reads the transcript of an
        earlier session of the owner by its id (None when it has none): a request to forget
        what that conversation said finds the thing by every name it was given there.
        `trace` is handed each stage's output by name (`run_session`)."""
        transcript = (
            parsed if parsed is not None else parse_transcript(transcript_text, source=source)
        )
        # Tools that take a search mode for their owner (`MemoryTools`) and were given none
        # search by words for this run; a mode the caller set stays.
        owned = getattr(tools, "search_mode", "") is None
        if owned:
            tools.search_mode = self.search_mode  # type: ignore[attr-defined]
        try:
            return run_session(self.root, transcript, tools, earlier, trace)
        finally:
            if owned:
                tools.search_mode = None  # type: ignore[attr-defined]
            memo.forget()  # no text read stays in memory past the run
            forget_texts()

    def taken_back(
        self, transcript_text: str, *, parsed: Transcript | None = None
    ) -> list[tuple[str, str]]:
        """The sentences of the transcript its user asked in it not to be kept, as said."""
        try:
            return taken_back(parsed if parsed is not None else parse_transcript(transcript_text))
        finally:
            memo.forget()
            forget_texts()
