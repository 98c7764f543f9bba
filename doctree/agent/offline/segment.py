"""Segment: a transcript into turns, and each turn into the sentences its speaker said.

What a message quotes (`>`), fences or pastes below "Ana wrote:" is context, not the
speaker's own word; text addressed to the memory system is set apart, to be listed as
ignored. No rule here decides what a sentence means: that is extract's work.
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter
from collections.abc import Callable
from datetime import date

from doctree.agent.offline.afterthought import is_mark
from doctree.agent.offline.answers import listed_options
from doctree.agent.offline.bibtex import bibtex_entries, is_bibtex
from doctree.agent.offline.blocks import (
    NOTE_LINE,
    dtg_read,
    footnote_anchors,
    footnotes_named,
    footnotes_read,
    interview_read,
    is_code_line,
    unfence_text,
)
from doctree.agent.offline.chat import ChatLine, chat_export
from doctree.agent.offline.dictation import punctuate
from doctree.agent.offline.enumerations import enumerations
from doctree.agent.offline.fiction import outside_fiction
from doctree.agent.offline.fields import note_fields
from doctree.agent.offline.fragments import joined
from doctree.agent.offline.gantt import gantt_tasks
from doctree.agent.offline.grids import cells, grid_lines, is_code, is_command, read_grids
from doctree.agent.offline.handover import open_own_notes
from doctree.agent.offline.language import (
    FOREIGN_MONTHS,
    FORGET_THAT,
    LEADERS,
    MAIL_HEADER,
    MONTHS,
    NAME,
    NAME_WORD,
    NOT_NAMES,
    WEEKDAYS,
    has_verb,
    split_requests,
)
from doctree.agent.offline.logs import entry_dates, oldest_first
from doctree.agent.offline.mail import Mail, decoded_source, mail_chain
from doctree.agent.offline.markup import read_html
from doctree.agent.offline.memo import remembered
from doctree.agent.offline.model import Segmented, Turn
from doctree.agent.offline.numeric import date_order
from doctree.agent.offline.ocr import normalise as normalise_scan
from doctree.agent.offline.orgmode import org_entries
from doctree.agent.offline.outline import outlines
from doctree.agent.offline.outline import shape as outline_shape
from doctree.agent.offline.owner import as_the_user, typed_by_others
from doctree.agent.offline.prefilter import gate_patterns
from doctree.agent.offline.quotes import quoted_fields
from doctree.agent.offline.receipts import read_receipt, read_receipts
from doctree.agent.offline.records import read_records, source_name
from doctree.agent.offline.resolve import message_date
from doctree.agent.offline.script import scripts
from doctree.agent.offline.sections import read_sections
from doctree.agent.offline.subject import read_subject
from doctree.agent.offline.written import quote_introduced
from doctree.memory.secrets import mask
from doctree.sessions.transcripts import Transcript

ADDRESSED = re.compile(
    r"memory[\s_-]agent|ignore\s+(?:all\s+)?(?:previous|prior|your|earlier)\s+instructions"
    r"|system\s+prompt|document_(?:read|write|edit|move|delete|search)|\.\./|~/\.\.|/etc/"
    r"|home\s+of\s+agent|delete\s+everything|recursive\s*=\s*true",
    re.I,
)
_ABBREVIATIONS = (
    "Dr.",
    "Mr.",
    "Mrs.",
    "Ms.",
    "Mx.",
    "Prof.",
    "Sr.",
    "Sra.",
    "Srta.",
    "Mme.",
    "Dra.",
    "e.g.",
    "i.e.",
    "vs.",
    "St.",
    "etc.",
)
#: Abbreviations that end in a dot without ending the sentence: a day of this, last or next
#: month in commercial style ("the 20th inst.", "the 3rd ult.", "the 5th prox."), "approx.".
_ABBREVIATION_WORD = re.compile(
    r"(?:\d(?:st|nd|rd|th)?\s+(?:inst|ult|prox)|(?:^|\s)(?:approx|incl|esp|viz|cf))\.$", re.I
)
#: A name's initial with its dot: after a title ("Mr K. Osman") it ends no sentence; after
#: a comma, colon or "and" it does not either when a lone name follows it ("tenants: J.
#: Abbot, R. Lowe"), while "we chose plan B. Then it rained" still ends at "B.".
_TITLE_INITIAL = re.compile(r"\b(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Rev|Sir|Dame)\.?\s+[A-Z]\.$")
_LISTED_INITIAL = re.compile(r"(?:^|[,:;(]\s*|\band\s+)[A-Z]\.$")
_NAME_NEXT = re.compile(r"[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?(?:\s*[.,;)]|\s+and\b|\s*$)")
_SURNAME_NEXT = re.compile(r"[A-Z][\w'’-]+\b")
#: A lower-case word of a few letters cut with a dot: "avail.", "unfurn.", "excl.".
_CUT_WORD = re.compile(r"(?:^|\s)[a-z]{2,7}\.$")
#: A day of the month written with a dot before its month, as German does ("am 3. Oktober"):
#: the dot ends no sentence.
_DAY_DOT = re.compile(r"(?:^|\s)\d{1,2}\.$")
#: A sentence that is only the day of the one before it: "I passed my test. Yesterday.",
#: "Got the keys! This morning.": said with it, whose day it is.
_A_DAY = (
    r"(?:yesterday|today|tonight|last\s+night|this\s+(?:morning|afternoon|evening)|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
)
_ONLY_A_DAY = re.compile(
    rf"(?:(?:on|last|this|only|just)\s+)?{_A_DAY}"
    r"(?:\s+(?:morning|afternoon|evening|night|lunchtime))?[.!]+",
    re.I,
)
#: A day the sentence before says already: the one after it then says it again for effect
#: ("Rebooked for Tuesday. Tuesday!"), no day of its own.
_SAYS_A_DAY = re.compile(rf"\b{_A_DAY}\b", re.I)
#: A time of day written with dots ("8 p.m.", "9.30 a.m."): before a lower-case word ("at 8
#: p.m. at the town hall") the dot ends no sentence.
_MERIDIEM_DOT = re.compile(r"\d\s?[ap]\.m\.$", re.I)
_MONTH_NEXT = re.compile(
    r"(?:"
    + "|".join(sorted({*MONTHS, *FOREIGN_MONTHS}, key=lambda w: (-len(w), w)))  # same text each run
    + r")\b",
    re.I,
)


def user_sentences(
    text: str,
    items: set[str] | None = None,
    pieces: set[str] | None = None,
    rows: set[str] | None = None,
    kept_quotes: set[str] | None = None,
    dated: dict[str, date | None] | None = None,
    nicks: frozenset[str] = frozenset(),
) -> tuple[list[str], list[str]]:
    """Split a user message into the user's own sentences and the quoted or fenced rest.

    Quoted (`>`) and fenced text is what someone pasted: context, not the user's word. The
    sentences written as list items ("- Wei: finished the export") are added to `items`, the
    clauses of a run-on sentence said as sentences of their own (`run_on_pieces`) to `pieces`,
    the records of a pasted table, CSV file or JSON array (`pasted_rows`) to `rows`, the
    sentences kept of a quoted message (someone else's word, never a request) to `kept_quotes`.
    A pasted mail chain is read message by message, oldest first (`chain_sentences`); its
    sentences are added to `dated`, each with its message's date (None when it has none).
    """
    text = interview_read(footnotes_read(dtg_read(text)))
    text = quote_marked_blocks(unfence_text(text, keep=_kept_fenced, own=nicks))
    text = outer_pipes(text)
    if (chain := mail_chain(text)) is not None and len(chain) > 1:
        return chain_sentences(chain, items, pieces, rows, kept_quotes, dated)
    if (export := chat_export(text)) is not None:
        return export_sentences(*export, items, pieces, rows, kept_quotes, dated)
    own: list[str] = []
    quoted: list[str] = []
    para: list[str] = []
    settings: list[str] = []  # KEY=value lines of a fenced block (a pasted .env)
    fenced: list[str] = []  # the lines of the fenced block being read
    header: list[str] = []  # the header of the table being read
    in_fence = False
    opened = ""  # the line that opened the fence being read: "````markdown"

    block: list[str] = []  # the quoted lines being read

    def signed_note() -> None:
        """The quoted block just read: its labelled values ("Claim number: CLM-1") each a
        statement of its own (`quoted_fields`), the rest a note or a message."""
        if not block:
            return
        fields, lines = quoted_fields(block)
        intro = own[-1] if own else ""
        block.clear()
        if lines:
            signed_or_message(lines, intro)
        for field in fields:  # "Claim number: CLM-1": a line of its own, however short
            own.append(field)
            for kept in (rows, kept_quotes):
                if kept is not None:
                    kept.add(field)

    def signed_or_message(lines: list[str], intro: str) -> None:
        """A quoted note signed by its writer ("… — Gosia") after a line that says whose it
        is ("the note the morning carer left:"): its sentences are the writer's, each
        labelled with the name, and who the writer is a sentence of its own."""
        sign = _SIGNATURE.search(" ".join(lines))
        whose = _NOTE_OF.search(intro)
        if sign is None or whose is None or not intro.endswith(":"):
            quoted_message(lines, intro)
            return
        name = sign.group("name")
        said = split_sentences(" ".join(lines)[: sign.start()].strip())
        own.append(f"{name} is the {whose.group('role')}.")
        if rows is not None:
            rows.add(own[-1])  # a record of who wrote it: worth a line however short
        for sentence in said:
            sentence = re.sub(r"^[A-Z][a-z]{1,2}\s*[—–-]\s*", "", sentence)  # "Mon — "
            own.append(f"{name}: {sentence}")
            if items is not None:
                items.add(own[-1])

    def quoted_message(lines: list[str], intro: str) -> None:
        """A message quoted below a line that says it is one ("Her reply:", "this just came
        from the foundation:") or that opens on its own ("On 12 May, Ana wrote:"): what it
        states is kept, each sentence labelled with its writer when the message is signed
        with a name ("Best, Ines"); a sentence in the first person whose writer is unknown
        is left out, as are the greeting and the sign-off."""
        if lines and _MESSAGE_INTRO.search(lines[0]) and lines[0].endswith(":"):
            intro, lines = lines[0], lines[1:]
        if not lines:
            return
        introduced = intro.endswith(":") and bool(_MESSAGE_INTRO.search(intro))
        if not introduced and not is_letter(lines):
            return
        writer = quoted_writer(lines, intro)
        if own and own[-1] == intro and len(intro.split()) <= 8:
            own.pop()  # "Fernhill's email about her:" says only what follows
        text = " ".join(x for x in lines if x)
        if (sign := _SIGN_OFF.search(text)) is not None:
            text = text[: sign.start()]
        elif writer is None and lines[-1] and not re.search(r"[.!?:;,]$", lines[-1]):
            text = " ".join(x for x in lines[:-1] if x)  # a signature line: "The … team"
        for sentence in split_sentences(_GREETING.sub("", text.strip())):
            if ADDRESSED.search(sentence) or len(sentence.split()) < 3:
                continue
            if writer is not None:
                own.append(f"{writer}: {sentence}")
                if items is not None:
                    items.add(own[-1])
            elif not _FIRST_PERSON.search(sentence):
                own.append(sentence)
            else:
                continue
            if kept_quotes is not None:
                kept_quotes.add(own[-1])

    def flush() -> None:
        if para:
            said = [with_labelled_values(split_sentences(line)) for line in _line_sentences(para)]
            for sentence in [s for line in said for s in line]:
                # two requests to forget in one sentence each ask on their own
                split = [r for piece in run_on_pieces(sentence) for r in split_requests(piece)]
                own.extend(split)
                if pieces is not None and len(split) > 1:
                    pieces.update(split)
            para.clear()

    text = chat_export_lines(text)
    # A pasted conversation: two or more people's lines, each opening on who said it.
    talkers = {
        m.group("name")
        for m in _TALK_LINE.finditer(text)
        if (m.group("stamp") or m.group("role"))
        and m.group("name") not in NOT_NAMES
        and not MAIL_HEADER.fullmatch(m.group("name"))
    }
    introduced: set[str] = set()  # talkers whose role has been said
    # A name joined by "&" goes on across a line break ("Hargreaves &" / "Lowe"), list item or not.
    text = re.sub(r"[ \t]*&[ \t]*\n[ \t]*(?=\S)|[ \t]*\n[ \t]*&[ \t]*(?=\S)", " & ", text)
    lines = text.split("\n")
    outlined = outlines(lines)  # nested bullets: each bare value with the path above it
    scripted = scripts(lines)  # a call written up as a script: "Receptionist: …", "Me: …"
    skip_to = 0
    for at, raw in enumerate(lines):
        if at < skip_to:
            continue
        if at in scripted and not in_fence:
            flush()
            skip_to, script = scripted[at]
            for spoken in script:
                said = split_sentences(spoken.text)
                if spoken.speaker is None:
                    own.extend(said)  # "Me: …": the user's own words
                    continue
                if spoken.asked and said:  # "Yes, that's £9 on top", to the user's question
                    said[0] = f'{said[0].rstrip(".!")} (to "{spoken.asked}").'
                for sentence in said:
                    own.append(f"{spoken.speaker}: {sentence}")
                    for target in (items, kept_quotes):
                        if target is not None:
                            target.add(own[-1])
            continue
        if at in outlined and not in_fence:
            flush()
            skip_to, read = outlined[at]
            for entry in read:
                own.append(entry)
                into = rows if outline_shape(entry) is not None else items
                if into is not None:
                    into.add(entry)
            continue
        line = raw.strip()
        if (line.startswith("```") or line.startswith("~~~")) and (
            not in_fence or closes_fence(line, opened)
        ):
            flush()
            in_fence = not in_fence
            opened = line
            if (
                not in_fence
                and not is_bibtex("\n".join(fenced))
                and (kept := settings_sentence(settings))
            ):
                own.append(kept)
            elif not in_fence:
                records = pasted_rows(fenced)
                own.extend(records)
                if rows is not None:
                    rows.update(records)
            settings.clear()
            fenced.clear()
            continue
        if in_fence:
            quoted.append(line)
            fenced.append(raw)
            if _SETTING.match(line):
                settings.append(line)
            continue
        if line.startswith(">"):
            flush()
            quoted.append(line.lstrip("> ").strip())
            block.append(quoted[-1])
            continue
        signed_note()
        if not line:
            flush()
            continue
        if line.startswith("|") and line.endswith("|") and line.count("|") >= 3:
            flush()  # a row of a pasted table: a sentence of its own, its cells labelled
            if (row := _table_row(line, header)) is not None:
                own.append(row)
                if rows is not None:
                    rows.add(row)
            elif not re.fullmatch(r"[|:\-\s]+", line):
                header[:] = _cells(line)
            continue
        header.clear()
        if (head := re.match(r"(?P<field>[\w-]+):\s", line)) and MAIL_HEADER.fullmatch(
            head.group("field")
        ):
            flush()  # a mail's header line is a line of its own: "From: …", "Subject: …"
            para.append(line)
            flush()
            continue
        # (a note someone else wrote, `NOTE_LINE`, is read so however few write)
        talk = _TALK_LINE.match(line) if len(talkers) >= 2 or line.startswith(NOTE_LINE) else None
        if talk is not None and talk.group("name") in talkers and (talk["stamp"] or talk["role"]):
            # each sentence of a speaker's line is theirs, labelled with their name: "my
            # bathroom" in Mr Okafor's line is his, and nothing in it is the user's request
            flush()
            who = talk["name"]
            if talk["role"] and who not in introduced:
                introduced.add(who)  # who they are, once: "Lidia Novak: treasurer."
                own.append(f"{who}: {talk['role'].strip()[1:-1].strip()}.")
                if rows is not None:
                    rows.add(own[-1])  # a record of who spoke: worth a line however short
                if kept_quotes is not None:
                    kept_quotes.add(own[-1])
            for sentence in split_sentences(line[talk.end() :].strip()):
                own.append(f"{who}: {sentence}")
                if items is not None:
                    items.add(own[-1])
                if kept_quotes is not None:
                    kept_quotes.add(own[-1])
            continue
        item = re.match(r"(?:[-*+]|\d+[.)])\s+(.*)", line)
        if item:
            flush()
            para.append(item.group(1))
            if items is not None:
                items.update(split_sentences(item.group(1)))
            flush()
            continue
        para.append(line)
    flush()
    signed_note()
    return [s for s in own if s], quoted


def chain_sentences(
    chain: list[Mail],
    items: set[str] | None,
    pieces: set[str] | None,
    rows: set[str] | None,
    kept_quotes: set[str] | None,
    dated: dict[str, date | None] | None,
) -> tuple[list[str], list[str]]:
    """The sentences of a mail chain's messages, oldest first, so that a later message's
    terms are read after what they answer: each labelled with its writer ("Ana Ruiz: The
    review moves to Thursday."), a sentence a later message quotes again read once, a
    writer whose address is at an organisation's own domain said to work there. The message
    on top without a header of its own is the user's, read as the user's own words."""
    own: list[str] = []
    quoted: list[str] = []
    seen: set[str] = set()
    for mail in chain:
        body = "\n".join(mail.lines).strip()
        if not body:
            continue
        mine = mail is chain[-1] and mail.sender is None
        if not mine:
            quoted.extend(mail.lines)
        said, inner = user_sentences(body, items, pieces, rows, kept_quotes, dated)
        quoted.extend(inner)
        if (
            mail.sender
            and (org := mail.organisation)
            and not mine
            and not _same_name(mail.sender, org)
        ):
            contact = f"{mail.sender} works at {org}."
            if contact not in seen:
                seen.add(contact)
                own.append(contact)
                for kept in (rows, kept_quotes):
                    if kept is not None:
                        kept.add(contact)
        for sentence in said:
            key = " ".join(sentence.lower().split())
            if key in seen:
                continue  # quoted again in a later reply: read once, as its first writer's
            seen.add(key)
            if not mine and (signed := _SIGNED_AS.fullmatch(sentence)) is not None:
                if not signed["role"]:
                    continue  # "Best, Ana"
                who = mail.sender or signed["name"]  # "Best, Olu (Art Director, Brightwater)"
                at = f" at {signed['org'].strip()}" if signed["org"] else ""
                sentence = f"{who} is the {signed['role'].strip()}{at}."
                own.append(sentence)
                for kept in (rows, kept_quotes):
                    if kept is not None:
                        kept.add(sentence)
                continue
            if not mine:
                sentence = _MAIL_GREETING.sub("", sentence).strip()
                if not sentence or _SIGN_OFF.fullmatch(sentence) or len(sentence.split()) < 3:
                    continue  # "Best, Ana", "Hi Tom,"
                if mail.sender:
                    sentence = f"{mail.sender}: {sentence}"
                    if items is not None:
                        items.add(sentence)
                elif _FIRST_PERSON.search(sentence):
                    continue  # someone's "I", and whose is not known
                if kept_quotes is not None:
                    kept_quotes.add(sentence)
            if dated is not None:
                dated[sentence] = mail.when
            own.append(sentence)
    return own, quoted


#: What says when: a digit, a weekday, a month, a time of day.
_WHEN_SAID = re.compile(
    r"\d|\b(?:mon|tues?|wed|thu(?:rs)?|fri|sat|sun)(?:day)?\b|\b(?:jan(?:uary)?|feb(?:ruary)?|"
    r"mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|"
    r"nov(?:ember)?|dec(?:ember)?)\b|\b(?:noon|midday|midnight|tonight|tomorrow|today)\b",
    re.I,
)


#: What a chat client leaves where a picture or a file was attached, which only the assistant
#: sees: "[image: IMG_2231.jpg]", "[Photo]", "<attachment: lease.pdf>", "(screenshot)", a
#: markdown image, or a file name of a picture or a document alone on its line.
_ATTACHMENT = re.compile(
    r"[\[<(]\s*(?:image|photo|picture|pic|screenshot|screen\s*shot|scan|attachment|attached"
    r"\s+(?:image|photo|file)|file|pdf|document|video)(?:\s+attached|\s+omitted)?"
    r"(?:\s*[:=]\s*[^\]\n<>()]{1,120})?\s*[\]>)]"
    r"|!\[[^\]\n]{0,120}\]\([^)\s]{1,300}\)"
    r"|^[ \t]*[\w.-]{1,80}\.(?:jpe?g|png|heic|gif|webp|pdf|docx?)[ \t]*$",
    re.I | re.M,
)


def without_attachments(text: str) -> tuple[str, bool]:
    """`text` without the marks of pictures or files attached to it (`_ATTACHMENT`), and
    whether it had one: what the picture holds is for the assistant to read out."""
    if not _ATTACHMENT.search(text):
        return text, False
    return _ATTACHMENT.sub("", text).strip(), True


def _same_name(sender: str, organisation: str) -> bool:
    """Whether a sender's name is the organisation's own ("The Lantern Rooms" sending from
    lanternrooms.example, written "Lanternrooms" or "Lantern Rooms"): an organisation
    writing, no person working there."""

    def squashed(name: str) -> str:
        return "".join(w for w in re.findall(r"[^\W_]+", name.lower()) if w != "the")

    return squashed(sender) == squashed(organisation)


def export_sentences(
    before: list[str],
    lines: list[ChatLine],
    after: list[str],
    items: set[str] | None,
    pieces: set[str] | None,
    rows: set[str] | None,
    kept_quotes: set[str] | None,
    dated: dict[str, date | None] | None,
) -> tuple[list[str], list[str]]:
    """The sentences of an exported chat (`chat.chat_export`): the user's words before it
    first, then each message's sentences, then the user's words after it. A message's
    sentences are labelled with their sender ("Ana: The hall is booked.") and dated by the
    message's own stamp; the user's own messages are the user's
    words, a "yes" to someone's request said with what it answers. A sentence that says
    when something is, without naming what, is followed by the chat's title, the subject
    of the chat ("… Sunday at noon (Ana's birthday)")."""
    own, quoted = user_sentences("\n".join(before), items, pieces, rows, kept_quotes, dated)
    previous: ChatLine | None = None
    for at, line in enumerate(lines):
        quoted.append(line.text)
        # a short message is one thing said ("it's BOOKED!! St Brigid's, Sunday at noon"):
        # its pieces are read together, so that one tells what the other is about
        text = re.sub(r"([?!.])\1+", r"\1", line.text)
        said = [text] if len(text) <= _ONE_THING else split_sentences(text)
        following = lines[at + 1] if at + 1 < len(lines) else None
        if (
            line.sender is not None
            and "?" in text
            and following is not None
            and following.sender is None
            and _YES.match(following.text)
        ):
            previous = line
            continue  # asked, and the user said yes: read with the answer, below
        if line.sender is None and previous is not None and previous.sender and said:
            question = re.sub(r"([?!.])\1+", r"\1", previous.text)
            if "?" in question and _YES.match(said[0]):
                said[0] = (
                    f'The user said "{said[0].rstrip(".!")}" when {previous.sender} asked: '
                    f"{question}"
                )
        for sentence in said:
            if (
                line.title
                and _WHEN_SAID.search(sentence)
                and line.title.lower() not in sentence.lower()
            ):
                sentence = f"{sentence.rstrip('.')} ({line.title})."
            if line.sender is not None:
                sentence = f"{line.sender}: {sentence}"
                for kept in (items, kept_quotes):
                    if kept is not None:
                        kept.add(sentence)
            if dated is not None:
                dated[sentence] = line.day
            own.append(sentence)
        previous = line
    if any(x.strip() for x in after):
        said, pasted = user_sentences("\n".join(after), items, pieces, rows, kept_quotes, dated)
        own.extend(said)
        quoted.extend(pasted)
    return own, quoted


#: The length of a chat message read as one thing said, not split into its sentences.
_ONE_THING = 160
#: A reply that says yes to what was asked: "yes of course", "sure!", "ok will do".
_YES = re.compile(
    r"^(?:yes|yeah|yep|yup|sure|of\s+course|ok(?:ay)?|will\s+do|happy\s+to|absolutely|definitely)\b",
    re.I,
)


#: A line that introduces a message quoted below it: "Her reply:", "Fernhill's email about
#: her:", "this just came from the foundation:", "On 12 Sep, Tom Reilly wrote:".
_MESSAGE_INTRO = re.compile(
    r"\b(?:e-?mail|mail|message|reply|replied|answer|answered|letter|note|text|texted|wrote|"
    r"writes|sent|came\s+(?:in\s+)?from|forwarded|says|said)\b[^:]{0,60}:\s*$",
    re.I,
)
#: Who wrote a quoted message, as the line before it says: "Fernhill's email", "from Ana",
#: "Tom Reilly wrote:".
_WRITER_IN_INTRO = re.compile(
    rf"(?:\b(?P<owner>{NAME})['’]s\s+(?:e-?mail|mail|message|reply|answer|letter|note|text)"
    rf"|\bfrom\s+(?P<sender>{NAME})\s*:|(?P<wrote>{NAME})\s+(?:wrote|writes|replied|"
    rf"answered|texted|said|says|sent)\b)"
)
#: A message's sign-off, at its end: "Best, Ines", "Kind regards, Carys Pugh".
_SIGN_OFF = re.compile(
    rf"(?:^|(?<=[.!?])\s+)(?:(?:Best|Kind|Warm|Many|All\s+the)\s+)?(?:wishes|regards|thanks|"
    rf"best|cheers|love|yours|Thanks|Cheers|Love|Regards|Yours|Best|Sincerely|Warmly)"
    rf"(?:\s+\w+)?[,!]?\s+(?P<name>{NAME})\s*$"
)
#: A message's greeting: "Dear applicant,", "Hi Ruth —".
_GREETING = re.compile(r"^(?:Dear|Hi|Hello|Hey|Hiya)\s+[^,—–\n]{1,40}?(?:,|\s+[—–-])\s*")
#: A mail's sign-off, with the writer's role and organisation when it gives them: "Best, Olu
#: (Art Director, Brightwater Press)", "Kind regards, Ana Ruiz".
_SIGNED_AS = re.compile(
    rf"(?:(?:Best|Kind|Warm|Many|All\s+the)\s+)?(?:wishes|regards|thanks|best|cheers|love|yours|"
    rf"Thanks|Cheers|Love|Regards|Yours|Best|Sincerely|Warmly)(?:\s+\w+)?[,!]?\s+(?P<name>{NAME})"
    rf"(?:\s*\(\s*(?P<role>[^,()]{{2,40}}?)(?:\s*,\s*(?P<org>[^()]{{2,60}}?))?\s*\))?\s*\.?"
)
#: A mail's greeting, a name or not: "Hi Ana,", "Hello,", "Dear all —".
_MAIL_GREETING = re.compile(
    r"^(?:Dear|Hi|Hello|Hey|Hiya)\b(?:\s+[^,—–\n]{1,40}?)?(?:,|\s+[—–-])\s*"
)
#: A sentence said in the first person singular.
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I'll|I've|I'd|me|my|mine)\b")


def is_letter(lines: list[str]) -> bool:
    """Whether quoted lines are a letter by their own form, whatever the line before them
    says: a greeting first ("Dear Sir or Madam,") and a sign-off with a name last ("Yours
    faithfully, Dorothy Quinn")."""
    said = [x for x in lines if x]
    return bool(said) and bool(_GREETING.match(said[0]) and _SIGN_OFF.search(" ".join(said[-3:])))


#: A line that opens a quotation and does not close it, and one that closes it.
_OPENS_QUOTE = re.compile(r'^\s*["“](?=\S)[^"“”]*$')
_CLOSES_QUOTE = re.compile(r'^[^"“”]*\S["”]\s*$')


def quote_marked_blocks(text: str) -> str:
    """Lines set in quotation marks across several lines (a letter typed up for someone, a
    message copied in: `"Dear Sir or Madam,` … `Dorothy Quinn"`) marked as quoted (`> `),
    as a pasted quotation is: someone else's words, not the user's. A quotation within one
    line stays as it is."""
    if '"' not in text and "“" not in text:
        return text
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if not _OPENS_QUOTE.match(lines[i]):
            i += 1
            continue
        end = None
        for j in range(i + 1, min(len(lines), i + 80)):
            if _CLOSES_QUOTE.match(lines[j]):
                end = j
                break
            if re.search(r'["“”]', lines[j]):
                break
        if end is None:
            i += 1
            continue
        lines[i] = re.sub(r'^\s*["“]', "", lines[i])
        lines[end] = re.sub(r'["”]\s*$', "", lines[end])
        for k in range(i, end + 1):
            lines[k] = f"> {lines[k].strip()}" if lines[k].strip() else ">"
        i = end + 1
    return "\n".join(lines)


def quoted_writer(lines: list[str], intro: str) -> str | None:
    """The name a quoted message is signed with, or else the one its introducing line gives
    ("Fernhill's email:", "Tom Reilly wrote:"); None when neither names one (a pronoun,
    "her reply", is not a name)."""
    text = " ".join(x for x in lines if x)
    for m in (_SIGN_OFF.search(text), _SIGNATURE.search(text), _WRITER_IN_INTRO.search(intro)):
        if m is None:
            continue
        name = next(v for v in m.groupdict().values() if v)
        if name.split()[0] not in NOT_NAMES:
            return name
    return None


#: The name a note is signed with, at its end: "… if you want. — Gosia".
_SIGNATURE = re.compile(rf"(?:^|[.!?]\s+)[—–-]+\s*(?P<name>{NAME})\s*$")
#: A line that says whose note follows: "the note the morning carer left in the book:".
_NOTE_OF = re.compile(
    r"\b(?:note|message|text|email|e-mail|letter|card)\s+(?:that\s+)?(?:the|my|our)\s+"
    r"(?P<role>[a-z]+(?:\s+[a-z]+)?)\s+(?:left|wrote|sent|posted|gave|put)\b",
    re.I,
)


#: A line of cells between pipes with no pipe at either end: "3 | Ines | swimming".
_BARE_ROW = re.compile(r"[^|>`~\s][^|]*(?:\s\|\s[^|]*){2,}[^|\s]")


def outer_pipes(text: str) -> str:
    """A table pasted without the pipes at the ends of its lines ("BIN | WINE | QTY" over
    "1 | Rioja | 6") written with them, so that it is read as a table: two lines or more in
    a row, each of three cells or more and as many as the first. A single such line is
    left as it is (a pipe may stand in prose); so is a fenced or quoted one."""
    if " | " not in text:
        return text
    lines = text.split("\n")
    fenced = False
    at = 0
    while at < len(lines):
        line = lines[at].strip()
        if line.startswith(("```", "~~~")):
            fenced = not fenced
        if fenced or not _BARE_ROW.fullmatch(line):
            at += 1
            continue
        width = line.count(" | ")
        end = at + 1
        while (
            end < len(lines)
            and _BARE_ROW.fullmatch(row := lines[end].strip())
            and row.count(" | ") == width
            and row.count("|") == width
        ):
            end += 1
        if end - at >= 2 and line.count("|") == width:
            for i in range(at, end):
                lines[i] = f"| {lines[i].strip()} |"
        at = end
    return "\n".join(lines)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _table_row(line: str, header: list[str]) -> str | None:
    """A row of a markdown table under `header` as one statement, its cells labelled by
    their column: "| Ana | shellfish | severe |" under "| who | allergy | notes |" reads
    "Ana, allergy: shellfish; notes: severe."; None for the header and the rule below it."""
    if not header or re.fullmatch(r"[|:\-\s]+", line):
        return None
    cells = _cells(line)
    if not cells or not cells[0]:
        return None
    parts = [
        f"{label}: {cell}" if label else cell
        for label, cell in zip(header[1:], cells[1:], strict=False)
        if cell
    ]
    if not parts:
        return None
    return f"{cells[0]}, {'; '.join(parts)}".rstrip(".") + "."


_RECORD = re.compile(r"(?P<key>[^,;:\n]{1,60}), (?P<cells>\S.*?)\.?")
_CELL = re.compile(r"(?P<label>[^:;]{1,40}): (?P<value>.*)")


def record_shape(row: str) -> tuple[str, frozenset[str], dict[str, str]] | None:
    """A pasted record as its key, the labels of its cells and their values: "Ana Ruiz,
    shift: 9-12; stall: cakes." -> ("Ana Ruiz", {shift, stall}, {...}); None for a sentence
    that is not one, or a record with a cell of no label."""
    m = _RECORD.fullmatch(row.strip())
    if m is None:
        return outline_shape(row)  # "Porto trip › Stay › Casa Ribeira: 3 nights; …"
    cells: dict[str, str] = {}
    for part in m.group("cells").split("; "):
        cell = _CELL.fullmatch(part.strip())
        if cell is None:
            return None
        cells[cell.group("label").strip().lower()] = cell.group("value").strip()
    return m.group("key").strip(), frozenset(cells), cells


def same_list(before: set[str], now: set[str]) -> bool:
    """Whether records keyed `now` are the list keyed `before` pasted again: at least half
    of the earlier keys are still there (another list with the same columns shares a few
    at most)."""
    return bool(before) and 2 * len(before & now) >= len(before)


def _row_sentence(key: str, cells: list[tuple[str, str]]) -> str | None:
    """A row as one statement, its cells labelled: "Ana, allergy: shellfish; notes: severe."."""
    parts = [f"{label}: {cell}" if label else cell for label, cell in cells if cell]
    if not key or not parts:
        return None
    return f"{key}, {'; '.join(parts)}".rstrip(".") + "."


#: A currency named by a column's name: `amount_gbp`, `price_usd`, `total_eur`.
_CURRENCY_KEY = re.compile(r"[_\s-](?P<code>gbp|usd|eur)$", re.I)
_CURRENCY_SIGN = {"gbp": "£", "usd": "$", "eur": "€"}


def _json_cell(key: str, value: object) -> tuple[str, str] | None:
    """A field of a pasted JSON record as a labelled cell; an amount in the currency its name
    says is written as people write it (`"amount_gbp": 3150` -> `amount: £3,150`)."""
    if isinstance(value, bool) or value is None:
        return (key.replace("_", " "), {True: "yes", False: "no", None: ""}[value])
    if isinstance(value, dict | list):
        return None  # nested: not one cell
    if (m := _CURRENCY_KEY.search(key)) and isinstance(value, int | float):
        amount = f"{value:,.2f}".removesuffix(".00")
        return key[: m.start()].replace("_", " "), _CURRENCY_SIGN[m.group("code").lower()] + amount
    return key.replace("_", " "), str(value)


#: A column's name in a CSV header: a word or a few ("guest", "amount_gbp", "due date").
_LABEL = re.compile(r"[A-Za-z][A-Za-z0-9 _./%#-]{0,39}")


def _kept_fenced(lines: list[str]) -> bool:
    """A fenced block that stays fenced though it reads as text: records read row by row
    (`pasted_rows`), settings, text addressed to the memory system, or a request to forget
    (only the user's own word acts, never a pasted one). A table drawn with bars between
    notes is no such block for its rows: it stays fenced as a table with notes does
    (`unfence_text`), its notes read as the message's own and its rows by `pasted_rows`."""
    rows = pasted_rows(lines)
    if (
        rows
        and _drawn_rows(lines) is not None
        and any(x.strip() and "|" not in x and not _DRAWN_RULE.fullmatch(x) for x in lines)
    ):
        rows = []
    return bool(
        rows
        or any(
            _SETTING.match(x.strip())
            or ADDRESSED.search(x)
            or FORGET_THAT.search(x)
            or re.search(r"\bforget\b", x, re.I)
            for x in lines
        )
    )


def closes_fence(line: str, opened: str) -> bool:
    """Whether `line` closes the fence `opened` opened: a fence of the same mark at least as
    long with nothing after it ("````" closes "````markdown"; a "```" inside it opens and
    closes a block of its own); a fence of three marks closes on any line that opens with
    three, as it always has."""
    mark = re.match(r"\s*(`{3,}|~{3,})", opened)
    if mark is None or len(mark.group(1)) == 3:
        return line.strip()[:3] == (mark.group(1)[:3] if mark else "```")
    return (
        re.fullmatch(rf"\s*{re.escape(mark.group(1)[0])}{{{len(mark.group(1))},}}\s*", line)
        is not None
    )


def pasted_rows(lines: list[str]) -> list[str]:
    """The records of a pasted CSV file or JSON array as one statement each, its cells
    labelled by their column or field, so that each row can land on the page of what it
    names and be corrected alone: "Bernard Kaye, table: 1; main: beef; notes: Rose's
    husband." A block that is neither (code, a log, prose) gives none."""
    text = "\n".join(lines).strip()
    if not text:
        return []
    if _ICALENDAR.match(text):
        return calendar_events(text)
    if (entries := bibtex_entries(text)) is not None:
        return entries  # a reading list out of a reference manager: an entry a statement
    if (tasks := gantt_tasks(lines)) is not None:
        return tasks  # a Mermaid gantt chart: each task with its days counted
    if (entries := org_entries(lines)) is not None:
        return entries  # an Org file: each heading with its path and what is under it
    if (note := note_fields(lines)) is not None:
        return note  # a note with its fields: each field a statement of its subject
    if text[0] in "[{":
        try:
            data = json.loads(text)
        except ValueError:
            return []
        return _record_rows(data)
    if (receipt := read_receipt(lines)) is not None:
        return [receipt]  # a till slip: what was bought, where, when
    if (records := _yaml_rows(lines)) is not None:
        return records
    if (drawn := _drawn_rows(lines)) is not None:
        return drawn
    rows = [ln for ln in lines if ln.strip()]
    if len(rows) < 3:
        return []
    for delimiter in (",", "\t", ";"):
        parsed = list(csv.reader(rows, delimiter=delimiter, skipinitialspace=True))
        header = [h.strip() for h in parsed[0]]
        if (
            len(header) < 2
            or not all(_LABEL.fullmatch(h) for h in header)
            or any(len(r) != len(header) for r in parsed[1:])
        ):
            continue
        out = []
        for r in parsed[1:]:
            said = [c.strip() for c in r]
            if row := _row_sentence(said[0], list(zip(header[1:], said[1:], strict=True))):
                out.append(row)
        return out
    if (aligned := _aligned_rows(rows)) is not None:
        return aligned
    return grid_lines(lines) or []  # a timetable, a rota, a fixture list in columns


#: A rule of a table drawn with bars: "-----+------", "|---|:--|", "+====+====+".
_DRAWN_RULE = re.compile(r"\s*[|+]?(?=[^\n]*[-=]{3})[-=+:| ]+[|+]?\s*")


def _drawn_rows(lines: list[str]) -> list[str] | None:
    """A table drawn with bars between its cells ("name | dish | time" over "-----+------"
    and its rows, as a database client prints one, or a markdown table), alone in a block
    or with notes above or below it (a title, a line of where and when, read as the
    message's own): each row as one statement, its cells labelled by the header's, as a
    CSV file's are. None for anything else: rows apart from each other, a row of another
    width, a header cell that is no label, a line of code, fewer than two rows."""
    at = [i for i, x in enumerate(lines) if "|" in x or _DRAWN_RULE.fullmatch(x)]
    if len(at) < 3 or at[-1] - at[0] + 1 != len(at) or any(is_code_line(x) for x in lines):
        return None
    table = [_cells(lines[i]) for i in at if not _DRAWN_RULE.fullmatch(lines[i])]
    if len(table) < 3:
        return None
    header = table[0]
    if len(header) < 2 or not all(_LABEL.fullmatch(h) for h in header):
        return None
    if any(len(r) != len(header) for r in table[1:]):
        return None
    out = []
    for r in table[1:]:
        if row := _row_sentence(r[0], list(zip(header[1:], r[1:], strict=True))):
            out.append(row)
    return out


def _aligned_rows(rows: list[str]) -> list[str] | None:
    """A table laid out in columns by spaces (two or more between cells) under a row that
    names every column, its first one too ("DATE  TYPE  TIME  REMARKS"): each row as one
    statement, its cells labelled, as a CSV file's are. None for anything else: a row of
    another width, a column name with a digit, a cell that is a code, a command or a path
    (a process list, a shell's output)."""
    table = [cells(r) for r in rows]
    header = table[0]
    if (
        len(header) < 2
        or any(re.search(r"\d", h) or not _LABEL.fullmatch(h) for h in header)
        or any(len(r) != len(header) for r in table[1:])
        or any(is_code_line(r) for r in rows)
        or any(is_code(c) or is_command(c) for r in table[1:] for c in r)
    ):
        return None
    labels = [h.lower() if h.isupper() else h for h in header[1:]]
    return [
        row
        for r in table[1:]
        if (row := _row_sentence(r[0], list(zip(labels, r[1:], strict=True))))
    ]


def _record_rows(data: object) -> list[str]:
    """A list of records (pasted as JSON or YAML, alone or under one key: `{"invoices":
    [...]}`) as one statement each, keyed by its first field."""
    if isinstance(data, dict) and len(data) == 1:
        data = next(iter(data.values()))  # {"invoices": [...]}
    if not isinstance(data, list) or not all(isinstance(x, dict) and x for x in data):
        return []
    out = []
    for record in data:
        (first, key), *rest = record.items()
        if isinstance(key, dict | list):
            continue
        cells = [c for k, v in rest if (c := _json_cell(str(k), v)) is not None]
        if (row := _row_sentence(str(key), cells)) is not None:
            out.append(row)
    return out


#: A line of YAML that gives a key, with the comment it may end with: `van: Kwame  # Fridays`.
_YAML_KEY = re.compile(
    r"^\s*(?P<key>[^\s:#][^:#]*?):(?:\s+(?P<value>.*?))?(?:\s+#\s*(?P<note>.*))?\s*$"
)


#: A pasted iCalendar file (an invite, an .ics export).
_ICALENDAR = re.compile(r"BEGIN:VCALENDAR\b", re.I)


def calendar_events(text: str) -> list[str]:
    """The events of a pasted iCalendar file as one statement each, read field by field
    (the `icalendar` library: folded lines, escapes, time zones): what (SUMMARY), when
    (DTSTART to DTEND, the date written out so that it is resolved like any other), where
    (LOCATION) and the rest (DESCRIPTION): "MRI left knee is on Tuesday 16 November 2027 at
    08:10 to 08:40; location: Imaging, Ground floor. No metal." An event sent again
    (SEQUENCE above 0, an update of the invite) says its time "now", a word of change, so
    that it replaces the line of the invite it updates. None for text that is no calendar."""
    from datetime import date, datetime

    import icalendar

    try:
        calendar = icalendar.Calendar.from_ical(text)
    except ValueError:
        return []
    out = []
    for event in calendar.walk("VEVENT"):
        summary = str(event.get("SUMMARY", "")).strip()
        start = event.decoded("DTSTART", None)
        if not summary or not isinstance(start, date):
            continue
        end = event.decoded("DTEND", None)
        when = f"{start:%A} {start.day} {start:%B %Y}"
        if isinstance(start, datetime):
            when += f" at {start:%H:%M}"
            if isinstance(end, datetime) and end.date() == start.date():
                when += f" to {end:%H:%M}"
        updated = int(event.get("SEQUENCE", 0) or 0) > 0
        cells = [f"{summary} is {'now ' if updated else ''}on {when}"]
        if location := str(event.get("LOCATION", "")).strip():
            cells.append(f"location: {location}")
        said = "; ".join(cells) + "."
        if description := " ".join(str(event.get("DESCRIPTION", "")).split()):
            said += " " + description + ("" if description[-1:] in ".!?" else ".")
        out.append(said)
    return out


def _yaml_rows(lines: list[str]) -> list[str] | None:
    """The fields of a pasted YAML mapping (a rota, a config) as one statement each, named
    by the keys above it, with the comment its line ends with: "Wednesday, lead: Aoife
    Brennan.", "Van driver: Kwame Asante (Fridays, pickup at 15:00)." One field a statement,
    so that each lands on the page of what it names and can be forgotten alone. None when
    the block is no YAML mapping of several keys."""
    keyed = [m for ln in lines if (m := _YAML_KEY.match(ln))]
    if len(keyed) < 3:
        return None
    import yaml  # only for a block that looks like YAML: most sessions paste none

    try:
        data = yaml.safe_load("\n".join(lines))
    except yaml.YAMLError:
        return None
    if records := _record_rows(data):  # a list of records: an episode, a booking a line
        return records
    if not isinstance(data, dict) or len(data) < 2:
        return None
    notes = {m.group("key").strip(): m.group("note") for m in keyed if m.group("note")}
    title = next((ln.strip().lstrip("#").strip() for ln in lines if ln.strip()), "")
    title = title if lines and lines[0].strip().startswith("#") else ""

    def label(key: object) -> str:
        said = str(key).replace("_", " ").strip()
        # a rota's "wednesday:" is every Wednesday, not the coming one
        return f"{said}s" if said.lower() in WEEKDAYS else said

    def cell(value: object) -> str | None:
        if isinstance(value, list) and all(not isinstance(v, dict | list) for v in value):
            return ", ".join(str(v) for v in value)
        if isinstance(value, dict | list) or value is None:
            return None
        return (
            {True: "yes", False: "no"}.get(value, str(value))
            if isinstance(value, bool)
            else str(value)
        )

    out = []
    for key, value in data.items():
        fields = value.items() if isinstance(value, dict) else [(None, value)]
        for name, field in fields:
            said = cell(field)
            if said is None or not said.strip():
                continue
            head = label(key)
            head = head[:1].upper() + head[1:]
            text = f"{head}, {label(name)}: {said}" if name is not None else f"{head}: {said}"
            if note := notes.get(str(name if name is not None else key)):
                text += f" ({note})"
            out.append(f"{text} — {title}." if title else f"{text}.")
    return out or None


#: A line of a pasted configuration: `APP_PORT=8443`, `export AWS_REGION="eu-west-3"`.
_SETTING = re.compile(
    r"^(?:export\s+)?(?P<key>[A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(?P<value>[^\s#]\S*)\s*(?:#.*)?$"
)
#: A setting whose value is a secret by its name alone, whatever the value looks like.
_SECRET_KEY = re.compile(
    r"secret|token|passw(?:or)?d|passwd|pwd|pass\b|_key$|^key$|api_?key|credential|auth|"
    r"private|salt|signature|cookie|session|dsn",
    re.I,
)


def settings_sentence(lines: list[str]) -> str | None:
    """The settings of a pasted configuration block as one statement the user made
    ("The pasted settings are APP_ENV=staging, AWS_REGION=eu-west-3."): what is set up is
    worth keeping; a setting named as a secret (a key, token or password) or whose value
    holds one (a password inside a database URL) is named, never its value."""
    kept, withheld = [], []
    for line in lines:
        m = _SETTING.match(line)
        if m is None:
            continue
        key, value = m.group("key"), m.group("value").strip("'\"")
        if _SECRET_KEY.search(key) or mask(value)[1] or re.search(r"://[^/\s:@]+:[^@\s]+@", value):
            withheld.append(key)
        elif value:
            kept.append(f"{key}={value}")
    if not kept:
        return None
    out = f"The pasted settings are {', '.join(kept)}"
    if withheld:
        out += (
            f"; {', '.join(withheld)} {'holds a secret' if len(withheld) == 1 else 'hold secrets'}"
        )
    return out + "."


#: A line that introduces someone else's words below it: "my colleague pasted this:",
#: "Ana wrote:", "here's the message:".
_PASTE_INTRO = re.compile(
    r"\b(?:pasted|pasting|paste|forwarded|forwarding|wrote|writes|said|says|sent|posted|"
    r"copied|quoting|message|email|text|reads|reply|replied)\b[^:]{0,60}:\s*$",
    re.I,
)


def pasted_sentences(text: str) -> set[str]:
    """The sentences of a message below a line that introduces someone else's words ("my
    colleague pasted this:", "Ana wrote:"): kept as what was said, never a request."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if _PASTE_INTRO.search(line.strip()):
            return set(user_sentences("\n".join(lines[i + 1 :]))[0])
    return set()


_MAIL_SUBJECT = re.compile(
    rf"^\s*(?:[-*]\s+)?Subject:\s*(?:(?i:re|fwd?|aw|wg):\s*)*(?P<name>{NAME_WORD})\b", re.M
)


def mail_subject(text: str) -> tuple[str, set[str]] | None:
    """The name a mail pasted in `text` is about, and the mail's sentences (its subject line
    and what follows): the name its subject line opens on ("Subject: Larkspur migration -
    status week 37"), when the mail names it again inside a sentence, capitalised (so a
    name, not "Subject: Dinner on Friday")."""
    m = _MAIL_SUBJECT.search(text)
    if m is None or m.group("name") in NOT_NAMES:
        return None
    name = m.group("name")
    rest = text[m.end() :]
    again = re.search(rf"(?<=[\w,;:] )(?:[a-z]\w*\s+)*{re.escape(name)}(?![\w-])", rest)
    if again is None:
        return None
    line_start = text.rfind("\n", 0, m.start()) + 1
    return name, set(user_sentences(text[line_start:])[0])


#: Where a run-on sentence's clauses meet: a comma, with the joining word it may carry.
_RUN_ON_JOIN = re.compile(r",\s+(?:(?:and|then|but|so|plus|also)\s+)*", re.I)
_SEMICOLON_JOIN = re.compile(r";\s+(?:(?:and|then|but|so|plus|also)\s+)*", re.I)
#: A clause that leans on the one before: a relative one ("…, who cycles in"), or a title
#: set beside a name, its words capitalised ("Farah Lund, Head of Sales").
_LEANS_BACK = re.compile(
    r"\s*(?:(?:who|whose|whom|which|where)\b"
    r"|(?:[A-Z][\w'’&-]*|of|the|and|for|in|at|to|&)(?:\s+(?:[A-Z][\w'’&-]*|of|the|and|for|in|"
    r"at|to|&))*\s*[.!?]?\s*$)"
)
#: A sentence this long, in this many clauses or more, is a dictated list, not one statement.
RUN_ON_WORDS, RUN_ON_CLAUSES = 40, 4


@remembered
def run_on_pieces(sentence: str) -> list[str]:
    """A run-on sentence (a dictated list: "moving day is the 23rd, the van comes at 8, the
    day before we defrost the freezer, …") as one statement per clause, each with a verb of
    its own and four words or more (a piece without one stays with the clause before it:
    "12 Quarry Bank, Lindley", as does one that leans on it: "…, who cycles in", "…, Head of
    Sales"); a request to forget stays with the clause it takes back. Semicolons part it
    first, each part then read the same way at its commas. A sentence of a usual length is
    left whole."""
    if len(sentence.split()) < RUN_ON_WORDS:
        return [sentence]
    if ";" in sentence:
        parts = _clauses_at(sentence, _SEMICOLON_JOIN, 2)
        if len(parts) > 1:
            return [x for part in parts for x in run_on_pieces(part)]
    return _clauses_at(sentence, _RUN_ON_JOIN, RUN_ON_CLAUSES)


def _in_quotes(sentence: str, at: int) -> bool:
    """Whether position `at` of `sentence` falls inside a quotation ("…" or “…”) opened
    before it."""
    before = sentence[:at]
    return before.count('"') % 2 == 1 or before.rfind("“") > before.rfind("”")


def _clauses_at(sentence: str, joins: re.Pattern[str], least: int) -> list[str]:
    """`sentence` cut where `joins` matches into statements (see `run_on_pieces`), or whole
    when fewer than `least` of them stand."""
    bounds = [0]  # where each clause starts (after its join)
    ends = []  # where each clause ends (at its join)
    for m in joins.finditer(sentence):
        if _in_quotes(sentence, m.start()):
            continue  # 'he said "no bother, we'll sort it"': someone's words, one clause
        ends.append(m.start())
        bounds.append(m.end())
    ends.append(len(sentence))
    pieces: list[tuple[int, int]] = []
    for start, end in zip(bounds, ends, strict=True):
        clause = sentence[start:end]
        whole = (
            len(clause.split()) >= 4
            and has_verb(clause)
            and not FORGET_THAT.search(clause)
            and not _LEANS_BACK.match(clause)
        )
        if pieces and not whole:
            pieces[-1] = (pieces[-1][0], end)  # "…, Lindley": with the clause before it
        else:
            pieces.append((start, end))
    if len(pieces) < least:
        return [sentence]
    out = []
    for start, end in pieces:
        piece = sentence[start:end].strip(" ,;")
        out.append(piece[:1].upper() + piece[1:] + ("" if piece[-1:] in ".!?" else "."))
    return out


#: How a line ends when the sentence goes on below it: a comma, a colon, a dash or "&", or a
#: word that cannot end a sentence ("and", "the", "with").
_LINE_GOES_ON = re.compile(
    r"(?:[,:;&(/+\-–—]|\b(?:and|or|but|so|the|a|an|of|to|in|on|at|for|with|from|by|my|our|"
    r"your|his|her|their|is|are|was|were|that|which|who)\b)\s*$",
    re.I,
)
#: How far from the end of a line (less its closing spaces) a match of `_LINE_GOES_ON` can
#: start: its longest word and the space before it (a test holds the pattern to it).
GOES_ON_WIDTH = 16


def _goes_on(line: str) -> bool:
    """`_LINE_GOES_ON.search(line)`, tried only where a match can start: the last
    `GOES_ON_WIDTH` characters (searched from there, `\\b` still sees the one before)."""
    start = max(0, len(line.rstrip()) - GOES_ON_WIDTH)
    return _LINE_GOES_ON.search(line, start) is not None


#: The lengths of a line of text hard-wrapped to a width (72 to 100 characters).
WRAPPED_WIDTH = (60, 100)


def _wrapped(line: str, below: str, capitals: bool) -> bool:
    """Whether the break after `line` is the wrapping of text at a width, not the writer's:
    the line is of such a width and ends no sentence, and the line below goes on without a
    capital in text whose writer starts sentences with one (`capitals`); in text written
    all in lower case a line break tells no less than a full stop does."""
    return (
        capitals
        and line[-1:] not in ".!?"
        and bool(below)
        and (
            (WRAPPED_WIDTH[0] <= len(line) <= WRAPPED_WIDTH[1] and not below[:1].isupper())
            # or one sentence set out line by line, as a card or an invitation sets it
            # ("request the pleasure of your company" / "at the marriage of …")
            # ("at the marriage of their daughter" / "Saskia Joy" / "to")
            or ((below[:1].islower() or bool(re.fullmatch(NAME, below))) and line[-1:] not in ":;,")
        )
    )


#: A line that opens on a label of its own ("Bedtime: atorvastatin 20 mg"): after a line
#: that introduces a list ("Dad's tablets now:"), each such line is an item of its own.
_LABELLED = re.compile(r"[^\W\d_][\w' -]{0,24}:\s+\S")


def _line_sentences(lines: list[str]) -> list[str]:
    """The lines of a paragraph as sentences: a line break ends a sentence ("tuesday was
    Malik - …" / "last night was Theo - …" are two; "Morning: 5 mg" / "Night: 10 mg" too),
    unless the line ends where a sentence cannot (`_LINE_GOES_ON`), is only a name, or is
    one of text wrapped at a width (`_wrapped`), which joins it to the next."""
    out: list[str] = []
    first = re.search(r"[^\W\d_]", lines[0]) if lines else None
    capitals = first is not None and first.group().isupper()
    joined = False
    for i, line in enumerate(lines):
        if joined:
            out[-1] += " " + line
        else:
            out.append(line)
        below = lines[i + 1] if i + 1 < len(lines) else ""
        # a line that is only a name goes on below it: a signature's "Carys Pugh", her role
        joined = bool(
            (_goes_on(line) and not (line.endswith(":") and _LABELLED.match(below)))
            or re.fullmatch(NAME, line)
            or _wrapped(line, below, capitals)
        )
    return out


#: A sentence that only gives a labelled value: "New delivery: Sat 18 Jan, 08:47-09:47.",
#: its label of two words or three, the first capitalised ("Ana: fine" is someone speaking).
_LABELLED_VALUE = re.compile(r"[A-Z][a-z]+(?: [a-z]+){1,2}: (?P<value>[^\n]{1,60}?)[.!]?")


def with_labelled_values(sentences: list[str]) -> list[str]:
    """The sentences of one line, each that only gives a labelled value without a verb
    ("New delivery: Sat 18 Jan, 08:47-09:47.") said with the sentence before it, whose
    thing it is the value of ("Your parcel has been rescheduled at your request."); a
    link ("Manage: https://…") or a value after another such value stays apart."""
    out: list[str] = []
    joined = False
    for sentence in sentences:
        m = _LABELLED_VALUE.fullmatch(sentence)
        if (
            m is not None
            and out
            and not joined
            and out[-1][-1:] in ".!"
            and not _LABELLED_VALUE.fullmatch(out[-1])
            and "://" not in m.group("value")
            and not has_verb(m.group("value"))
        ):
            out[-1] = f"{out[-1]} {sentence}"
            joined = True
            continue
        joined = False
        out.append(sentence)
    return out


@remembered
def split_sentences(paragraph: str) -> list[str]:
    """Sentences of a paragraph; abbreviations such as `Dr.` do not end one."""
    parts = re.split(r"(?<=[.!?])\s+(?=[\"'(A-Za-z0-9`])", paragraph.strip())
    out: list[str] = []
    # "Mum (Helen) ... cashmere scarf ... £60": ellipses set between a line's fields lead
    # from one to the next; nor does one before a lower-case word end a sentence
    leaders = len(LEADERS.findall(paragraph)) >= 2
    # fields set apart by dots or bars ("£1,395 pcm · unfurn. · avail. 01/09"): a short
    # word cut with a dot is an abbreviation of the listing, no end of a sentence
    fields = paragraph.count(" · ") >= 2 or paragraph.count(" | ") >= 2
    for p in parts:
        if (
            out
            and (
                out[-1].endswith(_ABBREVIATIONS)
                or _ABBREVIATION_WORD.search(out[-1])
                or (fields and _CUT_WORD.search(out[-1]))
                or (_TITLE_INITIAL.search(out[-1]) and _SURNAME_NEXT.match(p))
                or (_LISTED_INITIAL.search(out[-1]) and _NAME_NEXT.match(p))
                or (_DAY_DOT.search(out[-1]) and _MONTH_NEXT.match(p))
                or (_MERIDIEM_DOT.search(out[-1]) and p[:1].islower())
                or (out[-1].endswith("...") and (leaders or p[:1].islower()))
                or is_mark(out[-1])  # "P.S. it's five": the mark opens the line it marks
                # a mark inside brackets ends no sentence: "the [11th? 14th?]", "(or 12.10?)"
                or out[-1].count("[") > out[-1].count("]")
                or out[-1].count("(") > out[-1].count(")")
                or (
                    out[-1][-1:] in ".!"
                    and _ONLY_A_DAY.fullmatch(p.strip())
                    and not _SAYS_A_DAY.search(out[-1])
                )
            )
        ):
            out[-1] += " " + p
        else:
            out.append(p)
    return [s.strip() for s in out if s.strip()]


#: A pasted letter's greeting ("Dear Ms Omar,") and sign-off ("Yours sincerely,") lines.
_LETTER_GREETING = re.compile(r"^[ \t]*Dear\s+[^\n,]{1,60},[ \t]*$", re.M)
_LETTER_SIGN_OFF = re.compile(
    r"^[ \t]*(?:Yours\s+(?:sincerely|faithfully|truly)|(?:Kind|Best|Warm)\s+regards|"
    r"With\s+best\s+wishes)\b[^\n]{0,20}$",
    re.M | re.I,
)
#: A greeting that names no one: a letter the user writes to whoever reads it (the assistant),
#: when nothing stands above it in the message.
_TO_WHOEVER = re.compile(
    r"\s*Dear\s+(?:Sirs?|Madam|Sir\s*(?:or|/)\s*Madam|assistant|friend)\s*,", re.I
)
_PLEASE = re.compile(r"^(?:Dear\s+[^,.!?]{1,60},\s+)?(?:please|kindly)\s+(?=[a-z])", re.I)


def letterhead(above: str) -> str | None:
    """Who a letter is from, as its letterhead says: the first line in capitals of the
    block above its greeting ("NORTHGATE UNIVERSITY HOSPITALS NHS TRUST"), in the case a
    name is written in ("Northgate University Hospitals NHS Trust"; an acronym stays)."""
    block = re.split(r"\n[ \t]*\n", above.strip())[-1] if above.strip() else ""
    for line in block.split("\n"):
        words = line.split()
        if len(words) >= 2 and line.upper() == line and sum(c.isalpha() for c in line) >= 6:
            return " ".join(
                w if len(w) <= 3 or not re.search(r"[AEIOUY]", w) else w.capitalize() for w in words
            )
    return None


def letter_requests(text: str, own: list[str], kept_quotes: set[str] | None) -> list[str]:
    """`own` with the requests of a letter pasted in `text` (between a greeting, "Dear Ms
    Omar,", and a sign-off, "Yours sincerely,") said as what the letter asks: "Please
    arrive 15 minutes early." reads "The user is asked to arrive 15 minutes
    early.", an instruction to keep, not a request to the assistant."""
    greeting = _LETTER_GREETING.search(text)
    sign_off = _LETTER_SIGN_OFF.search(text, greeting.end()) if greeting else None
    if greeting is None or sign_off is None:
        return own
    if not text[: greeting.start()].strip() and _TO_WHOEVER.match(greeting.group(0)):
        return own  # the whole message a letter to whoever reads it: the user's own requests
    body = " ".join(text[greeting.end() : sign_off.start()].split())
    out = []
    if (sender := letterhead(text[: greeting.start()])) is not None:
        # said where the letter begins: after the user's own words above it
        above = " ".join(text[: text.find(sender.split()[0].upper())].split())
        at = sum(1 for x in own if x[:30] in above)
        own = [*own[:at], f"The letter is from {sender}.", *own[at:]]
        if kept_quotes is not None:
            kept_quotes.add(own[at])
    for sentence in own:
        if (m := _PLEASE.match(sentence)) and sentence[m.end() :] in body:
            sentence = "The user is asked to " + _PLEASE.sub("", sentence)
            if kept_quotes is not None:
                kept_quotes.add(sentence)
        out.append(sentence)
    return out


#: A user's message that asks for something a tool can answer: a question anywhere in it,
#: or a request ("can you check ...", "please look up ...", "what are my options").
_ASKS = re.compile(
    r"\?|\b(?:can|could|would|will)\s+you\b|\bplease\b|\bwhat\s+(?:are|is|were)\b"
    r"|(?:^|[.!;]\s+)\s*(?:(?:ok(?:ay)?|so|then|and)[,\s]+)?(?:go\s+ahead\s+and\s+|just\s+)?"
    r"(?:check|find|look\s+(?:up|into)|search|tell\s+me|show\s+me|get\s+me|book|order|"
    r"reserve|buy|cancel|schedule|send|compare|calculate|work\s+out|add\s+up|sum\s+up)\b"
    r"|(?:^|[.!;]\s+)\s*go\s+ahead\b",
    re.I | re.M,
)
#: A line of a pasted conversation: "[00:03:02] Mr Okafor (flat 12): …", "Lidia (treasurer): …",
#: "14:02 Sam: …" — a time stamp or a role in brackets (or both) around a name, then a colon.
_TALK_LINE = re.compile(
    rf"^[ \t]*(?P<stamp>\[[^\]\n]{{1,20}}\][ \t]*|\d{{1,2}}:\d{{2}}(?::\d{{2}})?[ \t]+)?"
    rf"(?P<name>{NAME})(?P<role>[ \t]*\([^()\n]{{1,40}}\))?:[ \t]+(?=\S)",
    re.M,
)
_SPEAKER = re.compile(rf"^\s*(?:\[[^\]\n]{{1,20}}\]\s*)?(?P<name>{NAME}):\s+")
#: A clock time as a chat export prints it: "19:12", "19:12:48", "[10:42 AM]", "7:05pm".
_CLOCK = r"\[?\d{1,2}:\d{2}(?::\d{2})?(?:[ \t]?[AaPp]\.?[Mm]\.?)?\]?"
_CLOCK_SAID = re.compile(r"\d:\d\d")
#: A chat export's header line, the message on the lines under it: "19:12:48 From Ana Ruiz to
#: Everyone:", "Ana Ruiz  10:42 AM", "Ana Ruiz — Today at 10:42" (a name and a time, alone).
_CHAT_HEADER = re.compile(
    rf"^[ \t]*(?:(?P<t1>{_CLOCK})[ \t]+)?(?:(?i:from)[ \t]+)?(?P<name>{NAME})"
    r"(?:[ \t]+(?i:to)[ \t]+[^:\n]{1,40}?)?"
    rf"(?:[ \t]*[,—–-]?[ \t]*(?:(?i:today|yesterday)[ \t]+at[ \t]+)?(?P<t2>{_CLOCK}))?[ \t]*:?[ \t]*$"
)


def chat_export_lines(text: str) -> str:
    """A chat export whose header lines (a name and a time, alone) stand above each message,
    written as one line a message ("19:12:48 From Ana Ruiz to Everyone:" / "I'll book it" ->
    "[19:12:48] Ana Ruiz: I'll book it"), so that whose each message is stays with it. Only
    when two or more headers each have a message under them: one such line is a heading."""
    if _CLOCK_SAID.search(text) is None:
        return text  # no header without a time
    lines = text.split("\n")
    heads = [
        (at, m)
        for at, line in enumerate(lines)
        if (m := _CHAT_HEADER.match(line)) is not None
        and (m["t1"] or m["t2"])
        and m["name"] not in NOT_NAMES
    ]
    said = {at for at, _ in heads}
    found: list[tuple[int, int, str]] = []  # (header line, end of its message, the line)
    for at, m in heads:
        end = at + 1
        while end < len(lines) and lines[end].strip() and end not in said:
            if lines[end].strip().startswith(("```", "~~~")):
                break
            end += 1
        if end == at + 1:
            continue  # nothing under it
        body = " ".join(x.strip() for x in lines[at + 1 : end])
        stamp = (m["t1"] or m["t2"]).strip("[]")
        found.append((at, end, f"[{stamp}] {m['name']}: {body}"))
    if len(found) < 2:
        return text
    out: list[str] = []
    last = 0
    for at, end, line in found:
        out += lines[last:at]
        out.append(line)
        last = end
    return "\n".join(out + lines[last:])


#: A line opening a fenced block.
_FENCE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})", re.M)


def speaker_of(text: str, *, chat: bool) -> tuple[str | None, str]:
    """A message that starts with its speaker ("[D1:3] Caroline: ..."): (name, the rest)."""
    m = _SPEAKER.match(text)
    if (
        m
        and (chat or text.lstrip().startswith("["))
        and m.group("name") not in NOT_NAMES
        and not MAIL_HEADER.fullmatch(m.group("name"))
    ):
        return m.group("name"), text[m.end() :]
    return None, text


@remembered
def addressed(text: str) -> list[str]:
    """Sentences of `text` that address the memory system (quoted later as ignored data)."""
    out = []
    for para in re.split(r"\n\s*\n", text):
        for s in split_sentences(" ".join(line.strip() for line in para.split("\n"))):
            if ADDRESSED.search(s):
                out.append(s)
    return out


def segment(
    transcript: Transcript,
    own: frozenset[str] = frozenset(),
    names: frozenset[str] = frozenset(),
    kin: Callable[[str], bool] | None = None,
) -> Segmented:
    """Every message of `transcript` as a turn: the user's and the assistant's text split
    into sentences, a tool result kept for what it addresses to the memory system. `own`
    are the user's nicks (a chat log's lines under them are the user's), `names` the names
    the user goes by (said as a word, each is the user: `owner.as_the_user`), `kin` whether a
    page slug is of the user's kin (a message opening "hi its mia" from the daughter memory
    knows as Mia is hers, not the user's: `owner.typed_by_others`)."""
    counts: Counter = Counter(m.kind for m in transcript.messages)
    transcript = joined(transcript)  # "so" / "the dentist" / "moved it": one sentence
    chat = counts["assistant"] == 0  # people talking to each other, no assistant
    tools: Counter = Counter()
    tool_errors = 0
    turns: list[Turn] = []
    calls: dict[str, object] = {}  # each tool call's input by its id: what a result answers
    # an assistant's message answers the user's question from a tool's result
    after_tool = asked = ran = False
    typed_by = typed_by_others(transcript, kin)
    footnotes: dict[str, str] = {}  # what the last message's footnotes note, by label
    for i, m in enumerate(transcript.messages):
        if m.kind == "user" and isinstance(m.content, str):
            asked = bool(_ASKS.search(m.content))
        if m.kind != "assistant":
            ran = m.kind == "tool_result" or (ran and m.kind == "tool_call")
            after_tool = asked and ran
        if m.kind == "tool_call" and isinstance(m.content, dict):
            tools[str(m.content.get("name", "?"))] += 1
            calls[str(m.content.get("id", ""))] = m.content.get("input")
        if m.kind == "tool_result" and isinstance(m.content, dict):
            if m.content.get("is_error"):
                tool_errors += 1
            text = m.content.get("content")
            passages = addressed(text) if isinstance(text, str) else []
            records = (
                read_records(text, source_name(calls.get(str(m.content.get("tool_use_id", "")))))
                if isinstance(text, str) and not m.content.get("is_error") and not passages
                else []
            )
            if passages or records:
                turns.append(
                    Turn(
                        "tool_result",
                        m.time,
                        [r.line for r in records],
                        addressed=passages,
                        records=[r.values for r in records],
                    )
                )
        if not isinstance(m.content, str) or m.kind not in ("user", "assistant"):
            continue
        if m.kind == "assistant":
            turns.append(
                Turn(
                    "assistant",
                    m.time,
                    user_sentences(m.content)[0],
                    after_tool=after_tool,
                    tool_ran=ran,
                    options=listed_options(m.content),
                    lists=enumerations(m.content),
                    message=m.content,
                )
            )
            continue
        # mail source in quoted-printable and HTML source as the text they show, and
        # dictation's spoken marks: "full stop" is a full stop, `<td>Arrive</td><td>Sat 23 Aug</td>` a labelled value, before anything
        # reads it
        content = punctuate(read_html(decoded_source(m.content)))
        content, shown = without_attachments(content)
        speaker, content = speaker_of(normalise_scan(content), chat=chat)
        if speaker is None and i in typed_by:
            speaker = typed_by[i]  # someone else at the user's keyboard: their "I" is theirs
        if names and not speaker:
            content = as_the_user(content, set(names))
        content = open_own_notes(content)  # "the note I'm leaving for the sitter: > …"
        content, log = oldest_first(content, message_date(m.time))  # a log newest first
        content = read_receipts(content)  # a till slip: one statement of what was bought
        content = read_grids(content)  # a timetable in columns: a line per row
        content = read_sections(content)  # "YEAR 4 (Rowan class)": what the lines below are about
        content = read_subject(content, names)  # "Patient: Biscuit" then "Allergy: …": Biscuit's
        content = quote_introduced(content)  # "Ana texted me: I'm late": Ana's "I"
        # "update footnote 2": what the footnote of an earlier message noted
        content = footnotes_named(content, footnotes) if m.kind == "user" else content
        footnotes = footnote_anchors(content) or footnotes
        items: set[str] = set()
        pieces: set[str] = set()
        rows: set[str] = set()
        kept_quotes: set[str] = set()
        dated: dict[str, date | None] = {}
        said, quoted = user_sentences(content, items, pieces, rows, kept_quotes, dated, own)
        for sentence, day in entry_dates(said, log).items():
            dated.setdefault(sentence, day)  # a log's entry is read on its own day
        said = outside_fiction(letter_requests(content, said, kept_quotes))
        turns.append(
            Turn(
                "user",
                m.time,
                said,
                speaker=speaker,
                pasted=pasted_sentences(content) | kept_quotes,
                items=items,
                pieces=pieces,
                rows=rows,
                dated=dated,
                mail=mail_subject(content),
                addressed=addressed("\n".join(quoted)),
                secret_pasted=bool(mask("\n".join(quoted))[1]),
                # (a fenced block read as text, a letter or a note, was pasted all the same)
                pasted_block=any(x.strip() for x in quoted)
                or (isinstance(m.content, str) and bool(_FENCE.search(m.content))),
                shown=shown,
                message=m.content,
            )
        )
    conversation = "\n".join(m.content for m in transcript.messages if isinstance(m.content, str))
    return Segmented(turns, counts, tools, tool_errors, date_order(conversation))


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
