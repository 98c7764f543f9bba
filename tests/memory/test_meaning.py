"""Retrieval by meaning: passages get vectors once a search by meaning is asked of a
database and keep them in step from then on, a rewritten or deleted passage never keeps the
vector of its old text, a change of model rebuilds them, and search by meaning finds what
words miss — on SQLite and on PostgreSQL."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from doctree.cli import cli
from doctree.errors import UserError
from doctree.llm.embedders import default_embedder
from doctree.memory.erase import forget
from doctree.memory.meaning import ensure_vectors
from doctree.memory.passages import sync_passages
from doctree.memory.ranking import DEFAULT_SETTINGS, Settings
from doctree.memory.recall import DEFAULT_RECALL, blend, hand_over, recall
from doctree.memory.retrieval import rank_documents, retrieve, search_documents
from doctree.sessions.transcripts import Message
from doctree.store import encoding
from doctree.store.documents import DocumentsRepository
from doctree.store.encoding import encode_full
from doctree.store.vectors import VectorIndex

OWNER = "main"


def write(repo: DocumentsRepository, path: str, body: str) -> None:
    repo.write(OWNER, path, body)


def mode(m: str, **kw) -> Settings:
    return dataclasses.replace(DEFAULT_SETTINGS, mode=m, **kw)


def stored(repo: DocumentsRepository, kind: str) -> dict[int, tuple[str, np.ndarray]]:
    """Every stored vector of OWNER in `kind`, with the current text of its passage."""
    table = "passages" if kind == "passages" else "recall_passages"
    rows = repo.conn.execute(f"SELECT id, text FROM {table} WHERE owner = ?", (OWNER,))
    texts = {r[0]: encoding.text_of(r[1]) for r in rows}  # packed on SQLite
    vectors = VectorIndex(repo.conn, kind)
    out = {}
    for pid, text in texts.items():
        v = vectors.vector(OWNER, pid)
        if v is not None:
            out[pid] = (text, v)
    return out


def cosine_to(text: str, v: np.ndarray) -> float:
    e = default_embedder()
    assert e is not None
    return float(v @ e.embed([text])[0])


def test_passages_get_no_vectors_until_meaning_is_asked_for(repo, monkeypatch):
    """Indexing stays as cheap as before for a database that only searches by words."""
    monkeypatch.setenv("DOCTREE_RETRIEVAL", "lexical")
    write(repo, "~/memory/notes/launch", "The launch moved to December 8.")
    retrieve(repo, OWNER, "launch", budget_words=50, settings=mode("lexical"))
    vectors = VectorIndex(repo.conn, "passages")
    assert not vectors.active() and vectors.count(OWNER) == 0


def test_no_passage_waits_for_a_vector_until_meaning_is_asked_for(repo, monkeypatch):
    """Nothing reads the queue before a model is adopted, and adopting one queues every
    passage: until then the queue stays empty (migration 006), and no passage is missed."""
    monkeypatch.setenv("DOCTREE_RETRIEVAL", "lexical")
    write(repo, "~/memory/notes/launch", "The launch moved to December 8.\n\nOat milk.")
    retrieve(repo, OWNER, "launch", budget_words=50, settings=mode("lexical"))
    queued = "SELECT COUNT(*) FROM vector_pending"
    assert repo.conn.execute(queued).fetchone()[0] == 0
    retrieve(repo, OWNER, "release", budget_words=50, settings=mode("hybrid"))
    assert VectorIndex(repo.conn, "passages").count(OWNER) == 2
    # Once a model is adopted, a passage whose text is rewritten waits again.
    write(repo, "~/memory/notes/launch", "The launch moved to December 9.\n\nOat milk.")
    sync_passages(repo, OWNER)
    assert VectorIndex(repo.conn, "passages").count(OWNER) == 2


def test_with_meaning_configured_passages_get_vectors_when_indexed_not_when_searched(
    repo, monkeypatch
):
    """When the configured mode uses meaning, the index's catch-up embeds the passages it
    stores, and the first search reads vectors rather than making them."""
    monkeypatch.setenv("DOCTREE_RETRIEVAL", "hybrid")
    write(repo, "~/memory/notes/launch", "The launch moved to December 8.\n\nOat milk.")
    sync_passages(repo, OWNER)
    assert VectorIndex(repo.conn, "passages").count(OWNER) == 2
    ctx = retrieve(repo, OWNER, "when is the release?", budget_words=50)
    assert "December 8" in ctx.text  # found by meaning: no word of the question is in it


def test_the_first_search_by_meaning_embeds_every_passage_then_indexing_keeps_them(
    repo, monkeypatch
):
    monkeypatch.setenv("DOCTREE_RETRIEVAL", "lexical")
    write(repo, "~/memory/notes/launch", "The launch moved to December 8.\n\nOat milk in coffee.")
    retrieve(repo, OWNER, "release", budget_words=50, settings=mode("hybrid"))
    got = stored(repo, "passages")
    assert len(got) == 2
    for text, v in got.values():
        assert cosine_to(text, v) > 0.99
    # From now on a new passage gets its vector when it is indexed, not when searched.
    write(repo, "~/memory/people/ann", "Ann keeps bees on the roof.")
    sync_passages(repo, OWNER)
    vectors = VectorIndex(repo.conn, "passages")
    assert vectors.pending(OWNER) == 0
    assert any("bees" in text for text, _ in stored(repo, "passages").values())


def test_a_rewritten_passage_loses_the_vector_of_its_old_text(repo):
    """Any path that rewrites a passage's text in place gets this from the triggers."""
    write(repo, "~/memory/people/ann", "Ann keeps bees on the roof.")
    sync_passages(repo, OWNER)
    assert ensure_vectors(repo.conn, "passages", OWNER)
    (pid,) = stored(repo, "passages")
    with repo.transaction():
        # as the store writes it: packed (`encoding.encode_full`) on both backends
        text = encode_full("Ann [forgotten].")
        repo.conn.execute("UPDATE passages SET text = ? WHERE id = ?", (text, pid))
    vectors = VectorIndex(repo.conn, "passages")
    assert vectors.vector(OWNER, pid) is None
    assert vectors.pending(OWNER) == 1
    assert ensure_vectors(repo.conn, "passages", OWNER)
    assert cosine_to("Ann [forgotten].", vectors.vector(OWNER, pid)) > 0.99


