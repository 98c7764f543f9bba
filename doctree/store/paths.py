"""Path rules: `~` is the owner's home; segments are slugs.

A valid path is `~` or `~/seg/seg/...`. Segments hold Unicode letters, digits and marks, `-`, `_`
and `.` (NFC-normalised), are never `.` or `..`, never start with `.`, and there are at most
20 of them in at most 1,024 bytes. A word of a segment (between `-`, `_` and `.`) holds the
letters of at most one of the alphabets that look alike (`mixed_alphabets`).
"""

from __future__ import annotations

import unicodedata

from doctree.errors import NotTextError, PathError, UserError

TYPE_CHECKING = False  # (neither typing nor re is imported for a plain path: `doctree read`)
if TYPE_CHECKING:
    import re

# The secret detector (doctree.store.secrets) is imported by the checks that search a path
# for a secret: a path whose segments are all too short to hold one never loads it.

#: The shortest secret a pattern finds inside a slug segment: there a keyword pattern cannot
#: match (it needs a space, ':' or '='), and every other needs a run of at least 15
#: characters (`xoxb-` and ten more for a Slack token; the rest are longer).
SHORTEST_IN_A_SLUG = 15

HOME = "~"
MAX_SEGMENTS = 20
MAX_PATH_BYTES = 1024
MAX_SEGMENT_BYTES = 255
MAX_OWNER_LENGTH = 128

_SEGMENT = r"[\w][\w.\-]*"  # (compiled by `_pattern` on first use, as the two below)
_CONTROL = r"[\x00-\x1f\x7f-\x9f]"

_ASCII_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_ASCII_SLUG = _ASCII_WORD | frozenset(".-")
_OWNER_START = _ASCII_WORD - {"_"}
_OWNER_CHARS = _ASCII_WORD | frozenset(".:@-")


def _is_plain(path: str) -> bool:
    """The common case, already canonical: `~/` and 1 to 20 ASCII slugs of 1 to 255
    characters (letters, digits, '_', '.', '-'; not starting with '.' or '-'): NFC is a
    no-op, and there is no '.' or '..'. What `~(?:/[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}){1,20}`
    matches in full, tested without `re`."""
    if not path.startswith("~/"):
        return False
    segments = path[2:].split("/")
    return len(segments) <= MAX_SEGMENTS and all(
        seg
        and len(seg) <= MAX_SEGMENT_BYTES
        and seg[0] in _ASCII_WORD
        and _ASCII_SLUG.issuperset(seg)
        for seg in segments
    )


def normalize_path(path: object) -> str:
    """Validate `path` and return its canonical form; raise PathError naming the rule broken.
    A path holding a secret (a key pasted as a page name) is refused: no path stores one."""
    if isinstance(path, str) and len(path) <= MAX_PATH_BYTES and _is_plain(path):
        return _without_secret(path)
    try:
        return _without_secret(_normalize_checked(path))
    except PathError as e:
        from doctree.store.secrets import mask, path_secret

        if isinstance(e.path, str) and (named := path_secret(e.path))[1]:
            raise PathError(named[0], mask(e.rule)[0]) from None  # the error repeats no secret
        raise


def _without_secret(path: str) -> str:
    """`path`, or PathError when a segment holds a secret; the error names the path with the
    secret spelled as a slug, never the secret itself. `path` is valid: its segments are
    slugs, and one too short to hold a secret is not searched."""
    if all(len(seg) < SHORTEST_IN_A_SLUG for seg in path.split("/")):
        return path
    from doctree.store.secrets import path_secret

    named, found = path_secret(path)
    if found:
        kinds = ", ".join(dict.fromkeys(s.kind for s in found))
        raise PathError(
            named,
            f"a path segment holds a secret ({kinds}); no path may hold one. "
            "Name the page for what it is, e.g. the slug shown here",
        )
    return path


