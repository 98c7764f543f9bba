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

from doctree.errors import BodyTooLargeError, PathError, UserError
from doctree.store.documents import Actor, DocumentsRepository
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

    def to_dict(self) -> dict:
        return {
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
    frontmatter) is overwritten; any other file in the way is refused before anything is
    written, unless `force`. Nothing is ever written through a symlink.
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
    planned = []
    for doc in docs:
        rel = doc.path[len(base) + 1 :] if base != HOME else doc.path[2:]
        segments = rel.split("/")
        planned.append((doc, segments, root.joinpath(*segments[:-1], segments[-1] + ".md")))
    if not force:
        for _, _, target in planned:
            _check_overwrite(target)
    _make_export_root(root)
    report = ExportReport(root)
    for doc, segments, target in planned:
        folder = root
        for seg in segments[:-1]:
            folder = folder / seg
            _ensure_real_dir(folder)
        _write_no_follow(target, export_frontmatter(doc) + doc.body)
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


def _check_overwrite(target: Path) -> None:
    """Refuse to replace a file that no export wrote (it lacks an export's frontmatter)."""
    try:
        st = os.lstat(target)
    except (FileNotFoundError, NotADirectoryError):
        return
    if not stat.S_ISREG(st.st_mode):
        return  # a symlink or folder is refused when it is reached, as before
    try:
        with open(target, encoding="utf-8") as f:
            head = f.read(65536)
    except (OSError, UnicodeDecodeError):
        head = ""
    meta = FRONTMATTER.match(head)
    if meta is None or not all(re.search(rf"(?m)^{k}:", meta.group(1)) for k in EXPORT_KEYS):
        raise UserError(
            f"export file {str(target)!r}: exists and was not written by an export; "
            "move it away or export with --force to overwrite it"
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


def split_export(text: str) -> tuple[dict | None, str]:
    """(frontmatter, body) if `text` starts with an export's frontmatter, else (None, text)."""
    meta, rest = read_frontmatter(text)
    if meta is None or not all(k in meta for k in EXPORT_KEYS):
        return None, text
    return meta, rest


def shown_name(name: str) -> str:
    """A file name for a message: bytes that are not UTF-8 shown as \\xNN escapes."""
    try:
        return os.fsencode(name).decode("utf-8", "backslashreplace")
    except UnicodeError:
        return name.encode("utf-8", "backslashreplace").decode("utf-8")


def segment_for(name: str) -> str:
    """The path segment a file or folder name becomes: itself if it is a valid slug, else slugified."""
    try:
        path = normalize_path(HOME + "/" + name)
        if path.count("/") == 1:
            return name_of(path)
    except PathError:
        pass
    return slugify(name)


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
) -> ImportReport:
    """Import folder `src` below `under`: each text file becomes a document (`x.md` -> `x`).

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
    report = ImportReport()
    texts: dict[str, str] = {}  # relative file -> text
    doc_of_file: dict[str, str] = {}  # relative file -> document path
    doc_of_dir: dict[str, str] = {"": under}  # relative folder -> document path
    sources: dict[str, str] = {}  # document path -> relative file (clash detection)

    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        rel_dir = "" if rel_dir == "." else rel_dir
        kept = []
        for name in sorted(dirnames):
            rel = posixpath.join(rel_dir, name)
            full = os.path.join(dirpath, name)
            if name.startswith("."):
                continue  # .obsidian, .git, ...
            if not is_utf8_text(name):
                report.skipped.append((shown_name(rel), "its name is not UTF-8 text"))
                continue
            if os.path.islink(full):
                _check_symlink(full, rel, real_root)
                report.skipped.append((rel, "symlink to a folder inside the import; not followed"))
                continue
            doc_of_dir[rel] = _join(doc_of_dir[rel_dir], segment_for(name), rel)
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
            text = _read_text(full, rel)
            if text is None:
                report.skipped.append((rel, "not UTF-8 text"))
                continue
            doc_path = _join(doc_of_dir[rel_dir], segment_for(_doc_name(name)), rel)
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
            plan.append(_Planned(rel, doc_of_file[rel], text, None, links, False))
    for p in plan:  # refuse a too-large body before writing anything
        size = len(p.body.encode("utf-8"))
        if size > repo.max_body_bytes:
            raise BodyTooLargeError(p.path, size, repo.max_body_bytes)

    plan.sort(key=lambda p: (p.path.count("/"), p.path))
    with repo.transaction():
        for p in plan:
            before = repo.get(owner, p.path)
            guard = p.sha256 if if_unchanged and before is not None else None
            doc = repo.write(
                owner,
                p.path,
                p.body,
                title=p.title,
                links=p.links,
                content_sha256=guard,
                actor=actor,
            )
            if before is None:
                report.created.append(doc.path)
            elif before.version == doc.version:
                report.unchanged.append(doc.path)
            else:
                report.modified.append(doc.path)
    return report


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


def _read_text(full: str, rel: str) -> str | None:
    try:
        # O_NONBLOCK: a FIFO swapped in after the check must not block the open
        fd = os.open(full, os.O_RDONLY | _O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise UserError(f"import file {rel!r}: cannot be read ({e.strerror})") from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return None
        data = f.read()
    if b"\x00" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


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
