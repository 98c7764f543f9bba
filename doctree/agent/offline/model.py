"""The data the offline agent's stages hand to each other.

segment: a `Transcript` -> `Segmented` (its `Turn`s, split into sentences);
extract and resolve: `Segmented` -> `Analysis` (the `Sentence`s worth reading, each with
its speaker, time, kinds, names and resolved dates); file: `Analysis` -> `Filing` (the page
each fact goes to); write: `Filing` -> pages.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date

from doctree.agent.offline.directory import Directory
from doctree.agent.offline.earlier import Earlier
from doctree.agent.offline.enumerations import Enumeration

#: A page of its own: (kind, slug), e.g. ("people", "maya").
Home = tuple[str, str]


@dataclass
class Turn:
    """One message of the transcript as segment split it: who, when, and its sentences."""

    kind: str  # "user", "assistant" or "tool_result"
    time: str
    sentences: list[str] = field(default_factory=list)  # its own sentences, quotes left out
    speaker: str | None = None  # the named speaker of a chat line ("Caroline: ..."), if any
    pasted: set[str] = field(default_factory=set)  # sentences below "Ana wrote:": not requests
    items: set[str] = field(default_factory=set)  # sentences written as list items ("- Wei: ...")
    pieces: set[str] = field(default_factory=set)  # the clauses of a run-on sentence
    rows: set[str] = field(default_factory=set)  # the records of a pasted table, CSV or JSON
    options: list[str] = field(default_factory=list)  # the choices an assistant's turn lists
    lists: list[Enumeration] = field(default_factory=list)  # its lists, which the user may point at
    answers: set[str] = field(default_factory=set)  # statements a reply makes with the question
    #: the sentences of a pasted mail chain, each with its message's date (None: not given)
    dated: dict[str, date | None] = field(default_factory=dict)
    # the name a pasted mail's subject line says it is about, and the mail's sentences
    mail: tuple[str, set[str]] | None = None
    addressed: list[str] = field(default_factory=list)  # passages addressed to the memory system
    after_tool: bool = False  # an assistant turn answering the user's question from a tool
    tool_ran: bool = False  # an assistant turn right after a tool's result, asked for or not
    secret_pasted: bool = False  # a user turn whose pasted or fenced text holds a secret
    pasted_block: bool = False  # a user turn with quoted or fenced text (a log, a config)
    #: a user turn that shows a picture or a file only the assistant sees ("[image: a.jpg]")
    shown: bool = False
    #: a tool result's records (`sentences` holds the line of each): the values each holds
    records: list[list[str]] = field(default_factory=list)
    message: str = ""  # the user's or the assistant's message as written


@dataclass
class Segmented:
    """A transcript as segment hands it on: its turns and what its messages count."""

    turns: list[Turn]
    counts: Counter  # messages by kind
    tools: Counter  # tool calls by tool name
    tool_errors: int
    #: how the conversation writes numeric dates: "mdy", "dmy" or None (`numeric.date_order`)
    date_order: str | None = None


@dataclass
class Sentence:
    """One sentence said in the session, with what the rules found in it."""

    time: str
    text: str  # as said, relative dates annotated with their absolute date
    #: what kind of statement it is: statement, preference, decision, rule, health, setup,
    #: leaving, date, remember, correction, change, finding, secret, role
    kinds: list[str] = field(default_factory=list)
    dates: list[tuple[str, date]] = field(default_factory=list)  # (phrase, date) resolved
    when: date | None = None  # the first date it names, relative or absolute
    people: list[str] = field(default_factory=list)  # person names as written, subject first
    projects: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    relation: tuple[str, str] | None = None  # (relation, name)
    correction: tuple[str, str, str] | None = None  # (statement, old, new)
    speaker: str = "the user"  # who said it: the user, a named speaker, or the assistant
    statement: str = ""  # the text as a statement about its subject, in the third person
    subject: str | None = None  # the person the sentence is about, when it names one
    others: dict[str, list[str]] = field(default_factory=dict)  # organisations/places/pets
    roles: list[tuple[str, str]] = field(default_factory=list)  # (name, role)
    secrets: list[str] = field(default_factory=list)  # kinds of secret withheld from it
    raw: str = ""  # the sentence as said, corrections said with it applied
    replaces: list[Sentence] = field(default_factory=list)  # earlier ones it corrects
    #: earlier ones of the session it gives a later value for the same thing (`supersession`)
    supersedes: list[Sentence] = field(default_factory=list)
    unlists: list[str] = field(default_factory=list)  # names it says were taken off a list
    switches: bool = False  # "go with the other one": a choice of two made before, switched
    #: whom an opening "he"/"she" is read as (`referent`), also when the sentence names
    #: someone else and so is not made about them ("He's moving in with Steph")
    pronoun_means: str | None = None


@dataclass
class EarlierForget:
    """A request to forget what an earlier conversation said ("scrap what I told you last
    Monday about the boat"): the conversation it names and what of it goes."""

    request: str  # as said
    earlier: Earlier
    things: list[str]  # what is forgotten of it; empty: everything said then
    persons: tuple[str, ...] = ()  # the things only as they concern these persons


@dataclass
class Analysis:
    """What extract and resolve found in one transcript, before any page is touched."""

    sentences: list[Sentence]
    counts: Counter
    tools: Counter
    tool_errors: int
    ignored: list[str]  # text addressed to the memory system, quoted as data
    forget: list[str] = field(default_factory=list)  # what to forget from earlier sessions
    #: a thing to forget only as it concerns these persons ("the stuff about Ravi and the
    #: stairlift money"): thing -> the persons named with it
    forget_concerning: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: such a thing said of a person ("forget that she sleepwalks"): forgotten only where the
    #: person is named or on the person's page, never another's sleepwalking
    forget_of_whom: set[str] = field(default_factory=set)
    #: a person whose name only was asked not to be kept ("I don't want his name kept"): a
    #: line naming them keeps the rest when it stands without the name (`lang.without_name`)
    forget_name_only: set[str] = field(default_factory=set)
    #: a thing to forget of several words that the conversation said whole ("the Italian
    #: restaurant" the assistant suggested): thing -> its last word, which a line must say to
    #: be about it ("my partner is Italian" is not)
    forget_head: dict[str, str] = field(default_factory=dict)
    forgotten: int = 0  # statements of this session left out on request
    #: the things to forget that a statement of this session was left out for
    forget_found: set[str] = field(default_factory=set)
    #: requests to forget what an earlier conversation said, limited to its sessions
    forget_earlier: list[EarlierForget] = field(default_factory=list)
    #: what the user said in this session and asked there not to be kept (the statements
    #: taken back and the requests themselves), as said, each with the time of its message:
    #: taken out of that message of the session's record
    withheld: list[tuple[str, str]] = field(default_factory=list)
    #: requests not acted on: (what was said, why not)
    not_acted: list[tuple[str, str]] = field(default_factory=list)
    opening: str | None = None  # what the session was about, in the user's first words


@dataclass
class Filing:
    """Where each fact of a session goes: the one page of its own (`home`), or a list page
    and section (`slot`) for a fact without one; and the pages the session names."""

    analysis: Analysis
    directory: Directory
    facts: list[Sentence]  # the sentences worth a line of memory
    homes: dict[int, Home | None]  # id(fact) -> its page, None for the lists
    slots: dict[int, tuple[str, str]]  # id(fact) -> (list page, section)
    touched: dict[str, set[str]]  # kind -> slugs of the pages this session names
    passing: set[Home]  # named in passing: told apart from people, no page of their own
    projects: list[str]  # the projects the session names
    session_project: str | None  # the one project of the session, when it names one only
    topic_titles: dict[str, str]  # slug -> a topic as written
    listed_topics: dict[str, str]  # topic pages memory already has: slug -> title

    def home(self, s: Sentence) -> Home | None:
        return self.homes.get(id(s))

    def slot(self, s: Sentence) -> tuple[str, str] | None:
        return self.slots.get(id(s))

    def list_page(self, s: Sentence) -> str | None:
        slot = self.slot(s)
        return slot[0] if slot else None

    def lists(self) -> dict[str, list[tuple[str, Sentence]]]:
        """The facts with no page of their own, by list page: (section, sentence)."""
        out: dict[str, list[tuple[str, Sentence]]] = {}
        for s in self.facts:
            if slot := self.slot(s):
                out.setdefault(slot[0], []).append((slot[1], s))
        return out
