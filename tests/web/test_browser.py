"""The app in a real headless Chromium (Debian's ``chromium``) driven by Playwright.

Each test starts from the page, as a player would, against the real server started in a
subprocess on a free loopback port. A screenshot of every step goes to tests/web/artifacts/.
Skipped when Chromium is absent, except in CI (which installs it).
"""

from __future__ import annotations

import functools
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tengen.core.color import Color
from tengen.sgf import parse_file
from tengen.sgf.replay import replay

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).parent / "artifacts"
CORPUS = Path(__file__).parents[3] / "shared" / "corpus"

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing; CI must install chromium", pytrace=False)
    pytest.skip(f"{CHROMIUM} not found (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import Browser, Dialog, Page, expect, sync_playwright  # noqa: E402


class Server:
    """`python -m tengen.web` in a subprocess on a free port, restartable on the same db."""

    def __init__(self, db: Path, *extra: str) -> None:
        self.db = db
        self.extra = list(extra)  # more options of the server's command line
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it and wait until it answers."""
        compile_kernels()
        argv = [sys.executable, "-m", "tengen.web", "--port", str(self.port), "--db", str(self.db)]
        self.process = subprocess.Popen(
            [*argv, "--seed", "3", *self.extra], stdout=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"{self.url}/api/config", timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """kill -9: no shutdown, no flushing."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        """Terminate it if it runs."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


@functools.cache
def compile_kernels() -> None:
    """Compile the kernels the app calls, once a test process, before its first server starts
    (2-3 s when numba's cache has them). The suite's servers compile on demand
    (``TENGEN_JIT=compiled``): on a cold cache the first moves and analyses would wait
    minutes for the compiler, and a test's few seconds for the answer run out."""
    env = dict(os.environ, TENGEN_JIT="compiled")
    subprocess.run([sys.executable, "-m", "tengen.warm"], env=env, check=True, capture_output=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module's tests."""
    s = Server(tmp_path_factory.mktemp("web") / "games.sqlite3")
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless."""
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh browser context (no saved tokens) and page; JS errors fail the test."""
    context = browser.new_context(viewport={"width": 1200, "height": 820})
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.set_default_timeout(10_000)
    yield p
    context.close()
    assert not errors, errors


def shot(page: Page, name: str) -> None:
    """Keep a screenshot of this step."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def point(page: Page, vertex: str, height: int = 9) -> None:
    """Click the board at a GTP vertex such as D4, once no action is on its way: the page
    ignores board clicks meanwhile (a comment still being saved on CI's loaded machine took
    a click so)."""
    idle(page)
    col = "ABCDEFGHJKLMNOPQRSTUVWXYZ".index(vertex[0])
    row = height - int(vertex[1:])
    page.click(f'#board .pt[data-col="{col}"][data-row="{row}"]')


def new_game(page: Page, url: str, size: str = "9", **seats: str) -> None:
    """Start a game from the form."""
    page.goto(url)
    page.wait_for_selector("select[name=ruleset] option", state="attached")
    page.select_option("[name=size]", size)
    for seat, kind in seats.items():
        page.select_option(f"[name={seat}]", kind)
    page.click("#start-game")
    page.wait_for_selector("#board svg")


def play(page: Page, *vertices: str, height: int = 9) -> None:
    """Click moves one after the other, each waiting for the server's answer."""
    for v in vertices:
        before = page.locator("#status").inner_text()
        point(page, v, height)
        expect(page.locator("#status")).not_to_have_text(before)
        idle(page)


def idle(page: Page) -> None:
    """Wait until no action of the page is on its way (the controls are enabled again)."""
    expect(page.locator("#game")).not_to_have_class(re.compile(r"\bbusy\b"))


def bounding_box(page: Page, selector: str) -> dict[str, float]:
    """Where the element is on the page. A websocket update may redraw it between finding and
    measuring it (the old element, detached, has no box), so it is asked again, for 5 s."""
    for _ in range(50):
        box = page.locator(selector).bounding_box()
        if box is not None:
            return dict(box)
        page.wait_for_timeout(100)
    raise AssertionError(f"{selector} is not on the page")


def stones(page: Page) -> int:
    return page.locator("#board .stone").count()


def test_capture_by_clicking(server: Server, page: Page) -> None:
    new_game(page, server.url)
    shot(page, "01-new-game")
    play(page, "B9", "A9", "A8")
    expect(page.locator("#caps-black")).to_have_text("1")
    assert stones(page) == 2  # the white stone at A9 is gone
    expect(page.locator("#announce")).to_have_text("Black A8, captures 1.")
    shot(page, "02-capture")
    point(page, "B9")
    expect(page.locator("#message")).to_have_text("Refused (occupied): illegal move B9: occupied")
    shot(page, "03-illegal-occupied")


def test_a_click_survives_a_redraw_between_press_and_release(server: Server, page: Page) -> None:
    """The board is drawn anew whenever the state or an option changes, which can fall between
    the press and the release of one click (a websocket update); the click must still play."""
    new_game(page, server.url)
    idle(page)
    box = bounding_box(page, '#board .pt[data-col="2"][data-row="6"]')
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate("document.getElementById('show-numbers').click()")  # draws the board anew
    page.mouse.up()
    expect(page.locator("#status")).to_have_text("Move 1. White to play (you).")
    assert stones(page) == 1


def test_ko_retake_refused_then_undo(server: Server, page: Page) -> None:
    new_game(page, server.url)
    play(page, "B9", "C9", "A8", "B8", "B7", "D8", "J1", "C7", "C8")
    assert page.locator("#board [data-ko]").get_attribute("data-ko") == "B8"
    expect(page.locator("#caps-black")).to_have_text("1")
    point(page, "B8")
    expect(page.locator("#message")).to_have_text("Refused (ko): illegal move B8: ko")
    shot(page, "04-ko-refused")
    count = stones(page)
    page.click("#undo")
    expect(page.locator("#caps-black")).to_have_text("0")
    assert stones(page) == count  # C8 gone, B8 back
    assert page.locator("#board [data-ko]").count() == 0
    shot(page, "05-undo")
    # keyboard: arrows move the cursor from the centre, Enter plays
    page.focus("#board")
    page.keyboard.press("ArrowUp")  # the first press shows the cursor at the centre, E5
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(page.locator("#announce")).to_have_text("Black E4, white in atari at B8.")
    page.fill("#vertex", "D4")
    page.press("#vertex", "Enter")
    expect(page.locator("#announce")).to_have_text("White D4, black in atari at B9.")


def test_review_a_corpus_record(server: Server, page: Page) -> None:
    """Game 4 of Lee Sedol vs AlphaGo (katrain_test_data): step to its end, where the page
    shows exactly the stones tengen's own replay of the record leaves on the board."""
    record = CORPUS / "katrain_test_data" / "LS vs AG - G4 - English.sgf"
    if not record.exists():
        pytest.skip(f"{record} is absent")
    game, _ = replay(parse_file(record).games[0])
    on_board = len(game.board.stones(Color.BLACK)) + len(game.board.stones(Color.WHITE))
    page.goto(server.url)
    page.set_input_files("#file", str(record))
    page.wait_for_selector("#review-controls:not([hidden])")
    shot(page, "06-review-start")
    page.locator("body").press("End")
    expect(page.locator("#status")).to_have_text(
        re.compile(rf"Move {game.move_number} of {game.move_number}\. ")
    )
    assert stones(page) == on_board
    shot(page, "07-review-end")
    page.locator("body").press("Home")
    expect(page.locator("#status")).to_contain_text("Move 0 of")
    page.click("#nav-forward")
    expect(page.locator("#status")).to_contain_text("Move 1 of")


def test_paste_variations_and_comment(server: Server, page: Page) -> None:
    page.goto(server.url)
    page.fill("#paste", "(;GM[1]SZ[9];B[ee](;W[cc]C[main])(;W[gc]C[side]))")
    page.click("#open-paste")
    page.wait_for_selector("#review-controls:not([hidden])")
    page.click("#nav-forward")
    expect(page.locator("#variations button")).to_have_count(2)
    page.locator("#variations button").nth(1).click()
    expect(page.locator("#comment")).to_have_value("side")
    page.fill("#comment", "a better move")
    page.click("#save-comment")
    point(page, "D4")  # playing adds a variation here
    expect(page.locator("#status")).to_contain_text("Move 3 of 3")
    shot(page, "08-variation-tree")
    assert page.locator("#tree circle").count() == 5


def test_score_a_finished_game(server: Server, page: Page) -> None:
    page.goto(server.url)
    page.wait_for_selector("select[name=ruleset] option", state="attached")
    page.select_option("[name=size]", "other")
    page.fill("[name=size_other]", "5")
    page.select_option("[name=ruleset]", "japanese")
    page.fill("[name=komi]", "0.5")
    page.click("#start-game")
    page.wait_for_selector("#board svg")
    play(page, "B1", "D1", "B2", "D2", "B3", "D3", "B4", "D4", "B5", "D5", height=5)
    page.click("#pass")
    play(page, "A3", height=5)
    page.click("#pass")
    expect(page.locator("#status")).to_contain_text("White to play")
    page.click("#pass")
    expect(page.locator("#scoring")).to_be_visible()
    if page.locator("#board .stone.dead").count() == 0:
        point(page, "A3", height=5)
    expect(page.locator("#score-result")).to_have_text("Result: B+0.5")
    shot(page, "09-scoring")
    page.click("#score-accept")
    expect(page.locator("#status")).to_have_text("Game over: B+0.5 (Black wins by 0.5 points)")
    shot(page, "10-scored")


def test_two_pages_two_seats(server: Server, browser: Browser, page: Page) -> None:
    new_game(page, server.url, white="remote")
    link = page.locator("#seat-links a").get_attribute("href")
    assert link is not None and "#seat=white&token=" in link
    other = browser.new_context(viewport={"width": 1200, "height": 820}).new_page()
    other.goto(link)
    other.wait_for_selector("#board svg")
    play(page, "E5")
    expect(other.locator("#board .stone")).to_have_count(1)  # seen live over the websocket
    point(page, "D4")  # not Black's turn, and this page holds no white seat
    expect(page.locator("#message")).to_contain_text("does not hold the white seat")
    play(other, "D4")
    expect(page.locator("#board .stone")).to_have_count(2)
    shot(page, "11-seat-black")
    shot(other, "12-seat-white")
    # Review is of a copy: this page reviews its own game, the shared one plays on
    expect(page.locator("#to-review")).to_have_text("Review a copy")
    shared = page.url
    page.click("#to-review")
    expect(page).not_to_have_url(shared)
    expect(page.locator("#review-controls")).to_be_visible()
    page.keyboard.press("Home")
    expect(page.locator("#board .stone")).to_have_count(0)
    expect(other.locator("#play-controls")).to_be_visible()  # the shared game plays on
    expect(other.locator("#board .stone")).to_have_count(2)
    other.context.close()


def test_kill_the_server_and_find_every_move(tmp_path: Path, browser: Browser, page: Page) -> None:
    server = Server(tmp_path / "games.sqlite3")
    server.start()
    try:
        new_game(page, server.url)
        moves = ["E5", "C3", "G7", "C7", "G3", "D5"]
        play(page, *moves)
        shot(page, "13-before-kill")
        server.kill()
        server.start()
        page.reload()
        page.wait_for_selector("#board svg")
        expect(page.locator("#board .stone")).to_have_count(len(moves))
        for v in moves:
            col = "ABCDEFGHJ".index(v[0])
            assert page.locator(f'.pt[data-col="{col}"][data-row="{9 - int(v[1])}"] .stone').count()
        expect(page.locator("#status")).to_contain_text("Move 6. Black to play")
        play(page, "F4")  # the game goes on
        shot(page, "14-after-restart")
    finally:
        server.stop()


def new_gomoku(page: Page, url: str, rule: str) -> None:
    """Start a 15x15 Gomoku game from the form, both seats on this screen."""
    page.goto(url)
    page.wait_for_selector("select[name=rule] option", state="attached")
    page.check("[name=game][value=gomoku]")
    page.select_option("[name=rule]", rule)
    shot(page, "15-gomoku-form")
    page.click("#start-game")
    page.wait_for_selector("#board svg")
    expect(page.locator("#game-kind")).to_have_text(f"Gomoku · {rule} · 15\u00d715")


def test_gomoku_won_by_a_five(server: Server, page: Page) -> None:
    new_gomoku(page, server.url, "freestyle")
    play(page, "H8", "A1", "H9", "A3", "H10", "A5", "H11", "A7", "H12", height=15)
    expect(page.locator("#status")).to_have_text("Game over: B+5 (five in a row)")
    win = page.locator("#board .win")
    expect(win.locator(".win-line")).to_have_count(1)  # a vertical line: no width to be "visible"
    expect(win.locator(".win-stone")).to_have_count(5)
    expect(win.locator(".win-stone").first).to_be_visible()
    assert win.get_attribute("data-points") == "H12 H11 H10 H9 H8"
    expect(page.locator("#pass")).to_be_hidden()
    shot(page, "16-gomoku-five")
    page.click("#undo")
    expect(page.locator("#board .win")).to_have_count(0)


def test_gomoku_renju_forbidden_point(server: Server, page: Page) -> None:
    new_gomoku(page, server.url, "renju")
    play(page, "H8", "A1", "G8", "A3", "J9", "A5", "J10", "A7", height=15)
    mark = page.locator('#board .forbidden[data-vertex="J8"]')
    expect(mark).to_be_visible()
    title = page.locator('#board .pt[data-col="8"][data-row="7"] > title')
    expect(title).to_have_text("Forbidden to Black: double-three (lines: horizontal, vertical)")
    shot(page, "17-gomoku-renju-forbidden")
    point(page, "J8", height=15)
    expect(page.locator("#message")).to_contain_text("illegal move J8: forbidden: double-three")
    assert stones(page) == 8


def test_analysis_on_the_board_and_the_win_rate_graph(server: Server, page: Page) -> None:
    """A one-second analysis draws candidate moves and the territory, the A key stops a long
    one, and the review's win-rate graph takes the page to the move clicked, and is there
    again after a reload."""
    new_game(page, server.url)
    play(page, "E5", "C3", "G7")
    page.select_option("#analysis-seconds", "1")
    page.click("#analyse")
    analysis = page.locator("#analysis")
    expect(analysis).to_have_attribute("data-state", "done", timeout=60_000)  # JIT at first
    expect(page.locator("#analysis-status")).to_contain_text("playouts")
    candidates = page.locator("#board .candidate")
    assert candidates.count() >= 1
    for vertex in candidates.evaluate_all("gs => gs.map(g => g.dataset.vertex)"):
        assert page.locator(f'#board .stone[data-vertex="{vertex}"]').count() == 0
    assert page.locator("#board .own-black, #board .own-white").count() > 0
    for side, color in (("own-black", "black"), ("own-white", "white")):  # never on own stones
        for vertex in page.locator(f"#board .{side}").evaluate_all(
            "r => r.map(e => e.dataset.vertex)"
        ):
            assert page.locator(f'#board .stone.{color}[data-vertex="{vertex}"]').count() == 0
    expect(page.locator("#analysis-moves li")).to_have_count(candidates.count())
    shot(page, "18-analysis")
    best = candidates.first
    assert float(best.get_attribute("data-loss") or "nan") == 0  # the best loses nothing
    best.hover()  # its line, numbered from 1, the player to move first
    line = page.locator("#board .pv-stone")
    expect(line.first).to_have_attribute("data-order", "1")
    expect(line.first).to_have_class(re.compile("white"))  # White is to move after E5 C3 G7
    page.mouse.move(0, 0)
    expect(line).to_have_count(0)
    page.select_option("#candidate-measure", "winrate")
    expect(candidates.first.locator(".candidate-rate")).to_have_text(re.compile(r"^\d+$"))
    page.uncheck("#show-ownership")
    expect(page.locator("#board .own-black")).to_have_count(0)
    page.select_option("#analysis-seconds", "60")
    page.locator("#board").press("a")
    expect(analysis).to_have_attribute("data-state", "running")
    page.locator("#board").press("a")  # pauses: the same search goes on from there
    expect(analysis).to_have_attribute("data-state", "done")
    expect(page.locator("#analyse")).to_have_text("Resume")
    expect(page.locator("#analysis-status")).to_contain_text("Paused")

    def visits() -> int:
        return sum(int(v) for v in candidates.evaluate_all("gs => gs.map(g => g.dataset.visits)"))

    paused = visits()
    page.locator("#board").press("a")
    expect(analysis).to_have_attribute("data-state", "running")
    expect(page.locator("#analyse")).to_be_hidden()
    page.click("#analysis-stop")
    expect(page.locator("#analyse")).to_have_text("Resume")
    assert visits() > paused  # resumed: the visits add up
    on_c7 = page.locator('#board .candidate[data-vertex="C7"]')
    if on_c7.count():  # a candidate drawn on the point takes the click, and plays there too
        on_c7.click()
        expect(page.locator("#status")).to_contain_text("Move 4")
    else:
        play(page, "C7")  # another position: the old analysis is not drawn on it
    expect(page.locator("#analyse")).to_have_text("Analyse")
    expect(page.locator("#board .candidate")).to_have_count(0)
    page.click("#to-review")
    page.click("#graph-start")
    expect(page.locator("#graph svg")).to_have_attribute("data-points", "5", timeout=60_000)
    expect(page.locator("#graph-status")).to_have_text("5 of 5 positions")
    expect(page.locator("#graph .graph-lead")).to_have_attribute("data-points", "5")
    expect(page.locator("#graph .graph-rate")).to_have_text("100%50%0%")  # labelled axes
    scale = page.locator("#graph svg").get_attribute("data-lead-scale")
    expect(page.locator("#graph .graph-points")).to_have_text(f"B+{scale}0W+{scale}")
    expect(page.locator("#graph .graph-moves")).to_have_text(re.compile(r"^move 0\d+\d+$"))
    expect(page.locator("#graph .graph-legend")).to_contain_text("Black's score lead")
    scales = page.evaluate(
        "async () => { const { leadScale } = await import('/static/analysis.js');"
        " return [[], [3.2], [7.5], [-12], [49], [130]].map(leadScale); }"
    )
    assert scales == [5, 5, 10, 20, 50, 150]
    shot(page, "19-win-rate-graph")
    box = bounding_box(page, "#graph svg")
    page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)
    expect(page.locator("#status")).to_contain_text("Move 0 of 4")
    page.reload()  # the page asks for the graph again (a restart reads it from the record)
    expect(page.locator("#graph svg")).to_have_attribute("data-points", "5")
    expect(page.locator("#graph-status")).to_have_text("5 of 5 positions")


def test_clocks_count_down_and_the_flag_falls(server: Server, page: Page) -> None:
    page.goto(server.url)
    page.wait_for_selector("select[name=ruleset] option", state="attached")
    expect(page.locator("[name=clock_main]")).to_be_hidden()  # no clock: no clock fields
    page.select_option("[name=clock]", "absolute")
    expect(page.locator("[name=clock_periods]")).to_be_hidden()
    page.fill("[name=clock_main]", "0.1")  # six seconds each
    page.click("#start-game")
    page.wait_for_selector("#board svg")
    black, white = page.locator("#clock-black"), page.locator("#clock-white")
    expect(black).to_have_class(re.compile("running"))
    expect(black).to_have_text(re.compile(r"0:0[0-5]"))  # counting down from 0:06
    play(page, "E5")
    expect(white).to_have_class(re.compile("running"))
    expect(black).not_to_have_class(re.compile("running"))
    shot(page, "clock-running")
    expect(white).to_have_text("time", timeout=15_000)  # the server's flag, not the page's
    expect(page.locator("#status")).to_have_text("Game over: B+T (Black wins on time)")
    shot(page, "clock-flag-fell")
    point(page, "D4")
    expect(page.locator("#message")).to_have_text("Refused (game over): the game is over (B+T)")


def test_a_double_clicked_undo_takes_back_one_move(server: Server, page: Page) -> None:
    new_game(page, server.url)
    play(page, "C3", "D4", "E5")
    page.dblclick("#undo")
    expect(page.locator("#status")).to_have_text("Move 2. Black to play (you).")
    expect(page.locator("#undo")).to_be_enabled()
    idle(page)
    assert stones(page) == 2
    shot(page, "undo-double-click")


@pytest.mark.parametrize("button", ["undo", "pass"])
def test_a_persons_double_click_acts_once(server: Server, page: Page, button: str) -> None:
    """The second click of a double click comes after the first was answered (a person's
    clicks are 100-200 ms apart; a local server answers in a few): it is ignored, not a
    second undo or a second pass, which would end the game."""
    new_game(page, server.url)
    play(page, "C3", "D4")
    before = page.locator("#status").inner_text()

    def centre() -> tuple[float, float]:
        box = bounding_box(page, f"#{button}")
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    page.mouse.click(*centre())
    expect(page.locator("#status")).not_to_have_text(before)
    idle(page)  # the first click's action is answered
    answered = page.locator("#status").inner_text()
    page.mouse.move(*centre())  # a line "pass" above moves the button down
    page.mouse.down(click_count=2)  # the browser's second click of a double click
    page.mouse.up(click_count=2)
    page.wait_for_timeout(500)
    idle(page)
    expect(page.locator("#status")).to_have_text(answered)
    expect(page.locator("#scoring")).to_be_hidden()  # two passes would start the counting
    assert stones(page) == (1 if button == "undo" else 2)


def test_the_computer_is_seen_thinking(server: Server, page: Page) -> None:
    page.goto(server.url)
    page.wait_for_selector("select[name=ruleset] option", state="attached")
    page.select_option("[name=white]", "builtin")
    page.select_option("[name=level]", "8")  # two seconds a move
    page.click("#start-game")
    page.wait_for_selector("#board svg")
    point(page, "E5")
    expect(page.locator("#working")).to_have_text("Computer thinking…")
    expect(page.locator("#pass")).to_be_disabled()
    expect(page.locator("#status")).to_have_text(
        re.compile(r"Move 2\. Black to play"), timeout=30_000
    )
    expect(page.locator("#working")).to_be_hidden()
    expect(page.locator("#pass")).to_be_enabled()


def test_a_lost_connection_is_shown_and_comes_back(
    tmp_path: Path, browser: Browser, page: Page
) -> None:
    server = Server(tmp_path / "games.sqlite3")
    server.start()
    try:
        new_game(page, server.url)
        play(page, "E5")
        expect(page.locator("#connection")).to_be_hidden()
        server.kill()
        expect(page.locator("#connection")).to_have_text(
            "Disconnected from the server, reconnecting…"
        )
        point(page, "C3")
        expect(page.locator("#message")).to_contain_text("No answer from the server (disconnected)")
        shot(page, "disconnected")
        server.start()
        expect(page.locator("#connection")).to_be_hidden(timeout=15_000)  # by itself, no reload
        play(page, "C3")  # the page takes the restarted server's states
        expect(page.locator("#status")).to_have_text("Move 2. Black to play (you).")
        shot(page, "reconnected")
    finally:
        server.stop()


def test_redo_by_button_and_key_and_back_from_review(server: Server, page: Page) -> None:
    new_game(page, server.url)
    play(page, "C3", "D4")
    expect(page.locator("#redo")).to_be_disabled()
    page.click("#undo")
    expect(page.locator("#status")).to_have_text("Move 1. White to play (you).")
    idle(page)
    page.click("#redo")
    expect(page.locator("#status")).to_have_text("Move 2. Black to play (you).")
    assert stones(page) == 2
    idle(page)
    page.keyboard.press("Control+z")
    expect(page.locator("#status")).to_have_text("Move 1. White to play (you).")
    idle(page)  # a key pressed while the server works is dropped, as a second click is
    page.keyboard.press("Control+y")
    expect(page.locator("#status")).to_have_text("Move 2. Black to play (you).")
    shot(page, "redo")
    page.click("#to-review")
    expect(page.locator("#review-controls")).to_be_visible()
    page.click("#nav-start")
    expect(page.locator("#status")).to_have_text("Move 0 of 2. Black to play.")
    page.click("#to-game")
    expect(page.locator("#play-controls")).to_be_visible()
    expect(page.locator("#status")).to_have_text("Move 2. Black to play (you).")


def test_back_from_a_reviewed_copy_to_the_live_game(server: Server, page: Page) -> None:
    new_game(page, server.url, white="remote")
    play(page, "E5")
    live = page.url
    page.click("#to-review")  # "Review a copy": the shared game goes on unchanged
    expect(page).not_to_have_url(live)
    expect(page.locator("#to-game")).to_be_visible()
    page.click("#to-game")
    expect(page).to_have_url(live)
    expect(page.locator("#play-controls")).to_be_visible()


def test_the_new_game_form_refuses_what_is_out_of_range(server: Server, page: Page) -> None:
    page.goto(server.url)
    page.wait_for_selector("select[name=ruleset] option", state="attached")
    message = page.locator("#home-message")
    page.select_option("[name=size]", "other")
    page.fill("[name=size_other]", "30")
    page.click("#start-game")
    expect(message).to_contain_text("Size (2\u201325): ")  # the browser's words for "at most 25"
    expect(page.locator("[name=size_other]")).to_have_attribute("aria-invalid", "true")
    page.fill("[name=size_other]", "9")
    page.fill("[name=komi]", "100")
    page.click("#start-game")
    expect(message).to_contain_text("komi must be within ±81 on 9x9")
    page.fill("[name=komi]", "6.5")
    page.fill("[name=handicap]", "1")
    page.click("#start-game")
    expect(message).to_contain_text("handicap must be 0 or 2 to 9, not 1")
    page.fill("[name=handicap]", "12")
    page.click("#start-game")
    expect(message).to_contain_text("Handicap: ")
    shot(page, "form-refused")
    assert page.url.rstrip("/") == server.url  # no game was made


def test_the_board_is_a_grid_for_screen_readers(server: Server, page: Page) -> None:
    new_game(page, server.url)
    assert page.locator("#board [role=row]").count() == 9
    assert page.locator("#board [role=gridcell]").count() == 81
    play(page, "D4")
    d4 = page.locator("#board [role=gridcell]#pt-3-5")
    expect(d4).to_have_attribute("aria-label", "D4, black stone, 4 liberties, last move")
    play(page, "C4")
    expect(d4).to_have_attribute("aria-label", "D4, black stone, 3 liberties")
    expect(page.locator("#pt-2-5")).to_have_attribute(
        "aria-label", "C4, white stone, 3 liberties, last move"
    )
    expect(page.locator("#announce")).to_have_text("White C4.")
    board = page.locator("#board")
    board.focus()
    board.press("ArrowUp")  # the cursor appears at the centre, E5
    expect(board).to_have_attribute("aria-activedescendant", "pt-4-4")
    expect(page.locator("#pt-4-4")).to_have_attribute("aria-label", "E5, empty")
    board.press("Enter")
    expect(page.locator("#pt-4-4")).to_have_attribute("aria-label", re.compile("^E5, black stone"))
    for button in page.locator("button:visible").all():  # no button without a name
        name = (button.get_attribute("aria-label") or button.inner_text()).strip()
        assert re.search("[A-Za-z]", name), button.evaluate("b => b.outerHTML")
    page.click("#to-review")
    for name in ("First move", "Previous move", "Next move", "Last move"):
        expect(page.get_by_role("button", name=name)).to_be_visible()


def test_a_phone_sized_screen(server: Server, browser: Browser) -> None:
    """At a phone's width the home page (with its games table) and the game page fit without
    sideways scrolling, and the board takes the width it has."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    try:
        new_game(page, server.url, size="19", white="remote")
        expect(page.locator("#status")).to_contain_text("Move 0")
        width = page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width")
        assert width >= 390 * 0.9  # the board redraws on each state: measure the one shown
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, "phone-game")
        page.goto(server.url)
        page.wait_for_selector("#games tbody tr")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, "phone-home")
    finally:
        context.close()


def other_seat(page: Page, browser: Browser) -> Page:
    """The other player's page, opened from the seat link this page shows (close its context)."""
    link = page.locator("#seat-links a").get_attribute("href")
    assert link is not None
    other = browser.new_context(viewport={"width": 1200, "height": 820}).new_page()
    other.goto(link)
    other.wait_for_selector("#board svg")
    return other


def test_an_undo_asked_of_the_other_player(server: Server, browser: Browser, page: Page) -> None:
    new_game(page, server.url, white="remote")
    other = other_seat(page, browser)
    try:
        play(page, "E5")
        expect(page.locator("#undo")).to_have_text("Ask to undo")
        page.click("#undo")
        expect(page.locator("#undo-request-text")).to_have_text(
            "Black asked to take back their last move; waiting for White."
        )
        expect(page.locator("#undo-decline")).to_have_text("Withdraw")
        asked = other.locator("#undo-request-text")
        expect(asked).to_have_text("Black asks to take back their last move.")
        other.click("#undo-decline")
        expect(page.locator("#undo-request")).to_be_hidden()
        assert stones(page) == 1
        idle(page)
        page.click("#undo")
        expect(asked).to_be_visible()
        other.click("#undo-accept")
        expect(page.locator("#board .stone")).to_have_count(0)
        expect(other.locator("#undo-request")).to_be_hidden()
        expect(page.locator("#status")).to_have_text("Move 0. Black to play (you).")
    finally:
        other.context.close()


def test_confirm_each_move_and_the_move_sound(server: Server, page: Page) -> None:
    new_game(page, server.url)
    page.check("#confirm-moves")
    page.check("#move-sound")
    point(page, "E5")
    expect(page.locator("#confirm-play")).to_have_text("Play E5")
    assert stones(page) == 0  # a first tap only marks the point
    expect(page.locator('#board .pt.confirming[data-col="4"][data-row="4"]')).to_have_count(1)
    point(page, "E5")  # the second tap on it plays
    expect(page.locator("#board .stone")).to_have_count(1)
    expect(page.locator("#confirm-move")).to_be_hidden()
    expect(page.locator("body")).to_have_attribute("data-sounds", "1")
    point(page, "C3")
    page.click("#confirm-play")
    expect(page.locator("#board .stone")).to_have_count(2)
    point(page, "D4")
    page.click("#confirm-cancel")
    expect(page.locator("#confirm-move")).to_be_hidden()
    page.reload()  # remembered in this browser
    page.wait_for_selector("#board svg")
    expect(page.locator("#confirm-moves")).to_be_checked()
    expect(page.locator("#move-sound")).to_be_checked()
    page.uncheck("#confirm-moves")
    play(page, "D4")
    assert stones(page) == 3


def test_a_swap2_opening_between_two_people(server: Server, browser: Browser, page: Page) -> None:
    page.goto(server.url)
    page.wait_for_selector("select[name=rule] option", state="attached")
    page.check("[name=game][value=gomoku]")
    page.select_option("[name=opening]", "swap2")
    page.select_option("[name=white]", "remote")
    page.click("#start-game")
    page.wait_for_selector("#board svg")
    other = other_seat(page, browser)
    try:
        text = page.locator("#opening-text")
        expect(text).to_have_text(
            "Swap2 opening. You: place the first three stones (black, white, black): 0 of 3."
        )
        play(page, "H8", "J9", "H10", height=15)
        expect(page.locator("#board .stone.white")).to_have_count(1)  # player 1 placed it
        expect(other.locator("#opening-text")).to_contain_text("You: play White's stone 4")
        expect(other.locator("#opening-choices button")).to_have_count(2)
        other.click('#opening-choices button[data-choice="swap"]')
        expect(other.locator("#opening")).to_be_hidden()
        expect(page.locator("#status")).to_have_text("Move 3. White to play (you).")
        expect(other.locator("#status")).to_have_text("Move 3. White to play.")
        shot(other, "swap2-after-swap")
        play(page, "G7", height=15)  # player 1, now White, plays stone 4
        expect(other.locator("#status")).to_have_text("Move 4. Black to play (you).")
        play(other, "A1", height=15)
        expect(page.locator("#board .stone")).to_have_count(5)
    finally:
        other.context.close()


def test_resign_asks_first(server: Server, page: Page) -> None:
    new_game(page, server.url, white="remote")
    play(page, "E5")
    asked: list[str] = []

    def answer(dialog: Dialog, accept: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda d: answer(d, False))
    page.click("#resign")
    expect(page.locator("#status")).to_have_text("Move 1. White to play.")  # nothing happened
    idle(page)
    page.once("dialog", lambda d: answer(d, True))
    page.click("#resign")
    expect(page.locator("#status")).to_have_text("Game over: W+R (White wins by resignation)")
    assert asked == ["Resign this game?", "Resign this game?"]


def test_data_is_shown_as_text_never_as_html(server: Server, page: Page) -> None:
    """A title from another person or a record is text on the page, not markup."""
    hostile = "<img src=x onerror=\"document.title='owned'\"><b>bold</b>"
    request = urllib.request.Request(
        f"{server.url}/api/games",
        data=json.dumps({"size": 9, "title": hostile}).encode(),
        headers={"Content-Type": "application/json"},
    )
    urllib.request.urlopen(request, timeout=10).close()
    page.goto(server.url)
    link = page.locator("#games tbody a", has_text="bold").first
    expect(link).to_have_text(hostile)
    assert page.locator("#games img, #games b").count() == 0
    assert page.title() != "owned"


def test_game_info_edited_in_the_panel(server: Server, page: Page) -> None:
    new_game(page, server.url)
    page.click("#game-info summary")
    form = page.locator("#info-form")
    expect(form.locator("[name=black]")).to_have_value("Black")
    form.locator("[name=black]").fill("Cho Chikun")
    form.locator("[name=black_rank]").fill("9p")
    form.locator("[name=komi]").fill("5.5")
    form.locator("button[type=submit]").click()
    expect(page.locator("#name-black")).to_have_text("Cho Chikun")
    expect(form.locator("[name=komi]")).to_have_value("5.5")
    expect(form.locator("[name=result]")).to_be_disabled()  # a game in play makes its result
    form.locator("[name=date]").fill("last Tuesday")
    form.locator("button[type=submit]").click()
    expect(page.locator("#message")).to_contain_text("a date is written YYYY-MM-DD")
    href = page.locator("#download").get_attribute("href")
    assert href is not None
    sgf = urllib.request.urlopen(f"{server.url}{href}", timeout=10).read()
    assert b"PB[Cho Chikun]" in sgf and b"BR[9p]" in sgf and b"KM[5.5]" in sgf
    shot(page, "game-info")


def test_play_from_here_in_a_reviewed_record(server: Server, page: Page) -> None:
    page.goto(server.url)
    page.fill("#paste", "(;GM[1]FF[4]SZ[9];B[ee];W[cc];B[gc];W[cg];B[gg];W[ec])")
    page.click("#open-paste")
    page.wait_for_selector("#review-controls:not([hidden])")
    page.click("#nav-end")
    page.click("#nav-back")  # move 5: White to play
    expect(page.locator("#status")).to_contain_text("Move 5 of 6")
    page.click("#play-from summary")
    page.select_option("[name=from_black]", "builtin")
    page.select_option("[name=from_white]", "human")
    page.select_option("[name=from_level]", "1")
    page.click("#play-from-here")
    expect(page.locator("#play-controls")).to_be_visible()
    expect(page.locator("#status")).to_have_text("Move 5. White to play (you).")
    assert stones(page) == 5
    play(page, "E3")
    expect(page.locator("#status")).to_have_text(re.compile(r"Move 7\. White to play"))  # answered
    assert stones(page) == 7


def analyse_with(page: Page, engine: str) -> None:
    """Choose `engine` in the analysis panel, analyse for a second and see its candidates."""
    expect(page.locator("#analysis-engine")).to_be_visible()
    page.select_option("#analysis-engine", engine)
    page.select_option("#analysis-seconds", "1")
    page.click("#analyse")
    expect(page.locator("#analysis")).to_have_attribute("data-state", "done", timeout=60_000)
    expect(page.locator("#analysis-status")).to_contain_text(f"· {engine}")
    assert page.locator("#board .candidate").count() >= 1


def test_analysis_with_an_engine_chosen_in_the_panel(
    tmp_path: Path, browser: Browser, page: Page
) -> None:
    """tengen's own GTP engine (kata-analyze) as the analysis engine named "tengen-gtp"."""
    engine = f"tengen-gtp={sys.executable} -m tengen gtp --seed 1"
    server = Server(tmp_path / "games.sqlite3", "--analysis-engine", engine)
    server.start()
    try:
        new_game(page, server.url)
        play(page, "E5", "C3")
        analyse_with(page, "tengen-gtp")
        shot(page, "analysis-engine")
    finally:
        server.stop()


def test_the_mistake_list_of_an_analysed_record(server: Server, page: Page) -> None:
    """A record analysed elsewhere (SBKV and V on each node, as Sabaki and tengen write them):
    each player's biggest losses in points, each a button to the position before the move."""
    leads = [7.0, 6.5, 7.5, 7.0, 7.5, -4.5, -4.0, -6.5, -1.0]  # Black's lead at each node
    moves = ["ee", "cc", "gc", "cg", "gg", "ec", "dg", "ce"]
    nodes = "".join(
        f";{'BW'[i % 2]}[{m}]SBKV[50]V[{lead}]"
        for i, (m, lead) in enumerate(zip(moves, leads[1:], strict=False))
    )
    page.goto(server.url)
    page.fill("#paste", f"(;GM[1]FF[4]SZ[9]SBKV[50]V[{leads[0]}]{nodes})")
    page.click("#open-paste")
    page.wait_for_selector("#review-controls:not([hidden])")
    black = page.locator(".mistake-list").nth(0).locator("button.mistake")
    white = page.locator(".mistake-list").nth(1).locator("button.mistake")
    expect(black).to_have_text(["Move 5: \u221212.0 points", "Move 7: \u22122.5 points"])
    expect(white).to_have_text(["Move 8: \u22125.5 points"])  # 1.5 points or more at first
    assert [b.get_attribute("data-class") for b in black.all()] == ["12", "1.5"]  # KaTrain's
    page.select_option("#mistake-threshold", "0.5")
    expect(white).to_have_text(
        [f"Move {n}: \u2212{lost} points" for n, lost in ((8, 5.5), (2, 1.0), (4, 0.5), (6, 0.5))]
    )
    assert [b.get_attribute("data-class") for b in white.all()] == ["3", "0.5", "0.5", "0.5"]
    page.select_option("#mistake-threshold", "12")
    expect(black).to_have_text(["Move 5: \u221212.0 points"])
    expect(page.locator(".mistake-list").nth(1)).to_contain_text("None of 12 points or more.")
    shot(page, "mistakes-katrain-classes")
    black.first.click()
    expect(page.locator("#status")).to_contain_text("Move 4 of 8")
