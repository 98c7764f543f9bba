"""The program's logging: every line it writes, a traceback's included, with each secret
replaced by its marker.

A failure can quote what it was given (an upstream refusal echoing a key, a tool's error
holding its argument), and a log is a file someone keeps: `setup(level)` routes every logger
the `doctree` program sets up, its own, the MCP SDK's, the web server's and any library's,
through one handler whose `MaskingFormatter` masks each line, and an error that escapes a
command is printed masked too. `uvicorn_log_config(level)` is the same for `doctree serve`,
whose server brings its own loggers. Library use configures nothing: the caller's logging is
the caller's.
"""

from __future__ import annotations

import logging
import sys
import traceback
from types import TracebackType
from typing import Any

__all__ = ["MaskingFormatter", "setup", "uvicorn_log_config"]

FORMAT = "%(asctime)s %(name)s %(message)s"


class MaskingFormatter(logging.Formatter):
    """A log formatter that writes every line, a traceback's included, with each secret
    replaced by its marker: an error quoting a key leaves it in no log, as it leaves it in no
    record."""

    def format(self, record: logging.LogRecord) -> str:
        from doctree.store.secrets import mask_text

        return mask_text(super().format(record))


class _Stderr(logging.StreamHandler):
    """A handler writing to whatever `sys.stderr` is when a line is written (a test's
    captured stream included), masked."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(MaskingFormatter(FORMAT))

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


def setup(level: int = logging.WARNING) -> None:
    """Route the root logger, and so every logger that propagates to it, through one masked
    handler on stderr at `level` (called again, the level changes; no second handler), and
    print an error that escapes the program masked."""
    root = logging.getLogger()
    if not any(isinstance(h, _Stderr) for h in root.handlers):
        root.addHandler(_Stderr())
    root.setLevel(level)
    sys.excepthook = _masked_excepthook


def _masked_excepthook(
    kind: type[BaseException], error: BaseException, tb: TracebackType | None
) -> None:
    """Python's report of an uncaught error, its message masked."""
    from doctree.store.secrets import mask_text

    sys.stderr.write(mask_text("".join(traceback.format_exception(kind, error, tb))))


def uvicorn_log_config(level: str = "warning") -> dict[str, Any]:
    """uvicorn's logging configuration with every line masked: its error log (where an
    exception in a request is written whole) and its access log (a request's line holds its
    query string)."""
    formatter = {"()": f"{__name__}.MaskingFormatter", "fmt": FORMAT}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"masked": formatter},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "masked",
                "stream": "ext://sys.stderr",
            }
        },
        # "uvicorn.error" and "uvicorn.access" write through it
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": level.upper(), "propagate": False}
        },
    }
