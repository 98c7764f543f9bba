"""How the body of a version is stored: a compressed full copy, or a delta against the version
after it (as git packs history: the newest text whole, older ones as deltas from it), with a
full copy at least every `CHAIN` versions.

The store keeps one encoded value per version (`document_versions.body_data`); this module is
the only place that knows its format, and knows nothing of SQL, so every backend shares it:

- A new version is stored as `CURRENT`: its body is the document's current body, held whole
  in `documents.body_data`. When a later version is written, `encode_older(text, newer,
  version)` makes the value the superseded version keeps from then on: a delta against the
  text of the version after it, or a full copy for the last version of each block of
  `CHAIN` versions.
- `block(version)` is the range of versions whose values a read of `version` may need: its
  block, at most `CHAIN` rows, whatever the length of the history; `decode_sequence(pairs)`
  rebuilds every version of such a run of consecutive values, block by block.
- Until migration 008 a version was stored as a delta against the version *before* it
  (`encode`), from a full copy at the first version of each block: values of that kind stay
  readable as they are, and a block may hold both (the older kind first).
- `reencode_after(text_before, value)` and `reencode_before(text_after, value)` turn a delta
  into a full copy, for when the version it depends on is erased (redaction), so no value
  needs the erased text.

A value starts with one byte naming its kind:

    0x00  full copy, UTF-8
    0x01  full copy, raw DEFLATE of the UTF-8
    0x02  delta against the previous version (ops below; written until migration 008)
    0x03  delta, raw DEFLATE of the ops
    0x04  delta against the next version (ops below)
    0x05  delta against the next version, raw DEFLATE of the ops
    0x06  delta against the next version, raw DEFLATE of the ops with the end of the next
          version's text (the last `DICTIONARY` bytes of its UTF-8) as preset dictionary

Delta ops, each opened by an unsigned LEB128 varint `n`: `n & 1 == 0` copies `n >> 1`
characters of the previous text from the offset in the varint that follows; `n & 1 == 1`
inserts the next `n >> 1` bytes (UTF-8). Offsets and lengths of copies count characters
(code points), so applying a delta is slicing of Python strings.

Blocks: versions `k*CHAIN + 1` to `(k+1)*CHAIN` form a block. A superseded version is stored
in full when it is the last of its block (`v % CHAIN == 0`), when the next version has no
content (erased), or when a delta would not be smaller, so every delta against the next
version reaches a full copy (or the current version) within its block. The older kind of
delta started from a full copy at the first version of its block (`(v - 1) % CHAIN == 0`).
Redaction only ever turns deltas into full copies, so no chain leaves its block.

`CURRENT`, the empty value, stands for a full copy that is not stored twice: the version is
the document's current one, whose body `documents.body_data` holds (as `encode_full` makes
it). The store keeps it only in the row of the current version, and stores its
`encode_older` value there when a later version is written; a reader resolves it to the
current body (`doctree.store.rows.VERSION_BODY`) before decoding.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator

from doctree.errors import DoctreeError

CHAIN = 32
"""At most this many rows are read to rebuild any version."""

LEVEL = 6
"""zlib compression level (measured in bench/store.py: higher levels gain little here)."""

FULL_PLAIN, FULL_DEFLATE, DELTA_PLAIN, DELTA_DEFLATE = 0, 1, 2, 3
NEXT_PLAIN, NEXT_DEFLATE, NEXT_DICT = 4, 5, 6
DICTIONARY = 4096
"""Bytes of the next text (its end) a delta is packed with as DEFLATE's preset dictionary:
the words a one-line edit puts back are found in it as well as in the whole text (measured
on bench/store.py's edits: 19.9 bytes a delta against 19.5 with the whole 10 KB text, 40
without a dictionary), and a short one is quicker to set for each delta a read unpacks."""
CURRENT = b""
"""The stored value of a current version kept in full: its body is the document's current
body (`documents.body_data`), not a second copy of it."""
_MIN_COMPRESS = 48  # below this many bytes, DEFLATE never pays for itself
_MIN_DICT = 8  # below this many bytes of ops, not even DEFLATE with a dictionary does
_LINE_MATCH_MIN = 512  # a changed region this long is matched line by line


class EncodingError(DoctreeError):
    """A stored body could not be decoded (a damaged database)."""


# -- public interface --------------------------------------------------------------------


def is_keyframe(version: int) -> bool:
    """True if `version` is always stored as a full copy."""
    return (version - 1) % CHAIN == 0


def chain_start(version: int) -> int:
    """The first version of the block of `version`."""
    return version - (version - 1) % CHAIN


def block(version: int) -> tuple[int, int]:
    """The first and last versions whose stored values a read of `version` may need: its
    block of `CHAIN` versions."""
    start = chain_start(version)
    return start, start + CHAIN - 1


def encode_older(text: str, newer: str | None, version: int, full: bytes | None = None) -> bytes:
    """The stored value of `text` as version `version` once a later version exists, whose
    text is `newer` (None: it has no content): a delta against `newer`, or a full copy.

    `full` is `encode_full(text)` when the caller has it already.
    """
    if newer is not None and version % CHAIN != 0:
        delta = _encode_delta(newer, text, NEXT_PLAIN)
        if full is None:
            full = encode_full(text)
        return delta if len(delta) < len(full) else full
    return full if full is not None else encode_full(text)


def encode(text: str, base: str | None, version: int, full: bytes | None = None) -> bytes:
    """The value of `text` as version `version` in the kind written until migration 008: a
    delta against the previous version's text `base`, or a full copy. (Kept to read and
    test the values of that kind; the store writes `encode_older`.)"""
    if full is None:
        full = encode_full(text)
    if base is None or is_keyframe(version):
        return full
    delta = _encode_delta(base, text, DELTA_PLAIN)
    return delta if len(delta) < len(full) else full


def encode_full(text: str) -> bytes:
    """A full copy of `text`, compressed when that makes it smaller."""
    raw = text.encode("utf-8")
    if len(raw) >= _MIN_COMPRESS:
        packed = _deflate(raw)
        if len(packed) < len(raw):
            return bytes((FULL_DEFLATE,)) + packed
    return bytes((FULL_PLAIN,)) + raw


def is_full(value: bytes) -> bool:
    """True if the value needs no other version: a full copy, or `CURRENT`."""
    return not value or value[0] in (FULL_PLAIN, FULL_DEFLATE)


def needs_next(value: bytes | None) -> bool:
    """True if the value is a delta against the next version."""
    return (
        value is not None and len(value) > 0 and value[0] in (NEXT_PLAIN, NEXT_DEFLATE, NEXT_DICT)
    )


def needs_previous(value: bytes | None) -> bool:
    """True if the value is a delta against the previous version (the older kind)."""
    return value is not None and len(value) > 0 and value[0] in (DELTA_PLAIN, DELTA_DEFLATE)


def is_current(value: bytes | None) -> bool:
    """True if the value is `CURRENT`: the body is the document's current one."""
    return value is not None and len(value) == 0


