"""Options shared by several commands, defined once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def all_owners_option(help: str) -> Callable[[F], F]:
    """`--all-owners`: the command covers every owner in the
    database instead of the one `--owner` names."""
    return click.option(
        "--all-owners",
        "all_owners",
        is_flag=True,
        help=help,
    )


def model_server_options(f: F) -> F:
    """`--base-url` and `--context-window`: where the memory agent's model is served and how
    much it can read, for every command that runs the memory agent (replay, worker)."""
    f = click.option(
        "--context-window",
        type=click.IntRange(min=1),
        envvar="DOCTREE_CONTEXT_WINDOW",
        metavar="TOKENS",
        help="The served model's context window in tokens, for --backend openai (default: the "
        "agent definition's openai.context_window); one too small for the prompt is refused.",
    )(f)
    return click.option(
        "--base-url",
        metavar="URL",
        help="The model API's base URL (default: OPENAI_BASE_URL for openai, ANTHROPIC_BASE_URL "
        "for anthropic), e.g. http://localhost:11434/v1 for Ollama.",
    )(f)
