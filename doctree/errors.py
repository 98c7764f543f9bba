"""Exceptions raised by doctree. Each names the bad input and the rule it broke."""

from __future__ import annotations


class DoctreeError(Exception):
    """Base class for every error doctree raises on purpose."""


class UserError(DoctreeError):
    """Bad input from a caller: the CLI prints it on one line and exits 2."""


class ArgumentError(UserError):
    """A library function called with an argument of the wrong kind (a str where a whole
    number is needed, a number past 64 bits, None for a path, bytes for text)."""

    def __init__(self, function: str, argument: str, value: object, rule: str):
        self.function, self.argument, self.value, self.rule = function, argument, value, rule
        shown = repr(value)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        super().__init__(
            f"{function}(): argument {argument} {shown} ({type(value).__name__}): must be {rule}"
        )


class PathError(UserError):
    """A path broke one of the path rules."""

    def __init__(self, path: object, rule: str):
        self.path = path
        self.rule = rule
        super().__init__(f"path {path!r}: {rule}")


class NotTextError(UserError):
    """Text that cannot be stored as UTF-8: a lone surrogate (from JSON, or from non-UTF-8
    bytes in an argument, a file name or stdin, which Python decodes to surrogates)."""

    def __init__(self, what: str, value: str):
        self.what = what
        index = next((i for i, c in enumerate(value) if 0xD800 <= ord(c) <= 0xDFFF), -1)
        super().__init__(
            f"{what}: is not UTF-8 text (a lone surrogate or an undecodable byte "
            f"at character {index})"
        )


class TitleError(UserError):
    """A title broke one of the title rules."""

    def __init__(self, path: str, rule: str):
        self.path, self.rule = path, rule
        super().__init__(f"title of {path!r}: {rule}")


class BodyTooLargeError(UserError):
    """A body is larger than the configured limit."""

    def __init__(self, path: str, size: int, limit: int):
        self.path, self.size, self.limit = path, size, limit
        super().__init__(
            f"body of {path!r} is {size:,} bytes; the limit is {limit:,} bytes "
            "(raise it with max_body_bytes / DOCTREE_MAX_BODY_BYTES)"
        )


class NotFoundError(UserError):
    """No document (or version) where one was expected."""


class ConflictError(UserError):
    """A write's precondition failed: the document changed since the caller read it."""

    def __init__(self, message: str, current_version: int | None = None):
        self.current_version = current_version
        super().__init__(message)


class EditError(UserError):
    """An exact-string edit could not be applied."""


class TransactionError(DoctreeError):
    """A write failed midway inside a caller's transaction, which was rolled back."""


class ReplayMismatchError(UserError):
    """A replayed run made a request the cassette does not hold; the message has the diff."""


class SchemaError(DoctreeError):
    """The database schema cannot be used by this version of doctree."""


class DatabaseUnavailableError(DoctreeError):
    """The database cannot be reached now: a server that is down or restarting (or could
    not be reached at start). Nothing of the failed call was stored; try again later."""


class DatabaseGoneError(DoctreeError):
    """The database file was deleted or replaced while in use: whatever would be written
    now would go to a file no one can open again, so nothing more is read or written."""
