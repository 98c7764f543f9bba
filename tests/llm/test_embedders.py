"""Embedders: the default loads from its wheel's own files with no network, and its vectors
are unit rows close for texts close in meaning."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from doctree.errors import UserError
from doctree.llm.embedders import default_embedder, embedder_named


def test_the_default_embedder_loads_and_embeds_without_opening_a_socket(tmp_path):
    guard = (
        "import socket\n"
        "def refuse(*a, **k):\n"
        "    raise OSError('network used')\n"
        "socket.socket.connect = refuse\n"
        "socket.socket.connect_ex = refuse\n"
        "socket.create_connection = refuse\n"
        "socket.getaddrinfo = refuse\n"
        "from doctree.llm.embedders import embedder_named\n"
        "e = embedder_named('wordllama')\n"
        "m = e.embed(['the launch moved to December 8', 'oat milk in my coffee'])\n"
        "print(e.name, m.shape[0], m.shape[1], str(m.dtype))\n"
    )
    # No Hugging Face offline switch, an empty home: a download would be tried and refused.
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "0"}
    done = subprocess.run(
        [sys.executable, "-c", guard], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["wordllama/l2_supercat-256", "2", "256", "float32"]
    assert not (tmp_path / ".cache").exists()  # nothing downloaded into a cache


def test_embeddings_are_unit_rows_and_close_in_meaning():
    e = default_embedder()
    assert e is not None
    m = e.embed(["when is the release?", "the launch moved to December 8", "oat milk please"])
    assert m.dtype == np.float32 and m.shape == (3, e.dimension)
    assert np.allclose(np.linalg.norm(m, axis=1), 1.0, atol=1e-5)
    assert m[0] @ m[1] > m[0] @ m[2]


def test_a_text_with_no_token_is_a_zero_row():
    e = embedder_named("wordllama:64")
    assert e is not None and e.dimension == 64
    m = e.embed(["", "bees"])
    assert not m[0].any() and abs(float(np.linalg.norm(m[1])) - 1.0) < 1e-5


@pytest.mark.parametrize("spec", ["word2vec", "wordllama:100", "wordllama:x", "none:1"])
def test_an_unknown_embedder_is_a_clear_error(spec):
    with pytest.raises(UserError, match="embedder|dimension"):
        embedder_named(spec)
