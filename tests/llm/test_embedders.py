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


def test_embedding_word_by_word_gives_the_vectors_of_the_whole_text():
    """Each distinct word is tokenized once and remembered; the vectors are those of the
    whole text tokenized at once (wordllama's way), spaces at the ends and in runs included."""
    from pathlib import Path

    import wordllama
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    e = embedder_named("wordllama")
    texts = [
        "the launch moved to December 8",
        "  two leading spaces, then  a run of   three",
        "trailing space ",
        "tabs\tand\nnew lines\n\n- a list item",
        "ünïcödé 日本語 🎉 and a ▁ sign",
        "    indented code\n    more",
        "the launch moved to December 8 and the launch moved again",
        " ",
    ]
    got = e.embed(texts)
    root = Path(wordllama.__file__).parent
    whole = Tokenizer.from_file(str(root / "tokenizers" / "l2_supercat_tokenizer_config.json"))
    table = load_file(str(root / "weights" / "l2_supercat_256.safetensors"))["embedding.weight"]
    for text, row in zip(texts, got, strict=True):
        ids = whole.encode(text, add_special_tokens=False).ids
        want = table[ids].astype(np.float32).sum(axis=0)
        want = want / np.linalg.norm(want)
        assert np.allclose(row, want, atol=1e-5), text
    assert np.array_equal(e.embed(texts[::-1]), got[::-1])  # the words remembered: the same


def test_the_default_embedder_reads_its_package_files_without_importing_the_package():
    """Loading the embedder costs its weights and tokenizer: the package's own code (an HTTP
    client among its imports) is not run, and the root logger is left as it was."""
    script = (
        "import logging, sys\n"
        "from doctree.llm.embedders import embedder_named\n"
        "before = list(logging.getLogger().handlers)\n"
        "e = embedder_named('wordllama')\n"
        "assert e.embed(['a kettle on the stove']).shape == (1, 256)\n"
        "assert logging.getLogger().handlers == before\n"
        "print(sorted({'wordllama', 'requests'} & set(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_missing_package_is_still_a_clear_error(monkeypatch):
    """Guard: with the package not found, the embedder says how to install it or go without."""
    import importlib.util

    from doctree.llm.embedders import WordLlamaEmbedder

    found = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "wordllama" else found(name, *a),
    )
    with pytest.raises(UserError, match="not installed.*DOCTREE_EMBEDDER=none"):
        WordLlamaEmbedder()