def decode(value: bytes, base: str | None) -> str:
    """The text of one stored value; `base` is the text of the version the delta is
    against (the previous one, or the next one), None for a full copy."""
    if not value:
        raise EncodingError("the current version's value stands for the document's body")
    kind = value[0]
    if kind == FULL_PLAIN:
        return value[1:].decode("utf-8")
    if kind == FULL_DEFLATE:
        return _inflate(value[1:]).decode("utf-8")
    if kind in (DELTA_PLAIN, DELTA_DEFLATE, NEXT_PLAIN, NEXT_DEFLATE, NEXT_DICT):
        if base is None:
            which = "previous" if kind in (DELTA_PLAIN, DELTA_DEFLATE) else "next"
            raise EncodingError(f"a delta has no {which} version to apply to")
        if kind in (DELTA_PLAIN, NEXT_PLAIN):
            ops = value[1:]
        elif kind == NEXT_DICT:
            ops = _inflate(value[1:], _dictionary(base))
        else:
            ops = _inflate(value[1:])
        return _apply(base, ops)
    raise EncodingError(f"unknown body encoding {kind}")


def text_of(value: str | bytes) -> str:
    """A text stored either plain or as `encode_full` makes it (a passage's text on SQLite,
    `doctree.store.passages`)."""
    return value if isinstance(value, str) else decode(value, None)


