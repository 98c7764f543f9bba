"""An Obsidian vault through doctree and back: import, export, edit as Obsidian would,
import again. The vault fixture (tests/fixtures/obsidian-vault) holds Obsidian's own
conventions: names with spaces and capitals, aliases and tags in frontmatter, `[[note|label]]`,
`[[note#heading]]`, `[[folder/note]]`, embeds `![[...]]`, nested tags `#a/b`, a binary
attachment and the `.obsidian/` settings folder."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from doctree.interop.exchange import export_tree, import_tree
from doctree.store.documents import DocumentsRepository
from doctree.store.frontmatter import FRONTMATTER

OWNER = "a"
VAULT = Path(__file__).parents[1] / "fixtures" / "obsidian-vault"
LINK = re.compile(r"!?\[\[([^\[\]|#]+)(?:#[^\[\]|]*)?(?:\|[^\[\]]*)?\]\]")


def notes(folder: Path) -> dict[str, str]:
    """Every markdown file of a vault, by its path relative to the vault."""
    return {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(folder.rglob("*.md"))
    }


def unresolved_links(folder: Path) -> list[str]:
    """Wiki links Obsidian could not resolve: it looks a target up by file name (without
    `.md`), or by path from the vault's root, ignoring case."""
    files = {p.relative_to(folder).as_posix().lower() for p in folder.rglob("*") if p.is_file()}
    stems = {Path(f).name.removesuffix(".md") for f in files}
    bad = []
    for name, text in notes(folder).items():
        for m in LINK.finditer(text):
            target = m.group(1).strip().lower()
            if target.startswith("~"):
                continue  # a doctree path link: a reference in doctree, not an Obsidian link
            if Path(target).suffix not in ("", ".md"):
                continue  # an attachment (an image): doctree keeps text, and says so
            if target not in stems and f"{target}.md" not in files and target not in files:
                bad.append(f"{name}: [[{m.group(1)}]]")
    return bad


def tree(repo: DocumentsRepository) -> dict[str, tuple[str, str]]:
    return {d.path: (d.body, d.title) for d in repo.documents(OWNER, "~/vault")}


@pytest.fixture
def vault(tmp_path) -> Path:
    copy = tmp_path / "vault"
    shutil.copytree(VAULT, copy)
    return copy


def test_the_vault_imports_with_one_rule_for_names_and_its_links_as_references(repo, vault):
    report = import_tree(repo, OWNER, vault, under="~/vault")

    assert sorted(tree(repo)) == [
        "~/vault",
        "~/vault/daily",
        "~/vault/daily/2026-11-20",
        "~/vault/inbox",
        "~/vault/people",
        "~/vault/people/alice-smith",
        "~/vault/people/bob-jones",
        "~/vault/projects",
        "~/vault/projects/apollo-launch",
    ]
    assert repo.read(OWNER, "~/vault/people/bob-jones").title == "Bob Jones"
    assert repo.read(OWNER, "~/vault/people").title == "People"
    assert (".obsidian/", "Obsidian's settings; not imported") in report.skipped
    assert ("mission-patch.png", "not UTF-8 text") in report.skipped
    back = {r.source_path for r in repo.backlinks(OWNER, "~/vault/people/alice-smith")}
    assert back == {
        "~/vault/people/bob-jones",
        "~/vault/projects/apollo-launch",  # a link and an embed
        "~/vault/daily/2026-11-20",  # [[Alice Smith|Al]]
    }
    apollo = {r.source_path for r in repo.backlinks(OWNER, "~/vault/projects/apollo-launch")}
    assert apollo == {
        "~/vault/people/alice-smith",  # [[Apollo Launch#Timeline|the launch]]
        "~/vault/daily/2026-11-20",  # [[Projects/Apollo Launch|Apollo]]
        "~/vault/inbox",  # [[Apollo Launch#Timeline]]
    }


def test_an_export_of_the_vault_is_a_vault_obsidian_reads_as_before(repo, vault, tmp_path):
    import_tree(repo, OWNER, vault, under="~/vault")
    out = tmp_path / "out"

    export_tree(repo, OWNER, "~/vault", out)

    exported = notes(out / "vault")
    for name in notes(vault):  # every note under its own name and folder, case included
        assert name in exported, (name, sorted(exported))
    assert unresolved_links(vault) == [] and unresolved_links(out / "vault") == []
    for name, text in exported.items():  # one block of properties, never two
        m = FRONTMATTER.match(text)
        assert m is not None and not text[m.end() :].startswith("---"), name
    alice = exported["People/Alice Smith.md"]
    properties = FRONTMATTER.match(alice).group(1)
    assert "aliases:\n  - Alice\n  - Al\ntags:\n  - people/friends\n" in properties
    assert "path: ~/vault/people/alice-smith" in properties
    assert alice.endswith("with [[Bob Jones|Bob]]. #team/core\n")


