"""Export a subtree to a folder of markdown files, and import such a folder (or any folder of
markdown: an Obsidian vault, an Anthropic memory directory) back into the tree.

An export mirrors the tree: each document becomes `name.md`, with YAML frontmatter (id, path,
version, title, links, updated, sha256) before its body, and a document with children also
gets a `name/` folder. Importing an export recreates exactly the documents it holds;
importing it again changes nothing, because the store makes no version for an identical
write. Import never follows a symlink out of the folder, and refuses bad names before it
writes anything: one import is one transaction.
"""

from __future__ import annotations

import errno
import os
import posixpath
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from doctree.errors import BodyTooLargeError, DoctreeError, PathError, UserError
from doctree.store.documents import Actor, DocumentsRepository, Provenance
from doctree.store.frontmatter import (
    FRONTMATTER,
    frontmatter_problem,
    read_frontmatter,
    split_frontmatter,
)
from doctree.store.paths import (
    HOME,
    MAX_SEGMENTS,
    is_under,
    is_utf8_text,
    name_of,
    normalize_path,
    slugify,
)
from doctree.store.references import WIKI_LINK

EXPORT_KEYS = ("id", "version", "updated")  # a frontmatter with these keys is an export's
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
# An exported file holds frontmatter (title, links, sha256) besides its body: a file is
# refused unread when it is larger than the body limit plus this much.
FRONTMATTER_ALLOWANCE = 64 * 1024


@dataclass
class ExportReport:
    """What an export wrote: one file per document."""

    directory: Path
    files: list[Path] = field(default_factory=list)


@dataclass
class ImportReport:
    """What an import did, by document path; `skipped` pairs a file with the reason."""

    created: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    dry_run: bool = False

    def to_dict(self) -> dict:
        return {
            "dry_run": self.dry_run,
            "created": self.created,
            "modified": self.modified,
            "unchanged": self.unchanged,
            "skipped": [{"file": f, "reason": r} for f, r in self.skipped],
        }


# -- export -----------------------------------------------------------------------------------


def export_frontmatter(doc) -> str:
    """The frontmatter block an export puts before a document's body."""
    import yaml

    meta = {
        "id": doc.id,
        "path": doc.path,
        "version": doc.version,
        "title": doc.title,
        "links": list(doc.links),
        "updated": doc.updated_at,
        "sha256": doc.content_sha256,
    }
    text = yaml.dump(
        meta, Dumper=_exact_dumper(), sort_keys=False, allow_unicode=True, width=float("inf")
    )
    return f"---\n{text}---\n"


EXPORT_FIELDS = ("id", "path", "version", "title", "links", "updated", "sha256")
# Characters Obsidian (or Windows) refuses in a file name, which a title may hold.
_UNSAFE_NAME = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|#^\[\]]')
_MAX_NAME_BYTES = 200


_PATH_LINK = re.compile(r"\[\[(~/[^\[\]|#]+)(#[^\[\]|]*)?\]\]")
_LABELLED_PATH_LINK = re.compile(r"\[\[[^\[\]|]+\|(~/[^\[\]|#]+)(#[^\[\]|]*)?\]\]")


def obsidian_targets(planned: list[tuple[str, list[str]]]) -> dict[str, str]:
    """Document path -> how an Obsidian link names its exported file: the file name alone
    when no other exported file has it (ignoring case), else its path from the export's
    folder (without `.md`)."""
    counts: dict[str, int] = {}
    for _, segments in planned:
        counts[segments[-1].lower()] = counts.get(segments[-1].lower(), 0) + 1
    return {
        path: segments[-1] if counts[segments[-1].lower()] == 1 else "/".join(segments)
        for path, segments in planned
    }


def to_obsidian_links(body: str, targets: dict[str, str]) -> str:
    """`[[~/memory/people/alice]]` (a doctree path link to an exported document) written as
    `[[Alice|~/memory/people/alice]]`, which Obsidian resolves; the label keeps the path, so
    `from_obsidian_links` gives the body back. A body that would not come back byte for
    byte is left as it is."""

    def rewrite(m: re.Match[str]) -> str:
        target = targets.get(m.group(1).rstrip("/"))
        if target is None:
            return m.group(0)
        heading = m.group(2) or ""
        return f"[[{target}{heading}|{m.group(1)}{heading}]]"

    out = _PATH_LINK.sub(rewrite, body)
    return out if from_obsidian_links(out) == body else body


