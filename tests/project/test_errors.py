"""Every exception doctree defines is a DoctreeError, so callers (and the CLI) can catch one
base class; and a user error raised through the CLI is one line and exit 2, not a traceback."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import doctree
from doctree.errors import DoctreeError, UserError


def defined_exceptions() -> list[type[BaseException]]:
    found = []
    for info in pkgutil.walk_packages(doctree.__path__, "doctree."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, BaseException) and obj.__module__ == info.name:
                found.append(obj)
    return found


def test_every_exception_doctree_defines_is_a_doctree_error():
    found = defined_exceptions()
    names = {cls.__name__ for cls in found}
    assert {"ToolInputError", "OfflineAgentError", "ReplayMismatchError"} <= names
    outside = [
        f"{cls.__module__}.{cls.__name__}" for cls in found if not issubclass(cls, DoctreeError)
    ]
    assert outside == []


def test_one_replay_mismatch_error():
    from doctree import errors
    from doctree.llm import replay

    assert not hasattr(replay, "ReplayMismatch")
    assert replay.ReplayMismatchError is errors.ReplayMismatchError
    assert issubclass(replay.ReplayMismatchError, UserError)