def test_after_forget_no_vector_of_the_erased_text_remains(repo):
    write(repo, "~/memory/people/bob", "Bob's locker code is tangerine falcon.\n\nBob likes jazz.")
    said = [Message("user", "2026-03-01T10:00:00Z", "my locker code is tangerine falcon")]
    hand_over(repo.conn, OWNER, "s1", said)
    sync_passages(repo, OWNER)
    assert ensure_vectors(repo.conn, "passages", OWNER)
    assert ensure_vectors(repo.conn, "recall", OWNER)
    e = default_embedder()
    assert e is not None
    erased = e.embed(
        ["Bob's locker code is tangerine falcon.", "my locker code is tangerine falcon"]
    )
    assert len(stored(repo, "recall")) == 1
    forget(repo, OWNER, "tangerine falcon")
    sync_passages(repo, OWNER)  # the pages' passages are cut again, with their vectors
    assert ensure_vectors(repo.conn, "recall", OWNER)  # the rewritten record's, embedded anew
    for kind in ("passages", "recall"):
        assert VectorIndex(repo.conn, kind).pending(OWNER) == 0
        left = stored(repo, kind)
        assert left, kind
        for text, v in left.values():
            assert "tangerine" not in text
            assert cosine_to(text, v) > 0.99  # the vector of the text there now
            assert float((erased @ v).max()) < 0.99


