"""Secrets in text: API keys, tokens, passwords and private keys, found so they are never stored.

Memory pages are read back into prompts, exported and shared; a credential written there leaks
with them. The memory agent's write path (`doctree.interop.tools.MemoryTools`) passes every
body, title and edit through `redact`, whatever backend wrote it, and the offline agent records
a placeholder instead: that a secret was shared, and where the user said it lives.

The patterns are written out here rather than taken from a scanning library: those libraries
scan source files line by line (`KEY = "..."`), while memory is prose ("my token is ..."),
and each pattern below names the kind of secret it found, which the placeholder repeats.

    find_secrets(text)      -> [Secret(kind, start, end), ...]
    redact(text)            -> (text with each secret replaced by a placeholder, [Secret, ...])
    contains_secret(text)   -> bool
    secret_location(text)   -> where the text says the secret lives ("1Password"), or None
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

__all__ = ["Secret", "contains_secret", "find_secrets", "placeholder", "redact", "secret_location"]


@dataclass(frozen=True)
class Secret:
    """One secret found in a text: its kind ("API key", "password", ...) and its span."""

    kind: str
    start: int
    end: int


#: (kind, pattern); the group named `value` is the secret when present, else the whole match.
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "private key",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|.*)",
            re.S,
        ),
    ),
    ("Anthropic API key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{16,}")),
    ("API key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}")),
    ("Stripe key", re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}")),
    ("AWS access key", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[A-Z0-9]{16}\b")),
    ("GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})")),
    ("GitLab token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}")),
    ("Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("Slack webhook", re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+")),
    ("Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    ("npm token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
    ("PyPI token", re.compile(r"\bpypi-[A-Za-z0-9_-]{50,}")),
    ("SendGrid key", re.compile(r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}")),
    ("Twilio key", re.compile(r"\bSK[0-9a-fA-F]{32}\b")),
    (
        "JSON web token",
        re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    ),
    (
        "password in a URL",
        re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s:/@]+:(?P<value>[^\s/@]{3,})@[^\s]+", re.I),
    ),
    ("bearer token", re.compile(r"\b[Bb]earer\s+(?P<value>[A-Za-z0-9._~+/=-]{16,})")),
    (
        "password",
        re.compile(
            r"\b(?:password|passwd|passphrase|pass ?code|pin|pwd|pw)\b"
            r"(?:\s+(?:for|of|to|on)(?:\s+[^\s:=]+){1,3}?)?"
            r"(?:\s*[:=]\s*|\s+(?:is|was|=|:)\s+(?:now\s+)?|\s+)"
            r"[\"'`]?(?P<value>(?=[^\s\"'`]*(?:[\d_]|[^\w\s]))[^\s\"'`]{6,}?)[\"'`]?(?=[\s,;]|[.!?](?:\s|$)|$)",
            re.I,
        ),
    ),
    (
        "PIN",
        re.compile(
            r"\b(?:pin|pin\s+code|passcode|door\s+code|alarm\s+code)\b"
            r"(?:\s+(?:for|of|to|on)(?:\s+[^\s:=]+){1,3}?)?"
            r"(?:\s*[:=]\s*|\s+(?:is|was)\s+(?:now\s+)?)(?P<value>\d{4,10})\b",
            re.I,
        ),
    ),
    (
        "API key",
        re.compile(
            r"\b(?:api[ _-]?key|access[ _-]?key|secret(?:[ _-]?key)?|token|client[ _-]?secret|"
            r"auth[ _-]?key|signing[ _-]?key)\b"
            r"(?:\s+(?:for|of|to|on)(?:\s+[^\s:=]+){1,3}?)?"
            r"(?:\s*[:=]\s*|\s+(?:is|was|=|:)\s+(?:now\s+)?|\s+)"
            r"[\"'`]?(?P<value>[A-Za-z0-9][A-Za-z0-9._~+/=-]{15,})[\"'`]?",
            re.I,
        ),
    ),
]

_PLACEHOLDER = re.compile(r"\[secret withheld: [^\]\n]{1,40}\]")

#: Words a value after "token"/"password" may be without being a secret ("the token is expired").
_PLAIN = re.compile(r"[a-z]+(?:[-'][a-z]+)*", re.I)


def _entropy(s: str) -> float:
    counts = Counter(s)
    return -sum(n / len(s) * math.log2(n / len(s)) for n in counts.values())


def _looks_random(value: str) -> bool:
    """A credential, not a word: mixed characters with some entropy."""
    if _PLAIN.fullmatch(value):
        return False
    kinds = sum(bool(re.search(p, value)) for p in (r"[a-z]", r"[A-Z]", r"\d", r"[^A-Za-z0-9]"))
    return kinds >= 2 and _entropy(value) >= 2.5


#: What every pattern above needs somewhere in the text: most text has none, and is done.
_ANY = re.compile(
    r"pass|\bpin\b|pwd|\bpw\b|code|key|secret|token|bearer|sk-|_live_|_test_|AKIA|ASIA|AGPA|"
    r"AIDA|AROA|ANPA|gh[pousr]_|github_pat_|glpat-|xox|AIza|npm_|pypi-|SG\.|SK[0-9a-fA-F]{8}|"
    r"eyJ|://[^\s:/@]+:",
    re.I,
)


def find_secrets(text: str) -> list[Secret]:
    """The secrets in `text`, in order, without overlaps."""
    if not _ANY.search(text):
        return []
    # a placeholder already written stands for a secret; it is not one
    found: list[Secret] = [Secret("", m.start(), m.end()) for m in _PLACEHOLDER.finditer(text)]
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if "value" in pattern.groupindex and m.group("value") is not None:
                start, end = m.span("value")
                value = m.group("value")
                if kind in ("password", "API key", "bearer token") and not _looks_random(value):
                    continue
            else:
                start, end = m.span()
            if any(s.start < end and start < s.end for s in found):
                continue
            found.append(Secret(kind, start, end))
    return sorted((s for s in found if s.kind), key=lambda s: s.start)


def contains_secret(text: str) -> bool:
    """Whether `text` holds anything `find_secrets` finds."""
    return bool(find_secrets(text))


def placeholder(kind: str) -> str:
    """What stands in a page where a secret was: `[secret withheld: API key]`."""
    return f"[secret withheld: {kind}]"


def redact(text: str) -> tuple[str, list[Secret]]:
    """`text` with every secret replaced by its placeholder, and the secrets found."""
    found = find_secrets(text)
    if not found:
        return text, []
    out, pos = [], 0
    for s in found:
        out.append(text[pos : s.start])
        out.append(placeholder(s.kind))
        pos = s.end
    out.append(text[pos:])
    return "".join(out), found


_LOCATION = re.compile(
    r"\b(?:is|are|it's|lives|live|stored|kept|saved|sits|put\s+it|keep\s+it|store\s+it|"
    r"find\s+it|it\s+is|they\s+are|stays)\s+"
    r"(?:(?:now|also|already|safely)\s+)?(?P<prep>in|at|on|under)\s+"
    r"(?P<where>(?:the\s+|our\s+|my\s+|a\s+)?[^\s.,;!?()]+(?:\s+(?!and\b|but\b|so\b)[^\s.,;!?()]+){0,4})",
    re.I,
)


def secret_location(text: str) -> str | None:
    """Where `text` says a secret is kept ("in 1Password", "in the team vault"), or None."""
    for m in _LOCATION.finditer(text):
        where = m.group("where")
        if contains_secret(where) or re.match(r"(?:the\s+)?(?:chat|message)\b", where, re.I):
            continue
        return f"{m.group('prep').lower()} {where}".rstrip()
    return None


#: The fields of a tool input that end up stored in a page.
STORED_FIELDS = ("body", "title", "new_string")


def redact_fields(args: Any, fields: tuple[str, ...] = STORED_FIELDS) -> tuple[Any, list[Secret]]:
    """A copy of the pydantic input `args` with secrets withheld from its stored text fields."""
    update: dict[str, str] = {}
    found: list[Secret] = []
    for name in fields:
        value = getattr(args, name, None)
        if isinstance(value, str):
            clean, secrets = redact(value)
            if secrets:
                update[name] = clean
                found += secrets
    return (args.model_copy(update=update) if update else args), found


def withheld_note(found: list[Secret]) -> str:
    """The line a tool result carries after secrets were withheld from what it stored."""
    kinds = ", ".join(dict.fromkeys(s.kind for s in found))
    return (
        f"note: {len(found)} secret(s) ({kinds}) withheld: stored as a placeholder; "
        "never write credentials to memory, say where the user keeps them instead"
    )
