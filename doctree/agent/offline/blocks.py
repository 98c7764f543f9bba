"""Blocks: what a fenced block holds, read from its lines, and checkbox lists.

A fence (```) around a to-do list, a letter or a few notes is only a way of pasting them: such a
block is read as the user's own text. A program, a config or a shell session stays out. What a
block is comes from its content alone: the share of its lines that look like code (braces,
semicolons, assignments, keywords, a prompt) against those that read as sentences or list items.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from doctree.agent.offline.language import MONTHS, NAME
from doctree.agent.offline.memo import SIZE, remembered, remembered_up_to
from doctree.agent.offline.signifiers import journal_key, journal_lines

#: A line that looks like code: a brace or semicolon at its end, an assignment, a call, a
#: keyword that opens a statement, a shell or REPL prompt, a comment marker, a tag.
_CODE_LINE = re.compile(
    r"[{};]\s*$|^\s*[}\])]|^\s*(?:[$%]|>>>|\.\.\.)\s|^\s*#!|^\s*(?://|/\*|\*/|--\s)"
    r"|^\s*[\w.\[\]\"']+\s*(?:[-+*/|&]?=|:=|=>|->)\s*\S"
    r"|^\s*(?:def|class|import|from\s+\S+\s+import|return|function|const|let|var|fn|pub"
    r"|public|private|static|void|int|if\s*\(|for\s*\(|while\s*\(|elif|else:|try:|except"
    r"|package|using|include|SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER)\b"
    r"|^\s*[\w.]+\([^()]*\)\s*[;:]?\s*$|^\s*<[/!?]?[A-Za-z][^>]*>\s*$"
    r"|^\s*[a-z_][\w.-]*:\s*(?:\S+)?\s*$"  # "port: 5432", "services:"
    r"|^\s*[\w./-]*/[\w./-]+(?:\s+-{1,2}\w[\w-]*)+"  # "./run.sh --fast"
)
#: A line that reads as prose: three or more words, most of them plain words.
_WORD = re.compile(r"^[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'’-]*[,.;:!?]?$")
#: A list item, checkbox or not: "- milk", "1. call Ana", "* [ ] book the hall".
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\S")
_CHECKBOX = re.compile(r"^(?P<lead>\s*(?:[-*+]|\d+[.)])\s+)\[(?P<mark>[ xX✓✔])\]\s+(?P<text>.*)$")
_STAMP = r"(?:\[[^\]\n]{1,20}\]|\(?\d{1,2}:\d{2}(?::\d{2})?\)?)"
#: A line of a chat log: "[21:04] <ana> text", "21:04 <@ana> text", "<ana> text".
_CHAT_LINE = re.compile(
    rf"^\s*(?P<stamp>{_STAMP})?\s*<[@+%~&]?(?P<nick>[^\s<>]{{1,30}})>\s+(?P<text>\S.*)$"
)
#: A chat client's own line: joins, parts, quits, nick changes, day changes, actions.
_CHAT_SYSTEM = re.compile(rf"^\s*(?:{_STAMP})?\s*(?:-->|<--|\*\*\*|-!-|---|\*\s)")
_STRUCK = re.compile(r"~~(?P<text>[^~\n]+)~~")
#: A value struck and replaced in place: "tent: ~~Vango~~ Coleman, from Dad".
_REPLACED = re.compile(
    r"~~(?P<old>[^~\n]+)~~\s*(?!(?:and|or|und|et|y|e|en|i)\s)"
    r"(?P<new>[^~\s,;().!?](?:[^~,;()\n.!?]|\.(?=\d))*)"
)
#: A value struck with what joins it to its list: ", ~~wine~~", "~~wine~~ and ".
_STRUCK_JOINED = re.compile(
    r"(?:,\s*|\s+(?:and|or|&)\s+)~~[^~\n]+~~|~~[^~\n]+~~(?:\s*,|\s+(?:and|or|&)(?=\s))?"
)


def is_code_line(line: str) -> bool:
    """Whether `line` looks like a line of a program, a config or a shell session."""
    return bool(_CODE_LINE.search(line))


def is_prose_line(line: str) -> bool:
    """Whether `line` reads as a sentence or a list item, not as code."""
    if is_code_line(line):
        return False
    if _ITEM.match(line) or _CHAT_LINE.match(line):
        return True
    # a date-time group as `dtg_read` writes it out ("5 June 2039 18:00Z") reads as words
    words = _DAY_WRITTEN.sub("on that day", line).split()
    return len(words) >= 3 and sum(bool(_WORD.match(w)) for w in words) * 3 >= len(words) * 2


_DAY_WRITTEN = re.compile(
    r"\b[0-3]?\d (?:January|February|March|April|May|June|July|August|September|October|"
    r"November|December) \d{4} [0-2]\d:[0-5]\d[A-Z]?(?!\w)"
)


#: A hunk's header in a unified diff: "@@ -1,14 +1,16 @@".
_HUNK = re.compile(r"@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")
#: A unified diff's lines outside its hunks: the file names, the index, modes, renames.
_DIFF_HEADER = re.compile(
    r"(?:diff --git |index [0-9a-f]+\.\.|--- |\+\+\+ |(?:new|deleted) file mode |old mode |"
    r"new mode |similarity index |rename (?:from|to) |Binary files )"
)


def diff_result(lines: list[str]) -> list[str] | None:
    """The text a unified diff leaves (a file the user keeps, pasted as the change to it):
    its hunks' lines kept or added, without their marks, the lines it removes left out, its
    headers dropped. None when `lines` hold no hunk. A line that no diff has ends the diff:
    it is kept as said."""
    if not any(_HUNK.match(x) for x in lines):
        return None
    out: list[str] = []
    in_hunk = False
    removed: list[str] = []  # the lines just removed, each replaced by the next line added
    for line in lines:
        if in_hunk and line[:1] == "+" and removed:
            out.append(_replacing(line[1:], removed.pop(0)))
            continue
        if line[:1] != "-" or not in_hunk:
            removed = []
        if _HUNK.match(line):
            in_hunk = True
        elif line.startswith("diff --git "):
            in_hunk = False
        elif in_hunk and line[:1] in ("+", " "):
            out.append(line[1:])
        elif in_hunk and (line[:1] in ("-", "\\") or line == ""):
            if line[:1] == "-":
                removed.append(line[1:])
            elif line == "":
                out.append("")
        elif not in_hunk and _DIFF_HEADER.match(line):
            continue
        else:
            in_hunk = False
            out.append(line)
    return out


def _replacing(new: str, old: str) -> str:
    """A line a diff adds in place of `old`, saying what of `old` it replaces when the two
    are about one thing (they open on the same word): "- MOT due 12 Nov, Kilnworth Motors
    (instead of Brookside Garage)", as a value struck and replaced in place is read."""
    import difflib

    new_words, old_words = new.split(), old.split()
    lead = [w for w in new_words if w.strip("-*+#") != ""][:1]
    if not lead or lead != [w for w in old_words if w.strip("-*+#") != ""][:1]:
        return new
    gone: list[str] = []
    for op, a1, a2, _, _ in difflib.SequenceMatcher(a=old_words, b=new_words).get_opcodes():
        if op in ("replace", "delete"):
            gone.extend(old_words[a1:a2])
    said = " ".join(gone).strip(" ,;.")
    if not said or len(gone) > 6 or said.lower() in new.lower():
        return new
    return f"{new.rstrip().rstrip('.')} (instead of {said})"


