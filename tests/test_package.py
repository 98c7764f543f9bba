"""The package's public names and its start-up cost."""

from __future__ import annotations

import subprocess
import sys

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


def test_cli_help_does_not_import_heavy_modules():
    code = (
        "import sys; from doctree.cli import cli\n"
        "heavy = [m for m in ('anthropic', 'mcp', 'markdown_it', 'pydantic', 'httpx', 'yaml')"
        " if m in sys.modules]\n"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
