"""Analysis engines set on the home page, in a real browser: added with a folder, offered in
the game's engine menu and analysing there, still listed after the server restarts, removed;
and the form's refusals in words.

The same headless Chromium as test_browser.py; skipped with it when Chromium is absent. The
engine is tengen's own GTP engine, started by a script from the folder the form gives.
"""

from __future__ import annotations

import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.test_browser import (
    Page,
    Server,
    analyse_with,
    browser,
    expect,
    new_game,
    page,
    play,
    shot,
)

__all__ = ["browser", "page"]  # the fixtures this module's tests use


@pytest.fixture
def engine_server(tmp_path: Path) -> Iterator[Server]:
    """A server of the test's own (it is restarted) on the test's games file."""
    server = Server(tmp_path / "games.sqlite3")
    server.start()
    yield server
    server.stop()


def test_an_engine_added_on_the_home_page_analyses(
    engine_server: Server, page: Page, tmp_path: Path
) -> None:
    folder = tmp_path / "engine"
    folder.mkdir()
    script = folder / "gtp.sh"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m tengen gtp --seed 1\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    page.goto(engine_server.url)
    expect(page.locator("#no-engines")).to_be_visible()
    form = page.locator("#engine-form")
    expect(form).to_be_visible()  # this browser is on the server's machine
    page.click("#add-engine")
    expect(page.locator("#engines-message")).to_have_text("Give the engine a name, such as katago.")
    page.fill("[name=engine_name]", "mine")
    page.fill("[name=engine_command]", "./gtp.sh")
    page.click("#add-engine")  # no folder: ./gtp.sh is nowhere
    expect(page.locator("#engines-message")).to_have_text("command: no program './gtp.sh' to run")
    page.fill("[name=engine_cwd]", str(folder))
    page.click("#add-engine")
    expect(page.locator("#engines-message")).to_have_text("Added mine.")
    row = page.locator('#engines tr[data-engine="mine"]')
    expect(row).to_contain_text("./gtp.sh")
    expect(row).to_contain_text("settings")
    shot(page, "engine-settings")

    new_game(page, engine_server.url)
    play(page, "E5", "C3")
    analyse_with(page, "mine")

    engine_server.stop()
    engine_server.start()  # kept in the games file
    page.goto(engine_server.url)
    expect(row).to_contain_text("./gtp.sh")
    page.click('#engines button[aria-label="Remove mine"]')
    expect(page.locator("#engines-message")).to_have_text("Removed mine.")
    expect(page.locator("#no-engines")).to_be_visible()
    new_game(page, engine_server.url)
    expect(page.locator("#analysis-engine")).to_be_hidden()  # the built-in search alone


def test_a_server_that_refuses_settings_says_why(page: Page, tmp_path: Path) -> None:
    server = Server(tmp_path / "games.sqlite3", "--no-engine-settings")
    server.start()
    try:
        page.goto(server.url)
        note = page.locator("#engines-note")
        expect(note).to_contain_text("added from a browser on that machine")
        expect(page.locator("#engine-form")).to_be_hidden()
    finally:
        server.stop()