def from_obsidian_links(body: str) -> str:
    """The inverse of `to_obsidian_links`: a link labelled with a doctree path becomes that
    path link again."""
    return _LABELLED_PATH_LINK.sub(lambda m: f"[[{m.group(1)}{m.group(2) or ''}]]", body)


def export_text(doc, targets: dict[str, str] | None = None) -> str:
    """The whole file an export writes for `doc`: one frontmatter block, then the body.

    A body that opens with its own frontmatter (an Obsidian note's aliases, tags, ...) gets
    its keys after the export's, in the same block, so Obsidian sees one block of properties;
    `import_tree` takes them back out exactly. Only when the body's own keys reuse an
    export key (or its block is not a plain YAML mapping) does the body keep its own block.
    """
    body = to_obsidian_links(doc.body, targets) if targets else doc.body
    own = FRONTMATTER.match(body)
    if own is not None and body.startswith("---\n"):
        meta, _ = read_frontmatter(body)
        first = own.group(1).split("\n", 1)[0]
        if meta and not set(map(str, meta)) & set(EXPORT_FIELDS) and _TOP_KEY.match(first):
            head = export_frontmatter(doc)[: -len("---\n")]
            return head + own.group(1) + body[own.end(1) :]
    return export_frontmatter(doc) + body


def display_name(title: str, segment: str) -> str:
    """The file (and folder) name an export gives a document: its title when the title names
    the same path segment (`Alice Smith` for `alice-smith`) and is a safe file name, so that
    Obsidian's `[[Alice Smith]]` finds it; else the segment itself."""
    name = title.strip()
    if (
        name
        and name == title
        and not name.startswith(".")
        and not _UNSAFE_NAME.search(name)
        and len(name.encode("utf-8")) <= _MAX_NAME_BYTES
        and slugify(name) == slugify(segment)
    ):
        return name
    return segment


def file_names(docs) -> dict[str, str]:
    """Document path -> the name its file and folder get in an export (`display_name`),
    falling back to the segment wherever two siblings would share a name (ignoring case,
    as macOS and Windows do)."""
    by_parent: dict[str, list[tuple[str, str, str]]] = {}
    for doc in docs:
        parent, _, segment = doc.path.rpartition("/")
        by_parent.setdefault(parent, []).append(
            (doc.path, segment, display_name(doc.title, segment))
        )
    names: dict[str, str] = {}
    for siblings in by_parent.values():
        taken: dict[str, int] = {}
        for _, segment, shown in siblings:
            for key in {segment.lower(), shown.lower()}:
                taken[key] = taken.get(key, 0) + 1
        for path, segment, shown in siblings:
            clash = shown != segment and taken[shown.lower()] > 1
            names[path] = segment if clash else shown
    return names


def _own_frontmatter(inner: str, closing: str) -> str:
    """The body's own frontmatter block from a merged export block's YAML `inner`: every
    top-level entry whose key is not an export field, in order and byte for byte; '' when
    none is left."""
    entries: list[tuple[str | None, list[str]]] = []
    for line in inner.splitlines(keepends=True):
        m = _TOP_KEY.match(line)
        if m is not None or not entries:
            entries.append((m.group(1).strip("'\"") if m else None, [line]))
        else:
            entries[-1][1].append(line)
    kept = "".join("".join(lines) for key, lines in entries if key not in EXPORT_FIELDS)
    return f"---\n{kept}{closing}" if kept.strip() else ""


_TOP_KEY = re.compile(r"^([^\s#\-][^:]*?|'[^']*'|\"[^\"]*\"):(?:[ \t]|$)")


def _exact_dumper():
    import yaml

    class ExactDumper(yaml.SafeDumper):
        """Double-quotes strings with characters YAML would fold or drop (NEL, U+2028, tabs),
        so a title survives export and import exactly."""

    def represent_str(dumper: yaml.SafeDumper, value: str):
        style = None if value.isprintable() else '"'
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    ExactDumper.add_representer(str, represent_str)
    return ExactDumper


