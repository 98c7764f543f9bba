"""The one place each SDK client is made: `anthropic.Anthropic` and `openai.OpenAI`.

The key is the one given, else `ANTHROPIC_API_KEY`; without either, `require_key` refuses
(the memory agent on the real API), otherwise the placeholder "none" is sent, for a keyless
compatible endpoint named by `ANTHROPIC_BASE_URL` (compaction, token counting). The base
URL is the one given, else `ANTHROPIC_BASE_URL`, else the SDK's default.
"""

from __future__ import annotations

import os
from typing import Any

from doctree.errors import UserError

DEFAULT_MAX_RETRIES = 2


def anthropic_client(
    *,
    api_key: str | None = None,
    base_url: str | None = None,
    max_retries: int = DEFAULT_MAX_RETRIES,
    timeout: float | None = None,
    require_key: str | None = None,
) -> Any:
    """An SDK client. `require_key` names who needs a real key (e.g. "backend 'anthropic'")
    and makes a missing one a user error."""
    import anthropic

    key = api_key or os.environ.get("ANTHROPIC_API_KEY")
    if not key:
        if require_key:
            raise UserError(f"{require_key}: set ANTHROPIC_API_KEY")
        key = "none"
    options: dict[str, Any] = {"api_key": key, "max_retries": max_retries}
    url = base_url or os.environ.get("ANTHROPIC_BASE_URL")
    if url:
        options["base_url"] = url
    if timeout is not None:
        options["timeout"] = timeout
    return anthropic.Anthropic(**options)


def openai_client(
    *,
    api_key: str | None = None,
    base_url: str | None = None,
    max_retries: int = DEFAULT_MAX_RETRIES,
    timeout: float | None = None,
) -> Any:
    """An `openai.OpenAI` client for a chat-completions server (the `openai` backend).

    The base URL is the one given, else `OPENAI_BASE_URL`, else OpenAI's API; the key is the
    one given, else `OPENAI_API_KEY`. A local server (any base URL) needs no key and gets the
    placeholder "none"; OpenAI's own API without a key is refused. The SDK is the optional
    extra `doctree[openai]`; without it this is a user error saying how to install it.
    """
    try:
        import openai
    except ImportError:
        raise UserError(
            "backend 'openai': the openai SDK is not installed; pip install 'doctree[openai]'"
        ) from None
    url = base_url or os.environ.get("OPENAI_BASE_URL")
    key = api_key or os.environ.get("OPENAI_API_KEY")
    if not key:
        if not url:
            raise UserError(
                "backend 'openai': set OPENAI_BASE_URL (or --base-url) to a local server such "
                "as http://localhost:11434/v1, or OPENAI_API_KEY for OpenAI's API"
            )
        key = "none"
    options: dict[str, Any] = {"api_key": key, "max_retries": max_retries}
    if url:
        options["base_url"] = url
    if timeout is not None:
        options["timeout"] = timeout
    return openai.OpenAI(**options)
