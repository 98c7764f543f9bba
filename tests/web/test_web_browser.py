"""The inspector in a real browser: headless Chromium (the Debian package, `make browser`)
driven by playwright against `doctree serve` on a free loopback port. Opens the demo's
memory, follows a backlink, opens a diff, reverts a run and sees the page change; saves
screenshots of every page at desktop (1280 px) and phone (390 px) width under
tests/artifacts/screenshots/ (ignored by git), checks that no page is wider than a phone's
screen and that the tree is a drawer there."""

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

from tests.web_demo import build_demo, free_port

pytestmark = [pytest.mark.slow, pytest.mark.browser]

CHROMIUM = os.environ.get("DOCTREE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parents[1] / "artifacts"
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


SHOTS = ARTIFACTS / "screenshots"
APOLLO = "/doc/~/memory/projects/apollo"
PAGES = {
    "activity": "/",
    "tree": "/tree",
    "document": APOLLO,
    "history": "/history/~/memory/projects/apollo",
    "diff": "/diff/~/memory/projects/apollo?from=1&to=4",
    "blame": "/blame/~/memory/projects/apollo",
    "search": "/search?q=launch",
    "search-every-version": "/search?q=December&all=1",
    "runs": "/runs",
    "run": "/runs/9",
    "revert-preview": "/runs/9/revert",
    "sessions": "/sessions",
    "session": "/sessions/s-2026-11-23-apollo-replan",
    "version": "/version/1/1",
}
WIDTHS = {"desktop": 1280, "phone": 390}


@pytest.fixture(scope="module")
def browser(base):
    SHOTS.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots in {SHOTS}")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def page(browser):
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    pg.set_default_timeout(15000)
    yield pg
    pg.close()


@pytest.fixture(scope="module")
def phone(browser):
    pg = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    pg.set_default_timeout(15000)
    yield pg
    pg.close()


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("name", list(PAGES))
def test_every_page_at_desktop_and_phone_width_fits_and_is_pictured(page, phone, base, name):
    """Each page at 1280 and 390 px: screenshots saved, and at phone width nothing wider
    than the screen (document.scrollWidth <= the viewport's width)."""
    for width, pg in (("desktop", page), ("phone", phone)):
        response = pg.goto(base + PAGES[name])
        assert response.status == 200, (name, response.status)
        assert pg.locator("main h1").count() >= 1
        pg.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
        scroll = pg.evaluate("document.documentElement.scrollWidth")
        assert scroll <= WIDTHS[width], f"{name} at {width}: {scroll} px wide"


def test_at_phone_width_the_tree_is_a_drawer(phone, base):
    phone.goto(base + APOLLO)
    side = phone.locator("nav.side")
    assert not side.is_visible()
    phone.click("label.drawer")
    assert side.is_visible()
    assert side.locator('a[href="/doc/~/memory/projects/apollo"]').is_visible()
    phone.screenshot(path=str(SHOTS / "drawer-open-phone.png"), full_page=True)


def test_no_page_runs_a_script_or_breaks_the_content_security_policy(browser, base):
    pg = browser.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    for path in PAGES.values():
        pg.goto(base + path)
    pg.close()
    assert [e for e in errors if "Content Security Policy" in e] == []


def test_readme_picture(page, base):
    """The picture in the README: the activity feed at desktop width (the browser's
    viewport only, not the whole page), saved with the screenshots."""
    page.set_viewport_size({"width": 1100, "height": 720})
    page.goto(base + "/")
    page.screenshot(path=str(SHOTS / "readme.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    assert (SHOTS / "readme.png").stat().st_size > 10_000


def test_open_the_memory_follow_a_backlink_open_a_diff_and_revert_a_run(page, base):
    # The tree of the demo's memory.
    page.goto(base + "/tree")
    page.click('main table a[href="/doc/~/memory/projects/apollo"]')
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

    # The run that corrected the launch date, reverted: its preview, then the confirmation.
    page.goto(base + "/runs/9")
    shot(page, "4-run")
    page.click("a#revert")
    assert "/runs/9/revert" in page.url
    assert "~/memory/active" in page.inner_text("#kept + ul")  # changed since by run 10
    page.click("button#confirm")
    page.wait_for_url("**/runs/9/revert")
    assert "put back" in page.inner_text("#reverted")
    shot(page, "5-reverted")
    page.goto(base + "/runs/9")
    assert page.locator("a#revert").count() == 0  # the button is gone once used
    assert "reverted" in page.inner_text("#reverted")
    page.goto(base + "/doc/~/memory/projects/apollo")
    assert "December 8" not in page.inner_text("#body")
    assert "December 1" in page.inner_text("#body")
    shot(page, "6-apollo-after-revert")