def test_after_forget_or_redact_a_reader_holds_no_vector_of_the_passages_gone(repo):
    """A reader's vectors, kept in memory across the erasure, catch up by the deletions
    listed since (`vector_deletions`): no passage gone keeps its vector there, and they are
    what a whole read gives."""
    from doctree.memory.erase import redact
    from doctree.store import vectors as v

    write(repo, "~/memory/people/bob", "Bob's locker code is tangerine falcon.\n\nBob likes jazz.")
    write(repo, "~/memory/notes/garden", "The garden needs water.\n\nTomatoes ripen in July.")
    write(repo, "~/memory/notes/trip", "The trip to Lisbon is in May.\n\nPack light.")
    sync_passages(repo, OWNER)
    assert ensure_vectors(repo.conn, "passages", OWNER)
    e = default_embedder()
    assert e is not None
    vectors = VectorIndex(repo.conn, "passages")
    q = e.embed(["the locker code"])[0]

    def held() -> v._Matrix:
        vectors.search(OWNER, q, 5)  # the reader's matrix, kept in memory
        m = vectors._matrix(OWNER, *vectors.model())
        assert m is not None
        return m

    def assert_caught_up(m: v._Matrix, before: set[int]) -> None:
        now = stored(repo, "passages")
        assert before - set(now), "no passage was cut anew"
        assert not (before - set(now)) & set(m.ids.tolist())
        assert sorted(m.ids.tolist()) == sorted(now)
        for i, pid in enumerate(m.ids.tolist()):
            assert float(m.full[i] @ now[pid][1]) > 0.99  # the vector stored now

    held()
    before = set(stored(repo, "passages"))
    forget(repo, OWNER, "tangerine falcon")
    sync_passages(repo, OWNER)
    assert ensure_vectors(repo.conn, "passages", OWNER)
    assert_caught_up(held(), before)
    before = set(stored(repo, "passages"))
    redact(repo, OWNER, "~/memory/notes/garden", "Tomatoes")
    sync_passages(repo, OWNER)
    assert ensure_vectors(repo.conn, "passages", OWNER)
    assert_caught_up(held(), before)


def test_a_change_of_model_rebuilds_the_vectors(repo, monkeypatch):
    write(repo, "~/memory/notes/a", "The launch moved to December 8.")
    retrieve(repo, OWNER, "release", budget_words=50, settings=mode("semantic"))
    vectors = VectorIndex(repo.conn, "passages")
    assert vectors.model() == ("wordllama/l2_supercat-256", 256)
    monkeypatch.setenv("DOCTREE_EMBEDDER", "wordllama:64")
    ctx = retrieve(repo, OWNER, "when is the release", budget_words=100, settings=mode("semantic"))
    assert vectors.model() == ("wordllama/l2_supercat-64", 64)
    ((_, v),) = stored(repo, "passages").values()
    assert v.shape == (64,)
    assert "December 8" in ctx.text


def test_embedder_none_turns_meaning_off_and_leaves_words(repo, monkeypatch):
    monkeypatch.setenv("DOCTREE_EMBEDDER", "none")
    write(repo, "~/memory/notes/a", "The launch moved to December 8.")
    assert not retrieve(repo, OWNER, "release", budget_words=50, settings=mode("semantic")).text
    assert (
        "December 8"
        in retrieve(repo, OWNER, "launch", budget_words=50, settings=mode("hybrid")).text
    )
    assert not VectorIndex(repo.conn, "passages").active()


def test_search_by_meaning_finds_a_page_that_words_miss(repo):
    write(repo, "~/memory/projects/apollo", "The launch moved to December 8.")
    write(repo, "~/memory/people/ann", "Ann keeps bees on the roof.")
    query = "when is the release date?"
    assert not retrieve(repo, OWNER, query, budget_words=50, settings=mode("lexical")).passages
    found = retrieve(repo, OWNER, query, budget_words=8, settings=mode("semantic"))
    assert [p.path for p in found.passages] == ["~/memory/projects/apollo"]
    found = retrieve(repo, OWNER, query, budget_words=8, settings=mode("hybrid"))
    assert [p.path for p in found.passages] == ["~/memory/projects/apollo"]
    ranked = rank_documents(repo, OWNER, query, settings=mode("hybrid"))
    assert ranked[0].path == "~/memory/projects/apollo"


def test_hybrid_keeps_what_words_find_first(repo):
    write(repo, "~/memory/notes/tea", "Green tea every morning, never coffee after noon.")
    write(repo, "~/memory/notes/sea", "The sea was calm on the crossing.")
    ctx = retrieve(repo, OWNER, "green tea", budget_words=12, settings=mode("hybrid"))
    assert [p.path for p in ctx.passages] == ["~/memory/notes/tea"]


