"""The inspector in a real browser: headless Chromium (the Debian package, `make browser`)
driven by playwright against `doctree serve` on a free loopback port. Opens the demo's
memory, follows a backlink, opens a diff, reverts a run and sees the page change; saves
screenshots under tests/artifacts/ (ignored by git)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from web_demo import build_demo, free_port

CHROMIUM = os.environ.get("DOCTREE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent / "artifacts"
HOW = "no Chromium: run `make browser` (apt-get install chromium) for the browser tests"

if not Path(CHROMIUM).exists():
    pytest.skip(HOW, allow_module_level=True)
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="no playwright: `make .venv/.installed`"
)

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    db = build_demo(tmp_path_factory.mktemp("browser") / "demo.db")
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "doctree", "--db", str(db), "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(url + "/tree", timeout=2)
            break
        except (OSError, urllib.error.HTTPError):
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(proc.stderr.read().decode()) from None
            time.sleep(0.1)
    yield url
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def page(base):
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pg = browser.new_page(viewport={"width": 1280, "height": 900})
        pg.set_default_timeout(15000)
        yield pg
        browser.close()


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_open_the_memory_follow_a_backlink_open_a_diff_and_revert_a_run(page, base):
    # The tree of the demo's memory.
    page.goto(base + "/")
    assert page.url.endswith("/tree")
    page.click('a[href="/doc/~/memory/projects/apollo"]')
    assert "December 8" in page.inner_text("#body")
    shot(page, "1-apollo")

    # Follow a backlink: a page that links to Apollo.
    backlink = page.locator("ul.backlinks a").first
    target = backlink.get_attribute("href")
    backlink.click()
    assert page.url == base + target
    assert page.locator('#body a[href="/doc/~/memory/projects/apollo"]').count() >= 1
    shot(page, "2-backlink")

    # The history of Apollo, and the diff between two versions.
    page.goto(base + "/history/~/memory/projects/apollo")
    page.fill("input[name=from]", "1")
    page.fill("input[name=to]", "4")
    page.click("form button")
    assert "/diff/~/memory/projects/apollo" in page.url
    assert page.locator("pre.diff span.add").count() > 0
    shot(page, "3-diff")

    # The run that corrected the launch date, reverted with its button.
    page.goto(base + "/runs/9")
    shot(page, "4-run")
    page.click("button#revert")
    assert "put back" in page.inner_text("#reverted")
    shot(page, "5-reverted")
    page.goto(base + "/doc/~/memory/projects/apollo")
    assert "December 8" not in page.inner_text("#body")
    assert "December 1" in page.inner_text("#body")
    shot(page, "6-apollo-after-revert")
