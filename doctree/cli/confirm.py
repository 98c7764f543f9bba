"""Preview and confirmation for the commands that change much at once: forget, redact,
compact, revert, `rm` of a subtree and an `import` that replaces documents already there.

Each command first works out what it would change (its dry run) and hands the lines of
that preview here. With `--dry-run` the preview is printed and nothing changes. With
`--yes` the command goes ahead without asking (for scripts). Otherwise, in a terminal, the
preview is shown and the user is asked; without a terminal (stdin is not a tty), the
command refuses with a one-line hint and exit 2, so that a script never erases by accident.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence

import click

from doctree.cli.options import yes_option as yes_option  # (defined there, light)
from doctree.errors import UserError


def highlight(line: str, spans: Sequence[Sequence[int]]) -> str:
    """`line` with the spans marked: bold red in a terminal (click drops the colour
    elsewhere), and between `»` and `«` so the mark shows without colour too."""
    out, last = [], 0
    for a, b in sorted((int(s[0]), int(s[1])) for s in spans):
        if a < last:
            continue
        out.append(line[last:a])
        out.append(click.style(f"»{line[a:b]}«", fg="red", bold=True))
        last = b
    out.append(line[last:])
    return "".join(out)


def stdin_is_terminal() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def confirm(
    command: str,
    preview: Callable[[], Iterable[str]],
    *,
    yes: bool,
    dry_run: bool,
    changes: bool,
    quiet: bool = False,
) -> bool:
    """Whether `command` may go ahead: True with `yes`; on a dry run False, after printing
    the preview; otherwise the preview is shown and, in a terminal, the user asked
    (declining exits 1, nothing changed), while without a terminal a `UserError` names
    `--yes` and `--dry-run`. `changes` False: nothing would change, nothing is asked.
    `quiet` (JSON output): the preview of a dry run is left to the caller."""
    if dry_run:
        if not quiet:
            for line in preview():
                click.echo(line)
        return False
    if yes or not changes:
        return True
    if not stdin_is_terminal():
        raise UserError(
            f"{command}: changes stored memory and stdin is not a terminal to ask on; "
            f"pass --yes to go ahead, or --dry-run to see what it would change"
        )
    for line in preview():
        click.echo(line, err=quiet)
    if click.confirm(f"{command}: go ahead?", default=False, err=quiet):
        return True
    click.echo("nothing changed", err=True)
    click.get_current_context().exit(1)
    return False
