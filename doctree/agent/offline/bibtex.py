"""A pasted BibTeX file (a reading list out of a reference manager) read entry by entry.

Each entry becomes one statement: its title, its authors as they are called (BibTeX writes
"Okafor, Chidi and Brandt, Lena", family name first), its year, where it appeared, and its
note ("cite this first", "library copy, due back 2031-05-02"). The file is parsed by the
`bibtexparser` library (braces, quotes, string macros, comments); its LaTeX is turned into
text by `pylatexenc`. Comments (`% ...`) are not read: a reference manager writes its sync
key there, which is no fact.
"""

from __future__ import annotations

import logging
import re

#: Where an entry of a BibTeX file begins: "@article{okafor2031,".
_ENTRY = re.compile(r"^[ \t]*@(?!comment\b|string\b|preamble\b)[A-Za-z]+[ \t]*[{(]", re.M | re.I)
#: Where an entry appeared, the first field given.
_VENUE = ("journal", "booktitle", "publisher", "school", "institution", "howpublished")
#: The fields read beyond those above, in this order, each labelled.
_LABELLED = ("volume", "pages", "doi", "url", "note", "annote", "keywords")
#: Most entries read of one paste (a whole library pasted is not a page of memory).
_MOST = 60


def is_bibtex(text: str) -> bool:
    """Whether `text` holds at least one BibTeX entry."""
    return _ENTRY.search(text) is not None


def bibtex_entries(text: str) -> list[str] | None:
    """The entries of a pasted BibTeX file as one statement each: '"Peatland flux" by
    Chidi Okafor and Lena Brandt (2037), Global Change Biology; note: cite it first.'
    None when `text` holds no entry."""
    if not is_bibtex(text):
        return None
    import bibtexparser  # only for a paste that holds an entry
    from pylatexenc.latex2text import LatexNodes2Text

    plain = LatexNodes2Text(math_mode="verbatim")

    def read(value: object) -> str:
        said = str(value).strip()
        if "\\" in said or "{" in said or "$" in said:
            try:
                said = plain.latex_to_text(said)
            except (RecursionError, ValueError):
                # braces nested past what the reader recurses through: the text without them
                said = re.sub(r"[{}\\$]", "", said)
        return " ".join(said.split())

    # (an entry the parser cannot read is left out; its warning is no one's concern here)
    logging.getLogger("bibtexparser").setLevel(logging.ERROR)
    out = []
    for entry in bibtexparser.parse_string(text).entries[:_MOST]:
        fields = {f.key.lower(): read(f.value) for f in entry.fields}
        title = fields.get("title", "").strip().rstrip(".")
        authors = _authors(fields.get("author") or fields.get("editor") or "")
        if not title and not authors:
            continue
        said = f"“{title}”" if title else "An entry"
        if authors:
            said += f" by {authors}"
        if year := fields.get("year"):
            said += f" ({year})"
        if venue := next((fields[k] for k in _VENUE if fields.get(k)), None):
            said += f", {venue}"
        extra = [f"{k}: {fields[k]}" for k in _LABELLED if fields.get(k)]
        said += "; " + "; ".join(extra) if extra else ""
        out.append(said if said[-1:] in ".!?" else said + ".")
    return out


def _authors(field: str) -> str:
    """BibTeX's "Okafor, Chidi and Brandt, Lena" as people say it: "Chidi Okafor and Lena
    Brandt" (three or more: "A, B and C"; "others": "et al.")."""
    names = []
    for part in re.split(r"\s+and\s+", field.strip()):
        if not part:
            continue
        if part.lower() == "others":
            names.append("others")
            continue
        bits = [b.strip() for b in part.split(",")]
        # "von Last, Jr, First" and "Last, First": the first name goes first
        names.append(" ".join([bits[-1], bits[0]]) if len(bits) >= 2 else part)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