#: A markdown heading: "## Boiler".
_MD_HEADING = re.compile(r"\s{0,3}(#{1,6})\s+(?P<title>\S.*?)\s*#*\s*$")
#: A list item: "- ...", "* ...", "1. ...".
_ITEM = re.compile(r"(?P<lead>\s*(?:[-*+]|\d+[.)])\s+)(?P<text>\S.*)")


#: A field's label opening a line: "Class teacher: ", "Attendance this year: ".
_LABEL = r"[A-Z][\w.'’/()&-]*(?: [\w.'’/()&-]+){0,4}:[ \t]"
#: The gap between two fields set side by side on one line of a form: three spaces or more,
#: or a tab, before the next field's label.
_FIELD_GAP = re.compile(rf"(?: {{3,}}|\t+)(?={_LABEL})")


def fields_apart(lines: list[str]) -> list[str]:
    """A form's lines with the fields set side by side on one line ("Class teacher: Mr J.
    Osei      Teaching assistant: Mrs L. Varga") put on lines of their own, as a form
    means them: two facts, not one run of words. A line not opening on a label, or with
    one field, is as it was."""
    out: list[str] = []
    for line in lines:
        if re.match(rf"\s*{_LABEL}", line) and _FIELD_GAP.search(line):
            out.extend(part.strip() for part in _FIELD_GAP.split(line.strip()))
        else:
            out.append(line)
    return out


