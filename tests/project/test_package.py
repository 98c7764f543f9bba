"""The package's public names and its start-up cost."""

from __future__ import annotations

import subprocess
import sys

import pytest

import doctree


def test_every_public_name_imports():
    for name in doctree.__all__:
        assert getattr(doctree, name) is not None


def test_unknown_name_is_an_attribute_error():
    try:
        doctree.NoSuchThing  # noqa: B018
    except AttributeError as e:
        assert "NoSuchThing" in str(e)
    else:
        raise AssertionError("expected AttributeError")


@pytest.mark.slow
def test_cli_help_does_not_import_heavy_modules():
    code = (
        "import sys; from doctree.cli import cli\n"
        "heavy = [m for m in ('anthropic', 'mcp', 'markdown_it', 'pydantic', 'httpx', 'yaml')"
        " if m in sys.modules]\n"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_every_package_and_migration_folder_ships_in_the_wheel():
    """pyproject lists packages by hand: a subpackage missing there works in a checkout
    and is absent from an installed wheel."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    config = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    found = {
        ".".join(p.parent.relative_to(root).parts) for p in (root / "doctree").rglob("__init__.py")
    }
    assert found, "no packages found under doctree/"
    assert found - listed == set()
    migration_dirs = {
        "doctree._data." + ".".join(p.relative_to(root).parts)
        for p in [root / "migrations", *(root / "migrations").iterdir()]
        if p.is_dir() and any(p.glob("*.sql"))
    }
    assert len(migration_dirs) >= 2
    assert migration_dirs - listed == set()
    assert migration_dirs - set(config["package-data"]) == set()
