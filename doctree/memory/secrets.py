"""Secrets and the memory agent: where a user said a secret lives, and the guard on the tool
layer that tells the agent a secret was withheld from what it wrote.

The detector itself (`find_secrets`, `mask`, the markers) lives in `doctree.store.secrets`,
below every layer that stores text: the store withholds secrets from whatever reaches it.
The tool layer (`doctree.interop.tools.MemoryTools`) also masks its inputs first, so that
the tool result can tell the agent what was withheld, and the offline agent records where the
user said a secret lives instead of the secret.

    secret_location(text)   -> where the text says the secret lives ("1Password"), or None
    mask_fields(args)     -> a tool input with secrets withheld from its stored fields
"""

from __future__ import annotations

import re
from typing import Any

from doctree.store.secrets import Secret, contains_secret, find_secrets, mask

__all__ = [
    "Secret",
    "contains_secret",
    "find_secrets",
    "mask",
    "mask_fields",
    "secret_location",
    "withheld_note",
]


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


def mask_fields(args: Any, fields: tuple[str, ...] = STORED_FIELDS) -> tuple[Any, list[Secret]]:
    """A copy of the pydantic input `args` with secrets withheld from its stored text fields."""
    update: dict[str, str] = {}
    found: list[Secret] = []
    for name in fields:
        value = getattr(args, name, None)
        if isinstance(value, str):
            clean, secrets = mask(value)
            if secrets:
                update[name] = clean
                found += secrets
    return (args.model_copy(update=update) if update else args), found


def withheld_note(found: list[Secret]) -> str:
    """The line a tool result carries after secrets were withheld from what it stored."""
    kinds = ", ".join(dict.fromkeys(s.kind for s in found))
    return (
        f"note: {len(found)} secret(s) ({kinds}) withheld: stored as a marker ([secret: KIND]); "
        "never write credentials to memory, say where the user keeps them instead"
    )
