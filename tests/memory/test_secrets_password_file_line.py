"""A line of a PostgreSQL password file ("host:port:database:user:password") pasted into a
conversation: its password never reaches a page or the database file. Times, MAC and IPv6
addresses, a host and port, and a log line that ends in a plain word stay as they are."""

from __future__ import annotations

from pathlib import Path

import pytest

from doctree.store.secrets import find_secrets
from tests.memory.stored_bytes import stored_bytes

FOUND = [
    ("my password file has reports.lan:5433:ledger:auditor:vK8-pw2Qm", "vK8-pw2Qm"),
    ("localhost:*:*:postgres:m0ssy_Gate", "m0ssy_Gate"),
    ("*:5432:shop:shop_rw:Fern#4471 is the line I use", "Fern#4471"),
    ("10.8.0.3:6432:metrics:grafana:9xTq2Lw", "9xTq2Lw"),
]

KEPT = [
    "The train leaves at 10:30:00 and arrives at 12:45.",
    "The printer's MAC is de:12:ab:cd:ef:01.",
    "The router answers on fe80::1:2:3:4 and 2001:db8:0:0:1.",
    "The server listens on 10.0.0.5:8080 now.",
    "The log said 10.0.0.5:22:sshd:root:Accepted at noon.",
]


@pytest.mark.parametrize(("text", "secret"), FOUND)
def test_a_password_file_line_keeps_its_password_out_of_the_database(
    tmp_path: Path, text: str, secret: str
):
    assert find_secrets(text)
    data = stored_bytes(tmp_path, [text], "~/notes/db", "s-pgpass")
    assert secret.encode() not in data


@pytest.mark.parametrize("text", KEPT)
def test_colon_separated_lines_that_hold_no_password_stay(text: str):
    assert find_secrets(text) == []
