"""Mail: a pasted e-mail chain read as the messages it holds, each by its writer at its date.

A chain is what a mail client leaves when one replies or forwards: the newest message on top,
then the older ones below a line that says whose they are ("On Tue, 3 Mar 2028 at 10:02, Ana
Ruiz <ana@acme.com> wrote:", quoted with "> "), or below a header block ("-----Original
Message-----", "From: …", "Sent: …", "Subject: …"). `mail_chain` splits it into `Mail`s,
oldest first, so that what a later message says is read after (and wins over) what it
answers; a line quoted again in each reply is one line of the message that first said it.
A sender named with an address at an organisation's own domain is a contact of that
organisation.
"""

from __future__ import annotations

import email.errors
import email.header
import quopri
import re
from dataclasses import dataclass, field
from datetime import date

from doctree.agent.offline.prefilter import gate_patterns
from doctree.store.secrets import quoted_printable


@dataclass
class Mail:
    """One message of a chain: who wrote it, their address, when, and its lines."""

    sender: str | None
    address: str | None
    when: date | None
    lines: list[str] = field(default_factory=list)

    @property
    def organisation(self) -> str | None:
        """The organisation the sender's address names by its own domain, if any, as the
        message writes it ("Brightwater Press" for brightwaterpress.co.uk)."""
        return organisation_of(self.address, "\n".join(self.lines))


#: "On Tue, 3 Mar 2028 at 10:02, Ana Ruiz <ana@acme.com> wrote:"; "Ana Ruiz wrote:" alone.
_WROTE = re.compile(
    r"^\s*(?:On\s+(?P<when>.{4,60}?),?\s+)?(?P<who>[^<>\n:]{2,60}?)\s*"
    r"(?:[<\[(](?:mailto:)?(?P<addr>[^<>\[\]()\s]+@[^<>\[\]()\s]+)[>\])])?\s+wrote\s*:\s*$",
    re.I,
)
#: The line that opens a message a mail client copied below a reply or a forward.
_BOUNDARY = re.compile(
    r"^\s*(?:-{2,}\s*(?:Original\s+Message|Forwarded\s+message)\s*-{2,}|Begin\s+forwarded\s+message:)"
    r"\s*$",
    re.I,
)
_HEADER = re.compile(
    r"^\s*(?P<field>From|Sent|Date|To|Cc|Bcc|Subject|Reply-To)\s*:\s*(?P<value>.*)$", re.I
)
#: A header field only mail software reads (RFC 5322 and its extensions): in a copied
#: header block it is passed over with the fields around it, never read as a line.
_TECHNICAL = re.compile(
    r"^\s*(?:X-[\w-]+|MIME-Version|Content-[\w-]+|Return-Path|Received|Message-ID|In-Reply-To"
    r"|References|DKIM-Signature|Delivered-To|Authentication-Results|ARC-[\w-]+|List-[\w-]+"
    r"|Thread-[\w-]+|Importance|Priority|Precedence|Envelope-To)\s*:",
    re.I,
)
_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
    )
}
_DATE = re.compile(
    r"(?P<d1>\d{1,2})(?:st|nd|rd|th)?\s+(?P<m1>[A-Za-z]{3,9})\.?,?\s+(?P<y1>\d{4})"
    r"|(?P<m2>[A-Za-z]{3,9})\.?\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y2>\d{4})"
    r"|(?P<y3>\d{4})-(?P<m3>\d{2})-(?P<d3>\d{2})"
)
#: Addresses at these domains say nothing of where their owner works.
_PERSONAL_MAIL = {
    "gmail", "googlemail", "outlook", "hotmail", "live", "msn", "yahoo", "ymail", "icloud",
    "me", "mac", "aol", "proton", "protonmail", "pm", "gmx", "mail", "fastmail", "yandex",
    "zoho", "hey", "tutanota", "tuta", "example", "btinternet", "sky", "virginmedia", "web",
    "orange", "free", "laposte", "t-online", "qq", "163", "naver",
}  # fmt: skip


#: An encoded header word ("=?UTF-8?Q?Your_booking?="), and a code fence.
_ENCODED_WORD = re.compile(r"=\?[\w-]+\?[QqBb]\?[^?\s]*\?=")
_FENCE = re.compile(r"^\s*(?:```|~~~)", re.M)


