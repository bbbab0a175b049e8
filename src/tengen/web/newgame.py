"""What a new game of the web app starts from: the record of a new game of Go or Gomoku from
the new-game form, a record read from an upload in any format tengen imports, and the session
metadata of a game in play.
"""

from __future__ import annotations

import time

from tengen.clock import TimeControl
from tengen.core.color import Color
from tengen.core.handicap import fixed_points
from tengen.core.rules import PRESETS
from tengen.gomoku import GomokuGame, GomokuRules, Rule
from tengen.gomoku.record import game_to_tree
from tengen.sgf import GameTree, Node, SgfError, parse
from tengen.sgf.formats import FORMATS
from tengen.web.meta import SessionMeta
from tengen.web.schemas import NewGame
from tengen.web.seats import COMPUTER, BadRequest, new_seats
from tengen.web.upload import check_record

GOMOKU = 4  # GM[4]


def go_tree(options: NewGame) -> GameTree:
    """The root of a new game record: size, rules, komi, fixed handicap stones."""
    ruleset = PRESETS[options.ruleset]
    komi = ruleset.komi if options.komi is None else options.komi
    if options.handicap and options.komi is None:
        komi = 0.5
    root = Node()
    root.set("GM", 1)
    root.set("FF", 4)
    root.set("SZ", (options.size, options.size))
    root.set("RU", ruleset.name)
    root.set("KM", komi)
    root.set("DT", time.strftime("%Y-%m-%d"))
    root.set("PB", player_name(options.black, options.level, "Black"))
    root.set("PW", player_name(options.white, options.level, "White"))
    if options.title:
        root.set("GN", options.title)
    if options.time:
        control = TimeControl.parse(options.time)
        root.set("TM", control.sgf_tm)
        root.set("OT", control.sgf_ot)
    if options.handicap:
        root.set("HA", options.handicap)
        computer_places = options.black in COMPUTER
        if options.handicap_type == "fixed" or computer_places:
            try:
                points = fixed_points(options.handicap, options.size)
            except ValueError as err:
                raise BadRequest(str(err)) from None
            root.set("AB", points)
            root.set("PL", Color.WHITE)
        elif options.handicap >= options.size * options.size:
            raise BadRequest("free handicap must leave at least one point empty")
    return GameTree(root)


# What a game played on from a record's position leaves behind: its result, its clock and
# the original players' names and seats (the new game has its own).
NOT_CARRIED = ("RE", "TM", "OT", "PB", "PW", "BR", "WR", "GN")


def play_meta(black: str, white: str) -> SessionMeta:
    """The metadata of a new game in play with these seats."""
    return SessionMeta(mode="play", seats=new_seats(black, white))


def player_name(kind: str, level: int, person: str) -> str:
    """The record's name for a seat: the person's colour, or the computer that holds it."""
    if kind == "builtin":
        return f"tengen level {level}"
    return kind if kind in COMPUTER else person


def gomoku_tree(options: NewGame) -> GameTree:
    """The record of a new Gomoku game: GM[4], size, rule, players, date."""
    rules = GomokuRules(Rule(options.rule), options.size, options.size)
    tree = game_to_tree(GomokuGame(rules))
    root = tree.root
    root.set("DT", time.strftime("%Y-%m-%d"))
    root.set("PB", options.black if options.black in COMPUTER else "Black")
    root.set("PW", options.white if options.white in COMPUTER else "White")
    if options.title:
        root.set("GN", options.title)
    return tree


def read_record(data: bytes, filename: str = "") -> GameTree:
    """The first game of an SGF text or of any record format tengen imports (by file name):
    Go (GM[1]) or Gomoku (GM[4], also from a .psq file).

    Raises BadRequest with the parser's message (line and column where known), or naming the
    node and property the app cannot use (`upload.check_record`).
    """
    suffix = filename.lower().rsplit(".", 1)[-1] if "." in filename else ""
    loader = FORMATS.get(f".{suffix}")
    try:
        games = [loader(data)] if loader is not None else parse(data).games
    except (SgfError, ValueError) as err:
        raise BadRequest(f"cannot read {filename or 'the record'}: {err}") from None
    if not games:
        raise BadRequest(f"{filename or 'the record'} holds no game")
    tree = games[0]
    check_record(tree)
    if tree.game_type not in (1, GOMOKU):
        raise BadRequest(
            f"{filename or 'the record'} is not a game of Go or Gomoku (GM[{tree.game_type}])"
        )
    return tree
