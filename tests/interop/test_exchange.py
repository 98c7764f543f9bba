"""Export to and import from folders of markdown files."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doctree.cli import cli
from doctree.errors import ConflictError, UserError
from doctree.interop.exchange import export_tree, import_tree, split_export
from doctree.store.documents import DocumentsRepository

OWNER = "a"


def snapshot(repo: DocumentsRepository, owner: str = OWNER, under: str = "~") -> dict:
    """Every live document's path -> (body, title, declared links)."""
    out = {}
    for d in repo.documents(owner, under):
        doc = repo.get(owner, d.path)
        out[doc.path] = (doc.body, doc.title, doc.links)
    return out


def version_count(repo: DocumentsRepository) -> int:
    return len(repo.log(None, limit=None))


# -- round trip ---------------------------------------------------------------------------------

segment = st.from_regex(r"[A-Za-zé0-9_][A-Za-zé0-9_.\-]{0,8}", fullmatch=True)
body_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    max_size=80,
) | st.sampled_from(
    ["", "---\ntitle: Own\nlinks: [~/x]\n---\nbody", "# Heading\r\nline\r\n", "---\n", "a\n---\nb"]
)
tree = st.dictionaries(
    st.lists(segment, min_size=1, max_size=3).map(tuple),
    st.tuples(
        body_text,
        st.none()
        | st.text(
            alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Cf")), min_size=1, max_size=20
        ).filter(str.strip),
        st.booleans(),
    ),
    min_size=1,
    max_size=8,
)


@pytest.mark.slow
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(tree)
def test_export_then_import_round_trips_the_tree_exactly_and_again_changes_nothing(
    tmp_path, fresh_database, spec
):
    with tempfile.TemporaryDirectory(dir=tmp_path) as work:
        work = Path(work)
        src = DocumentsRepository(fresh_database("src"))
        dst = DocumentsRepository(fresh_database("dst"))
        paths = sorted("~/" + "/".join(segs) for segs in spec)
        for segs, (body, title, link) in spec.items():
            path = "~/" + "/".join(segs)
            links = [paths[0]] if link else None
            src.write(OWNER, path, body, title=title, links=links)
        export_tree(src, OWNER, "~", work / "out")
        import_tree(dst, OWNER, work / "out")
        assert snapshot(dst) == snapshot(src)
        versions = version_count(dst)
        import_tree(dst, OWNER, work / "out")
        assert version_count(dst) == versions
        src.close()
        dst.close()


@pytest.mark.parametrize(
    "title", ["0\u2029", "a\u2028b", "nbsp\u00a0here", " padded ", "null", "~"]
)
def test_titles_yaml_would_fold_survive_export_and_import(tmp_path, fresh_database, title):
    src = DocumentsRepository(fresh_database("src"))
    dst = DocumentsRepository(fresh_database("dst"))
    src.write(OWNER, "~/doc", "body", title=title)

    export_tree(src, OWNER, "~", tmp_path / "out")
    import_tree(dst, OWNER, tmp_path / "out")

    assert dst.read(OWNER, "~/doc").title == title


def test_importing_an_export_again_makes_no_version(repo, tmp_path):
    repo.write(OWNER, "~/memory/people/alice", "# Alice\nPrefers tea.\n")
    repo.write(OWNER, "~/memory/people/bob", "See [[~/memory/people/alice]]", title="Robert")
    export_tree(repo, OWNER, "~/memory", tmp_path / "out")
    before = version_count(repo)

    report = import_tree(repo, OWNER, tmp_path / "out")

    assert version_count(repo) == before
    assert report.created == [] and report.modified == []
    assert len(report.unchanged) == 4


@pytest.fixture
def folder(tmp_path):
    """A folder to export into or import from, apart from the database file."""
    d = tmp_path / "folder"
    d.mkdir()
    return d


def test_export_writes_a_file_and_a_folder_for_a_document_with_children(repo, folder):
    repo.write(OWNER, "~/memory", "# Memory root\n")
    repo.write(OWNER, "~/memory/people/alice", "Alice")

    export_tree(repo, OWNER, "~/memory", folder)

    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert files == ["memory.md", "memory/people.md", "memory/people/alice.md"]