def export_tree(
    repo: DocumentsRepository,
    owner: str,
    path: str,
    dest: str | os.PathLike[str],
    *,
    force: bool = False,
) -> ExportReport:
    """Write the subtree at `path` into folder `dest`: `name.md` per document, `name/` below.

    Exporting the home `~` writes its top-level documents directly into `dest`. The subtree
    is read in one read transaction, so the export is one consistent state of it even while
    other processes write. A file an earlier export wrote (it starts with an export's
    frontmatter) and still as it wrote it (its body has the frontmatter's `sha256`) is
    overwritten; any other file in the way, one edited since it was exported included, is
    refused before anything is written, unless `force`. Nothing is ever written through a
    symlink.
    """
    path = normalize_path(path)
    # One read of the whole subtree, in one read transaction: a write committed by another
    # process meanwhile is either entirely in the export or not at all.
    with repo.snapshot():
        docs = repo.documents(owner, path, with_links=True)
    if path != HOME and not docs:
        raise UserError(f"document {path!r} not found for owner {owner!r}")
    root = Path(dest)
    base = HOME if path == HOME else path.rsplit("/", 1)[0]
    names = file_names(docs)
    planned = []
    for doc in docs:
        rel = doc.path[len(base) + 1 :] if base != HOME else doc.path[2:]
        depth = rel.count("/") + 1
        parts = doc.path.split("/")
        ancestors = ["/".join(parts[: len(parts) - depth + i + 1]) for i in range(depth)]
        segments = [names.get(a, a.rsplit("/", 1)[-1]) for a in ancestors]
        planned.append((doc, segments, root.joinpath(*segments[:-1], segments[-1] + ".md")))
    targets = obsidian_targets([(doc.path, segments) for doc, segments, _ in planned])
    if not force:
        for _, _, target in planned:
            _check_overwrite(target, repo.max_body_bytes + FRONTMATTER_ALLOWANCE)
    _make_export_root(root)
    report = ExportReport(root)
    for doc, segments, target in planned:
        folder = root
        for seg in segments[:-1]:
            folder = folder / seg
            _ensure_real_dir(folder)
        _write_no_follow(target, export_text(doc, targets))
        report.files.append(target)
    return report


def _make_export_root(root: Path) -> None:
    """Create the export folder (and its parents), or say clearly why it cannot be."""
    if root.exists() and not root.is_dir():
        raise UserError(f"export folder {str(root)!r}: exists and is not a folder")
    try:
        root.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise UserError(f"export folder {str(root)!r}: exists and is not a folder") from None
    except NotADirectoryError:
        raise UserError(
            f"export folder {str(root)!r}: cannot be created (a part of its path is a file)"
        ) from None
    except OSError as e:
        raise UserError(f"export folder {str(root)!r}: cannot be created ({e.strerror})") from None


def _check_overwrite(target: Path, largest: int) -> None:
    """Refuse to replace a file that no export wrote (it lacks an export's frontmatter), or
    one changed since an export wrote it: its body no longer has the `sha256` its
    frontmatter records (a note edited in Obsidian, say), so writing over it would lose that
    edit. `largest`: the most characters an export writes for one document."""
    try:
        st = os.lstat(target)
    except (FileNotFoundError, NotADirectoryError):
        return
    if not stat.S_ISREG(st.st_mode):
        return  # a symlink or folder is refused when it is reached, as before
    try:
        with open(target, encoding="utf-8", newline="") as f:
            text = f.read(largest + 1)
    except (OSError, UnicodeDecodeError):
        text = ""
    meta = FRONTMATTER.match(text)
    if meta is None or not all(re.search(rf"(?m)^{k}:", meta.group(1)) for k in EXPORT_KEYS):
        raise UserError(
            f"export file {str(target)!r}: exists and was not written by an export; "
            "move it away or export with --force to overwrite it"
        )
    from doctree.store.model import sha256

    exported, body = split_export(text) if len(text) <= largest else (None, text)
    if exported is None or sha256(body) != str(exported.get("sha256")):
        raise UserError(
            f"export file {str(target)!r}: changed since it was exported (its body no longer "
            "has the sha256 its frontmatter records), and exporting would overwrite the "
            "change; import it first, move it away, or export with --force to overwrite it"
        )