def test_recall_finds_what_was_said_by_meaning(repo):
    hand_over(
        repo.conn,
        OWNER,
        "s-drink",
        [
            Message("user", "2026-03-01T08:00:00Z", "I always take oat milk in my coffee."),
            Message("user", "2026-03-01T08:05:00Z", "The printer on floor two is broken."),
        ],
    )
    query = "which beverage do I like with breakfast?"
    lexical = dataclasses.replace(DEFAULT_RECALL, mode="lexical")
    assert not recall(repo, OWNER, query, budget=20, settings=lexical).passages
    semantic = dataclasses.replace(DEFAULT_RECALL, mode="semantic")
    said = recall(repo, OWNER, query, budget=20, settings=semantic)
    assert [p.text for p in said.passages] == ["I always take oat milk in my coffee."]
    # and from then on a hand-over embeds what it stores
    hand_over(repo.conn, OWNER, "s-2", [Message("user", "2026-03-02T08:00:00Z", "Jazz tonight.")])
    assert VectorIndex(repo.conn, "recall").pending(OWNER) == 0


def test_blend_in_hybrid_mode_recalls_by_meaning(repo):
    hand_over(
        repo.conn,
        OWNER,
        "s-drink",
        [Message("user", "2026-03-01T08:00:00Z", "I always take oat milk in my coffee.")],
    )
    query = "which beverage do I like with breakfast?"
    settings = dataclasses.replace(DEFAULT_RECALL, mode="hybrid")
    _, said = blend(repo, OWNER, query, budget_words=200, settings=settings)
    assert [p.text for p in said.passages] == ["I always take oat milk in my coffee."]


def test_search_documents_by_meaning_keeps_out_what_the_query_excludes(repo):
    write(repo, "~/memory/projects/apollo", "The launch moved to December 8.")
    write(repo, "~/memory/projects/kafka", "Kafka's launch slipped to spring.")
    hits = search_documents(repo, OWNER, "when is the release", mode="semantic")
    assert "~/memory/projects/apollo" in {h.path for h in hits}
    hits = search_documents(repo, OWNER, "when is the release -kafka", mode="hybrid")
    assert "~/memory/projects/kafka" not in {h.path for h in hits}
    assert search_documents(repo, OWNER, "when is the release", mode="lexical") == []


def test_an_unknown_mode_is_a_clear_error(repo):
    with pytest.raises(UserError, match="mode 'fuzzy': must be one of lexical, semantic, hybrid"):
        search_documents(repo, OWNER, "x", mode="fuzzy")
    with pytest.raises(UserError, match="mode 'fuzzy'"):
        retrieve(repo, OWNER, "x", budget_words=10, settings=mode("fuzzy"))


def test_cli_search_mode(db_path):
    runner = CliRunner()
    db = str(db_path)
    body = "The launch moved to December 8."
    r = runner.invoke(cli, ["--db", db, "write", "~/memory/projects/apollo"], input=body)
    assert r.exit_code == 0, r.output
    r = runner.invoke(cli, ["--db", db, "search", "when is the release", "--mode", "lexical"])
    assert r.exit_code == 0 and "no matches" in r.output
    args = ["--db", db, "search", "when is the release", "--mode", "hybrid", "--json"]
    r = runner.invoke(cli, args)
    assert r.exit_code == 0, r.output
    assert [h["path"] for h in json.loads(r.output)] == ["~/memory/projects/apollo"]
    r = runner.invoke(cli, ["--db", db, "search", "release", "--mode", "fuzzy"])
    assert r.exit_code == 2 and "fuzzy" in r.output


