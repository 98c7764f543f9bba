"""Options shared by several commands; options renamed to the project's vocabulary keep their
old names working for scripts, out of `--help` and docs/cli.md."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


class AliasedOption(click.Option):
    """An option whose `hidden_aliases` (old names) still parse but are not shown."""

    def __init__(self, *args: Any, hidden_aliases: Sequence[str] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.hidden_aliases = tuple(hidden_aliases)

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        shown, self.opts = self.opts, [o for o in self.opts if o not in self.hidden_aliases]
        try:
            return super().get_help_record(ctx)
        finally:
            self.opts = shown


def all_owners_option(help: str) -> Callable[[F], F]:
    """`--all-owners` (older name `--all-agents`): the command covers every owner in the
    database instead of the one `--owner` names."""
    return click.option(
        "--all-owners",
        "--all-agents",
        "all_owners",
        cls=AliasedOption,
        hidden_aliases=["--all-agents"],
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