def under_headings(lines: list[str]) -> list[str]:
    """Pasted notes with each list item that does not name its heading said with it: under
    "## Boiler", "- Serviced on 8 October, next due October 2031" is "- Serviced on 8
    October, next due October 2031 (Boiler)", so the line still says what it is about once
    it stands alone on a page. The heading nearest above an item is its own; a heading whose
    words the item already says adds nothing."""
    out: list[str] = []
    heading = ""
    for line in lines:
        if h := _MD_HEADING.match(line):
            heading = h.group("title").strip().rstrip(":")
            out.append(line)
            continue
        m = _ITEM.match(line)
        words = [w for w in re.findall(r"[^\W\d_]{3,}", heading.lower())]
        if m is None or not words or any(w in m.group("text").lower() for w in words):
            out.append(line)
            continue
        text = m.group("text").rstrip()
        out.append(
            f"{m.group('lead')}{text.rstrip('.')} ({heading}){'.' if text.endswith('.') else ''}"
        )
    return out


def reads_as_text(lines: list[str]) -> bool:
    """Whether a fenced block of `lines` holds prose, a list or notes (read as the user's own
    text) rather than code: under a fifth of its lines look like code, and at least half read
    as sentences or list items."""
    body = [x for x in lines if x.strip()]
    if sum(bool(_CHAT_LINE.match(x)) for x in body) >= 2:
        body = [x for x in body if not _CHAT_SYSTEM.match(x)]  # a chat client's own lines
    if not body:
        return False
    code = sum(is_code_line(x) for x in body)
    prose = sum(is_prose_line(x) for x in body)
    return code * 5 < len(body) and prose * 2 >= len(body)


@remembered_up_to(SIZE, shared=True)
def checkbox_line(line: str) -> str | None:
    """A checkbox item as a list item that says where it stands ("- [x] book the hall" is
    "- book the hall (done)", "- [ ] call Ana" is "- call Ana"), None for a struck item
    ("- ~~call Ana~~", no longer current); a value struck and replaced in place said as the
    one that holds instead of the old ("~~Tuesday~~ Thursday" is "Thursday instead of
    Tuesday"); any other line as it is."""
    m = _CHECKBOX.match(line)
    if m is None and "~~" not in line:
        return line
    text = m.group("text") if m else line
    bare = _STRUCK.sub("", text).strip(" \t-*+.")
    if _STRUCK.search(text) and not re.search(r"\w", re.sub(r"^\d+[.)]", "", bare)):
        return None  # the whole item is struck through
    text = _REPLACED.sub(lambda r: f"{r.group('new').rstrip()} instead of {r.group('old')}", text)
    text = _struck_out(text)
    if m is None:
        return line[: len(line) - len(line.lstrip())] + text
    done = m.group("mark") != " "
    return f"{m.group('lead')}{text}{' (done)' if done else ''}"


