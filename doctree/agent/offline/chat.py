"""Chat exports: a messaging app's exported conversation read as the lines of its senders.

WhatsApp, Signal, Telegram and iMessage-like exports put each message on a line that opens
with its stamp and its sender: `12/03/2029, 18:02 - Ana: text`, `[12/03/2029, 18:02:11] Ana:
text`, `[2029-03-12 18:02] Ana: text`, `Mar 12, 2029 at 6:02 PM - Ana: text`. `chat_export` splits such text into `ChatLine`s: each
line its sender's, dated by its own stamp, a line without a stamp going on the message above
it. The app's own lines ("Messages and calls are end-to-end encrypted", "Ana added Ben",
"<Media omitted>", "This message was deleted") are no one's words and are dropped; a line
that names or renames the group gives the chat its title, the subject of what is said in it
until it is renamed. Emoji are left out, and the exporter's own lines ("You: …") are the
user's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from doctree.agent.offline.prefilter import gate_patterns

#: A message's stamp and what follows it: a day (d/m/y or ISO), a time, then " - " or "] ".
_STAMP = re.compile(
    r"^\s*\[?(?P<day>\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|\d{4}-\d{2}-\d{2}|"
    r"[A-Z][a-z]{2,8}\.?\s\d{1,2},?\s\d{4}|\d{1,2}\s[A-Z][a-z]{2,8}\.?\s\d{4}),?\s+(?:at\s+)?"
    r"(?P<time>\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp]\.?[Mm]\.?)?)\]?\s*(?:[-–—]\s+)?(?P<rest>\S.*)$"
)
_SENDER = re.compile(r"^(?P<name>[^:\n]{1,40}?):\s+(?P<text>.*)$")
#: A line by the app, not a person: who joined, left or was added, the encryption notice.
_SYSTEM = re.compile(
    r"end-to-end encrypted|\b(?:created\s+(?:the\s+)?group|added|removed|left|joined|changed\s+"
    r"(?:the\s+)?(?:group|subject|this\s+group's|their\s+phone|the\s+group\s+description)|"
    r"security\s+code|pinned\s+a\s+message)\b",
    re.I,
)
#: What stands for a message that is not there: media, an attachment, a deleted message.
_ABSENT = re.compile(
    r"^\s*(?:<[^<>]*omitted>|[\w ]*\bomitted|<attached:[^>]*>|this\s+message\s+was\s+deleted|"
    r"you\s+deleted\s+this\s+message|null|\u200e.*omitted)\s*$",
    re.I,
)
#: A line that names the group: `created group "X"`, `changed the subject ... to "X"`.
_TITLE = re.compile(
    r"\b(?:created\s+(?:the\s+)?group|changed\s+(?:the\s+)?(?:group\s+name|subject)\b.*?\bto)"
    r"\s+[\"“'](?P<title>[^\"”]+)[\"”']",
    re.I,
)
#: The exporter's own name in an export.
_SELF = frozenset({"you", "me"})
#: Emoji and the joiners and selectors that build them.
_EMOJI = re.compile(
    "[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d\u20e3\U0001f1e6-\U0001f1ff]+"
)


@dataclass
class ChatLine:
    """One message of an export: its day, its sender (None: the user), its text and the
    chat's title when it was sent."""

    day: date | None
    sender: str | None
    text: str
    title: str = ""


#: A line that opens or closes a fenced block: "```", "~~~text".
_FENCE = re.compile(r"^\s*(?:`{3,}|~{3,})")

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _day(said: str) -> date | None:
    named = re.search(r"[A-Za-z]{3,}", said)
    if m := re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", said):
        y, mo, d = (int(x) for x in m.groups())
    elif named is not None:  # "Mar 12, 2029", "12 March 2029"
        if named.group()[:3].lower() not in _MONTHS:
            return None
        mo = _MONTHS.index(named.group()[:3].lower()) + 1
        numbers = [int(x) for x in re.findall(r"\d+", said)]
        d, y = numbers[0], numbers[-1]
    else:
        a, b, y = (int(x) for x in re.split(r"[/.]", said))
        y = y + 2000 if y < 100 else y
        d, mo = (a, b) if b <= 12 else (b, a)  # day first, unless it cannot be
    try:
        return date(y, mo, d)
    except ValueError:
        return None


def without_emoji(text: str) -> str:
    """`text` with its emoji left out and the spaces they leave closed up."""
    return " ".join(_EMOJI.sub(" ", text).split())


def _one_message(line: str) -> bool:
    """Whether `line` is a message copied out of a chat on its own, which one or two lines
    make an export too: its stamp in brackets as the apps copy it ("[24/04/2031 19:41]"), a
    sender named in words (not a log's level, "ERROR:") and a sentence said."""
    m = _STAMP.match(line)
    if m is None or not line.lstrip().startswith("["):
        return False
    sender = _SENDER.match(m.group("rest"))
    return (
        sender is not None
        and re.search(r"[a-z]", sender.group("name")) is not None
        and len(re.findall(r"[A-Za-z]{2,}", sender.group("text"))) >= 3
    )


def chat_export(text: str) -> tuple[list[str], list[ChatLine], list[str]] | None:
    """The lines before an export (the user's own words about it), its messages in order,
    and the lines after it (the user's words again, after the blank line that ends its last
    message); None when `text` holds fewer than three stamped lines, unless each is a
    message copied on its own (`_one_message`)."""
    lines = text.split("\n")
    stamped = [i for i, ln in enumerate(lines) if _STAMP.match(ln)]
    if len(stamped) < 3 and not (stamped and all(_one_message(lines[i]) for i in stamped)):
        return None
    before = lines[: stamped[0]]
    end = stamped[-1] + 1  # the last message goes on to the first blank line or fence
    while end < len(lines) and lines[end].strip() and not _FENCE.match(lines[end]):
        end += 1
    # the fence that closes the export is no one's: what follows it is the user's again
    closed = end < len(lines) and bool(_FENCE.match(lines[end]))
    after = lines[end + closed :]
    out: list[ChatLine] = []
    title = ""
    current: ChatLine | None = None
    for line in lines[stamped[0] : end]:
        m = _STAMP.match(line)
        if m is None:
            if _FENCE.match(line):
                current = None  # the fence the export was pasted in: no one's words
            elif current is not None and line.strip():
                current.text += " " + line.strip()  # a message on several lines
            elif not line.strip():
                current = None
            continue
        current = None
        rest = m.group("rest")
        if t := _TITLE.search(rest):
            title = without_emoji(t.group("title"))
        sender = _SENDER.match(rest)
        if sender is None or (_SYSTEM.search(rest) and not sender):
            continue  # the app's own line
        said = without_emoji(re.sub(r"(?<!\w)@\S+\s*", "", sender.group("text")))
        if not said or _ABSENT.match(sender.group("text")):
            continue
        name = without_emoji(sender.group("name"))
        who = None if name.lower() in _SELF else name
        current = ChatLine(_day(m.group("day")), who, said, title)
        out.append(current)
    return before, out, after


gate_patterns(globals())
