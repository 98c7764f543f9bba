"""Options shared by several commands, defined once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from doctree.arguments import MAX_NUMBER

F = TypeVar("F", bound=Callable[..., Any])


#: `--yes`: the commands that show what they would change and ask (`doctree.cli.confirm`).
yes_option = click.option(
    "--yes",
    "-y",
    "yes",
    is_flag=True,
    help="Go ahead without showing the preview and asking (for scripts; needed when stdin "
    "is not a terminal).",
)


def all_owners_option(help: str) -> Callable[[F], F]:
    """`--all-owners`: the command covers every owner in the
    database instead of the one `--owner` names."""
    return click.option(
        "--all-owners",
        "all_owners",
        is_flag=True,
        help=help,
    )


BACKEND_HELP = (
    "The memory agent's backend ($DOCTREE_BACKEND when not given): auto (anthropic when "
    "ANTHROPIC_API_KEY is set, else offline: one rule for every command and the library), "
    "offline, anthropic, openai (an OpenAI-compatible server at OPENAI_BASE_URL; openai:MODEL "
    "names its model), replay:CASSETTE (serve a recording) or record:CASSETTE (record one from "
    "ANTHROPIC_BASE_URL). auto says on stderr which it picked."
)


def model_server_options(f: F) -> F:
    """`--base-url` and `--context-window`: where the memory agent's model is served and how
    much it can read, for every command that runs the memory agent (replay, worker)."""
    f = click.option(
        "--context-window",
        type=click.IntRange(min=1, max=MAX_NUMBER),
        metavar="TOKENS",
        help="The served model's context window in tokens, for --backend openai (default: "
        "$DOCTREE_CONTEXT_WINDOW, else the agent definition's openai.context_window); one too "
        "small for the prompt is refused.",
    )(f)
    return click.option(
        "--base-url",
        metavar="URL",
        help="The model API's base URL (default: OPENAI_BASE_URL for openai, ANTHROPIC_BASE_URL "
        "for anthropic), e.g. http://localhost:11434/v1 for Ollama.",
    )(f)


def on_command_line(name: str, value: Any) -> Any:
    """`value` if the current command's option `name` was given on the command line, else
    None: a default is left to `doctree.compose.Settings.from_env`, which reads the
    environment for it."""
    ctx = click.get_current_context()
    return (
        value if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE else None
    )


def open_with_backend(state: Any, settings: Any, *, handlers: bool = False) -> Any:
    """The command's repository, opened between checking the backend and saying which one
    `auto` picked: a bad backend string fails before anything is opened, a database that
    cannot be reached is the run's one line, and then stderr says which backend `auto`
    picked and why (a paid API is never used silently; one named on purpose says nothing)."""
    choice = settings.backend_choice(handlers=handlers)
    repo = state.repo
    note = choice.note()
    if note is not None:
        click.echo(note, err=True)
    return repo