def decoded_source(text: str) -> str:
    """`text` with mail source in quoted-printable read as what it says: in each part of the
    text (the parts between code fences, or the whole) that the secret scanner reads as such
    (`secrets.quoted_printable`: a soft line break, and an encoded byte beyond ASCII or the
    encoding named), soft breaks are joined and bytes decoded as UTF-8 (`quopri`); encoded
    header words ("=?UTF-8?Q?…?=") are read (`email.header`). Other text is returned as it
    is: "x=20" in a setting is no encoded byte."""
    if "=\n" not in text and "=\r\n" not in text and "=?" not in text:
        return text
    parts = _FENCE.split(text)
    fences = _FENCE.findall(text)
    out: list[str] = []
    for i, part in enumerate(parts):
        if "=?" in part:
            part = _ENCODED_WORD.sub(_header_word, part)
        if quoted_printable(part):
            try:
                data = quopri.decodestring(part.encode("utf-8"))
            except UnicodeEncodeError:  # a lone surrogate: no bytes to decode, read as it is
                data = None
            if data is not None:
                part = data.decode("utf-8", errors="replace")
        out.append(part)
        if i < len(fences):
            out.append(fences[i])
    return "".join(out)


def _header_word(m: re.Match[str]) -> str:
    """An encoded header word as the text it encodes, or as it stands when it is none."""
    try:
        return str(email.header.make_header(email.header.decode_header(m.group(0))))
    except (ValueError, LookupError, UnicodeDecodeError, email.errors.HeaderParseError):
        return m.group(0)


def mail_date(text: str) -> date | None:
    """The date a header or an "On … wrote:" line gives ("Tue, 3 Mar 2028 at 10:02",
    "Tuesday, March 3, 2028 10:02 AM", "2028-03-03"); None when it gives no whole date."""
    m = _DATE.search(text)
    if m is None:
        return None
    try:
        if m.group("y3"):
            return date(int(m.group("y3")), int(m.group("m3")), int(m.group("d3")))
        month = _MONTHS.get((m.group("m1") or m.group("m2"))[:3].lower())
        if month is None:
            return None
        return date(int(m.group("y1") or m.group("y2")), month, int(m.group("d1") or m.group("d2")))
    except ValueError:
        return None


def sender_of(value: str) -> tuple[str | None, str | None]:
    """A sender as a header gives it: (name, address). "Ana Ruiz <ana@acme.com>", "Ruiz, Ana
    [mailto:ana@acme.com]", "ana.ruiz@acme.com" (the name read from the address)."""
    found = _ADDRESS.search(value)
    address = found.group(0).lower() if found else None
    name = re.sub(r"[<\[(](?:mailto:)?[^<>\[\]()]*[>\])]|" + _ADDRESS.pattern, "", value)
    name = name.strip(" \"'\t,")
    if "," in name:  # "Ruiz, Ana"
        last, _, first = name.partition(",")
        name = f"{first.strip()} {last.strip()}"
    if not name and address:
        local = address.split("@")[0]
        parts = [p for p in re.split(r"[._-]", local) if p.isalpha() and len(p) > 1]
        name = " ".join(p.capitalize() for p in parts) if 1 <= len(parts) <= 3 else ""
    if not name or not re.fullmatch(r"[^\W\d_][\w'’ .-]{0,60}", name):
        return None, address
    return " ".join(w[:1].upper() + w[1:] for w in name.split()), address


def organisation_of(address: str | None, text: str = "") -> str | None:
    """The organisation an address's own domain names: "ana@acme-logistics.co.uk" -> "Acme
    Logistics", or as `text` writes it when it spells the domain out ("Brightwater Press"
    for brightwaterpress.co.uk); None for a personal mail provider or no address."""
    if not address or "@" not in address:
        return None
    domain = address.split("@", 1)[1].lower()
    domain = re.sub(r"\.(?:co|com|org|net|ac|gov|edu|ltd|plc)\.[a-z]{2}$|\.[a-z]{2,}$", "", domain)
    label = domain.split(".")[-1]
    if not label or label in _PERSONAL_MAIL or len(label) < 3:
        return None
    squashed = re.sub(r"[-_]", "", label)
    for m in re.finditer(r"\b[A-Z][\w'’&]*(?:[ -](?:&|[A-Z][\w'’&]*))*", text):
        words = m.group(0).split()
        for n in range(len(words), 0, -1):  # "Brightwater Press" in "Confirming Brightwater Press"
            for k in range(len(words) - n + 1):
                phrase = " ".join(words[k : k + n])
                if re.sub(r"[\W_]", "", phrase).lower() == squashed:
                    return phrase
    return " ".join(w.capitalize() for w in re.split(r"[-_]", label) if w)


def _unquoted(lines: list[str]) -> list[str]:
    """Quoted lines with one level of "> " taken off."""
    return [re.sub(r"^\s*>\s?", "", line) for line in lines]


def _headers(lines: list[str], i: int) -> tuple[dict[str, str], int]:
    """The header block starting at line `i`: its fields, and the line after it."""
    fields: dict[str, str] = {}
    while i < len(lines):
        if h := _HEADER.match(lines[i]):
            fields[h.group("field").lower()] = h.group("value").strip()
        elif not _TECHNICAL.match(lines[i]) and not (
            fields and lines[i][:1] in (" ", "\t") and lines[i].strip()  # a folded field
        ):
            break
        i += 1
    return fields, i