def _normalize_checked(path: object) -> str:
    """normalize_path without the fast path: every rule, in order."""
    if not isinstance(path, str):
        raise PathError(path, "a path must be a string")
    if path == "":
        raise PathError(path, "a path must not be empty; the home is '~'")
    if "\x00" in path:
        raise PathError(path, "NUL bytes are not allowed in a path")
    if not is_utf8_text(path):
        raise PathError(path, "is not UTF-8 text (a lone surrogate or an undecodable byte)")
    if _pattern(_CONTROL).search(path):
        raise PathError(path, "control characters are not allowed in a path")
    if (hidden := invisible_character(path)) is not None:
        raise PathError(path, f"{hidden} is not allowed in a path")
    path = unicodedata.normalize("NFC", path)
    if len(path.encode("utf-8")) > MAX_PATH_BYTES:
        raise PathError(path, f"a path may be at most {MAX_PATH_BYTES} bytes")
    if path.startswith("/"):
        raise PathError(path, "absolute paths are not allowed; paths start at the home '~'")
    if path != HOME and not path.startswith(HOME + "/"):
        raise PathError(path, "a path must start with '~/' (the owner's home)")
    if path.endswith("/") and path != HOME + "/":
        path = path.rstrip("/")
    if path in (HOME, HOME + "/"):
        return HOME
    segments = path.split("/")[1:]
    if len(segments) > MAX_SEGMENTS:
        raise PathError(path, f"a path may have at most {MAX_SEGMENTS} segments")
    for seg in segments:
        if seg == "":
            raise PathError(path, "empty segments ('//') are not allowed in a path")
        if seg in (".", ".."):
            raise PathError(path, f"{seg!r} is not allowed in a path")
        if seg == "~":
            raise PathError(path, "'~' may only be the first segment")
        if len(seg.encode("utf-8")) > MAX_SEGMENT_BYTES:
            raise PathError(
                path, f"segment {seg[:40]!r}... is longer than {MAX_SEGMENT_BYTES} bytes"
            )
        if not _pattern(_SEGMENT).fullmatch(seg) and not _is_slug_with_marks(seg):
            raise PathError(
                path,
                f"segment {seg!r} is not a slug (letters, digits, '-', '_', '.'; "
                "not starting with '.' or '-')",
            )
        if (mixed := mixed_alphabets(seg)) is not None:
            raise PathError(path, mixed)
    return HOME + "/" + "/".join(segments)