def _ensure_real_dir(folder: Path) -> None:
    try:
        st = os.lstat(folder)
    except FileNotFoundError:
        folder.mkdir()
        return
    if stat.S_ISLNK(st.st_mode):
        raise UserError(
            f"export folder {str(folder)!r}: is a symlink; refusing to write through it"
        )
    if not stat.S_ISDIR(st.st_mode):
        raise UserError(f"export folder {str(folder)!r}: exists and is not a folder")


def _write_no_follow(target: Path, text: str) -> None:
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _O_NOFOLLOW, 0o644)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise UserError(
                f"export file {str(target)!r}: is a symlink; refusing to write through it"
            ) from None
        raise UserError(f"export file {str(target)!r}: cannot be written ({e.strerror})") from None
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
        f.write(text)


# -- import -----------------------------------------------------------------------------------


@dataclass
class _Planned:
    file: str  # relative to the imported folder, '/'-separated
    path: str  # document path
    body: str
    title: str | None
    links: list[str] | None
    exported: bool  # it carried an export's frontmatter
    sha256: str | None = None  # the body's sha256 when it was exported
    folder: bool = False  # a folder with no note of its own, created only if missing


def split_export(text: str) -> tuple[dict | None, str]:
    """(frontmatter, body) if `text` starts with an export's frontmatter, else (None, text).

    Keys in the block that are not an export's (the note's own properties, merged in by
    `export_text` or added in Obsidian) go back to the body as its own frontmatter."""
    meta, rest = read_frontmatter(text)
    if meta is None or not all(k in meta for k in EXPORT_KEYS):
        return None, text
    if set(map(str, meta)) - set(EXPORT_FIELDS):
        m = FRONTMATTER.match(text)
        if m is not None:
            rest = _own_frontmatter(m.group(1), text[m.end(1) : m.end()]) + rest
    return {k: v for k, v in meta.items() if k in EXPORT_FIELDS}, _restored(rest, meta)


def _restored(body: str, meta: dict) -> str:
    """An exported body with its doctree path links given back (`from_obsidian_links`),
    unless the body is still exactly as exported without that (its `sha256` says so)."""
    from doctree.store.model import sha256

    if sha256(body) == str(meta.get("sha256")):
        return body
    return from_obsidian_links(body)


def shown_name(name: str) -> str:
    """A file name for a message: bytes that are not UTF-8 shown as \\xNN escapes."""
    try:
        return os.fsencode(name).decode("utf-8", "backslashreplace")
    except UnicodeError:
        return name.encode("utf-8", "backslashreplace").decode("utf-8")


def segment_for(name: str) -> str:
    """The path segment a plain file or folder name becomes: its slug (lowercase, '-' for
    spaces: `People` -> people, `Alice Smith` -> alice-smith), so that every name of a vault
    maps by one rule; a name that is not its own slug is kept as the document's title."""
    slug = slugify(name)
    try:
        path = normalize_path(HOME + "/" + slug)
        if path.count("/") == 1:
            return name_of(path)
    except PathError:
        pass
    return "untitled"


def _exported_segment(text: str | None, stem: str) -> str | None:
    """The path segment an exported file was written for (the last segment of its
    frontmatter `path`), when the file still bears that document's name: an export names
    files by title (`Alice Smith.md` for `alice-smith`), which maps back to the segment."""
    if not text:
        return None
    meta, _ = split_export(text)
    path = meta.get("path") if meta else None
    if not isinstance(path, str) or "/" not in path:
        return None
    segment = path.rsplit("/", 1)[-1]
    if slugify(segment) != slugify(stem):
        return None  # renamed since the export: the new name decides
    try:
        return name_of(normalize_path(HOME + "/" + segment))
    except PathError:
        return None


def _peek(full: str, body_limit: int) -> str | None:
    """The text of a file next to a folder (its folder note), or None if it cannot be read."""
    try:
        if os.path.islink(full) or _kind(full) is not None:
            return None
        return _read_text(full, full, body_limit)
    except UserError:
        return None


