"""One run of the offline memory agent, stage by stage."""

from __future__ import annotations

import re
from collections.abc import Callable

from doctree.agent.offline import owner
from doctree.agent.offline.directory import OTHER_KINDS, Directory
from doctree.agent.offline.extract import extract
from doctree.agent.offline.file import file_facts
from doctree.agent.offline.fragments import unjoined
from doctree.agent.offline.pageio import RunSummary, ToolsLike
from doctree.agent.offline.referents import known_roles
from doctree.agent.offline.retyped import as_said, retyped
from doctree.agent.offline.segment import segment
from doctree.agent.offline.write import Writer
from doctree.sessions.transcripts import Transcript


def run_session(
    root: str,
    transcript: Transcript,
    tools: ToolsLike,
    earlier: Callable[[str], Transcript | None] | None = None,
    trace: Callable[[str, object], None] | None = None,
) -> RunSummary:
    """Segment the transcript, extract and resolve what it says, file each fact on its page,
    and write the pages: the offline agent's pipeline, top to bottom. `earlier` reads an
    earlier session's transcript by its id, for a request to forget what it said; `trace`,
    when given, is handed each stage's output by the stage's name ("segment", "extract",
    "file"), so a measure can tell which stage lost a fact."""
    writer = Writer(root, transcript, tools, earlier)
    listings = writer.read_known()  # the pages memory already has, by kind
    directory = Directory(
        listings.get("people", {}),
        listings.get("projects", {}),
        {kind: listings.get(kind, {}) for kind in OTHER_KINDS},
    )
    # the names the user goes by (a nick, the name the assistant calls them): never a person
    page = writer.read(f"{root}/{owner.PAGE}")
    known = owner.known_names(page.body if page else None)
    new = {
        n: k
        for n, k in owner.said_names(transcript, set(listings.get("people", {}))).items()
        if n not in known
    }
    names = {**known, **new}
    kin: dict[str, bool] = {}

    def kin_page(slug: str) -> bool:  # read only when a full name meets a first name
        if slug not in kin:
            known = writer.read(f"{root}/people/{slug}")
            kin[slug] = known is not None and "- Relation: the user's " in known.body
        return kin[slug]

    directory.kin_page = kin_page
    directory.remembered_dates = writer.upcoming()  # what a date may count from ("the … after X")
    directory.in_memory = writer.holds_word  # a code or name an earlier session's line gives

    def body(slug: str) -> str | None:
        known = writer.read(f"{root}/people/{slug}")
        return known.body if known else None

    # "the wife" said alone: the pages that say who is (read only when asked)
    directory.roles_known = lambda: known_roles(listings.get("people", {}), body)
    # "*Maeve" after "Mauve is picking them up": the word put right before anything is read
    meant, changed = retyped(transcript)
    turns = segment(
        meant,
        own=frozenset(n.lower() for n, k in names.items() if k == "nick"),
        names=frozenset(n for n, k in names.items() if k == "name"),
        kin=lambda slug: slug in listings.get("people", {}) and household(body(slug)),
    )
    analysis = extract(turns, directory)  # resolves dates, corrections, pronouns as it reads
    filing = file_facts(analysis, directory, listings)
    if trace is not None:
        trace("segment", turns)
        trace("extract", analysis)
        trace("file", filing)
    summary = writer.write(filing)
    # the session's record holds the sentences as said, before they were put right
    # a sentence typed over several messages leaves each of them only the words it holds
    withheld = [(t, as_said(t, raw, changed)) for t, raw in unjoined(analysis.withheld, meant)]
    summary.withheld = list(dict.fromkeys(withheld))
    summary.withheld_earlier = {
        sid: unjoined(said, earlier(sid) if earlier is not None else None)
        for sid, said in summary.withheld_earlier.items()
    }
    if new:  # remembered on the user's own page the first time they are known
        lines = owner.page_lines(new, writer.cite, transcript_day(transcript))
        writer.update(f"{root}/{owner.PAGE}", owner.TITLE, lambda p: owner.add_names(p, lines))
        writer.write_root({owner.PAGE})
    return summary


def taken_back(transcript: Transcript) -> list[tuple[str, str]]:
    """The sentences of `transcript` its user asked, within it, not to be kept ("… don't
    keep that", "off the record: …"), each with the time of its message and as said, with
    the requests themselves: what the
    offline agent leaves out of its pages and the session's record. Read with no memory
    (no pages known), so a model-backed memory agent can be given the transcript without
    them."""
    directory = Directory({}, {}, {kind: {} for kind in OTHER_KINDS})
    meant, changed = retyped(transcript)
    turns = segment(meant, own=frozenset(), names=frozenset())
    withheld = unjoined(extract(turns, directory).withheld, meant)
    return list(dict.fromkeys((time, as_said(time, raw, changed)) for time, raw in withheld))


#: Who may be at the user's own phone or keyboard: family, not a colleague or a friend.
_HOUSEHOLD = re.compile(
    r"^- Relation: the user's (?:(?:step|grand)?(?:daughter|son|child|kid)|wife|husband|"
    r"partner|girlfriend|boyfriend|sister|brother|mum|mom|mother|dad|father|niece|nephew)\b",
    re.M,
)


def household(body: str | None) -> bool:
    """Whether a person's page says they are of the user's family (`_HOUSEHOLD`)."""
    return body is not None and _HOUSEHOLD.search(body) is not None


def transcript_day(transcript: Transcript) -> str:
    """The day the transcript's first message was said."""
    return next((m.time[:10] for m in transcript.messages if m.time), "")