# Alphabets whose letters look like one another's: a word mixing two of them can pass for
# another word (Cyrillic 'а' in 'аlice' reads as 'alice'). Fullwidth and mathematical
# letters are Latin or Greek letters drawn otherwise, which pass for them the same way.
_LOOKALIKE_ALPHABETS = frozenset(
    {"LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "CHEROKEE", "COPTIC", "FULLWIDTH", "MATHEMATICAL"}
)
_WORD_BREAKS = frozenset("-_.")


def _alphabet(c: str) -> str | None:
    """The look-alike alphabet of letter `c` (`_LOOKALIKE_ALPHABETS`), else None (other
    scripts, digits, marks, signs)."""
    if c.isascii():
        return "LATIN" if c.isalpha() else None
    if not c.isalpha():
        return None
    first = unicodedata.name(c, "").split(" ", 1)[0]
    return first if first in _LOOKALIKE_ALPHABETS else None


def mixed_alphabets(segment: str) -> str | None:
    """Why `segment` may not be a path segment when a word of it (between '-', '_' and '.')
    mixes letters of two look-alike alphabets (`_LOOKALIKE_ALPHABETS`), naming the first
    letter that differs; None when it mixes none. Each word may be of any one alphabet
    (`kyiv-київ` is two words), and other scripts mix freely with Latin (`ipad用`)."""
    if segment.isascii():
        return None
    word_start, first = 0, ""
    for i, c in enumerate(segment):
        if c in _WORD_BREAKS:
            word_start, first = i + 1, ""
            continue
        alphabet = _alphabet(c)
        if alphabet is None:
            continue
        if not first:
            first = c
        elif alphabet != _alphabet(first):
            end = len(segment)
            for j in range(i, len(segment)):
                if segment[j] in _WORD_BREAKS:
                    end = j
                    break
            letters = " with ".join(f"U+{ord(x):04X} {unicodedata.name(x, '')}" for x in (first, c))
            return (
                f"the word {segment[word_start:end]!r} mixes the letters of two alphabets "
                f"({letters}), so it can pass for another word; write each word in one "
                "alphabet, or put '-' between them"
            )
    return None


def is_utf8_text(text: str) -> bool:
    """True if `text` can be stored as UTF-8 (it holds no lone surrogate)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def require_text(value: str, what: str) -> str:
    """`value` if it can be stored as UTF-8; else NotTextError naming `what`."""
    if not is_utf8_text(value):
        raise NotTextError(what, value)
    return value


# Format characters (Unicode category Cf) a name may hold: the joiners scripts and emoji
# need (ZWNJ, ZWJ), the strong direction marks of right-to-left text (ALM, LRM, RLM), and the
# visible format signs of some scripts (Arabic number signs, Egyptian hieroglyph and Duployan
# controls, musical beams). Every other one is invisible or reorders text (U+202E and the
# other bidi embeddings, overrides and isolates), so a name holding it can pass for another.
_FORMAT_ALLOWED = (
    "[\u200c\u200d\u061c\u200e\u200f\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a]"
)
_TAG_BASE = "\U0001f3f4"  # WAVING BLACK FLAG: tag characters after it spell a subdivision flag
_TAGS = "[\U000e0020-\U000e007f]"


_COMPILED: dict[str, re.Pattern[str]] = {}


def _pattern(pattern: str) -> re.Pattern[str]:
    """`pattern` compiled on first use: a plain path (`_is_plain`) needs none, and the
    format-character classes are only looked at in text that is not ASCII; importing `re`
    and compiling them would cost a one-shot read (`doctree read`) more than the rest of
    its path checks (functools, for a cache, as well)."""
    compiled = _COMPILED.get(pattern)
    if compiled is None:
        import re

        compiled = _COMPILED[pattern] = re.compile(pattern)
    return compiled


_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def invisible_character(text: str) -> str | None:
    """The first invisible or text-reordering format character in `text`, described
    ("U+202E RIGHT-TO-LEFT OVERRIDE (a bidi control)"), or None when it holds none.

    Refused: every character of Unicode category Cf except the joiners, the direction marks
    and the visible script signs of `_FORMAT_ALLOWED`, and tag characters inside an emoji
    tag sequence (a subdivision flag)."""
    i = _first_invisible(text)
    if i < 0:
        return None
    c = text[i]
    kind = "a bidi control" if c in _BIDI_CONTROLS else "an invisible format character"
    return f"U+{ord(c):04X} {unicodedata.name(c, 'FORMAT CHARACTER')} ({kind})"


def strip_invisible(text: str) -> str:
    """`text` without the characters `invisible_character` refuses."""
    while (i := _first_invisible(text)) >= 0:
        text = text[:i] + text[i + 1 :]
    return text


def _first_invisible(text: str) -> int:
    if text.isascii():
        return -1
    for i, c in enumerate(text):
        if c.isprintable() or unicodedata.category(c) != "Cf" or _pattern(_FORMAT_ALLOWED).match(c):
            continue
        if _pattern(_TAGS).match(c) and _in_tag_sequence(text, i):
            continue
        return i
    return -1


def _in_tag_sequence(text: str, i: int) -> bool:
    """True if the tag character at `i` follows a flag base through other tag characters."""
    j = i
    while j > 0 and _pattern(_TAGS).match(text[j - 1]):
        j -= 1
    return j > 0 and text[j - 1] == _TAG_BASE


_VALID_OWNERS: set[str] = set()  # owners already checked (agents are few)


def _is_slug_with_marks(seg: str) -> bool:
    """A slug in which combining marks follow the first character. Python's \\w leaves
    them out, yet many scripts need them even after NFC (Devanagari vowel signs, ...)."""
    segment = _pattern(_SEGMENT)
    return bool(segment.match(seg[0])) and all(
        segment.match(c) or c in ".-" or unicodedata.category(c).startswith("M") for c in seg[1:]
    )


def validate_owner(owner: object) -> str:
    """Validate an agent id used as an owner."""
    if type(owner) is str and owner in _VALID_OWNERS:
        return owner
    if not isinstance(owner, str) or not owner:
        raise UserError(f"agent id {owner!r}: must be a non-empty string")
    if (
        len(owner) > MAX_OWNER_LENGTH
        or owner[0] not in _OWNER_START
        or not _OWNER_CHARS.issuperset(owner)
    ):
        raise UserError(
            f"agent id {owner!r}: use letters, digits, '-', '_', '.', ':' or '@' "
            f"(at most {MAX_OWNER_LENGTH} characters, starting with a letter or digit)"
        )
    refuse_secret(owner, "agent id")
    if len(_VALID_OWNERS) < 10_000:
        _VALID_OWNERS.add(owner)
    return owner


def refuse_secret(value: str, what: str) -> str:
    """`value`, an identifier the store keeps as it is (an agent id, a session id, an actor
    id, an agent type), or UserError when it holds a secret (a key pasted as a session id):
    no identifier stores one, as no path does. The error names `what` and shows the value
    with its secret as a marker, never the secret."""
    if len(value) < SHORTEST_IN_A_SLUG:
        return value
    from doctree.store.secrets import mask

    masked, found = mask(value)
    if found:
        kinds = ", ".join(dict.fromkeys(s.kind for s in found))
        raise UserError(
            f"{what} {masked!r}: holds a secret ({kinds}); no identifier may hold one. "
            "Name it for what it is, not with a key"
        )
    return value


def unexpand_home(value: str) -> str:
    """A path as typed, with the user's home directory turned back into `~`: the shell
    expands an unquoted `~/x` into `$HOME/x` before doctree sees it."""
    import os

    home = os.path.expanduser("~").rstrip("/")
    if home and home != "~":
        if value == home:
            return HOME
        if value.startswith(home + "/"):
            return HOME + value[len(home) :]
    return value


def parent_of(path: str) -> str | None:
    """The parent path, or None for the home itself."""
    if path == HOME:
        return None
    return path.rsplit("/", 1)[0]


def name_of(path: str) -> str:
    """The last segment of a path."""
    return path.rsplit("/", 1)[-1]


def depth_of(path: str) -> int:
    """Number of segments below the home: '~' is 0, '~/memory' is 1."""
    return 0 if path == HOME else path.count("/")


def is_under(path: str, prefix: str) -> bool:
    """True if `path` is `prefix` or lies below it."""
    return prefix == HOME or path == prefix or path.startswith(prefix + "/")


def ancestors(path: str) -> list[str]:
    """Ancestors from the top down, excluding the home and the path itself."""
    segs = path.split("/")[1:]
    return [HOME + "/" + "/".join(segs[:i]) for i in range(1, len(segs))]


def slugify(text: str, max_len: int = 80) -> str:
    """Make a slug segment out of free text ('Alice Smith' -> 'alice-smith'); a secret in
    the text becomes its kind ('secret-github-token'), never part of the slug."""
    import re

    from doctree.store.secrets import mask

    text = mask(text, replace=lambda kind: f" secret-{kind} ")[0]
    text = unicodedata.normalize("NFC", text).strip().lower()
    text = re.sub(r"[^\w.\-]+", "-", text, flags=re.UNICODE)
    if not text.isascii():
        text = _split_alphabets(text)
    text = re.sub(r"-{2,}", "-", text).strip("-._")
    return text[:max_len].rstrip("-._") or "untitled"


def _split_alphabets(text: str) -> str:
    """`text` with a '-' wherever a word passes from one look-alike alphabet to another
    (`mixed_alphabets`): 'аlice' with a Cyrillic 'а' becomes 'а-lice', a slug that cannot
    pass for 'alice'."""
    out: list[str] = []
    seen = None
    for c in text:
        if c in _WORD_BREAKS:
            seen = None
        elif (alphabet := _alphabet(c)) is not None:
            if seen is not None and alphabet != seen:
                out.append("-")
            seen = alphabet
        out.append(c)
    return "".join(out)


def subtree_bounds(prefix: str) -> tuple[str, str]:
    """Bounds such that lo <= path < hi selects exactly the strict descendants of prefix."""
    base = "~" if prefix == HOME else prefix
    return base + "/", base + "0"  # '0' is the character after '/'