def _doc_name(filename: str) -> str:
    return filename[:-3] if filename.lower().endswith(".md") and len(filename) > 3 else filename


def import_tree(
    repo: DocumentsRepository,
    owner: str,
    src: str | os.PathLike[str],
    *,
    under: str = HOME,
    actor: Actor | None = None,
    if_unchanged: bool = False,
    dry_run: bool = False,
) -> ImportReport:
    """Import folder `src` below `under`: each text file becomes a document (`x.md` -> `x`).
    `dry_run`: the same import, rolled back; the report says what it would do.

    Files with an export's frontmatter get back their body, title and declared links exactly;
    other markdown is imported verbatim, its `[[wiki]]` and relative markdown links declared as
    references. Symlinks pointing out of `src`, names that cannot be paths, and clashing names
    are refused before anything is written.

    With `if_unchanged`, an exported file only replaces a document still as it was exported
    (its `sha256` precondition); otherwise a ConflictError is raised and nothing is written.
    """
    under = normalize_path(under)
    root = Path(src)
    if not root.is_dir():
        raise UserError(f"import folder {str(src)!r}: does not exist or is not a folder")
    real_root = os.path.realpath(root)
    report = ImportReport(dry_run=dry_run)
    texts: dict[str, str] = {}  # relative file -> text
    doc_of_file: dict[str, str] = {}  # relative file -> document path
    doc_of_dir: dict[str, str] = {"": under}  # relative folder -> document path
    sources: dict[str, str] = {}  # document path -> relative file (clash detection)
    file_titles: dict[str, str] = {}  # relative file -> title, for a name slugified
    folder_titles: dict[str, tuple[str, str]] = {}  # document path -> (folder, its name)

    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        rel_dir = "" if rel_dir == "." else rel_dir
        kept = []
        for name in sorted(dirnames):
            rel = posixpath.join(rel_dir, name)
            full = os.path.join(dirpath, name)
            if name.startswith("."):
                why = "Obsidian's settings" if name == ".obsidian" else "a hidden folder"
                report.skipped.append((rel + "/", f"{why}; not imported"))
                continue
            if not is_utf8_text(name):
                report.skipped.append((shown_name(rel), "its name is not UTF-8 text"))
                continue
            if os.path.islink(full):
                _check_symlink(full, rel, real_root)
                report.skipped.append((rel, "symlink to a folder inside the import; not followed"))
                continue
            note = os.path.join(dirpath, name + ".md")
            seg = (
                _exported_segment(_peek(note, repo.max_body_bytes), name)
                if os.path.isfile(note)
                else None
            )
            doc_of_dir[rel] = _join(doc_of_dir[rel_dir], seg or segment_for(name), rel)
            if seg is None and segment_for(name) != name:
                folder_titles[doc_of_dir[rel]] = (rel, name)
            kept.append(name)
        dirnames[:] = kept
        for name in sorted(filenames):
            rel = posixpath.join(rel_dir, name)
            full = os.path.join(dirpath, name)
            if name.startswith("."):
                report.skipped.append((rel, "hidden file"))
                continue
            if not is_utf8_text(name):
                report.skipped.append((shown_name(rel), "its name is not UTF-8 text"))
                continue
            if os.path.islink(full):
                _check_symlink(full, rel, real_root)
                report.skipped.append((rel, "symlink inside the import; not followed"))
                continue
            kind = _kind(full)
            if kind is not None:
                report.skipped.append((rel, f"not a regular file ({kind})"))
                continue
            text = _read_text(full, rel, repo.max_body_bytes)
            if text is None:
                report.skipped.append((rel, "not UTF-8 text"))
                continue
            stem = _doc_name(name)
            seg = _exported_segment(text, stem)
            doc_path = _join(doc_of_dir[rel_dir], seg or segment_for(stem), rel)
            if seg is None and segment_for(stem) != stem and name.lower().endswith(".md"):
                file_titles[rel] = stem  # an Obsidian note's name is its title
            if doc_path in sources:
                raise UserError(
                    f"import of {str(src)!r}: files {sources[doc_path]!r} and {rel!r} would both "
                    f"become {doc_path!r}; rename one (nothing was written)"
                )
            sources[doc_path] = rel
            texts[rel] = text
            doc_of_file[rel] = doc_path

    resolver = _LinkResolver(doc_of_file, doc_of_dir, under)
    plan: list[_Planned] = []
    for rel, text in texts.items():
        meta, body = split_export(text)
        if meta is None and (problem := frontmatter_problem(body)):
            raise UserError(f"import file {rel!r}: {problem} (nothing was written)")
        if meta is not None:
            links = meta.get("links") or []
            if not isinstance(links, list) or not all(isinstance(x, str) for x in links):
                raise UserError(f"import file {rel!r}: frontmatter 'links' must be a list of paths")
            links = [_checked(x, rel) for x in links]
            title = meta.get("title")
            plan.append(
                _Planned(
                    rel,
                    doc_of_file[rel],
                    body,
                    str(title) if title is not None else None,
                    links,
                    True,
                    str(meta["sha256"]) if meta.get("sha256") else None,
                )
            )
        else:
            links = resolver.links(rel, text)
            title = file_titles.get(rel)
            plan.append(_Planned(rel, doc_of_file[rel], text, title, links, False))
    for path, (rel, name) in folder_titles.items():
        if path not in sources:  # a folder without a note of its own: titled by its name
            plan.append(_Planned(rel + "/", path, "", name, None, False, folder=True))
    for p in plan:  # refuse a too-large body before writing anything
        size = len(p.body.encode("utf-8"))
        if size > repo.max_body_bytes:
            raise BodyTooLargeError(p.path, size, repo.max_body_bytes)

    plan.sort(key=lambda p: (p.path.count("/"), p.path))
    try:
        with repo.transaction():
            _write_planned(repo, owner, plan, report, actor, if_unchanged)
            if dry_run:
                raise _RolledBack
    except _RolledBack:
        pass
    return report