def decode_sequence(pairs: Iterable[tuple[int, bytes | None]]) -> Iterator[tuple[int, str | None]]:
    """(version, text) for consecutive (version, value) pairs, rebuilt block by block.

    The pairs must start at the first version of a block (a `chain_start`, or version 1),
    or at a version stored as a delta against the next one (`needs_next`: it and the
    versions after it in its block need no earlier one), leave no gap, and hold every
    version of each block they reach up to its last one (or the document's current
    version), with `CURRENT` resolved to the current full copy.
    """
    run: list[tuple[int, bytes | None]] = []
    previous: int | None = None
    for version, value in pairs:
        if previous is not None and version != previous + 1:
            raise EncodingError(f"versions {previous} and {version} are not consecutive")
        previous = version
        if run and (version - 1) % CHAIN == 0:
            yield from zip([v for v, _ in run], decode_block([b for _, b in run]), strict=True)
            run = []
        run.append((version, value))
    if run:
        yield from zip([v for v, _ in run], decode_block([b for _, b in run]), strict=True)


def decode_block(values: list[bytes | None]) -> list[str | None]:
    """The texts of the values of consecutive versions from the first of a block: deltas
    against the previous version from the full copies before them, then deltas against the
    next version from the full copies after them. None: an erased version."""
    texts: list[str | None] = [None] * len(values)
    text: str | None = None
    waiting = False
    for i, value in enumerate(values):
        if value is None or needs_next(value):
            text = None
            waiting = waiting or value is not None
        else:
            text = decode(value, text)  # a full copy, or a delta against the text before
        texts[i] = text
    if waiting:
        text = None
        for i in range(len(values) - 1, -1, -1):
            value = values[i]
            if value is not None and needs_next(value):
                text = decode(value, text)
                texts[i] = text
            else:
                text = texts[i]
    return texts


def reencode_after(text_before: str, value: bytes) -> bytes:
    """`value` made independent of the previous version (whose text is `text_before`)."""
    if not needs_previous(value):
        return value
    return encode_full(decode(value, text_before))


def reencode_before(text_after: str, value: bytes) -> bytes:
    """`value` made independent of the next version (whose text is `text_after`)."""
    if not needs_next(value):
        return value
    return encode_full(decode(value, text_after))


# -- internals ------------------------------------------------------------------------------


_MIN_LOOKAHEAD = 262  # zlib's MIN_LOOKAHEAD: a match reaches back at most window - 262


def _window_bits(size: int) -> int:
    """The raw DEFLATE window (as zlib's negative `wbits`) for a stream of `size` bytes,
    its preset dictionary included: the smallest window whose reach holds all of it, 512
    bytes to 32 KB. A stream that fits gets the very bytes the 32 KB window gives (no match
    is cut short, nothing slides out of the window), from a compressor that allocates
    about half the memory: zlib's state for the 32 KB window is ~256 KB, of which the
    window and its chain links are 128 KB, fresh pages for the kernel to map when the
    allocator has returned them. Any stream is read back with the 32 KB window
    (`_inflate`)."""
    return -min(15, max(9, (size + _MIN_LOOKAHEAD - 1).bit_length()))


def _deflate(data: bytes) -> bytes:
    return zlib.compress(data, LEVEL, _window_bits(len(data)))


def _deflate_with(data: bytes, dictionary: bytes) -> bytes:
    wbits = _window_bits(len(dictionary) + len(data))
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, wbits, zdict=dictionary)
    return packer.compress(data) + packer.flush()


def _dictionary(base: str) -> bytes:
    """The preset dictionary of a delta against `base`: the last `DICTIONARY` bytes of its
    UTF-8 (a character cut in two at the start is only bytes to DEFLATE)."""
    return base[-DICTIONARY:].encode("utf-8")[-DICTIONARY:]


def _inflate(data: bytes, dictionary: bytes | None = None) -> bytes:
    try:
        if dictionary is None:
            return zlib.decompress(data, -15)
        unpacker = zlib.decompressobj(-15, zdict=dictionary)
        out = unpacker.decompress(data)  # all of it: the whole stream is given at once
        if not unpacker.eof:
            raise zlib.error("incomplete or truncated stream")
        return out
    except zlib.error as e:
        raise EncodingError(f"a stored body is damaged ({e})") from None


def _varint(n: int, out: bytearray) -> None:
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def _read_varint(data: bytes, i: int) -> tuple[int, int]:
    n = shift = 0
    while True:
        b = data[i]
        i += 1
        n |= (b & 0x7F) << shift
        if b < 0x80:
            return n, i
        shift += 7