def _struck_out(text: str) -> str:
    """`text` with each value struck and not replaced said to be no longer wanted, never
    cut out of the sentence: "bring ~~wine~~" is "bring wine (no longer wanted)", "bring
    cheese, ~~wine~~" is "bring cheese (no longer wanted: wine)"."""
    struck = [m.group("text").strip() for m in _STRUCK.finditer(text)]
    if not struck:
        return text
    left = re.sub(r"\s{2,}", " ", _STRUCK_JOINED.sub("", text))
    left = re.sub(r"\s+([,;.])", r"\1", left).strip(" ,;.")
    if len(re.findall(r"\w+", left)) >= 2:
        return f"{left} (no longer wanted: {', '.join(struck)})"
    plain = re.sub(r"\s{2,}", " ", _STRUCK.sub(lambda m: m.group("text"), text)).strip(" .")
    return f"{plain} (no longer wanted)"


#: The user saying which nick is theirs: "I'm wren in there", "my nick is wren", "I go by
#: wren on IRC".
_OWN_NICK = re.compile(
    r"\b(?:I'?m|I am|I go by|my (?:nick|handle|username|user name)(?:name)?(?: is|'s)?)\s+"
    r"@?(?P<nick>[\w.|-]{1,30})\b(?=\s+(?:in there|there|in (?:the|that) (?:log|channel|chat)"
    r"|on \w+)|\s*[,.;)(]|\s*$)",
    re.I,
)


@remembered
def own_nicks(text: str) -> set[str]:
    """The nicks `text` says are the user's own, outside any fenced block ("I'm wren in
    there", "my nick is wren")."""
    outside = re.sub(r"(?ms)^\s*(```|~~~).*?^\s*\1", "", text)
    found = set()
    for m in _OWN_NICK.finditer(outside):
        said = outside[max(0, m.start() - 40) : m.end() + 40]
        if m.group(0).lower().startswith(("i'm", "im", "i am")) and not re.search(
            r"\b(?:nick|handle|username|in there|channel|log|chat|IRC|Slack|Discord)\b", said, re.I
        ):
            continue  # "I'm tired": a nick only where the text speaks of one
        found.add(m.group("nick").lower())
    return found


