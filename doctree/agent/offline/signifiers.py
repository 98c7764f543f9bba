"""Signifiers: the marks a bullet journal or a paper to-do list opens its lines with, read as
where each item stands.

"× renew library card" is done, "> ring the surgery" moved on to another day, "✗ book the
hall" cancelled; "•", "○" and "–" only say what kind of line it is (a task, an event, a note).
The user often pastes the key with the page ("Key: • task, × done, > migrated"): its words
are the ones used, so that a key of the user's own ("→ moved", "✓ paid") is read as they
wrote it. Lines are read this way only inside a pasted block (where ">" is no quote) and
only when two of its lines or more open on a signifier.
"""

from __future__ import annotations

import re

from doctree.agent.offline.prefilter import gate_patterns

#: The marks read as where an item stands when no key gives them: done, cancelled, moved.
_DEFAULT = {
    "×": "done", "✓": "done", "✔": "done", "☑": "done", "✗": "cancelled", "✘": "cancelled",
    ">": "migrated", "<": "scheduled", "→": "moved", "•": "", "·": "", "○": "", "◦": "",
    "–": "",
}  # fmt: skip
#: Meanings that say what kind of line it is, not where it stands.
_KINDS = {"task", "tasks", "event", "events", "note", "notes", "item", "todo", "to-do", "idea"}
#: One mark of a key and its meaning: "× done", "> migrated to tomorrow", "✓ = paid".
_KEY_ENTRY = re.compile(
    r"(?P<mark>[^\w\s,;:.()'\"])\s*(?:=|:|-|is)?\s*(?P<meaning>[A-Za-z][\w'’ -]{1,40}?)\s*(?=[,;.)]|$)"
)
#: The line that gives the key: "Key: • task, × done", "signifiers: …", "Legend - …".
_KEY_LINE = re.compile(
    r"\b(?:key|legend|signifiers?|symbols?)\b\s*[:–—-]\s*(?P<entries>.+)$", re.I | re.M
)


def journal_key(text: str) -> dict[str, str]:
    """The marks and what each says of an item, from a key the user gives in `text`; the
    usual marks where it gives none."""
    m = _KEY_LINE.search(text)
    if m is None:
        return dict(_DEFAULT)
    key = {e.group("mark"): e.group("meaning").strip() for e in _KEY_ENTRY.finditer(m["entries"])}
    if len(key) < 2:
        return dict(_DEFAULT)
    return {mark: ("" if meaning.lower() in _KINDS else meaning) for mark, meaning in key.items()}


def journal_lines(lines: list[str], key: dict[str, str]) -> list[str] | None:
    """The lines of a pasted block that open on the marks of `key`, each as its text and
    where it stands, as a list item ("× pay the invoice" is "- pay the invoice (done)"); None
    when fewer than two lines open on a mark."""
    marks = sorted(key, key=len, reverse=True)
    opening = re.compile(rf"^\s*(?P<marks>(?:(?:{'|'.join(map(re.escape, marks))})\s*)+)(?=\S)")
    found = [m["marks"] for x in lines if (m := opening.match(x))]
    if len(found) < 2 or not re.search(r"[^<>\s]", "".join(found)):
        return None  # two marks at least, not only ">" (a quote pasted in a block)
    out = []
    for line in lines:
        m = opening.match(line)
        if m is None:
            out.append(line)
            continue
        said = [key[c] for c in re.findall("|".join(map(re.escape, marks)), m["marks"])]
        states = [s for s in dict.fromkeys(said) if s]
        text = line[m.end() :].strip()
        out.append(f"- {text} ({', '.join(states)})" if states else f"- {text}")  # an item
    return out


gate_patterns(globals())  # the cheap test in front of every pattern above (prefilter.py)
