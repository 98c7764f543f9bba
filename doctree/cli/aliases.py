"""Options renamed to the project's vocabulary keep their old names working for scripts,
out of `--help` and docs/cli.md."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click


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