def test_export_frontmatter_holds_id_version_links_and_updated(repo, folder):
    doc = repo.write(OWNER, "~/notes", "body text", links=["~/other"])

    export_tree(repo, OWNER, "~/notes", folder)

    meta, body = split_export((folder / "notes.md").read_text())
    assert (meta["id"], meta["version"], meta["links"], meta["updated"]) == (
        doc.id,
        1,
        ["~/other"],
        doc.updated_at,
    )
    assert body == "body text"


def test_edited_export_file_imports_as_a_new_version(repo, folder):
    repo.write(OWNER, "~/notes", "old text")
    export_tree(repo, OWNER, "~/notes", folder)
    f = folder / "notes.md"
    f.write_text(f.read_text().replace("old text", "new text"))

    report = import_tree(repo, OWNER, folder)

    assert report.modified == ["~/notes"]
    assert repo.read(OWNER, "~/notes").body == "new text"


# -- exporting over an earlier export ------------------------------------------------------------


def test_exporting_again_overwrites_files_still_as_exported_links_and_properties_included(
    repo, folder
):
    repo.write(OWNER, "~/memory/people/alice", "---\ntags: [x]\n---\n# Alice\n")
    repo.write(OWNER, "~/memory/people/bob", "See [[~/memory/people/alice]].\n")
    export_tree(repo, OWNER, "~/memory", folder)
    repo.write(OWNER, "~/memory/people/bob", "See [[~/memory/people/alice]] often.\n")

    export_tree(repo, OWNER, "~/memory", folder)

    meta, body = split_export((folder / "memory/people/bob.md").read_text())
    assert meta["version"] == 2 and body == "See [[~/memory/people/alice]] often.\n"


def test_exporting_again_refuses_to_overwrite_a_file_edited_since_and_writes_nothing(repo, folder):
    repo.write(OWNER, "~/notes/a", "a one\n")
    repo.write(OWNER, "~/notes/b", "b one\n")
    export_tree(repo, OWNER, "~/notes", folder)
    edited = folder / "notes/b.md"
    edited.write_text(edited.read_text() + "Typed in the exported file.\n")
    repo.write(OWNER, "~/notes/a", "a two\n")
    repo.write(OWNER, "~/notes/b", "b two\n")
    before = {f: f.read_bytes() for f in folder.rglob("*.md")}

    with pytest.raises(UserError, match=r"notes/b\.md'?: changed since it was exported") as e:
        export_tree(repo, OWNER, "~/notes", folder)

    assert "--force" in str(e.value) and "import it first" in str(e.value)
    assert {f: f.read_bytes() for f in folder.rglob("*.md")} == before
    export_tree(repo, OWNER, "~/notes", folder, force=True)
    assert split_export(edited.read_text())[1] == "b two\n"


def test_the_cli_export_over_an_edited_file_exits_2_in_one_line_and_keeps_it(db_path, folder):
    import subprocess
    import sys

    with DocumentsRepository(db_path) as repo:
        repo.write(OWNER, "~/notes", "as stored\n")
    run = [sys.executable, "-m", "doctree", "--db", str(db_path), "--owner", OWNER, "export"]
    assert subprocess.run([*run, "~/notes", str(folder)], capture_output=True).returncode == 0
    f = folder / "notes.md"
    f.write_text(f.read_text().replace("as stored", "as edited by hand"))

    done = subprocess.run([*run, "~/notes", str(folder)], capture_output=True, text=True)

    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "changed since it was exported" in done.stderr
    assert "as edited by hand" in f.read_text()


# -- plain folders ------------------------------------------------------------------------------


def test_obsidian_wiki_links_become_references(repo, folder):
    (folder / "People").mkdir()
    (folder / "People" / "Alice Smith.md").write_text("# Alice\n")
    (folder / "Daily.md").write_text("Met [[Alice Smith|Alice]] today.\n")

    import_tree(repo, OWNER, folder, under="~/vault")

    back = repo.backlinks(OWNER, "~/vault/people/alice-smith")
    assert [r.source_path for r in back] == ["~/vault/daily"]


def test_relative_markdown_links_become_references(repo, folder):
    (folder / "a").mkdir()
    (folder / "a" / "one.md").write_text("see [two](../b/two.md#part)\n")
    (folder / "b").mkdir()
    (folder / "b" / "two.md").write_text("two\n")

    import_tree(repo, OWNER, folder)

    assert [r.target_path for r in repo.links(OWNER, "~/a/one") if r.kind == "link"] == ["~/b/two"]