class _RolledBack(DoctreeError):
    """Raised inside a dry run's transaction so that nothing it wrote stays."""


def _write_planned(
    repo: DocumentsRepository,
    owner: str,
    plan: list[_Planned],
    report: ImportReport,
    actor: Actor | None,
    if_unchanged: bool,
) -> None:
    """Write the planned documents, parents first, and say in `report` what each became."""
    for p in plan:
        before = repo.get(owner, p.path)
        if p.folder and before is not None:
            continue  # never replace a document's body for a folder's sake
        guard = p.sha256 if if_unchanged and before is not None else None
        doc = repo.write(
            owner,
            p.path,
            p.body,
            title=p.title,
            links=p.links,
            content_sha256=guard,
            provenance=Provenance(actor),
        )
        if before is None:
            report.created.append(doc.path)
        elif before.version == doc.version:
            report.unchanged.append(doc.path)
        else:
            report.modified.append(doc.path)


def _join(parent: str, segment: str, rel: str) -> str:
    path = f"{parent}/{segment}"
    if path.count("/") > MAX_SEGMENTS:
        raise UserError(
            f"import file {rel!r}: would become a path deeper than {MAX_SEGMENTS} segments "
            "(nothing was written)"
        )
    try:
        return normalize_path(path)
    except PathError as e:
        raise UserError(f"import file {rel!r}: {e} (nothing was written)") from None


def _checked(link: str, rel: str) -> str:
    try:
        return normalize_path(link)
    except PathError as e:
        raise UserError(
            f"import file {rel!r}: frontmatter link: {e} (nothing was written)"
        ) from None


def _check_symlink(full: str, rel: str, real_root: str) -> None:
    target = os.path.realpath(full)
    if target != real_root and not target.startswith(real_root + os.sep):
        raise UserError(
            f"import file {rel!r}: is a symlink to {target!r}, outside the imported folder; "
            "symlinks are never followed out of it (nothing was written)"
        )


def _kind(full: str) -> str | None:
    """None for a regular file; otherwise what it is (a FIFO would block a read forever)."""
    try:
        mode = os.lstat(full).st_mode
    except OSError:
        return None  # reported by the read
    if stat.S_ISREG(mode):
        return None
    for test, kind in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return kind
    return "another kind of file"


