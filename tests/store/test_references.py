"""References: what a body links to, and how the store tracks references through moves,
deletes and the appearance of a dangling reference's target."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doctree.store.references import (
    _NEEDS_PARSER,
    _markdown_links,
    body_links,
    declared_links,
    split_frontmatter,
)

# -- parsing ---------------------------------------------------------------------------


def test_markdown_and_wiki_links_are_found_in_order():
    body = "See [Alice](~/memory/people/alice) and [[~/memory/projects/apollo]]."
    assert body_links(body) == ["~/memory/people/alice", "~/memory/projects/apollo"]


def test_wiki_link_alias_and_anchor_are_dropped():
    assert body_links("[[~/a/b|Bee]] [[~/c#part]]") == ["~/a/b", "~/c"]


def test_links_in_code_are_not_references():
    body = "`[[~/inline]]`\n\n```\n[x](~/fenced)\n```\n\n    [y](~/indented)\n"
    assert body_links(body) == []


def test_links_to_non_home_targets_are_ignored():
    assert body_links("[w](https://example.com/~/x) [r](notes/x) [[people]]") == []


def test_reference_style_link_is_found():
    assert body_links("[Bob][b]\n\n[b]: ~/people/bob\n") == ["~/people/bob"]


def test_percent_encoded_and_md_suffixed_targets_are_normalised():
    assert body_links("[x](~/caf%C3%A9.md)") == ["~/café"]


def test_invalid_target_paths_are_ignored():
    assert body_links("[x](~/a/../b) [[~/ok]]") == ["~/ok"]


def test_duplicates_are_reported_once():
    assert body_links("[[~/a]] [x](~/a) [[~/a]]") == ["~/a"]


def test_frontmatter_links_are_declared_links():
    body = "---\ntitle: T\nlinks:\n  - ~/a\n  - not-a-path\n  - ~/b/../c\n---\ntext [[~/d]]\n"
    assert declared_links(body) == ["~/a"]
    assert body_links(body) == ["~/d"]


def test_malformed_frontmatter_is_just_body():
    meta, text = split_frontmatter("---\n: : :\n---\nx")
    assert meta == {} and text == "---\n: : :\n---\nx"


PIECES = [
    "[",
    "]",
    "(",
    ")",
    "[[",
    "]]",
    "~/a",
    "~/b/c",
    "~/d_e",
    " ",
    "\n",
    "\n\n",
    "!",
    "*",
    "_",
    "`",
    "# ",
    "> ",
    "- ",
    "1. ",
    "   ",
    "    ",
    '"t"',
    "'t'",
    "|x",
    "#h",
    "x",
    "<",
    ">",
    "&amp;",
    "\\",
    "]:",
    "~~~",
    "---",
    "%7E",
    "===",
    "[x](~/a)",
    "[a b](~/b/c)",
    "[t]( ~/a/b 'title' )",
    '[t](~/c "ti tle")',
    "[e]()",
    "[[~/a]]",
    "[[~/b/c|alias]]",
    "[[~/c#part]]",
    "[[~/d_e]]",
    "[w](https://x.y/~/a)",
]


# Pieces the fast scan accepts, so that it (not only the parser) is exercised.
PLAIN_PIECES = [p for p in PIECES if not _NEEDS_PARSER.search(p)]
BODIES = st.one_of(
    st.lists(st.sampled_from(PIECES), max_size=24).map("".join),
    st.lists(st.sampled_from(PLAIN_PIECES), max_size=30).map("".join),
)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(BODIES)
def test_fast_link_scan_agrees_with_markdown_it(body):
    expected = list(dict.fromkeys(_markdown_links(body))) if "~" in body else []
    assert body_links(body) == expected


# -- tracking in the store ---------------------------------------------------------------


def test_link_survives_a_move_of_its_target(repo):
    repo.write("main", "~/people/alice", "Alice")
    repo.write("main", "~/notes", "met [[~/people/alice]]")
    repo.move("main", "~/people/alice", "~/team/alice")
    [ref] = repo.links("main", "~/notes")[-1:]
    assert (ref.kind, ref.target_path, ref.state) == ("body", "~/team/alice", "resolved")
    assert [r.source_path for r in repo.backlinks("main", "~/team/alice")] == ["~/notes"]


def test_link_survives_a_move_of_its_source(repo):
    repo.write("main", "~/people/alice", "Alice")
    repo.write("main", "~/notes/today", "met [[~/people/alice]]")
    repo.move("main", "~/notes", "~/journal")
    assert [r.source_path for r in repo.backlinks("main", "~/people/alice")] == ["~/journal/today"]


def test_dangling_reference_is_kept_and_resolves_when_target_appears(repo):
    repo.write("main", "~/notes", "todo: [[~/people/carol]]")
    [ref] = [r for r in repo.links("main", "~/notes") if r.kind == "body"]
    assert ref.state == "dangling" and ref.target_id is None
    carol = repo.write("main", "~/people/carol", "Carol")
    [ref] = [r for r in repo.links("main", "~/notes") if r.kind == "body"]
    assert ref.state == "resolved" and ref.target_id == carol.id
    assert [r.source_path for r in repo.backlinks("main", "~/people/carol")] == ["~/notes"]


def test_dangling_reference_resolves_when_target_is_moved_into_place(repo):
    repo.write("main", "~/notes", "see [[~/people/dave]]")
    doc = repo.write("main", "~/inbox/dave", "Dave")
    repo.move("main", "~/inbox/dave", "~/people/dave")
    [ref] = [r for r in repo.links("main", "~/notes") if r.kind == "body"]
    assert (ref.state, ref.target_id) == ("resolved", doc.id)


def test_reference_to_deleted_target_is_marked_deleted(repo):
    repo.write("main", "~/people/erin", "Erin")
    repo.write("main", "~/notes", "see [[~/people/erin]]")
    repo.delete("main", "~/people/erin")
    [ref] = [r for r in repo.links("main", "~/notes") if r.kind == "body"]
    assert ref.state == "deleted"


def test_reference_to_deleted_target_follows_a_new_document_there(repo):
    repo.write("main", "~/people/erin", "Erin")
    repo.write("main", "~/notes", "see [[~/people/erin]]")
    repo.delete("main", "~/people/erin")
    new = repo.write("main", "~/people/erin", "Erin again")
    [ref] = [r for r in repo.links("main", "~/notes") if r.kind == "body"]
    assert (ref.state, ref.target_id) == ("resolved", new.id)


def test_declared_links_are_link_references(repo):
    repo.write("main", "~/people/frank", "Frank")
    repo.write("main", "~/notes", "plain", links=["~/people/frank"])
    kinds = {(r.kind, r.target_path) for r in repo.links("main", "~/notes")}
    assert kinds == {("link", "~/people/frank")}
    assert repo.read("main", "~/notes").links == ["~/people/frank"]


def test_declared_links_are_kept_when_a_write_does_not_give_them(repo):
    repo.write("main", "~/notes", "v1", links=["~/x"])
    repo.write("main", "~/notes", "v2")
    assert repo.read("main", "~/notes").links == ["~/x"]


def test_parent_reference_is_recorded_and_hidden_from_backlinks_by_default(repo):
    repo.write("main", "~/a/b", "child")
    assert [(r.kind, r.target_path) for r in repo.links("main", "~/a/b")] == [("parent", "~/a")]
    assert repo.backlinks("main", "~/a") == []
    assert [r.source_path for r in repo.backlinks("main", "~/a", include_parent=True)] == ["~/a/b"]


def test_backlinks_only_count_current_versions(repo):
    repo.write("main", "~/target", "t")
    repo.write("main", "~/notes", "see [[~/target]]")
    repo.write("main", "~/notes", "no more link")
    assert repo.backlinks("main", "~/target") == []


def test_references_never_cross_owners(repo):
    repo.write("a", "~/shared", "a's")
    repo.write("b", "~/notes", "see [[~/shared]]")
    [ref] = [r for r in repo.links("b", "~/notes") if r.kind == "body"]
    assert ref.state == "dangling"
    assert repo.backlinks("a", "~/shared") == []


def body_ref(repo, path):
    [ref] = [r for r in repo.links("main", path) if r.kind == "body"]
    return ref


def test_link_between_siblings_survives_a_move_of_their_parent(repo):
    y = repo.write("main", "~/a/y", "Y")
    repo.write("main", "~/a/x", "see [[~/a/y]]")
    repo.write("main", "~/a/z", "see [[~/a/y]]")
    repo.move("main", "~/a", "~/b")
    for source in ("~/b/x", "~/b/z"):
        ref = body_ref(repo, source)
        assert (ref.state, ref.target_id, ref.target_path) == ("resolved", y.id, "~/b/y")


def test_link_follows_its_target_not_a_new_document_at_the_old_path(repo):
    x = repo.write("main", "~/p", "X")
    repo.write("main", "~/s", "see [[~/p]]")
    repo.move("main", "~/p", "~/q")
    repo.write("main", "~/p", "a newcomer")
    ref = body_ref(repo, "~/s")
    assert (ref.target_id, ref.target_path) == (x.id, "~/q")


def test_a_link_the_source_keeps_through_an_edit_keeps_following_its_target(repo):
    x = repo.write("main", "~/p", "X")
    repo.write("main", "~/s", "see [[~/p]]")
    repo.move("main", "~/p", "~/q")
    repo.write("main", "~/s", "see [[~/p]] again")
    ref = body_ref(repo, "~/s")
    assert (ref.state, ref.target_id, ref.target_path) == ("resolved", x.id, "~/q")


def test_a_new_link_to_a_vacated_path_dangles(repo):
    repo.write("main", "~/p", "X")
    repo.write("main", "~/s", "nothing yet")
    repo.move("main", "~/p", "~/q")
    repo.write("main", "~/s", "see [[~/p]]")
    assert body_ref(repo, "~/s").state == "dangling"


def test_target_moved_then_deleted_stays_deleted_when_its_old_path_is_reused(repo):
    repo.write("main", "~/p", "X")
    repo.write("main", "~/s", "see [[~/p]]")
    repo.move("main", "~/p", "~/q")
    repo.delete("main", "~/q")
    repo.write("main", "~/p", "a newcomer")
    assert body_ref(repo, "~/s").state == "deleted"


def test_link_to_a_restored_document_resolves_to_it(repo):
    x = repo.write("main", "~/p", "X")
    repo.write("main", "~/s", "see [[~/p]]")
    repo.delete("main", "~/p")
    repo.restore("main", "~/p", 1)
    ref = body_ref(repo, "~/s")
    assert (ref.state, ref.target_id) == ("resolved", x.id)
    assert [r.source_path for r in repo.backlinks("main", "~/p")] == ["~/s"]


def test_newcomer_at_a_deleted_targets_path_then_moved_keeps_the_link(repo):
    repo.write("main", "~/p", "X")
    repo.write("main", "~/s", "see [[~/p]]")
    repo.delete("main", "~/p")
    z = repo.write("main", "~/p", "Z")
    repo.move("main", "~/p", "~/r")
    ref = body_ref(repo, "~/s")
    assert (ref.state, ref.target_id, ref.target_path) == ("resolved", z.id, "~/r")
    assert [r.source_path for r in repo.backlinks("main", "~/r")] == ["~/s"]
    assert repo.backlinks("main", "~/s") == []


def test_link_keeps_its_target_through_a_redaction_of_the_source(repo):
    x = repo.write("main", "~/p", "X")
    repo.write("main", "~/s", "secret")
    repo.write("main", "~/s", "see [[~/p]]")
    repo.move("main", "~/p", "~/q")
    repo.erase_version("main", "~/s", 1)
    ref = body_ref(repo, "~/s")
    assert (ref.state, ref.target_id) == ("resolved", x.id)


def version_references(repo, path: str) -> dict[int, set[tuple[str, str]]]:
    """The references stored for each version of the document at `path`, by version (no
    API reads an older version's references, so the table is read)."""
    out: dict[int, set[tuple[str, str]]] = {}
    for number, kind, target in repo.conn.execute(
        "SELECT r.version, r.kind, r.target_path FROM document_references r"
        " JOIN documents d ON d.id = r.source_id WHERE d.owner = ? AND d.path = ?",
        ("main", path),
    ).fetchall():
        out.setdefault(number, set()).add((kind, target))
    return out


def test_each_version_keeps_the_references_it_made(repo):
    """References are recorded per version: the declared links an older version was given
    through the API (recorded nowhere in its body) stay readable after edits change and
    remove them, and after the document is deleted."""
    repo.write("main", "~/people/ann", "Ann")
    repo.write("main", "~/notes/n", "first [[~/people/ann]]", links=["~/people/bob", "~/x/y"])
    repo.write("main", "~/notes/n", "second", links=["~/people/cid"])
    repo.write("main", "~/notes/n", "third [[~/people/ann]]", links=[])
    repo.delete("main", "~/notes/n")
    parent = ("parent", "~/notes")
    assert version_references(repo, "~/notes/n") == {
        1: {parent, ("body", "~/people/ann"), ("link", "~/people/bob"), ("link", "~/x/y")},
        2: {parent, ("link", "~/people/cid")},
        3: {parent, ("body", "~/people/ann")},
    }
    assert repo.backlinks("main", "~/people/ann") == []  # only current versions count
    repo.restore("main", "~/notes/n", 1)
    assert {(r.kind, r.target_path) for r in repo.links("main", "~/notes/n")} == {
        parent,
        ("body", "~/people/ann"),
        ("link", "~/people/bob"),
        ("link", "~/x/y"),
    }
    assert set(version_references(repo, "~/notes/n")) == {1, 2, 3, 5}