def _common_prefix(a: str, b: str) -> int:
    """Length of the common prefix of a and b (string compares, no character loop)."""
    hi = min(len(a), len(b))
    if a[:hi] == b[:hi]:
        return hi
    lo = 0  # a[:lo] == b[:lo], a[:hi] != b[:hi]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid
    return lo


def _common_suffix(a: str, b: str, limit: int) -> int:
    """Length of the common suffix of a and b, at most `limit`."""
    la, lb = len(a), len(b)
    if limit == 0:
        return 0
    if a[la - limit :] == b[lb - limit :]:
        return limit
    lo, hi = 0, limit
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[la - mid : la - lo] == b[lb - mid : lb - lo]:
            lo = mid
        else:
            hi = mid
    return lo


def _ops(base: str, text: str) -> list[tuple[int, int] | str]:
    """Copy (start, length) and insert (text) ops that turn `base` into `text`."""
    p = _common_prefix(base, text)
    s = _common_suffix(base, text, min(len(base), len(text)) - p)
    old_mid, new_mid = base[p : len(base) - s], text[p : len(text) - s]
    ops: list[tuple[int, int] | str] = []
    if p:
        ops.append((0, p))
    if len(old_mid) >= _LINE_MATCH_MIN and len(new_mid) >= _LINE_MATCH_MIN:
        ops += _line_ops(old_mid, new_mid, p)
    elif new_mid:
        ops.append(new_mid)
    if s:
        ops.append((len(base) - s, s))
    return ops


def _line_ops(old: str, new: str, offset: int) -> list[tuple[int, int] | str]:
    """Ops for a long changed region: the lines it shares with the old one are copied."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    a_at = [0]
    for line in a:
        a_at.append(a_at[-1] + len(line))
    b_at = [0]
    for line in b:
        b_at.append(b_at[-1] + len(line))
    ops: list[tuple[int, int] | str] = []
    j = 0
    import difflib  # only when a delta is made, not at start-up

    for block in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        if block.b > j:
            ops.append(new[b_at[j] : b_at[block.b]])
        if block.size:
            start = a_at[block.a]
            ops.append((offset + start, a_at[block.a + block.size] - start))
        j = block.b + block.size
    return ops


def _encode_delta(base: str, text: str, kind: int) -> bytes:
    out = bytearray()
    for op in _ops(base, text):
        if isinstance(op, str):
            data = op.encode("utf-8")
            _varint(len(data) << 1 | 1, out)
            out += data
        else:
            start, length = op
            _varint(length << 1, out)
            _varint(start, out)
    ops = bytes(out)
    if kind == NEXT_PLAIN and len(ops) >= _MIN_DICT:
        # The text a delta inserts mostly repeats words of the text it applies to (packed
        # without the dictionary it would not be smaller: that is not tried).
        packed = _deflate_with(ops, _dictionary(base))
        if len(packed) < len(ops):
            return bytes((NEXT_DICT,)) + packed
    elif len(ops) >= _MIN_COMPRESS:
        packed = _deflate(ops)
        if len(packed) < len(ops):
            return bytes((kind + 1,)) + packed  # the DEFLATE kind follows the plain one
    return bytes((kind,)) + ops


def _apply(base: str, ops: bytes) -> str:
    parts: list[str] = []
    append = parts.append
    i, end = 0, len(ops)
    try:
        while i < end:
            # Varints of one or two bytes (below 16,384: the offsets and lengths of most
            # bodies) are read here, longer ones in _read_varint.
            n = ops[i]
            if n < 0x80:
                i += 1
            elif (hi := ops[i + 1]) < 0x80:
                n = (n & 0x7F) | hi << 7
                i += 2
            else:
                n, i = _read_varint(ops, i)
            if n & 1:
                size = n >> 1
                append(ops[i : i + size].decode("utf-8"))
                i += size
            else:
                start = ops[i]
                if start < 0x80:
                    i += 1
                elif (hi := ops[i + 1]) < 0x80:
                    start = (start & 0x7F) | hi << 7
                    i += 2
                else:
                    start, i = _read_varint(ops, i)
                append(base[start : start + (n >> 1)])
    except (IndexError, UnicodeDecodeError) as e:
        raise EncodingError(f"a stored delta is damaged ({e})") from None
    return "".join(parts)