def _read_text(full: str, rel: str, body_limit: int) -> str | None:
    """The file's text; None when it is not a UTF-8 text file. Never more than the body
    limit plus FRONTMATTER_ALLOWANCE is read: a larger file is refused by its size."""
    try:
        # O_NONBLOCK: a FIFO swapped in after the check must not block the open
        fd = os.open(full, os.O_RDONLY | _O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise UserError(f"import file {rel!r}: cannot be read ({e.strerror})") from None
    limit = body_limit + FRONTMATTER_ALLOWANCE
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            return None
        if st.st_size > limit:
            raise _too_large(rel, f"is {st.st_size:,} bytes", body_limit)
        data = f.read(limit + 1)
    if len(data) > limit:  # it grew while read
        raise _too_large(rel, f"is more than {limit:,} bytes", body_limit)
    if b"\x00" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _too_large(rel: str, size: str, body_limit: int) -> UserError:
    return UserError(
        f"import file {rel!r}: {size}; the body limit is {body_limit:,} bytes (raise it "
        "with DOCTREE_MAX_BODY_BYTES); nothing was written"
    )


class _LinkResolver:
    """Turns `[[wiki]]` links and relative markdown links of a plain folder into `~/...` paths."""

    def __init__(self, doc_of_file: dict[str, str], doc_of_dir: dict[str, str], under: str):
        self.doc_of_file = doc_of_file
        self.doc_of_dir = doc_of_dir
        self.under = under
        self.by_relpath: dict[str, str] = {}
        self.by_stem: dict[str, list[tuple[str, str]]] = {}
        for rel, doc in doc_of_file.items():
            stem_rel = _doc_name(rel)
            self.by_relpath.setdefault(stem_rel.lower(), doc)
            self.by_stem.setdefault(posixpath.basename(stem_rel).lower(), []).append((rel, doc))

    def links(self, rel: str, text: str) -> list[str]:
        from urllib.parse import unquote

        from markdown_it import MarkdownIt

        _, content = split_frontmatter(text)
        found: list[str] = []
        for block in MarkdownIt("commonmark").parse(content):
            if block.type != "inline" or not block.children:
                continue
            for tok in block.children:
                if tok.type == "link_open":
                    target = self._relative(rel, unquote(str(tok.attrs.get("href", ""))))
                elif tok.type == "text" and "[[" in tok.content:
                    for m in WIKI_LINK.finditer(tok.content):
                        if target := self._wiki(m.group(1)):
                            found.append(target)
                    continue
                else:
                    continue
                if target:
                    found.append(target)
        return list(dict.fromkeys(found))

    def _wiki(self, raw: str) -> str | None:
        name = raw.strip()
        if not name or name.startswith("~"):
            return None  # a `~/...` wiki link is a reference already
        key = _doc_name(name).lower().lstrip("/")
        if key in self.by_relpath:
            return self.by_relpath[key]
        matches = self.by_stem.get(posixpath.basename(key), [])
        if matches:
            return min(matches, key=lambda m: (m[0].count("/"), m[0]))[1]
        if "." in posixpath.basename(name) and not name.lower().endswith(".md"):
            return None  # an embed of a file that is not in the tree (an image, ...)
        segments = [segment_for(s) for s in key.split("/") if s]
        if not segments:
            return None
        try:  # a note not written yet: a dangling reference that resolves when it appears
            path = normalize_path(self.under + "/" + "/".join(segments))
        except PathError:
            return None
        return path if is_under(path, self.under) else None

    def _relative(self, rel: str, href: str) -> str | None:
        href = href.strip().split("#", 1)[0].split("?", 1)[0]
        if not href or href.startswith(("/", "~")) or _SCHEME.match(href):
            return None
        target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), href))
        if target == ".." or target.startswith("../"):
            return None  # points out of the imported folder
        if target in self.doc_of_file:
            return self.doc_of_file[target]
        target = target.rstrip("/")
        if target in self.doc_of_dir and target:
            return self.doc_of_dir[target]
        if (target + ".md") in self.doc_of_file:
            return self.doc_of_file[target + ".md"]
        return None
