"""The GTP engine, driven line by line as a controller would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tengen import __version__
from tengen.ai.players import RandomPlayer
from tengen.core.color import Color
from tengen.core.coords import Move, Point
from tengen.core.game import Game
from tengen.core.rules import JAPANESE
from tengen.gtp.client import GtpClient
from tengen.gtp.engine import GtpEngine
from tengen.gtp.handicap import free_points


def make_engine(size: int = 19, seed: int = 1) -> GtpEngine:
    return GtpEngine(RandomPlayer(seed), size=size)


def ask(engine: GtpEngine, line: str) -> str:
    """The result of a successful command; fails the test on a failure response."""
    response = engine.handle_line(line)
    assert response is not None
    assert response.startswith("= "), response
    assert response.endswith("\n\n")
    return response[2:-2]


def refused(engine: GtpEngine, line: str) -> str:
    """The message of a failure response; fails the test on success."""
    response = engine.handle_line(line)
    assert response is not None
    assert response.startswith("? "), response
    return response[2:-2]


def play_all(engine: GtpEngine, moves: str) -> None:
    for i, vertex in enumerate(moves.split()):
        ask(engine, f"play {'bw'[i % 2]} {vertex}")


# -- administration ------------------------------------------------------------------------


def test_identity_commands() -> None:
    engine = make_engine()
    assert ask(engine, "protocol_version") == "2"
    assert ask(engine, "name") == "tengen"
    assert ask(engine, "version") == __version__


def test_ids_are_echoed_on_success_and_failure() -> None:
    engine = make_engine()
    assert engine.handle_line("5 name") == "=5 tengen\n\n"
    assert engine.handle_line("6 undo") == "?6 cannot undo\n\n"
    assert engine.handle_line("7 no_such_command") == "?7 unknown command\n\n"
    assert engine.handle_line("8") == "?8 syntax error\n\n"


def test_empty_and_comment_lines_get_no_response() -> None:
    engine = make_engine()
    for line in ("", "\n", "   ", "# comment", "\t# comment\n"):
        assert engine.handle_line(line) is None
    assert engine.handle_line("name # trailing comment") == "= tengen\n\n"


def test_list_and_known_commands_agree() -> None:
    engine = make_engine()
    listed = ask(engine, "list_commands").split("\n")
    assert listed == list(GtpEngine.COMMANDS)
    for name in listed:
        assert ask(engine, f"known_command {name}") == "true"
        assert hasattr(engine, "cmd_" + name.replace("-", "_"))
    assert {"kgs-rules", "kata-set-rules", "kata-get-rules", "genmove"} <= set(listed)
    for name in ("foo", "kata_set_rules", "PLAY", "execute", "handle_line"):
        assert ask(engine, f"known_command {name}") == "false"
        assert refused(engine, f"{name}") == "unknown command"


def test_every_handler_is_listed() -> None:
    handlers = {name for name in dir(GtpEngine) if name.startswith("cmd_")}
    commands = GtpEngine.COMMANDS + GtpEngine.ANALYSIS_COMMANDS
    assert handlers == {"cmd_" + name.replace("-", "_") for name in commands}


def test_quit_sets_the_flag_and_answers() -> None:
    engine = make_engine()
    assert not engine.quit_requested
    assert engine.handle_line("3 quit") == "=3 \n\n"
    assert engine.quit_requested


@pytest.mark.parametrize(
    "line",
    [
        "protocol_version 2",
        "name x",
        "known_command",
        "boardsize",
        "boardsize 9 9",
        "komi",
        "play b",
        "play b d4 d5",
        "genmove",
        "is_legal b",
        "all_legal",
        "captures",
        "list_stones",
        "fixed_handicap",
        "place_free_handicap",
        "set_free_handicap",
        "kgs-rules",
        "kata-set-rules",
        "kata-get-rules x",
        "undo now",
        "showboard 1",
    ],
)
def test_wrong_argument_counts_are_syntax_errors(line: str) -> None:
    assert refused(make_engine(), line) == "syntax error"


def test_engine_sizes_are_those_gtp_can_address() -> None:
    with pytest.raises(ValueError, match="1x1 to 25x25"):
        GtpEngine(RandomPlayer(0), size=26)
    assert GtpEngine(RandomPlayer(0), size=25).game.width == 25


# -- board setup ---------------------------------------------------------------------------


def test_boardsize_and_clear_board() -> None:
    engine = make_engine()
    ask(engine, "play b d4")
    ask(engine, "boardsize 9")
    assert engine.game.width == engine.game.height == 9
    assert ask(engine, "list_stones b") == ""
    ask(engine, "play b e5")
    ask(engine, "clear_board")
    assert ask(engine, "list_stones b") == ""
    assert refused(engine, "undo") == "cannot undo"
    ask(engine, "boardsize 1")
    ask(engine, "boardsize 25")
    assert ask(engine, "is_legal b Z25") == "1"


@pytest.mark.parametrize(
    ("arg", "message"),
    [
        ("0", "unacceptable size"),
        ("26", "unacceptable size"),
        ("x", "syntax error"),
        ("-5", "syntax error"),
        ("9.0", "syntax error"),
        ("\u0669", "syntax error"),
    ],
)
def test_boardsize_refusals(arg: str, message: str) -> None:
    engine = make_engine()
    assert refused(engine, f"boardsize {arg}") == message
    assert engine.game.width == 19


def test_komi_is_kept_across_board_changes() -> None:
    engine = make_engine()
    ask(engine, "komi 0.5")
    ask(engine, "boardsize 9")
    ask(engine, "clear_board")
    assert engine.game.ruleset.komi == 0.5
    ask(engine, "komi -3")
    assert json.loads(ask(engine, "kata-get-rules"))["komi"] == -3.0
    for bad in ("x", "1,5", ""):
        assert refused(engine, f"komi {bad}".strip()) == "syntax error"
    for bad in ("nan", "inf", "-Infinity", "1e20", "-1e308", "625.5"):
        assert refused(engine, f"komi {bad}").startswith("komi must be a finite number")
    assert engine.game.ruleset.komi == -3.0


def test_fixed_handicap_matches_gnugo() -> None:
    engine = make_engine()
    # GNU Go 3.8: "= D16 K16 Q16 D10 K10 Q10 D4 K4 Q4"
    assert ask(engine, "fixed_handicap 9") == "D16 K16 Q16 D10 K10 Q10 D4 K4 Q4"
    assert engine.game.to_play is Color.WHITE
    assert refused(engine, "undo") == "cannot undo"
    assert refused(engine, "fixed_handicap 2") == "board not empty"
    ask(engine, "clear_board")
    assert ask(engine, "fixed_handicap 4") == "D16 Q16 D4 Q4"
    ask(engine, "boardsize 9")
    assert ask(engine, "fixed_handicap 2") == "G7 C3"


@pytest.mark.parametrize(("size", "count"), [(19, 1), (19, 10), (19, 0), (8, 5), (5, 2), (7, 5)])
def test_fixed_handicap_invalid_numbers(size: int, count: int) -> None:
    engine = make_engine(size)
    assert refused(engine, f"fixed_handicap {count}") == "invalid number of stones"
    assert ask(engine, "list_stones b") == ""


def test_handicap_after_passes_only() -> None:
    engine = make_engine(9)
    ask(engine, "play b pass")
    assert ask(engine, "fixed_handicap 2") == "G7 C3"
    assert ask(engine, "list_stones b") == "G7 C3"


def test_place_free_handicap() -> None:
    engine = make_engine()
    assert ask(engine, "place_free_handicap 4") == "D16 Q16 D4 Q4"
    ask(engine, "clear_board")
    ten = ask(engine, "place_free_handicap 10").split()
    assert len(set(ten)) == 10
    assert set(ten) > {"D16", "K16", "Q16", "D10", "K10", "Q10", "D4", "K4", "Q4"}
    assert ask(engine, "list_stones b").split() == ten
    assert refused(engine, "place_free_handicap 2") == "board not empty"
    ask(engine, "boardsize 5")  # no fixed handicap on 5x5, yet free handicap works
    five = ask(engine, "place_free_handicap 5").split()
    assert len(set(five)) == 5
    assert "C3" in five
    ask(engine, "boardsize 2")
    assert len(ask(engine, "place_free_handicap 3").split()) == 3
    ask(engine, "clear_board")
    assert refused(engine, "place_free_handicap 4") == "invalid number of stones"
    assert refused(engine, "place_free_handicap 1") == "invalid number of stones"


@given(st.integers(1, 25), st.data())
def test_free_points_are_distinct_and_on_the_board(size: int, data: st.DataObject) -> None:
    if size * size < 3:
        with pytest.raises(ValueError):
            free_points(2, size, size)
        return
    count = data.draw(st.integers(2, size * size - 1))
    points = free_points(count, size, size)
    assert len(set(points)) == count
    assert all(0 <= p.col < size and 0 <= p.row < size for p in points)


def test_set_free_handicap() -> None:
    engine = make_engine(9)
    assert refused(engine, "set_free_handicap a1") == "bad vertex list"
    assert refused(engine, "set_free_handicap a1 a1") == "bad vertex list"
    assert refused(engine, "set_free_handicap a1 pass") == "bad vertex list"
    assert refused(engine, "set_free_handicap a1 z9") == "invalid vertex"
    assert ask(engine, "list_stones b") == ""
    ask(engine, "set_free_handicap a1 e5 j9")
    assert ask(engine, "list_stones b") == "J9 E5 A1"
    assert engine.game.handicap_stones == 3
    assert refused(engine, "set_free_handicap b2 c3") == "board not empty"


# -- play ----------------------------------------------------------------------------------


def test_play_capture_and_undo() -> None:
    engine = make_engine(5)
    # Black captures the white stone at B1.
    play_all(engine, "c3 c2 b2 d2 c1 b1 d1 pass a1")
    assert ask(engine, "captures b") == "1"  # stones captured BY black, as GNU Go counts
    assert ask(engine, "captures w") == "0"
    assert ask(engine, "list_stones w") == "C2 D2"
    assert ask(engine, "list_stones b") == "C3 B2 A1 C1 D1"
    ask(engine, "undo")
    assert ask(engine, "captures b") == "0"
    assert ask(engine, "list_stones w") == "C2 D2 B1"


def test_either_colour_may_play_and_passes_do_not_end_the_game() -> None:
    engine = make_engine(9)
    ask(engine, "play w e5")
    ask(engine, "play w d4")
    ask(engine, "play b pass")
    ask(engine, "play w pass")
    ask(engine, "play b c3")
    assert ask(engine, "list_stones w") == "E5 D4"
    assert ask(engine, "list_stones b") == "C3"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("play x d4", "invalid color"),
        ("play bl d4", "invalid color"),
        ("play b z4", "invalid vertex"),
        ("play b i5", "invalid vertex"),
        ("play b k5", "invalid vertex"),
        ("play b a10", "invalid vertex"),
        ("play b a0", "invalid vertex"),
        ("play b resign", "invalid vertex"),
        ("play b 44", "invalid vertex"),
        ("play b a\u0661", "invalid vertex"),
    ],
)
def test_play_refuses_bad_arguments(line: str, message: str) -> None:
    engine = make_engine(9)
    assert refused(engine, line) == message
    assert engine.game.move_number == 0


def test_play_accepts_any_case() -> None:
    engine = make_engine(9)
    ask(engine, "play BLACK e5")
    ask(engine, "play White E6")
    ask(engine, "play B PASS")
    assert ask(engine, "list_stones black") == "E5"
    assert ask(engine, "list_stones WHITE") == "E6"


def test_illegal_moves() -> None:
    engine = make_engine(5)
    ask(engine, "play b c3")
    assert refused(engine, "play w c3") == "illegal move"  # occupied
    play_all(engine, "b1 pass a2")  # A1 is now a suicide point for white
    assert refused(engine, "play w a1") == "illegal move"
    assert ask(engine, "is_legal w a1") == "0"
    assert ask(engine, "is_legal b a1") == "1"
    assert ask(engine, "is_legal w pass") == "1"
    assert ask(engine, "is_legal w c3") == "0"
    assert engine.game.move_number == 4


def test_simple_ko() -> None:
    engine = make_engine(5)
    # A ko in the middle: black takes at C3, white may not retake at D3 at once.
    play_all(engine, "c4 d4 b3 e3 c2 d2 pass c3 d3")
    assert ask(engine, "captures b") == "1"
    assert refused(engine, "play w c3") == "illegal move"
    assert ask(engine, "is_legal w c3") == "0"
    assert "C3" not in ask(engine, "all_legal w").split()
    ask(engine, "play w a1")
    ask(engine, "play b a5")
    ask(engine, "play w c3")  # after a ko threat the retake is legal
    assert ask(engine, "captures w") == "1"


def test_all_legal_matches_gnugo_order() -> None:
    engine = make_engine(5)
    ask(engine, "play b c3")
    # GNU Go 3.8 prints exactly this for `boardsize 5`, `play b c3`, `all_legal w`.
    expected = "A5 B5 C5 D5 E5 A4 B4 C4 D4 E4 A3 B3 D3 E3 A2 B2 C2 D2 E2 A1 B1 C1 D1 E1"
    assert ask(engine, "all_legal w") == expected


def test_genmove_plays_legal_moves_and_passes_when_only_eyes_remain() -> None:
    engine = make_engine(9, seed=3)
    seen = set()
    for i in range(30):
        color = "bw"[i % 2]
        vertex = ask(engine, f"genmove {color}")
        assert vertex not in seen or vertex == "pass"
        if vertex != "pass":
            stones = ask(engine, f"list_stones {color}").split()
            assert vertex in stones
            seen.add(vertex)
    assert engine.game.move_number == 30
    ask(engine, "boardsize 3")
    ask(engine, "set_free_handicap a3 b3 c3 a2 c2 a1 b1 c1")  # B2 is black's eye
    assert ask(engine, "genmove b") == "pass"
    assert ask(engine, "genmove w") == "B2"  # the only move, and it takes all eight
    assert ask(engine, "captures w") == "8"


def test_genmove_is_reproducible_with_a_seed() -> None:
    def game(seed: int) -> list[str]:
        engine = make_engine(9, seed)
        return [ask(engine, f"genmove {'bw'[i % 2]}") for i in range(20)]

    assert game(7) == game(7)
    assert game(7) != game(8)


def test_genmove_refusals() -> None:
    engine = make_engine(9)
    assert refused(engine, "genmove x") == "invalid color"
    assert engine.game.move_number == 0


class _BrokenPlayer:
    def genmove(self, game: Game, color: Color, clock: object = None) -> Move:
        return Point(0, 0)


def test_a_player_error_is_an_internal_error_not_a_crash() -> None:
    engine = GtpEngine(_BrokenPlayer(), size=9)
    ask(engine, "play b a9")
    response = engine.handle_line("4 genmove w")
    assert response == "?4 internal error: IllegalMove: illegal move (0, 0) at move 2: occupied\n\n"
    assert ask(engine, "list_stones w") == ""


def test_undo() -> None:
    engine = make_engine(9)
    assert refused(engine, "undo") == "cannot undo"
    ask(engine, "play b e5")
    ask(engine, "play w pass")
    ask(engine, "undo")
    ask(engine, "undo")
    assert ask(engine, "list_stones b") == ""
    assert refused(engine, "undo") == "cannot undo"


# -- queries -------------------------------------------------------------------------------


def test_showboard() -> None:
    engine = make_engine(5)
    play_all(engine, "c3 c2 b2 d2 c1 b1 d1 pass a1")
    assert engine.handle_line("showboard") == (
        "= \n"
        "   A B C D E\n"
        " 5 . . . . . 5\n"
        " 4 . . . . . 4\n"
        " 3 . . X . . 3\n"
        " 2 . X O O . 2\n"
        " 1 X . X X . 1\n"
        "   A B C D E\n"
        "WHITE (O) has captured 0 stones\n"
        "BLACK (X) has captured 1 stones\n"
        "\n"
    )


def test_list_stones_and_captures_refuse_bad_colours() -> None:
    engine = make_engine()
    for command in ("list_stones", "captures", "all_legal"):
        assert refused(engine, f"{command} red") == "invalid color"
    assert refused(engine, "is_legal b z99") == "invalid vertex"


# -- rules ---------------------------------------------------------------------------------


def test_kgs_rules_keep_komi() -> None:
    engine = make_engine()
    ask(engine, "komi 0.5")
    ask(engine, "kgs-rules japanese")
    assert engine.game.ruleset == JAPANESE.with_komi(0.5)
    for name, ko in (
        ("chinese", "POSITIONAL"),
        ("aga", "SITUATIONAL"),
        ("new_zealand", "SITUATIONAL"),
    ):
        ask(engine, f"kgs-rules {name}")
        rules = json.loads(ask(engine, "kata-get-rules"))
        assert (rules["ko"], rules["komi"]) == (ko, 0.5)
    assert engine.game.ruleset.suicide_allowed  # new_zealand
    assert refused(engine, "kgs-rules tromp-taylor") == "unknown rules"
    assert refused(engine, "kgs-rules") == "syntax error"


def test_kata_rules_round_trip() -> None:
    engine = make_engine()
    ask(engine, "komi 6")
    ask(engine, "kata-set-rules japanese")
    rules = json.loads(ask(engine, "kata-get-rules"))
    assert rules == {
        "ko": "SIMPLE",
        "scoring": "TERRITORY",
        "tax": "SEKI",
        "suicide": False,
        "hasButton": False,
        "whiteHandicapBonus": "0",
        "komi": 6.0,
    }
    ask(engine, 'kata-set-rules {"ko": "SITUATIONAL", "scoring": "AREA", "suicide": true}')
    rules = json.loads(ask(engine, "kata-get-rules"))
    assert (rules["ko"], rules["suicide"], rules["komi"]) == ("SITUATIONAL", True, 6.0)
    ask(engine, 'kata-set-rules {"komi": 3.5}')
    assert engine.game.ruleset.komi == 3.5
    ask(engine, f"kata-set-rules {json.dumps(json.loads(ask(engine, 'kata-get-rules')))}")
    assert engine.game.ruleset.komi == 3.5
    assert refused(engine, "kata-set-rules nonsense").startswith("unknown ruleset 'nonsense'")
    assert refused(engine, 'kata-set-rules {"ko": "WEIRD"}').startswith("rules JSON")
    assert refused(engine, "kata-set-rules {not json").startswith("rules JSON")
    assert engine.game.ruleset.komi == 3.5


def test_rules_change_keeps_the_position_and_applies_to_later_moves() -> None:
    engine = make_engine(5)
    ask(engine, "kgs-rules chinese")  # no multi-stone suicide
    play_all(engine, "a3 a2 b2 b1 c1")  # white A2 and B1 share their last liberty, A1
    assert refused(engine, "play w a1") == "illegal move"
    ask(engine, "kgs-rules new_zealand")
    assert ask(engine, "list_stones w") == "A2 B1"
    ask(engine, "play w a1")  # now allowed: the three white stones remove themselves
    assert ask(engine, "list_stones w") == ""
    assert ask(engine, "list_stones b") == "A3 B2 C1"


# -- records -------------------------------------------------------------------------------

DATA = Path(__file__).resolve().parents[1] / "data"
GAME_SGF = DATA / "records" / "game.sgf"  # 9x9, Japanese, komi 6.5, ten moves on the main line


def stones(engine: GtpEngine) -> tuple[str, str]:
    return ask(engine, "list_stones b"), ask(engine, "list_stones w")


def test_loadsgf_loads_the_main_line_size_rules_and_komi() -> None:
    engine = make_engine(19)
    assert ask(engine, f"loadsgf {GAME_SGF}") == "black"
    assert (engine.game.width, engine.game.height) == (9, 9)
    assert engine.game.ruleset.name == "japanese"
    assert engine.game.ruleset.komi == 6.5
    assert engine.game.move_number == 10
    assert stones(engine) == ("G7 C5 E5 G3 F2", "C7 D7 G5 C3 E3")


def test_loadsgf_stops_before_the_move_number_as_gnu_go_does() -> None:
    engine = make_engine()
    assert ask(engine, f"loadsgf {GAME_SGF} 3") == "black"  # after B E5 and W C7
    assert stones(engine) == ("E5", "C7")
    assert ask(engine, f"loadsgf {GAME_SGF} 4") == "white"
    assert ask(engine, f"loadsgf {GAME_SGF} 0") == "black"  # 0: the whole line
    assert engine.game.move_number == 10
    assert ask(engine, f"loadsgf {GAME_SGF} 99") == "black"
    assert engine.game.move_number == 10


def test_loadsgf_stops_before_the_first_move_at_a_vertex() -> None:
    engine = make_engine()
    assert ask(engine, f"loadsgf {GAME_SGF} g3") == "black"
    assert engine.game.move_number == 4


@pytest.mark.gnugo
def test_loadsgf_agrees_with_gnu_go(gnugo: str) -> None:
    engine = make_engine()
    with GtpClient([gnugo, "--mode", "gtp"]) as client:
        for number in range(12):
            line = f"loadsgf {GAME_SGF} {number}"
            assert ask(engine, line) == client.send(line), line
            for color in ("b", "w"):
                ours = set(ask(engine, f"list_stones {color}").split())
                assert ours == set(client.send(f"list_stones {color}").split()), line


def test_loadsgf_reads_other_formats_with_their_handicap() -> None:
    engine = make_engine(9)
    assert ask(engine, f"loadsgf {DATA / 'formats' / 'tiny.gib'}") == "white"
    assert engine.game.width == 19
    assert engine.game.handicap_stones == 2
    assert ask(engine, "list_stones b") == "R17 Q16 D4 C3"
    assert ask(engine, "list_stones w") == "Q4"


def test_loadsgf_failures(tmp_path: Path) -> None:
    engine = make_engine(9)
    missing = tmp_path / "missing.sgf"
    assert refused(engine, f"loadsgf {missing}").startswith(f"cannot open '{missing}'")
    garbage = tmp_path / "garbage.sgf"
    garbage.write_bytes(b"\x00\xffno game here")
    assert refused(engine, f"loadsgf {garbage}") == f"cannot open or parse '{garbage}'"
    gomoku = DATA / "formats" / "five.psq"
    assert refused(engine, f"loadsgf {gomoku}") == f"not a Go record: '{gomoku}'"
    assert refused(engine, "loadsgf") == "missing filename"
    assert refused(engine, f"loadsgf {GAME_SGF} -1") == "syntax error"
    assert refused(engine, f"loadsgf {GAME_SGF} 1 2") == "syntax error"
    big = tmp_path / "big.sgf"
    big.write_text("(;SZ[30];B[aa])")
    assert refused(engine, f"loadsgf {big}") == "unacceptable size"
    assert engine.game.width == 9  # the session's game is untouched by a failed load


def test_loadsgf_keeps_checking_later_moves() -> None:
    engine = make_engine()
    ask(engine, f"loadsgf {GAME_SGF}")
    assert refused(engine, "play w e5") == "illegal move"


def test_printsgf_of_a_fresh_game() -> None:
    engine = make_engine(9)
    ask(engine, "komi 7.5")
    record = ask(engine, "printsgf")
    assert record.startswith("(;GM[1]FF[4]")
    for prop in ("SZ[9]", "KM[7.5]", "RU[chinese]", "CA[UTF-8]"):
        assert prop in record
    assert "\n\n" not in record


def test_printsgf_then_loadsgf_gives_the_same_game(tmp_path: Path) -> None:
    engine = make_engine(9)
    ask(engine, "kgs-rules japanese")
    ask(engine, "komi 0.5")
    assert ask(engine, "fixed_handicap 2") == "G7 C3"
    ask(engine, "play w c7")  # White moves first after the handicap
    play_all(engine, "g3 d7 e5 c6 pass pass")
    for _ in range(20):
        ask(engine, "genmove b")
        ask(engine, "genmove w")
    record = ask(engine, "printsgf")
    assert "HA[2]AB[gc][cg]PL[W]" in record and ";W[cc];B[gg]" in record and ";B[];W[]" in record
    path = tmp_path / "game.sgf"
    path.write_text(record + "\n", encoding="utf-8")
    copy = make_engine(19)
    to_play = "black" if engine.game.to_play is Color.BLACK else "white"
    assert ask(copy, f"loadsgf {path}") == to_play
    assert ask(copy, "showboard") == ask(engine, "showboard")  # stones and prisoners
    assert copy.game.ruleset == engine.game.ruleset
    assert copy.game.handicap_stones == 2
    assert copy.game.move_number == engine.game.move_number
    assert ask(copy, "printsgf") == record


def test_printsgf_writes_setup_stones_where_the_record_had_them(tmp_path: Path) -> None:
    path = tmp_path / "setup.sgf"
    path.write_text("(;SZ[5]AB[aa][bb]AW[cc];B[dd];AE[aa]AW[ee]PL[W];W[ab])")
    engine = make_engine()
    assert ask(engine, f"loadsgf {path}") == "black"
    record = ask(engine, "printsgf")
    assert "AB[aa][bb]AW[cc]" in record
    assert ";B[dd];AW[ee]AE[aa];W[ab])" in record  # PL[W] said nothing new
    copy = make_engine()
    path.write_text(record)
    ask(copy, f"loadsgf {path}")
    assert stones(copy) == stones(engine) == ("B4 D2", "A4 C3 E1")


def test_printsgf_leaves_the_game_as_it_was() -> None:
    engine = make_engine(5)
    play_all(engine, "c3 c2 b2 d2")
    ask(engine, "undo")
    ask(engine, "printsgf")
    assert engine.game.move_number == 3
    engine.game.redo()  # the undone move is still there to redo
    assert ask(engine, "list_stones w") == "C2 D2"


# -- robustness ----------------------------------------------------------------------------

_WORDS = [
    *GtpEngine.COMMANDS,
    "b",
    "w",
    "black",
    "x",
    "pass",
    "a1",
    "e5",
    "t19",
    "z9",
    "5",
    "19",
    "-1",
    "0",
    "2",
    "9",
    "0.5",
    "nan",
    "{",
    '{"ko":"SIMPLE"}',
    "japanese",
    "#",
    "\t",
]


@given(st.text())
def test_random_text_never_raises(line: str) -> None:
    engine = make_engine(9)
    response = engine.handle_line(line)
    assert response is None or (response[0] in "=?" and response.endswith("\n\n"))


@given(st.lists(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4), max_size=40))
def test_random_command_sequences_never_raise(lines: list[list[str]]) -> None:
    engine = make_engine(9)
    for words in lines:
        response = engine.handle_line(" ".join(words))
        assert response is None or response[0] in "=?"
        assert response is None or "internal error" not in response
        engine.game.board.check_consistency()


def test_final_status_list_and_final_score_use_the_estimate() -> None:
    """A dead white stone inside Black's area; Chinese counting, komi 7.5, on 9x9."""
    engine = make_engine(9)
    for move in ("b c3", "w g7", "b g6", "b h7", "b f7", "w c4", "b d4", "b b4", "b c5"):
        ask(engine, f"play {move}")
    assert ask(engine, "final_status_list dead") == "G7"
    alive = ask(engine, "final_status_list alive").splitlines()
    assert sorted(alive) == sorted(["C3", "G6", "H7", "F7", "D4", "B4", "C5"])
    assert ask(engine, "final_status_list seki") == ""
    assert refused(engine, "final_status_list maybe") == "invalid status"
    assert ask(engine, "final_score") == "B+73.5"  # 81 points to Black, komi 7.5
    ask(engine, "kata-set-rules japanese")
    # Territory: the 74 points not holding a live black stone (G7's included), plus 2
    # prisoners (C4 captured, G7 dead) = 76 for Black; White has the komi, 7.5.
    assert ask(engine, "final_score") == "B+68.5"