def _opens_headers(lines: list[str], i: int) -> bool:
    """Whether a header block of a copied message starts at line `i`: "From:" and one more
    field ("Sent:", "Date:", "Subject:") right below it, or two such fields with one only
    mail software writes ("Content-Type:") among them."""
    first = _HEADER.match(lines[i])
    if first is None:
        return False
    fields, end = _headers(lines, i)
    if first.group("field").lower() != "from":
        # mail source without its sender ("Subject: …", "Date: …", "Content-Type: …"): a
        # field only mail software writes among them says it is a header block
        return len(fields) >= 2 and any(_TECHNICAL.match(x) for x in lines[i:end])
    return end - i >= 2 and bool({"sent", "date", "subject", "to"} & set(fields))


def _quoted_mail(lines: list[str], i: int) -> tuple[int, list[str]] | None:
    """A block of quoted lines from line `i` that is a copied message itself ("> From: Olu
    …", "> Subject: …", then its text): the line after the block and its lines unquoted."""
    if not lines[i].lstrip().startswith(">"):
        return None
    end = i
    while end < len(lines) and (lines[end].lstrip().startswith(">") or not lines[end].strip()):
        end += 1
    inner = _unquoted(lines[i:end])
    first = next((k for k, x in enumerate(inner) if x.strip()), None)
    if first is None or not (_BOUNDARY.match(inner[first]) or _opens_headers(inner, first)):
        return None
    return end, inner


def _split(
    lines: list[str], sender: str | None, address: str | None, when: date | None
) -> list[Mail]:
    """`lines` as the message on top (by `sender`) and the messages copied below it, newest
    first."""
    top = Mail(sender, address, when)
    i = 0
    while i < len(lines):
        line = lines[i]
        if _TECHNICAL.match(line):  # "Return-Path: …" above the "From:" of a copied header
            j = i
            while j < len(lines) and _TECHNICAL.match(lines[j]):
                j += 1
            if j < len(lines) and _opens_headers(lines, j):
                i = j
                continue
        if _BOUNDARY.match(line) or _opens_headers(lines, i):
            j = i + 1 if _BOUNDARY.match(line) else i
            while j < len(lines) and not lines[j].strip():
                j += 1
            fields, j = _headers(lines, j)
            name, addr = sender_of(fields.get("from", ""))
            sent = mail_date(fields.get("sent", "") or fields.get("date", ""))
            return [top, *_split(lines[j:], name, addr, sent)]
        if (copied := _quoted_mail(lines, i)) is not None:
            end, inner = copied
            top.lines.extend(lines[end:])  # what follows the quote is the message's own
            return [top, *_split(inner, None, None, None)[1:]]
        wrote = _WROTE.match(line)
        if wrote and i + 1 < len(lines) and any(x.lstrip().startswith(">") for x in lines[i + 1 :]):
            name, addr = sender_of(
                wrote.group("who") + (f" <{wrote['addr']}>" if wrote["addr"] else "")
            )
            sent = mail_date(wrote.group("when") or "")
            j = i + 1
            quoted: list[str] = []
            while j < len(lines) and (lines[j].lstrip().startswith(">") or not lines[j].strip()):
                quoted.append(lines[j])
                j += 1
            # what follows the quote is the reply's own; written inline (answers between
            # the quoted message's paragraphs), each further quoted paragraph is the quoted
            # message's too, in its order
            for line in lines[j:]:
                if line.lstrip().startswith(">"):
                    quoted.append(line)
                else:
                    if quoted and quoted[-1].strip():
                        quoted.append("")  # a paragraph of its own: no sentence runs across
                    top.lines.append(line)
            return [top, *_split(_unquoted(quoted), name, addr, sent)]
        top.lines.append(line)
        i += 1
    return [top]


def mail_chain(text: str) -> list[Mail] | None:
    """The messages of a pasted chain, oldest first (the last is the one on top, whose writer
    is whoever pasted it, unless its own header names one); None when `text` holds no copied
    message."""
    lowered = text.lower()
    if (
        "wrote" not in lowered
        and "from:" not in lowered
        and "content-type:" not in lowered
        and "forwarded" not in lowered
        and ("original message" not in lowered)
    ):
        return None  # none of the lines that copy a message can be there
    lines = text.split("\n")
    if not any(
        _BOUNDARY.match(x)
        or _opens_headers(lines, i)
        or (
            x.lstrip().startswith(">")
            and (i == 0 or not lines[i - 1].lstrip().startswith(">"))  # a block's first line
            and _quoted_mail(lines, i) is not None
        )
        or (_WROTE.match(x) and any(y.lstrip().startswith(">") for y in lines[i + 1 :]))
        for i, x in enumerate(lines)
    ):
        return None
    mails = _split(lines, None, None, None)
    return list(reversed(mails))


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
