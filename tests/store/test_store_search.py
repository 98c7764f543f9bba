"""Search: FTS5 over current titles, bodies and paths; BM25 order, snippets, path-prefix
filter, per-owner isolation."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from doctree.store import search
from doctree.store.documents import fts_query
from doctree.store.search import parse_search, snippet_of


def test_more_relevant_documents_come_first(repo):
    repo.write("main", "~/a", "tea is mentioned once among many other words here")
    repo.write("main", "~/b", "tea tea tea: all about tea")
    repo.write("main", "~/c", "coffee only")
    hits = repo.search("main", "tea")
    assert [h.path for h in hits] == ["~/b", "~/a"]
    assert hits[0].score > hits[1].score


def test_title_match_outranks_body_match(repo):
    repo.write("main", "~/x", "# Gardening\n\nnotes about plants")
    repo.write("main", "~/y", "# Misc\n\na line on gardening among other things")
    assert repo.search("main", "gardening")[0].path == "~/x"


def test_snippet_marks_the_matching_words(repo):
    repo.write("main", "~/a", "Alice prefers green tea in the morning.")
    [hit] = repo.search("main", "tea")
    assert "[tea]" in hit.snippet


def test_the_snippet_of_a_short_body_is_all_of_it_on_one_line(repo):
    repo.write("main", "~/a", "# Alice\n\nPrefers green tea\nin the morning.\n")
    [hit] = repo.search("main", "tea")
    assert hit.snippet == "# Alice Prefers green [tea] in the morning."


def test_the_snippet_is_the_window_with_the_most_distinct_terms_centred(repo):
    filler = " ".join(f"w{i}" for i in range(40))
    body = f"tea at the start. {filler} green tea here. {filler} the end"
    repo.write("main", "~/a", body)
    [hit] = repo.search("main", "green tea")
    assert hit.snippet == "… w33 w34 w35 w36 w37 w38 w39 [green] [tea] here. w0 w1 w2 w3 w4 w5 …"


def test_the_snippet_of_a_window_at_the_end_keeps_its_last_full_stop(repo):
    filler = " ".join(f"w{i}" for i in range(40))
    repo.write("main", "~/a", f"{filler}, then the kettle boiled.\n")
    [hit] = repo.search("main", "kettle")
    assert (
        hit.snippet
        == "… w28 w29 w30 w31 w32 w33 w34 w35 w36 w37 w38 w39, then the [kettle] boiled."
    )


def test_the_snippet_marks_stemmed_words_and_prefixes(repo):
    repo.write("main", "~/a", "She was running to the Apollo launch; it stopped.")
    [hit] = repo.search("main", "runs apol* stops")
    assert hit.snippet == "She was [running] to the [Apollo] launch; it [stopped]."


def test_a_hit_on_its_title_alone_shows_the_start_of_its_body(repo):
    filler = " ".join(f"w{i}" for i in range(40))
    repo.write("main", "~/a", filler, title="Zeppelin")
    [hit] = repo.search("main", "zeppelin")
    assert hit.snippet == "w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 …"


def test_snippets_of_a_phrase_and_of_accented_words_mark_each_word(repo):
    repo.write("main", "~/a", "Un café crème, then green tea.")
    assert repo.search("main", "cafe")[0].snippet == "Un [café] crème, then green tea."
    assert repo.search("main", '"green tea"')[0].snippet == "Un café crème, then [green] [tea]."


def test_snippet_of_empty_or_wordless_bodies_is_empty():
    query = parse_search("tea")
    assert snippet_of("", query) == ""
    assert snippet_of(None, query) == ""
    assert snippet_of("--- ... !!!", query) == ""


def test_snippet_of_prefers_more_distinct_terms_over_more_repeats():
    filler = " ".join(f"w{i}" for i in range(30))
    body = f"tea tea tea tea. {filler} tea and coffee. {filler}"
    assert snippet_of(body, parse_search("tea coffee"), size=4) == "… [tea] and [coffee]. w0 …"


def test_snippet_of_takes_the_first_of_equal_windows():
    filler = " ".join(f"w{i}" for i in range(30))
    body = f"{filler} tea {filler} tea {filler}"
    assert snippet_of(body, parse_search("tea"), size=3) == "… w29 [tea] w0 …"


def test_any_word_may_match_and_stemming_applies(repo):
    repo.write("main", "~/a", "she was running late")
    repo.write("main", "~/b", "the cat sat")
    assert {h.path for h in repo.search("main", "runs cat")} == {"~/a", "~/b"}


def test_path_prefix_filter_keeps_only_that_subtree(repo):
    repo.write("main", "~/memory/people/alice", "likes tea")
    repo.write("main", "~/memory/peoplex", "likes tea")
    repo.write("main", "~/notes/tea", "tea list")
    hits = repo.search("main", "tea", under="~/memory/people")
    assert [h.path for h in hits] == ["~/memory/people/alice"]


def test_prefix_filter_includes_the_prefix_document_itself(repo):
    repo.write("main", "~/memory", "tea at the root")
    repo.write("main", "~/memory/x", "tea below")
    assert {h.path for h in repo.search("main", "tea", under="~/memory")} == {
        "~/memory",
        "~/memory/x",
    }


def test_other_owners_documents_are_never_found(repo):
    repo.write("alice", "~/secret", "the launch code is swordfish")
    repo.write("bob", "~/notes", "nothing here about fish")
    assert repo.search("bob", "swordfish") == []
    assert [h.path for h in repo.search("alice", "swordfish")] == ["~/secret"]


def test_search_sees_only_current_versions(repo):
    repo.write("main", "~/a", "old word: zeppelin")
    repo.write("main", "~/a", "new word: balloon")
    assert repo.search("main", "zeppelin") == []
    assert [h.version for h in repo.search("main", "balloon")] == [2]


def test_deleted_documents_are_not_found_and_restored_ones_are(repo):
    repo.write("main", "~/a", "quokka")
    repo.delete("main", "~/a")
    assert repo.search("main", "quokka") == []
    repo.restore("main", "~/a", 1)
    assert [h.path for h in repo.search("main", "quokka")] == ["~/a"]


def test_moved_documents_are_found_at_their_new_path(repo):
    repo.write("main", "~/a", "wombat")
    repo.move("main", "~/a", "~/b")
    assert [h.path for h in repo.search("main", "wombat")] == ["~/b"]


def test_path_words_are_searchable(repo):
    repo.write("main", "~/projects/apollo", "launch plan")
    assert [h.path for h in repo.search("main", "apollo")] == ["~/projects/apollo"]


def test_limit_caps_the_hits(repo):
    with repo.transaction():
        for i in range(15):
            repo.write("main", f"~/n{i}", f"common word {i}")
    assert len(repo.search("main", "common", limit=4)) == 4


def test_fts_syntax_in_a_query_is_taken_as_words(repo):
    repo.write("main", "~/a", "near or not")
    assert [h.path for h in repo.search("main", 'NEAR( "or" * NOT')] == ["~/a"]
    assert fts_query('tea "b" NEAR c*') == '"tea" OR "b" OR "NEAR" OR "c"'


def test_empty_query_finds_nothing(repo):
    repo.write("main", "~/a", "x")
    assert repo.search("main", "  ?! ") == []


def test_search_inside_an_open_transaction_sees_its_writes(repo):
    with repo.transaction():
        repo.write("main", "~/a", "platypus")
        assert [h.path for h in repo.search("main", "platypus")] == ["~/a"]


def test_search_without_snippets_finds_the_same_hits_with_empty_snippets(repo):
    repo.write("main", "~/a", "tea tea tea")
    repo.write("main", "~/b", "green tea and more")
    with_snippets = repo.search("main", "tea")

    hits = repo.search("main", "tea", snippets=False)

    assert [(h.path, h.score) for h in hits] == [(h.path, h.score) for h in with_snippets]
    assert [h.snippet for h in hits] == ["", ""]


def test_fts_query_drops_stopwords_whatever_their_case():
    assert fts_query("What IS the Garden's name?") == '"Garden" OR "name"'


def test_a_query_of_only_stopwords_still_finds_what_contains_them(repo):
    repo.write("main", "~/hamlet", "to be or not to be")
    repo.write("main", "~/other", "unrelated words")

    assert [h.path for h in repo.search("main", "to be")] == ["~/hamlet"]


def test_a_question_matches_only_documents_sharing_its_content_words(repo):
    repo.write("main", "~/garden", "Alice planted tomatoes in the garden.")
    repo.write("main", "~/meeting", "What is the plan? When did the team say what it is?")
    repo.write("main", "~/trip", "The trip was when the weather was what it was.")

    hits = repo.search("main", "What did Alice plant in the garden?")

    assert [h.path for h in hits] == ["~/garden"]


def test_a_question_ranks_the_document_about_its_content_words_first(repo):
    repo.write("main", "~/garden", "Alice planted tomatoes in the garden in May.")
    for i, text in enumerate(
        [
            "Alice called about the garden party.",
            "The garden gate needs paint, Alice says.",
            "Alice is reading.",
            "Garden hose is broken.",
        ]
    ):
        repo.write("main", f"~/note{i}", text)
    # Only this one says "what" and "did", many times: matching every word, it came first.
    repo.write("main", "~/chatter", "What did you do? What did she do? What did they do?")

    hits = repo.search("main", "What did Alice plant in the garden?")

    assert hits[0].path == "~/garden"
    assert "~/chatter" not in [h.path for h in hits]


def test_names_that_look_like_contraction_pieces_are_kept():
    assert fts_query("Who won when Don and Will played in May?") == (
        '"won" OR "Don" OR "Will" OR "played" OR "May"'
    )


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=200))
def test_an_ascii_body_is_cut_into_the_same_words_by_either_pattern(text):
    # A snippet splits an ASCII body with an ASCII pattern (faster): its words and the text
    # between them are those the Unicode pattern gives, so the snippet is the same.
    assert search._SPLIT_ASCII.split(text) == search._SPLIT.split(text)


_QUERY_WORDS = st.sampled_from(
    ["running", "run", "Runs", "liked", "like", "Apollo", "apol*", "ru*", "x", "go", "a1",
     "ab_c", "café", "ſtar", "Kelvin", "ı", "⑴", "½", "ﬁle", "straße"]
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(
    st.lists(_QUERY_WORDS | st.text(min_size=1, max_size=5), min_size=1, max_size=4),
    st.lists(
        _QUERY_WORDS.filter(str.isascii) | st.text(st.characters(max_codepoint=127), max_size=8),
        max_size=60,
    ),
)
def test_an_ascii_body_s_terms_found_where_they_occur_are_those_of_its_words(query, body_words):
    # A snippet of an ASCII body finds the words that match from where the query's terms
    # occur in it (`_ascii_matches`): the same words and terms as testing each distinct word
    # of the body (`_matches`), whatever the query's words, cases and prefixes.
    body = " ".join(body_words)
    q = parse_search(" ".join(query))
    words = set(search._SPLIT.split(body)[1::2])
    assert search._ascii_matches(body, q) == search._matches(words, q)