def test_importing_an_unchanged_export_makes_no_version(repo, vault, tmp_path):
    import_tree(repo, OWNER, vault, under="~/vault")
    export_tree(repo, OWNER, "~/vault", tmp_path / "out")
    before = tree(repo), len(repo.log(OWNER, limit=None))

    report = import_tree(repo, OWNER, tmp_path / "out" / "vault", under="~/vault")

    assert report.created == [] and report.modified == []
    assert (tree(repo), len(repo.log(OWNER, limit=None))) == before


def test_edits_made_in_obsidian_come_back_as_new_versions_with_links_intact(repo, vault, tmp_path):
    import_tree(repo, OWNER, vault, under="~/vault")
    export_tree(repo, OWNER, "~/vault", tmp_path / "out")
    out = tmp_path / "out" / "vault"
    # As Obsidian edits: a property added to the note's block, a line typed into the body,
    # a new note linking an existing one by its name.
    alice = out / "People" / "Alice Smith.md"
    alice.write_text(
        alice.read_text()
        .replace("  - people/friends\n", "  - people/friends\nstatus: on leave\n")
        .replace("#team/core\n", "#team/core\nBack in January.\n")
    )
    (out / "People" / "Carol Diaz.md").write_text("Covers for [[Alice Smith]] until January.\n")
    versions = {p: repo.read(OWNER, p).version for p in tree(repo)}

    report = import_tree(repo, OWNER, out, under="~/vault")

    assert report.modified == ["~/vault/people/alice-smith"]
    assert report.created == ["~/vault/people/carol-diaz"]
    doc = repo.read(OWNER, "~/vault/people/alice-smith")
    assert doc.version == versions["~/vault/people/alice-smith"] + 1
    assert doc.body.startswith("---\naliases:\n  - Alice\n  - Al\ntags:\n  - people/friends\n")
    assert "status: on leave\n---\n# Alice Smith\n" in doc.body
    assert doc.body.endswith("Back in January.\n") and "id:" not in doc.body
    assert {p: repo.read(OWNER, p).version for p in versions if "alice" not in p} == {
        p: v for p, v in versions.items() if "alice" not in p
    }
    back = {r.source_path for r in repo.backlinks(OWNER, "~/vault/people/alice-smith")}
    assert "~/vault/people/carol-diaz" in back and "~/vault/people/bob-jones" in back
    assert repo.read(OWNER, "~/vault/people/carol-diaz").title == "Carol Diaz"


def test_a_vault_exported_and_imported_into_another_database_is_the_same_tree(
    repo, vault, tmp_path
):
    import_tree(repo, OWNER, vault, under="~/vault")
    export_tree(repo, OWNER, "~/vault", tmp_path / "out")

    with DocumentsRepository(tmp_path / "other.db") as other:
        import_tree(other, OWNER, tmp_path / "out" / "vault", under="~/vault")
        assert tree(other) == tree(repo)


def test_doctree_path_links_resolve_in_obsidian_and_come_back_as_path_links(repo, tmp_path):
    repo.write(OWNER, "~/memory/people/alice", "# Alice\n\nLeads [[~/memory/projects/apollo]].\n")
    repo.write(
        OWNER, "~/memory/projects/apollo", "# Apollo\n\nLed by [[~/memory/people/alice#Role]].\n"
    )
    odd = "# Odd\n\nAlready labelled: [[Alice|~/memory/people/alice]].\n"
    repo.write(OWNER, "~/memory/odd", odd)  # a body the rewriting could not give back exactly
    before = {d.path: d.body for d in repo.documents(OWNER, "~/memory")}
    out = tmp_path / "out"

    export_tree(repo, OWNER, "~/memory", out)

    exported = notes(out)
    assert "Leads [[Apollo|~/memory/projects/apollo]]." in exported["memory/people/Alice.md"]
    assert "[[Alice#Role|~/memory/people/alice#Role]]" in exported["memory/projects/Apollo.md"]
    assert exported["memory/Odd.md"].endswith(odd)
    assert unresolved_links(out) == []

    versions = len(repo.log(OWNER, limit=None))
    import_tree(repo, OWNER, out)  # unchanged: every body comes back exactly
    assert len(repo.log(OWNER, limit=None)) == versions
    with DocumentsRepository(tmp_path / "other.db") as other:
        import_tree(other, OWNER, out)
        assert {d.path: d.body for d in other.documents(OWNER, "~/memory")} == before

    alice = out / "memory" / "people" / "Alice.md"
    alice.write_text(alice.read_text() + "Prefers tea.\n")  # edited in Obsidian
    import_tree(repo, OWNER, out)
    doc = repo.read(OWNER, "~/memory/people/alice")
    assert doc.body == "# Alice\n\nLeads [[~/memory/projects/apollo]].\nPrefers tea.\n"
    assert [r.source_path for r in repo.backlinks(OWNER, "~/memory/projects/apollo")] == [
        "~/memory/people/alice"
    ]