def chat_lines(lines: list[str], own: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The lines of an opened block; a chat log's (two lines or more in "<nick> text" form)
    each as its writer's ("[21:04] Ana: text"), so that "I" in it is the nick's, never the
    user's; the lines of a nick of `own` are the user's own text. The client's own lines
    (joins, quits, day changes) and the lines of a nick that gives no name are left out."""
    if sum(bool(_CHAT_LINE.match(x)) for x in lines) < 2:
        return [x.strip() for x in lines]
    out: list[str] = []
    for line in lines:
        if (m := _CHAT_LINE.match(line)) is not None and m.group("nick").lower() in own:
            out.append(m.group("text").strip())
        elif m is not None:
            name = re.sub(r"[^A-Za-zÀ-ÿ]", "", m.group("nick"))
            if name:
                stamp = (m.group("stamp") or "").strip("()") or "chat"
                stamp = stamp if stamp.startswith("[") else f"[{stamp}]"
                out.append(f"{stamp} {name[0].upper()}{name[1:].lower()}: {m.group('text')}")
        elif not _CHAT_SYSTEM.match(line):
            out.append(line.strip())
    return out


#: A date-time group as military and aviation messages write it: day, hour and minute, a
#: time-zone letter, the month's three letters and the year ("041800ZJUN39", "221430Z MAR 2031").
_DTG = re.compile(
    r"(?<![\w/])(?P<d>[0-3]\d)(?P<h>[0-2]\d)(?P<m>[0-5]\d)(?P<zone>[A-Z])?\s?"
    r"(?P<mon>JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)\s?(?P<y>\d{4}|\d{2})(?![\w/])"
)


def dtg_read(text: str) -> str:
    """`text` with each date-time group written out as its day and time ("041800ZJUN39":
    "4 June 2039 18:00Z"), so that its date is read like any other. A group that names no
    real day or time stays as it is."""

    def written(m: re.Match[str]) -> str:
        day, hour, minute = int(m["d"]), int(m["h"]), int(m["m"])
        year = int(m["y"]) if len(m["y"]) == 4 else 2000 + int(m["y"])
        month = [name[:3] for name in MONTHS].index(m["mon"].lower()) + 1
        try:
            date(year, month, day)
        except ValueError:
            return m.group(0)
        if hour > 23:
            return m.group(0)
        said = MONTHS[month - 1].capitalize()
        return f"{day} {said} {year} {hour:02d}:{minute:02d}{m['zone'] or ''}"

    return _DTG.sub(written, text) if _DTG.search(text) else text


#: A line of an interview typed up as questions and answers: "Q: Where were you born?",
#: "A. In Leith."
_QA_LINE = re.compile(r"^[ \t]*(?P<mark>[QA])[:.][ \t]+(?=\S)", re.M)
#: Whom the user interviewed, in the words above the interview: "I recorded Gran (Edith
#: Marr)", "interviewed my uncle", "here's my chat with Mr Osei".
_INTERVIEWED = re.compile(
    r"\b(?:recorded|interviewed|interviewing|taped|filmed|talked\s+to|spoke\s+(?:to|with)|"
    r"chat(?:ted)?\s+(?:to|with)|sat\s+down\s+with|interview\s+with)\s+"
    r"(?:(?P<kin>my|our)\s+)?(?P<who>(?:" + NAME + r")|(?(kin)[a-z]+|(?!))\b)"
    r"(?:\s*\((?P<full>[^()\n]{2,60})\))?"
)
#: Fewest questions and answers an interview has.
_QA_FEWEST = 2


def interview_read(text: str) -> str:
    """An interview the user typed up as "Q:" and "A:" lines, the person they interviewed
    named above it ("I recorded Gran (Edith Marr) …"): each answer is written as that
    person's line ("Edith Marr: I was born in Leith."), so that its "I" and "my" are theirs,
    and each question as the user's own line. Any other text is returned as it is."""
    marks = [m.group("mark") for m in _QA_LINE.finditer(text)]
    if marks.count("Q") < _QA_FEWEST or marks.count("A") < _QA_FEWEST:
        return text
    first = _QA_LINE.search(text)
    assert first is not None
    said = list(_INTERVIEWED.finditer(text[: first.start()]))
    if not said:
        return text
    m = said[-1]
    name = None
    if m.group("full") and (full := re.match(NAME, m.group("full").strip())):
        name = full.group(0)
    if name is None:
        who = m.group("who")
        name = who[0].upper() + who[1:]
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if (qa := _QA_LINE.match(line)) is not None:
            rest = line[qa.end() :]
            lines[i] = f"{NOTE_LINE}{name}: {rest}" if qa.group("mark") == "A" else rest
    return "\n".join(lines)


#: What opens each line of a note someone else wrote, before the writer's name: the line is
#: read as theirs, like a pasted conversation's.
NOTE_LINE = "[note] "
_WRITER_NAME = r"(?P<name>[A-Z][a-zà-ÿ'’]+(?:[ -][A-Z][a-zà-ÿ'’]+)?)"
#: What says whose note, message or letter follows: "the note Gwen left", "a text from Dev",
#: "Ana's message", "my mum wrote" is no name (the user's own words about her stay theirs).
_NOTE_WRITTEN_BY = re.compile(
    r"\b(?:note|message|text|letter|card|memo)\s+(?:that\s+)?"
    # "the note the cleaner, Orla, left": her role, then her name
    r"(?:(?:the|my|our)\s+[a-z]+(?:\s+[a-z]+)?,\s+)?"
    + _WRITER_NAME
    + r",?\s+(?:left|wrote|sent|gave\s+me|put|scribbled|dropped\s+off)\b"
    r"|\b(?:note|message|text|letter|card|memo)\s+from\s+"
    + _WRITER_NAME.replace("name", "sender")
    + r"\b(?![ -][A-Z])"
)


def note_writer(before: str) -> str | None:
    """The person the last paragraph of `before` (a message's text above a pasted block)
    says wrote what follows ("I'm typing up the note Gwen left in her bag"), or None."""
    paragraph = before.strip().split("\n\n")[-1]
    found = list(_NOTE_WRITTEN_BY.finditer(paragraph))
    if not found:
        return None
    name = found[-1].group("name") or found[-1].group("sender")
    return None if name.split()[0] in ("I", "The", "My", "Our", "A", "An") else name


#: A markdown footnote's mark in the text ("Blackmere Lodge[^venue]") and its definition, a
#: line of its own below ("[^venue]: Blackmere Lodge, near Keswick. Ref BML-40417.").
_FOOTNOTE_MARK = re.compile(r"\[\^(?P<label>[^\]\s]{1,40})\]")
_FOOTNOTE = re.compile(r"^[ \t]*\[\^(?P<label>[^\]\s]{1,40})\]:[ \t]*(?P<text>\S.*)$", re.M)
#: Where a clause of a sentence begins: the footnote's mark is of the clause it ends.
_CLAUSE_START = re.compile(r"(?:^|[.!?]\s+|,\s+(?:and|but|while)\s+|;\s*)", re.I)


#: How far before a footnote's mark what it notes is looked for, in characters.
_ANCHOR_MOST = 200


def footnote_anchors(text: str) -> dict[str, str]:
    """What each markdown footnote of `text` notes, by its label, in the order the
    footnotes are defined: the clause its mark ends ("We're meeting at Blackmere Lodge")."""
    defined = [m.group("label") for m in _FOOTNOTE.finditer(text)]
    if not defined:
        return {}
    anchors: dict[str, str] = {}
    body = _FOOTNOTE.sub("", text)
    wanted = set(defined)
    for line in body.split("\n"):
        for m in _FOOTNOTE_MARK.finditer(line):
            if m.group("label") not in wanted or m.group("label") in anchors:
                continue
            # (what a mark ends is said just before it: a bounded look back)
            before = _FOOTNOTE_MARK.sub("", line[max(0, m.start() - _ANCHOR_MOST) : m.start()])
            starts = [c.end() for c in _CLAUSE_START.finditer(before)]
            anchor = before[max(starts, default=0) :].strip(" \t-*>")
            if anchor and m.group("label") not in anchors:
                anchors[m.group("label")] = anchor
    return {label: anchors[label] for label in defined if label in anchors}


#: A later message's mention of a footnote by its number or label: "update footnote 2",
#: "[^dates]".
_FOOTNOTE_NAMED = re.compile(
    r"\bfoot-?note\s+(?:no\.?\s*|number\s+)?(?P<n>\d{1,2})\b|\[\^(?P<label>[^\]\s]{1,40})\]",
    re.I,
)


def footnotes_named(text: str, anchors: dict[str, str]) -> str:
    """`text` with each mention of a footnote of an earlier message (`anchors`, by label in
    their order) said as what it notes: "Update footnote 2: from Thursday" -> "Update (We're
    meeting at Blackmere Lodge over the bank holiday): from Thursday"."""
    if not anchors:
        return text
    labels = list(anchors)

    def said(m: re.Match[str]) -> str:
        if m.group("label") is not None:
            anchor = anchors.get(m.group("label"))
        else:
            n = int(m.group("n"))
            anchor = anchors[labels[n - 1]] if 1 <= n <= len(labels) else None
        return f"({anchor})" if anchor else m.group()

    return _FOOTNOTE_NAMED.sub(said, text)


def footnotes_read(text: str) -> str:
    """`text` with its markdown footnotes read where they are marked: each sentence of a
    footnote's definition a line of its own, after what its mark ends ("We're meeting at
    Blackmere Lodge: Booked under my name, ref BML-40417."), so that what a footnote says
    is said of the thing it notes; the marks are taken out of the text. Text without
    defined footnotes is returned as it is."""
    anchors = footnote_anchors(text)
    if not anchors and not _FOOTNOTE.search(text):
        return text
    out = []
    for line in text.split("\n"):
        d = _FOOTNOTE.match(line)
        if d is None:
            out.append(_FOOTNOTE_MARK.sub("", line))
            continue
        anchor = anchors.get(d.group("label"))
        said = [x for x in re.split(r"(?<=[.!?])\s+(?=\S)", d.group("text").strip()) if x]
        if anchor is None:
            out.append(d.group("text"))
            continue
        out += [f"{anchor}: {x}" for x in said]
    return "\n".join(out)


def unfence_text(
    text: str,
    keep: Callable[[list[str]], bool] | None = None,
    own: frozenset[str] = frozenset(),
) -> str:
    """`text` with each fenced block that reads as text (`reads_as_text`) opened: its fence
    lines dropped, so its lines are read as the message's own. A block `keep` says to keep
    (one read otherwise: a table of records, a message to the memory system) stays fenced. Checkbox items anywhere are rewritten by
    `checkbox_line`; struck items are left out."""
    out: list[str] = []
    lines = text.split("\n")
    mine = own_nicks(text) | own  # `own`: the nicks memory knows are the user's
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = line.strip()[:3]
        if fence in ("```", "~~~"):
            run = re.match(r"\s*(`+|~+)", line)
            mark = run.group(1) if run else fence
            end = next(
                (
                    j
                    for j in range(i + 1, len(lines))
                    if (
                        lines[j].strip()[:3] == fence
                        if len(mark) == 3
                        # "````markdown" closes on "````": a "```" inside is a block of its own
                        else re.fullmatch(rf"\s*{re.escape(mark[0])}{{{len(mark)},}}\s*", lines[j])
                    )
                ),
                None,
            )
            if end is None:
                out.extend(lines[i:])
                break
            inner = lines[i + 1 : end]
            inner = diff_result(inner) or inner  # a file pasted as the diff that changed it
            if reads_as_text(inner) and not (keep is not None and keep(inner)):
                inner = under_headings(fields_apart(inner))
                inner = journal_lines(inner, journal_key(text)) or inner  # "× renew the card"
                opened = chat_lines(inner, mine)
                writer = note_writer("\n".join(lines[:i]))
                if writer is not None and opened == [x.strip() for x in inner]:
                    # a note the message says someone else wrote ("the note Gwen left"):
                    # each line is the writer's, so that "I" and "my" in it are theirs
                    opened = [f"{NOTE_LINE}{writer}: {x}" if x else x for x in opened]
                out.append("")
                out.extend(opened)
                out.append("")
            elif (split := _table_apart(inner)) is not None and not (
                keep is not None and keep(inner)
            ):
                # a card or a sheet: the block stays fenced as it was, its notes around the
                # table read after it as the message's own
                out.extend(lines[i : end + 1])
                out.extend(["", *fields_apart(split[0]), "", *fields_apart(split[2]), ""])
            else:
                out.extend(lines[i : end + 1])
            i = end + 1
            continue
        out.append(line)
        i += 1
    return "\n".join(x for x in (checkbox_line(y) for y in out) if x is not None)


#: A row of a table drawn with bars ("1 | Leeds | 2.2"), or its rule ("----+-----|---").
_TABLE_ROW = re.compile(r"^[^|\n]*\|[^|\n]*\|.*$|^\s*\|?[-=+:| ]{6,}\|?\s*$")


def _table_apart(lines: list[str]) -> tuple[list[str], list[str], list[str]] | None:
    """(the lines above, the table, the lines below) of a fenced block that holds one table
    drawn with bars between lines of notes ("Total 8.6 km, 870 m ascent." under a route's
    legs) and no line of code: the notes read as text (`reads_as_text`) when the table is
    left out. None for any other block."""
    rows = [i for i, x in enumerate(lines) if _TABLE_ROW.match(x)]
    if len(rows) < 3 or rows[-1] - rows[0] + 1 != len(rows):
        return None  # no table, or rows apart from each other
    if any(is_code_line(x) for x in lines):
        return None
    above, below = lines[: rows[0]], lines[rows[-1] + 1 :]
    notes = [x for x in above + below if x.strip()]
    if len(notes) < 2 or not reads_as_text(notes):
        return None
    return above, lines[rows[0] : rows[-1] + 1], below
