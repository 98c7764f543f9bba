"""Secrets never reach memory: the detector, the guard on the write path, and a model-backed
run (the real SDK over HTTP against the scripted fake) that writes what the user typed."""

from __future__ import annotations

import pytest

from doctree.agent.runtime import MemoryAgentRuntime
from doctree.interop.tools import MemoryTools
from doctree.memory.secrets import contains_secret, find_secrets, redact, secret_location
from doctree.sessions.transcripts import format_transcript
from tests.fakes.messages_api import FakeMessagesServer, ScriptedMemoryModel

SECRETS = [
    (
        "the staging key is sk-ant-api03-Zx8Qw7Er6Ty5Ui4Op3As2Df1",
        "sk-ant-api03-Zx8Qw7Er6Ty5Ui4Op3As2Df1",
    ),
    (
        "token ghp_Zx8Qw7Er6Ty5Ui4Op3As2Df1Gh0Jk9Lm8Nb7V works",
        "ghp_Zx8Qw7Er6Ty5Ui4Op3As2Df1Gh0Jk9Lm8Nb7V",
    ),
    ("AWS: AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    ("slack bot xoxb-123456789012-abcdefghijkl", "xoxb-123456789012-abcdefghijkl"),
    ("the wifi password is hunter2!x", "hunter2!x"),
    ("password for the reporting replica is Tr0ub4dor&3x, in the vault", "Tr0ub4dor&3x"),
    ("db url postgres://admin:S3cretPass@db.internal:5432/app", "S3cretPass"),
    ("the door code is 4711", "4711"),
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----", "MIIEow"),
    ("api_key = 9f8e7d6c5b4a39281706f5e4d3c2b1a0", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"),
]
NOT_SECRETS = [
    "the password is in the vault",
    "the token expired yesterday",
    "I prefer green tea",
    "the API key for staging lives in 1Password",
    "we rotated the secret key last week",
    "call me at 10:30 on December 4",
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_secrets_are_found_and_withheld(text, secret):
    clean, found = redact(text)
    assert found and secret not in clean
    assert "[secret withheld: " in clean
    assert not contains_secret(clean)  # a placeholder is not a secret


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_plain_words_are_not_secrets(text):
    assert find_secrets(text) == []


def test_where_the_user_keeps_a_secret():
    assert secret_location("the key is sk-ant-x, it lives in 1Password under Staging") == (
        "in 1Password under Staging"
    )
    assert secret_location("no idea") is None


def test_the_write_path_withholds_a_secret_whoever_writes(repo):
    tools = MemoryTools(repo, "main", session_id="s-1")
    r = tools.call(
        "document_write",
        {
            "path": "~/memory/notes",
            "body": "# Notes\n\n- token ghp_Zx8Qw7Er6Ty5Ui4Op3As2Df1Gh0Jk9Lm8Nb7V\n",
        },
    )
    assert not r.is_error and "secret(s) (GitHub token) withheld" in r.content
    body = repo.read("main", "~/memory/notes").body
    assert "ghp_" not in body and "[secret withheld: GitHub token]" in body
    r = tools.call(
        "document_edit",
        {"path": "~/memory/notes", "old_string": "# Notes", "new_string": "# Notes pw: hunter2!x"},
    )
    assert not r.is_error
    assert "hunter2" not in repo.read("main", "~/memory/notes").body


def _transcript(session: str, time: str, text: str) -> str:
    return format_transcript(
        [{"kind": "user", "time": time, "content": text}], agent="main", session_id=session
    )


def test_a_model_backed_run_forgets_on_request_and_never_stores_a_secret(repo):
    with FakeMessagesServer(ScriptedMemoryModel()) as srv:
        runtime = MemoryAgentRuntime(
            repo, backend="anthropic", api_key="k", base_url=srv.base_url, max_retries=0
        )
        try:
            runtime.run(
                "main",
                "s-1",
                _transcript(
                    "s-1",
                    "2026-12-01T09:00:00Z",
                    "The standup moved to 9:30 with Ana. My token is "
                    "ghp_Zx8Qw7Er6Ty5Ui4Op3As2Df1Gh0Jk9Lm8Nb7V, it is in 1Password.",
                ),
            )
            assert "9:30" in repo.read("main", "~/memory/archive/2026-W49/s-1").body
            runtime.run(
                "main",
                "s-2",
                _transcript(
                    "s-2", "2026-12-02T09:00:00Z", "Please forget what I said about the standup."
                ),
            )
        finally:
            runtime.close()
    assert "9:30" not in repo.read("main", "~/memory/archive/2026-W49/s-1").body
    for v in repo.log("main", "~", limit=None):
        assert "ghp_" not in (v.body or ""), v.path
