"""Commands over the document tree: show, read, write, edit, mv, rm, restore, history, diff,
log, links, search."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from doctree.cli import (
    DOC_PATH,
    Int,
    State,
    cli,
    emit_json,
    read_input,
    require_given_path,
    user_actor,
)
from doctree.cli.options import all_owners_option, yes_option
from doctree.errors import UserError

if TYPE_CHECKING:
    from doctree.store.model import Provenance

# The store and the renderers are imported by the commands that use them: `doctree read`
# imports neither (tests/cli/test_cli_startup.py).

pass_state = click.pass_obj


def by_user() -> Provenance:
    """The provenance of a change made on the command line: the user who runs it."""
    from doctree.store.model import Provenance

    return Provenance(user_actor())


@cli.command()
@click.argument("path", default="~", type=DOC_PATH)
@click.option("--depth", type=Int(min=0), help="Show at most this many levels below PATH.")
@click.option("--at", "at", metavar="TIME", help="Show the tree as it was at TIME (ISO 8601).")
@click.option("--json", "as_json", is_flag=True, help="Print the tree as JSON.")
@pass_state
def show(state: State, path: str, depth: int | None, at: str | None, as_json: bool) -> None:
    """Show the tree at PATH with titles, version numbers and sizes.

    \b
      doctree show ~/memory
      doctree show ~/memory --depth 1
      doctree show ~ --at 2026-11-20T12:00:00Z
    """
    from doctree.interop.render import render_tree
    from doctree.store.paths import HOME, normalize_path

    path = normalize_path(path)
    roots = state.repo.tree(state.owner, path, depth=depth, at=at)
    if as_json:
        emit_json([r.to_dict() for r in roots])
        return
    if not roots and path == HOME:
        click.echo(f"~ (empty: owner {state.owner!r} has no documents)")
        return
    dim = lambda text: click.style(text, dim=True)  # noqa: E731 (kept only on a terminal)
    click.echo("\n".join(render_tree(roots, home=path == HOME, dim=dim)))


@cli.command()
@click.argument("path", type=DOC_PATH)
@click.option("--version", "version", type=Int(min=1), help="Read this version number.")
@click.option("--at", metavar="TIME", help="Read the document as it was at TIME (ISO 8601).")
@click.option("--json", "as_json", is_flag=True, help="Print the document and metadata as JSON.")
@pass_state
def read(state: State, path: str, version: int | None, at: str | None, as_json: bool) -> None:
    """Print the body of the document at PATH (current, a version, or as of a time)."""
    if version is None and at is None and not as_json:
        body = state.current_body(path)
        if body is not None:
            click.echo(body, nl=not body.endswith("\n"))
            return
    doc = state.repo.read(state.owner, path, version=version, at=at)
    if as_json:
        data = doc.to_dict()
        data["children"] = (
            [c.path for c in state.repo.children(state.owner, doc.path)]
            if (not doc.deleted and version is None and at is None)
            else []
        )
        emit_json(data)
        return
    click.echo(doc.body, nl=not doc.body.endswith("\n"))


@cli.command()
@click.argument("path", type=DOC_PATH)
@click.option(
    "--file",
    "-f",
    "file",
    metavar="FILE",
    help="Read the body from FILE, a regular file (default: stdin). At most the body limit "
    "($DOCTREE_MAX_BODY_BYTES, 100000 unless set) is read; a larger body is refused.",
)
@click.option("--title", help="Title (default: the first '# heading', else the last path segment).")
@click.option("--link", "links", multiple=True, type=DOC_PATH, help="Declare a link (repeatable).")
@click.option(
    "--expected-version",
    type=Int(min=0),
    help="Write only if the document is at this version (0: only if it does not exist).",
)
@click.option("--sha256", "content_sha256", help="Write only if the current body has this sha256.")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the written document's metadata as JSON."
)
@pass_state
def write(
    state: State,
    path: str,
    file: str | None,
    title: str | None,
    links: tuple[str, ...],
    expected_version: int | None,
    content_sha256: str | None,
    as_json: bool,
) -> None:
    """Create or replace the document at PATH with a body from stdin or --file.

    Missing parents are created empty. Writing the same body again makes no new version.
    An empty stdin is refused (nothing was piped); to empty a document on purpose, give an
    empty file: --file /dev/null.

    \b
      printf '# Alice\\nPrefers tea.\\n' | doctree write ~/memory/people/alice
      doctree write ~/memory/notes --file notes.md --expected-version 3
    """
    body = read_input(file)
    if not body and (file is None or file == "-"):
        raise UserError(
            "stdin: is empty; pipe the body in, or pass --file /dev/null to write an empty one"
        )
    doc = state.repo.write(
        state.owner,
        path,
        body,
        title=title,
        links=list(links) if links else None,
        expected_version=expected_version,
        content_sha256=content_sha256,
        provenance=by_user(),
    )
    _report(doc, as_json)


def _report(doc, as_json: bool) -> None:
    from doctree.interop.render import human_size

    if as_json:
        d = doc.to_dict()
        d.pop("body", None)
        emit_json(d)
    else:
        click.echo(
            f"{doc.path}  v{doc.version}  {human_size(doc.size)}  sha256 {doc.content_sha256[:12]}"
        )


@cli.command()
@click.argument("path", type=DOC_PATH)
@click.argument("old")
@click.argument("new")
@click.option("--all", "replace_all", is_flag=True, help="Replace every occurrence, not just one.")
@click.option("--expected-version", type=Int(min=1), help="Edit only at this version.")
@click.option("--sha256", "content_sha256", help="Edit only if the current body has this sha256.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@pass_state
def edit(
    state: State,
    path: str,
    old: str,
    new: str,
    replace_all: bool,
    expected_version: int | None,
    content_sha256: str | None,
    as_json: bool,
) -> None:
    """Replace the exact text OLD with NEW in the document at PATH.

    OLD must occur exactly once (or use --all).
    """
    doc = state.repo.edit(
        state.owner,
        path,
        old,
        new,
        replace_all=replace_all,
        expected_version=expected_version,
        content_sha256=content_sha256,
        provenance=by_user(),
    )
    _report(doc, as_json)


@cli.command()
@click.argument("path", type=DOC_PATH)
@click.argument("new_path", type=DOC_PATH)
@click.option("--expected-version", type=Int(min=1), help="Move only at this version.")
@click.option("--json", "as_json", is_flag=True, help="Print the moved documents as JSON.")
@pass_state
def mv(state: State, path: str, new_path: str, expected_version: int | None, as_json: bool) -> None:
    """Move the document at PATH, with its subtree, to NEW_PATH. Ids and links survive."""
    docs = state.repo.move(
        state.owner,
        path,
        new_path,
        expected_version=expected_version,
        provenance=by_user(),
    )
    if as_json:
        emit_json([{"id": d.id, "path": d.path, "version": d.version} for d in docs])
    else:
        click.echo(f"moved {len(docs)} document(s) to {docs[0].path}")


@cli.command()
@click.argument("path", type=DOC_PATH)
@click.option("-r", "--recursive", is_flag=True, help="Also delete every descendant.")
@click.option("--expected-version", type=Int(min=1), help="Delete only at this version.")
@click.option("--dry-run", is_flag=True, help="List the documents it would delete; delete none.")
@yes_option
@click.option("--json", "as_json", is_flag=True, help="Print the deleted documents as JSON.")
@pass_state
def rm(
    state: State,
    path: str,
    recursive: bool,
    expected_version: int | None,
    dry_run: bool,
    yes: bool,
    as_json: bool,
) -> None:
    """Delete the document at PATH. History stays readable; `restore` brings it back.

    With -r, every descendant goes too. When that is more than the one document, it lists
    them and asks in a terminal; give --yes in scripts.

    \b
      doctree rm ~/memory/people/alice
      doctree rm -r ~/memory/projects/old --dry-run
      doctree rm -r ~/memory/projects/old --yes
    """
    from doctree.cli.confirm import confirm

    doc = state.repo.get(state.owner, path) if dry_run or recursive else None
    if doc is not None:  # (none: the delete below says so)
        docs = state.repo.documents(state.owner, doc.path) if recursive else [doc]

        def preview() -> list[str]:
            head = "would delete" if dry_run else "deletes"
            return [
                f"{head} {len(docs)} document(s); `restore` brings each back:",
                *(f"  {d.path}  v{d.version}" for d in docs),
            ]

        if not confirm(
            "rm", preview, yes=yes, dry_run=dry_run, changes=len(docs) > 1, quiet=as_json
        ):
            if as_json:
                emit_json([{"id": d.id, "path": d.path, "version": d.version} for d in docs])
            return
    docs = state.repo.delete(
        state.owner,
        path,
        recursive=recursive,
        expected_version=expected_version,
        provenance=by_user(),
    )
    if as_json:
        emit_json([{"id": d.id, "path": d.path, "version": d.version} for d in docs])
    else:
        click.echo(f"deleted {len(docs)} document(s)")


@cli.command()
@click.argument("path", type=DOC_PATH)
@click.argument("version", type=Int(min=1))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@pass_state
def restore(state: State, path: str, version: int, as_json: bool) -> None:
    """Restore VERSION of the document at PATH as a new version (undeletes it if deleted)."""
    _report(state.repo.restore(state.owner, path, version, provenance=by_user()), as_json)


def _version_line(v) -> str:
    from doctree.interop.render import human_size

    extra = f" session {v.session_id}" if v.session_id else ""
    extra += f" run {v.run_id}" if v.run_id is not None else ""
    red = f" [{v.erasure}]" if v.erasure else ""
    return (
        f"v{v.version:<4} {v.created_at[:19]}  {v.operation:<9} {v.path}  "
        f"{human_size(v.size)}  by {v.actor}{extra}{red}"
    )


@cli.command()
@click.argument("path", type=DOC_PATH)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the versions as JSON (without bodies)."
)
@pass_state
def history(state: State, path: str, as_json: bool) -> None:
    """List every version of the document at PATH, oldest first."""
    versions = state.repo.history(state.owner, path)
    if as_json:
        emit_json([{k: v for k, v in x.to_dict().items() if k != "body"} for x in versions])
        return
    for v in versions:
        click.echo(_version_line(v))


@cli.command()
@click.argument("path", required=False, type=DOC_PATH)
@click.argument("from_version", required=False, type=Int(min=0))
@click.argument("to_version", required=False, type=Int(min=1))
@click.option("--run", "run_id", type=Int(min=1), help="Diff every change a memory-agent run made.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print JSON: for each document, its path, the versions compared and the diff.",
)
@pass_state
def diff(
    state: State,
    path: str | None,
    from_version: int | None,
    to_version: int | None,
    run_id: int | None,
    as_json: bool,
) -> None:
    """Unified diff of PATH between FROM_VERSION and TO_VERSION.

    Defaults: the previous version against the current one. With --run N, the diff of
    every document that run changed.
    """
    if run_id is not None:
        if path is not None:
            raise click.UsageError("give either PATH or --run, not both")
        parts = run_diff_parts(state, run_id)
        if not parts:
            from doctree.store.runs import Runs

            Runs(state.repo.conn).get(run_id)  # a run that does not exist is an error
        if as_json:
            emit_json({"run": run_id, "documents": parts})
        else:
            click.echo("".join(p["diff"] for p in parts), nl=False)
        return
    if path is None:
        raise click.UsageError("give PATH (or --run N)")
    text = state.repo.diff(state.owner, path, from_version, to_version)
    if as_json:
        history = state.repo.history(state.owner, path)
        to_v = to_version if to_version is not None else history[-1].version
        from_v = from_version if from_version is not None else to_v - 1
        emit_json(
            {"documents": [{"path": history[-1].path, "from": from_v, "to": to_v, "diff": text}]}
        )
        return
    click.echo(text, nl=False)


def run_diff_parts(state: State, run_id: int) -> list[dict]:
    """Per document a run changed, in the order the run first changed it: its path, the
    versions before and after, the diff."""
    from doctree.store.changes import changes_by_document

    versions = reversed(state.repo.log(None, run_id=run_id, limit=None))
    return [
        {"path": c.path, "from": c.from_version, "to": c.to_version, "diff": c.diff}
        for c in changes_by_document(state.repo, versions)
    ]


@cli.command()
@click.argument("path", default="~", type=DOC_PATH)
@click.option(
    "--run", "run_id", type=Int(min=1), help="Only versions made by this memory-agent run."
)
@click.option("--session", "session_id", help="Only versions made from this session.")
@click.option("--since", metavar="TIME", help="Only versions made at or after TIME.")
@click.option("--limit", type=Int(min=1), default=50, show_default=True)
@all_owners_option("Versions of every owner, not just --owner.")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the versions as JSON (without bodies)."
)
@pass_state
def log(
    state: State,
    path: str,
    run_id: int | None,
    session_id: str | None,
    since: str | None,
    limit: int,
    all_owners: bool,
    as_json: bool,
) -> None:
    """The change log of the subtree at PATH, newest first."""
    versions = state.repo.log(
        None if all_owners else state.owner,
        path,
        run_id=run_id,
        session_id=session_id,
        since=since,
        limit=limit,
    )
    if not versions:
        _require_history(state, path, None if all_owners else state.owner)
        if run_id is not None:
            from doctree.store.runs import Runs

            Runs(state.repo.conn).get(run_id)
    if as_json:
        emit_json([{k: v for k, v in x.to_dict().items() if k != "body"} for x in versions])
        return
    if not versions:
        click.echo("no changes")
    for v in versions:
        click.echo(_version_line(v))


def _require_history(state: State, path: str, owner: str | None) -> None:
    """A path no document was ever at or below is an error, not an empty log."""
    from doctree.errors import NotFoundError
    from doctree.store.paths import HOME, normalize_path

    path = normalize_path(path)
    if path != HOME and not state.repo.log(owner, path, limit=1):
        who = f" for owner {owner!r}" if owner else ""
        raise NotFoundError(f"no document was ever at or below {path!r}{who}")


@cli.command()
@click.argument("path", type=DOC_PATH)
@click.option("--json", "as_json", is_flag=True, help="Print outgoing and backlinks as JSON.")
@pass_state
def links(state: State, path: str, as_json: bool) -> None:
    """References from the document at PATH (out) and to it (back)."""
    out = state.repo.links(state.owner, path)
    back = state.repo.backlinks(state.owner, path)
    if as_json:
        emit_json({"out": [r.to_dict() for r in out], "back": [r.to_dict() for r in back]})
        return
    click.echo("out:")
    for r in out:
        state_note = "" if r.state == "resolved" else f" ({r.state})"
        click.echo(f"  {r.kind:<6} {r.target_path}{state_note}")
    click.echo("back:")
    for r in back:
        click.echo(f"  {r.kind:<6} {r.source_path}")


@cli.command()
@click.argument("query")
@click.option(
    "--under",
    default="~",
    type=DOC_PATH,
    show_default=True,
    help="Only documents at or below this path.",
)
@click.option("--limit", type=Int(min=1), default=10, show_default=True)
@click.option("--at", metavar="TIME", help="Search the tree as it was at TIME.")
@click.option(
    "--all-versions",
    is_flag=True,
    help="Search every version ever made (deleted documents too); with --at, up to TIME.",
)
@click.option(
    "--mode",
    type=click.Choice(["lexical", "semantic", "hybrid"]),
    help="lexical: by words (BM25); semantic: by meaning (the passage nearest the query); "
    "hybrid: both rankings fused.  [default: hybrid, or $DOCTREE_RETRIEVAL]",
)
@click.option("--json", "as_json", is_flag=True, help="Print the hits as JSON.")
@pass_state
def search(
    state: State,
    query: str,
    under: str,
    limit: int,
    at: str | None,
    all_versions: bool,
    mode: str | None,
    as_json: bool,
) -> None:
    """Search titles, bodies and paths by words or meaning, best first, with snippets.

    By words (BM25) and by meaning, fused, by default ($DOCTREE_RETRIEVAL sets another), so
    that "when is the release" finds "the launch moved to December 8"; --mode lexical for
    words alone.

    \b
    QUERY syntax:
      apollo launch     documents with any of the words (more of them rank higher);
                        common words (the, what, ...) are left out
      apol*             a word starting with 'apol'
      "green tea"       the phrase, as written (required)
      apollo -kafka     leave out documents that mention kafka (also -"a phrase")
    Words match their forms ('launches' finds 'launch'); case and accents do not matter.

    --mode semantic ranks documents by their passage nearest the query in meaning (its text
    is the snippet); --mode hybrid fuses that ranking with the words' (-word still leaves
    documents out). The first search by meaning gives every passage its vector (once; then
    they are kept in step as documents change).

    --at and --all-versions search the past, by words: each hit names the version, its time
    and actor.

    \b
      doctree search "green tea"
      doctree search 'apol* -kafka' --under ~/memory/projects
      doctree search "what do I drink" --mode hybrid
      doctree search "green tea" --at 2026-11-20 --all-versions
    """
    if not query.strip():
        raise UserError("query '': is empty; give at least one word to search for")
    require_given_path(state, "under", under)
    if at is not None or all_versions:
        from doctree.cli.provenance import print_version_hits

        print_version_hits(state, query, under, limit, at, all_versions, as_json)
        return
    if mode is None:
        from doctree.memory.meaning import check_mode

        mode = check_mode(None)
    if mode == "lexical":
        hits = state.repo.search(state.owner, query, under=under, limit=limit)
    else:
        from doctree.memory.retrieval import search_documents

        hits = search_documents(state.repo, state.owner, query, mode=mode, under=under, limit=limit)
    if as_json:
        emit_json([h.to_dict() for h in hits])
        return
    if not hits:
        click.echo("no matches")
    for h in hits:
        snippet = " ".join(h.snippet.split())
        click.echo(f"{h.path}  ({h.title})\n    {snippet}")