def test_wiki_link_to_a_missing_note_dangles_until_it_appears(repo, folder):
    (folder / "index.md").write_text("Later: [[Future Plans]]\n")

    import_tree(repo, OWNER, folder, under="~/vault")
    repo.write(OWNER, "~/vault/future-plans", "now here")

    assert [r.source_path for r in repo.backlinks(OWNER, "~/vault/future-plans")] == [
        "~/vault/index"
    ]


def test_plain_markdown_bodies_are_imported_verbatim(repo, folder):
    text = "---\ntags: [x]\n---\n# Title\nSee [[Other]].\r\n"
    (folder / "Note One.md").write_bytes(text.encode())

    import_tree(repo, OWNER, folder)

    assert repo.read(OWNER, "~/note-one").body == text


def test_anthropic_memory_directory_keeps_non_markdown_names(repo, folder):
    (folder / "notes.md").write_text("# Notes\n")
    (folder / "progress.xml").write_text("<progress/>\n")

    import_tree(repo, OWNER, folder, under="~/memory")

    assert [d.path for d in repo.documents(OWNER, "~/memory")] == [
        "~/memory",
        "~/memory/notes",
        "~/memory/progress.xml",
    ]


def test_binary_and_hidden_files_are_skipped_and_reported(repo, folder):
    (folder / "pic.png").write_bytes(b"\x89PNG\x00\x01")
    (folder / ".obsidian").mkdir()
    (folder / ".obsidian" / "app.json").write_text("{}")
    (folder / "ok.md").write_text("ok")

    report = import_tree(repo, OWNER, folder)

    assert report.created == ["~/ok"]
    assert report.skipped == [
        (".obsidian/", "Obsidian's settings; not imported"),
        ("pic.png", "not UTF-8 text"),
    ]


def test_clashing_names_are_refused_and_nothing_is_written(repo, folder):
    (folder / "a.md").write_text("first")
    (folder / "Alice Smith.md").write_text("one")
    (folder / "alice smith.md").write_text("two")

    with pytest.raises(UserError, match="would both become '~/alice-smith'"):
        import_tree(repo, OWNER, folder)
    assert repo.documents(OWNER) == []


# -- CLI ----------------------------------------------------------------------------------------


def test_cli_export_then_import_into_another_database(tmp_path, fresh_database):
    runner = CliRunner()
    one, two = str(fresh_database("one")), str(fresh_database("two"))
    assert runner.invoke(cli, ["--db", one, "write", "~/memory/x"], input="# X\n").exit_code == 0

    exported = runner.invoke(cli, ["--db", one, "export", "~/memory", str(tmp_path / "out")])
    imported = runner.invoke(cli, ["--db", two, "import", str(tmp_path / "out")])

    assert exported.output == f"exported 2 document(s) to {tmp_path / 'out'}\n"
    assert imported.output.startswith("imported ") and "2 created" in imported.output
    read = runner.invoke(cli, ["--db", two, "read", "~/memory/x"])
    assert read.output == "# X\n"


def test_an_import_that_replaces_documents_lists_them_and_asks_first(tmp_path, fresh_database):
    runner = CliRunner()
    db = str(fresh_database("one"))
    assert (
        runner.invoke(cli, ["--db", db, "write", "~/notes/a"], input="# A\nmine\n").exit_code == 0
    )
    folder = tmp_path / "in"
    (folder / "notes").mkdir(parents=True)
    (folder / "notes" / "a.md").write_text("# A\ntheirs\n")
    (folder / "notes" / "b.md").write_text("# B\nnew\n")
    base = ["--db", db, "import", str(folder)]

    refused = runner.invoke(cli, base)  # no terminal to ask on
    assert refused.exit_code == 2 and "--yes" in refused.output
    preview = runner.invoke(cli, [*base, "--dry-run"])
    assert preview.exit_code == 0
    assert "would replace 1 document(s) already there" in preview.output
    assert "  ~/notes/a" in preview.output and "and create 1" in preview.output
    as_json = runner.invoke(cli, [*base, "--dry-run", "--json"])
    assert '"dry_run": true' in as_json.output and '"~/notes/b"' in as_json.output
    read = runner.invoke(cli, ["--db", db, "read", "~/notes/a"])
    assert read.output == "# A\nmine\n"  # nothing changed by any of them
    assert runner.invoke(cli, ["--db", db, "read", "~/notes/b"]).exit_code != 0

    done = runner.invoke(cli, [*base, "--yes"])
    assert done.exit_code == 0 and "1 created, 1 modified" in done.output
    assert runner.invoke(cli, ["--db", db, "read", "~/notes/a"]).output == "# A\ntheirs\n"
    again = runner.invoke(cli, base)  # nothing to replace now: not asked
    assert again.exit_code == 0 and "2 unchanged" in again.output