def test_retrieval_by_words_loads_neither_numpy_nor_an_embedder(tmp_path):
    """A store searched by words only pays nothing for meaning: not numpy's import, not
    the embedder's weights, at write, catch-up, hand-over or search."""
    script = (
        "import sys\n"
        "from doctree.memory.recall import blend, hand_over\n"
        "from doctree.sessions.transcripts import Message\n"
        "from doctree.store.documents import DocumentsRepository\n"
        f"repo = DocumentsRepository({str(tmp_path / 'm.db')!r})\n"
        "repo.write('main', '~/memory/notes/a', 'The launch moved to December 8.')\n"
        "hand_over(repo.conn, 'main', 's1', [Message('user', '2026-03-01T08:00:00Z', 'hi')])\n"
        "ctx, _ = blend(repo, 'main', 'launch', budget_words=100)\n"
        "assert 'December 8' in ctx.text, ctx.text\n"
        "print(sorted({'numpy', 'wordllama', 'tokenizers'} & set(sys.modules)))\n"
    )
    env = {**os.environ, "DOCTREE_RETRIEVAL": "lexical"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_doctree_retrieval_sets_the_default_mode_at_every_door(repo, monkeypatch):
    write(repo, "~/memory/projects/apollo", "The launch moved to December 8.")
    query = "when is the release date?"
    monkeypatch.setenv("DOCTREE_RETRIEVAL", "lexical")
    assert not retrieve(repo, OWNER, query, budget_words=50).passages
    assert search_documents(repo, OWNER, query) == []
    monkeypatch.setenv("DOCTREE_RETRIEVAL", "hybrid")
    assert "December 8" in retrieve(repo, OWNER, query, budget_words=50).text
    assert [h.path for h in search_documents(repo, OWNER, query)] == ["~/memory/projects/apollo"]
    assert rank_documents(repo, OWNER, query)[0].path == "~/memory/projects/apollo"
    monkeypatch.setenv("DOCTREE_RETRIEVAL", "fuzzy")
    with pytest.raises(UserError, match="DOCTREE_RETRIEVAL 'fuzzy': must be one of"):
        retrieve(repo, OWNER, query, budget_words=50)


def test_cli_context_follows_doctree_retrieval(db_path):
    runner = CliRunner()
    db = str(db_path)
    body = "The launch moved to December 8."
    r = runner.invoke(cli, ["--db", db, "write", "~/memory/projects/apollo"], input=body)
    assert r.exit_code == 0, r.output
    args = ["--db", db, "context", "--query", "when is the release", "--words", "60"]
    r = runner.invoke(cli, args, env={"DOCTREE_RETRIEVAL": "lexical"})
    assert r.exit_code == 0 and "December 8" not in r.output
    r = runner.invoke(cli, args, env={"DOCTREE_RETRIEVAL": "hybrid"})
    assert r.exit_code == 0 and "December 8" in r.output, r.output
    r = runner.invoke(cli, args, env={"DOCTREE_RETRIEVAL": "fuzzy"})
    assert r.exit_code == 2 and "DOCTREE_RETRIEVAL 'fuzzy'" in r.output


UNRELATED = "volcano eruption"


def _a_small_memory(repo: DocumentsRepository) -> None:
    write(repo, "~/memory/projects/apollo", "The launch moved to December 8.")
    write(repo, "~/memory/people/ann", "Ann keeps bees on the roof.")
    write(repo, "~/memory/notes/drinks", "Oat milk in my coffee, green tea after lunch.")
    hand_over(
        repo.conn,
        OWNER,
        "s-drink",
        [
            Message("user", "2026-03-01T08:00:00Z", "I always take oat milk in my coffee."),
            Message("user", "2026-03-01T08:05:00Z", "The printer on floor two is broken."),
        ],
    )


@pytest.mark.parametrize("how", ["semantic", "hybrid"])
def test_a_query_about_nothing_stored_finds_nothing_by_meaning(repo, how):
    _a_small_memory(repo)
    assert not retrieve(repo, OWNER, UNRELATED, budget_words=200, settings=mode(how)).passages
    settings = dataclasses.replace(DEFAULT_RECALL, mode=how)
    assert not recall(repo, OWNER, UNRELATED, budget=200, settings=settings).passages
    pages, said = blend(repo, OWNER, UNRELATED, budget_words=200, settings=settings)
    assert not pages.passages and not said.passages
    assert search_documents(repo, OWNER, UNRELATED, mode=how) == []
    # while a question about what is stored still finds it by meaning alone
    found = retrieve(repo, OWNER, "when is the release date?", budget_words=8, settings=mode(how))
    assert [p.path for p in found.passages] == ["~/memory/projects/apollo"]


def test_without_the_floor_the_nearest_unrelated_passages_come_back(repo):
    """The floor is what keeps them out: at 0 the vectors always have a nearest passage."""
    _a_small_memory(repo)
    floorless = mode("semantic", semantic_floor=0.0)
    assert retrieve(repo, OWNER, UNRELATED, budget_words=200, settings=floorless).passages


def test_hybrid_keeps_the_records_word_ranking_and_adds_what_only_meaning_finds():
    # The record fuses by "add": a turn with the question's words keeps its place ahead of
    # one nearer in meaning, and a turn only meaning finds comes after them; fusion by
    # scores would let the cosine reorder the first two.
    from doctree.memory.meaning import fuse
    from doctree.store.recall import RecallHit

    def hit(i: int, score: float) -> RecallHit:
        return RecallHit(
            i, "s", f"h{i}", 0, "user", "2026-03-01T08:00:00Z", None, f"t{i}", 1, score
        )

    by_words = [hit(1, 10.0), hit(2, 9.5)]
    by_meaning = [hit(2, 0.9), hit(3, 0.8), hit(1, 0.3)]
    assert DEFAULT_RECALL.fusion == "add"
    assert [h.id for h in fuse(by_words, by_meaning, DEFAULT_RECALL)] == [1, 2, 3]
    scores = dataclasses.replace(DEFAULT_RECALL, fusion="scores")
    assert [h.id for h in fuse(by_words, by_meaning, scores)][:2] == [2, 1]


@pytest.mark.parametrize(
    ("question", "gathers"),
    [
        ("What is the total number of siblings I have?", True),
        ("How many pieces of jewelry did I buy?", True),
        ("How much did the trip cost in all?", True),
        ("How many weeks ago did I start the course?", False),  # asks for a time
        ("Which book did I finish a week ago?", False),
    ],
)
def test_a_question_that_counts_or_totals_is_read_as_gathering(question, gathers):
    from doctree.memory.query import parse_query

    assert parse_query(question).gathers is gathers


def test_a_counting_question_weighs_meaning_as_much_as_words(repo):
    """Its evidence ('two brothers and one sister') often shares none of its words, while
    passages that share only its other words ('list') match: meaning counts as much as
    words for it (`gather_weight`), where for other questions a fifth (`semantic_weight`)."""
    write(repo, "~/memory/notes/family", "I have two brothers and one sister.")
    for i, text in enumerate(
        [
            "Call the plumber back, his name is on the list next to the fridge door.",
            "The bus times changed when the new list started in the spring.",
            "Write the order on the list before it goes to the post office.",
            "My seat was printed on the list in small letters.",
        ]
    ):
        write(repo, f"~/memory/notes/n{i}", text)
    question = "How many siblings are on my list?"

    def scores(**kw) -> tuple[float, float]:
        ctx = retrieve(repo, OWNER, question, budget_words=200, settings=mode("hybrid", **kw))
        by_path = {p.path: p.score for p in ctx.passages}
        family = by_path.pop("~/memory/notes/family")
        return family, min(by_path.values())

    family, words_only = scores(gather_weight=DEFAULT_SETTINGS.semantic_weight)
    assert family < 0.5 * words_only  # far below every passage that has its other word
    family, words_only = scores()
    assert family > 0.9 * words_only  # level with them


def test_the_words_that_make_a_question_count_are_not_searched_for(repo):
    """'The total number of siblings' is about siblings: 'total' and 'number' would match
    every passage that has a total or a number, ahead of the one about siblings."""
    from doctree.memory.query import parse_query

    q = parse_query("What is the total number of siblings I have?")
    assert q.gathers and q.terms == ["siblings"] and q.phrases == []
    assert parse_query("What is the total?").terms == ["total"]  # nothing else to search
    assert parse_query("Which number did I call?").terms == ["number", "call"]  # not counting
    write(repo, "~/memory/notes/family", "My siblings came over for dinner on Sunday.")
    write(repo, "~/memory/notes/orders", "The total number of orders this week was 40.")
    write(repo, "~/memory/notes/sales", "The total number of sales went up again.")
    ctx = retrieve(
        repo,
        OWNER,
        "What is the total number of siblings I have?",
        budget_words=14,
        settings=mode("lexical"),
    )
    assert [p.path for p in ctx.passages] == ["~/memory/notes/family"]


def test_a_counting_question_weighs_meaning_as_much_as_words_in_the_record_too(repo):
    """What was said about the siblings shares none of the question's words; what shares
    its other word ('list') does: in the recall record too, meaning counts as much as
    words for it (`RecallSettings.gather_weight`)."""
    texts = [
        "I have two brothers and one sister.",
        "Call the plumber back, his name is on the list next to the fridge door.",
        "The bus times changed when the new list started in the spring.",
        "Write the order on the list before it goes to the post office.",
        "My seat was printed on the list in small letters.",
    ]
    for i, text in enumerate(texts):
        hand_over(repo.conn, OWNER, f"s{i}", [Message("user", f"2026-03-0{i + 1}T08:00:00Z", text)])
    question = "How many siblings are on my list?"

    def scores(**kw) -> tuple[float, float]:
        s = dataclasses.replace(DEFAULT_RECALL, mode="hybrid", **kw)
        by_text = {
            p.text: p.score for p in recall(repo, OWNER, question, budget=200, settings=s).passages
        }
        family = by_text.pop(texts[0])
        return family, min(by_text.values())

    family, words_only = scores(gather_weight=DEFAULT_RECALL.semantic_weight)
    assert family < 0.5 * words_only  # far below every passage that has its other word
    family, words_only = scores()
    assert family > 0.9 * words_only  # level with them


def test_the_passages_words_found_are_taken_as_read_not_read_again(repo):
    """`nearest` takes a passage BM25 already read (`known`) from there, with its cosine as
    its score, and reads only the others: the same passages, in the same order, with the
    same cosines as when it reads them all."""
    from doctree.memory.query import parse_query
    from doctree.memory.ranking import nearest
    from doctree.store.passages import PassageIndex

    write(repo, "~/memory/projects/apollo", "The launch moved to December 8.")
    write(repo, "~/memory/projects/kafka", "Kafka's release slipped to spring.")
    write(repo, "~/memory/people/ann", "Ann keeps bees on the roof.")
    s = mode("hybrid")
    retrieve(repo, OWNER, "launch", budget_words=50, settings=s)  # the passages and vectors
    index = PassageIndex(repo)
    text = " ".join(parse_query("when is the launch date?").terms)
    read = nearest(index, OWNER, "~/memory", text, s)
    [words] = index.search(OWNER, 'text : "launch"', under="~/memory")
    as_read = dataclasses.replace(words, stored="the launch, as the words' search read it")
    taken = nearest(index, OWNER, "~/memory", text, s, {words.id: as_read})
    assert [(h.id, h.score) for h in taken] == [(h.id, h.score) for h in read]
    assert len(read) == 3 and read[0].id == words.id
    assert taken[0].text == "the launch, as the words' search read it"
    assert [h.text for h in taken[1:]] == [h.text for h in read[1:]]
    # Under a subtree, a known passage counts as inside it, the others as `by_ids` finds.
    under = nearest(index, OWNER, "~/memory/projects", text, s, {words.id: as_read})
    assert [h.path for h in under] == ["~/memory/projects/apollo", "~/memory/projects/kafka"]


def test_the_records_passages_words_found_are_taken_as_read_not_read_again(repo):
    from doctree.memory.query import parse_query
    from doctree.memory.recall import nearest
    from doctree.store.recall import RecallIndex

    said = [
        Message("user", "2026-03-01T08:00:00Z", "I always take oat milk in my coffee."),
        Message("user", "2026-03-01T08:05:00Z", "The printer on floor two is broken."),
        Message("user", "2026-03-01T08:09:00Z", "My coffee grinder is new."),
    ]
    hand_over(repo.conn, OWNER, "s-drink", said)
    s = dataclasses.replace(DEFAULT_RECALL, mode="hybrid")
    recall(repo, OWNER, "coffee", budget=20, settings=s)  # the vectors
    index = RecallIndex(repo.conn)
    q = parse_query("which coffee drink do I like?")
    read = nearest(index, OWNER, q, s)
    first = next(h for h in read if "grinder" in h.text)
    as_read = dataclasses.replace(first, text="as the words' search read it")
    taken = nearest(index, OWNER, q, s, {first.id: as_read})
    assert [(h.id, h.score) for h in taken] == [(h.id, h.score) for h in read]
    assert [h.text for h in taken if h.id == first.id] == ["as the words' search read it"]


def test_fusion_keeps_the_order_passages_were_met_in_when_their_scores_are_equal():
    from doctree.memory.meaning import fuse
    from doctree.store.recall import RecallHit

    def hit(i: int, score: float) -> RecallHit:
        return RecallHit(
            i, "s", f"h{i}", 0, "user", "2026-03-01T08:00:00Z", None, f"t{i}", 1, score
        )

    by_words = [hit(5, 2.0), hit(3, 2.0), hit(4, 1.0)]
    by_meaning = [hit(9, 0.5), hit(8, 0.5)]
    for fusion in ("scores", "add"):
        s = dataclasses.replace(DEFAULT_RECALL, fusion=fusion)
        fused = fuse(by_words, by_meaning, s)
        assert [h.id for h in fused] == [5, 3, 4, 9, 8]
        assert fused[0].score == fused[1].score and fused[3].score == fused[4].score