def test_a_dry_run_import_writes_nothing(db_path, folder):
    repo = DocumentsRepository(db_path)
    repo.write(OWNER, "~/a", "mine")
    (folder / "a.md").write_text("theirs")
    (folder / "b.md").write_text("new")
    before = version_count(repo)
    report = import_tree(repo, OWNER, folder, dry_run=True)
    assert report.modified == ["~/a"] and report.created == ["~/b"] and report.dry_run
    assert version_count(repo) == before and repo.get(OWNER, "~/a").body == "mine"
    repo.close()


def test_a_file_over_the_body_limit_is_refused_and_nothing_written(db_path, folder):
    repo = DocumentsRepository(db_path, max_body_bytes=10)
    (folder / "a.md").write_text("short")
    (folder / "b.md").write_text("much longer than ten bytes")

    with pytest.raises(UserError, match="body of '~/b' is 26 bytes; the limit is 10 bytes"):
        import_tree(repo, OWNER, folder)
    assert repo.documents(OWNER) == []


def test_if_unchanged_import_refuses_to_revert_a_newer_change(repo, folder):
    repo.write(OWNER, "~/notes", "exported text")
    export_tree(repo, OWNER, "~/notes", folder)
    repo.write(OWNER, "~/notes", "changed after the export")
    (folder / "other.md").write_text("new file")

    with pytest.raises(ConflictError, match="conflict on '~/notes'"):
        import_tree(repo, OWNER, folder, if_unchanged=True)
    assert repo.read(OWNER, "~/notes").body == "changed after the export"
    assert not repo.exists(OWNER, "~/other")


def test_if_unchanged_import_applies_an_edit_to_an_unchanged_document(repo, folder):
    repo.write(OWNER, "~/notes", "exported text")
    export_tree(repo, OWNER, "~/notes", folder)
    f = folder / "notes.md"
    f.write_text(f.read_text().replace("exported text", "edited in the file"))

    report = import_tree(repo, OWNER, folder, if_unchanged=True)

    assert report.modified == ["~/notes"]


# -- a consistent export --------------------------------------------------------------------------


def exported_versions(folder: Path) -> dict[str, int]:
    """Document path -> version, from the frontmatter of every exported file."""
    out = {}
    for f in folder.rglob("*.md"):
        meta, _ = split_export(f.read_text(encoding="utf-8"))
        out[meta["path"]] = meta["version"]
    return out


def test_export_inside_a_held_snapshot_shows_the_tree_as_of_its_start(repo, db_path, folder):
    repo.write(OWNER, "~/notes/a", "a one")
    repo.write(OWNER, "~/notes/b", "b one")
    other = DocumentsRepository(db_path)
    with repo.snapshot():
        other.write(OWNER, "~/notes/a", "a two")
        other.write(OWNER, "~/notes/c", "c one")
        other.delete(OWNER, "~/notes/b")

        export_tree(repo, OWNER, "~/notes", folder)

    other.close()
    assert exported_versions(folder) == {"~/notes": 1, "~/notes/a": 1, "~/notes/b": 1}


@pytest.mark.sqlite_only
def test_a_write_committed_while_export_reads_is_not_in_the_export(repo, db_path, folder):
    repo.write(OWNER, "~/notes/a", "a one")
    other = DocumentsRepository(db_path)
    wrote = []

    def write_from_another_connection(sql: str) -> None:
        # Runs as export's read of the subtree starts, after its read transaction began.
        if not wrote and "FROM documents WHERE owner" in sql:
            wrote.append(other.write(OWNER, "~/notes/a", "a two"))

    repo.conn.set_trace_callback(write_from_another_connection)
    try:
        export_tree(repo, OWNER, "~/notes", folder)
    finally:
        repo.conn.set_trace_callback(None)
        other.close()

    assert wrote and repo.read(OWNER, "~/notes/a").version == 2
    assert exported_versions(folder)["~/notes/a"] == 1
