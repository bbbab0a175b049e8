"""Every real record in ../shared/corpus parses leniently and survives parse -> write -> parse;
plus one regression test per real-world quirk, named for the program or server it comes from."""

from __future__ import annotations

from pathlib import Path

import pytest

from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.sgf import GameTree, SgfError, first_difference, parse, parse_file, serialise

CORPUS = (Path(__file__).parents[2] / ".." / "shared" / "corpus").resolve()

if not CORPUS.is_dir():
    pytest.skip(f"SGF corpus not found at {CORPUS}", allow_module_level=True)

# Files that hold no game tree at all, so even lenient reading must refuse them.
UNREADABLE = {
    "gnugo_regression/games/pending/nightmare.sgf": "an empty file (0 bytes)",
    "littlego_sgf/Illegal games/not-an-sgf-file.sgf": "plain English text, no '(' anywhere",
}


def _records(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() == ".sgf")


def _corpus(name: str) -> Path:
    return CORPUS / name


def _assert_round_trip(games: list[GameTree]) -> None:
    again = parse(serialise(games), strict=True)
    assert len(again.games) == len(games)
    for game, copy in zip(games, again.games, strict=True):
        game.root.properties["CA"] = ["UTF-8"]
        assert first_difference(game.root, copy.root) is None


@pytest.mark.parametrize("folder", sorted(p.name for p in CORPUS.iterdir() if p.is_dir()))
def test_corpus_folder_parses_and_round_trips(folder: str) -> None:
    problems = []
    for path in _records(CORPUS / folder):
        name = path.relative_to(CORPUS).as_posix()
        if name in UNREADABLE:
            continue
        try:
            _assert_round_trip(parse_file(path).games)
        except (SgfError, AssertionError) as e:
            problems.append(f"{name}: {e}")
    assert problems == []


@pytest.mark.parametrize(("name", "reason"), sorted(UNREADABLE.items()))
def test_unreadable_files_raise_sgf_error_with_position(name: str, reason: str) -> None:
    with pytest.raises(SgfError, match="no SGF game tree found") as info:
        parse_file(CORPUS / name)
    assert (info.value.line, info.value.col) == (1, 1), reason
    assert info.value.path == str(CORPUS / name)


def _messages(name: str) -> list[tuple[str, int, int]]:
    return [(w.message, w.line, w.col) for w in parse_file(_corpus(name)).warnings]


def test_fox_missing_ca_and_duplicate_ap() -> None:
    """Fox writes UTF-8 with no CA and two AP properties in the root."""
    result = parse_file(_corpus("katrain_test_data/fox sgf works.sgf"))
    assert result.encoding == "utf-8"
    root = result.games[0].root
    assert root.get_raw("AP") == ["GNU Go:3.8", "foxwq"]
    assert root.get("BR") == "15级"
    assert [m for m, _, _ in _messages("katrain_test_data/fox sgf works.sgf")] == [
        "no CA: charset detected as utf-8",
        "duplicate property AP: values merged",
    ]


def test_fox_km_in_hundredths() -> None:
    """Fox-like records write komi 3.25 as KM[325]; reading keeps the number as written."""
    root = parse_file(_corpus("katago_test_sgf/foxlike.sgf")).games[0].root
    assert root.get("KM") == 325.0


def test_yenw_truncated_utf8_name() -> None:
    """Servers cut player names at a byte limit, leaving half a UTF-8 character before ']'."""
    path = _corpus("yenw_ai_games_sample/Li Long/2016.10.25 pooryou01 vs 骊龙 (66460705).SGF")
    result = parse_file(path)
    assert result.encoding == "utf-8-replace"
    root = result.games[0].root
    assert root.get("PB") == "小心我捶\ufffd"
    assert root.get("BR") == "9段"
    assert result.warnings[0].message == "CA[UTF-8] is wrong: detected utf-8-replace"


def test_xmgt97_ff3_long_property_names() -> None:
    """An old FF[3] file spells properties out in mixed case: FileFormat, PlayerBlack, Black."""
    game = parse_file(_corpus("katrain_test_data/xmgt97.sgf")).games[0]
    assert {"FF", "GM", "SZ", "PB", "PW", "KM"} <= set(game.root.properties)
    assert game.main_line()[1].move is not None
    with pytest.raises(SgfError, match="lower-case letters dropped from property"):
        parse_file(_corpus("katrain_test_data/xmgt97.sgf"), strict=True)


def test_gnugo_comment_property_spelled_out() -> None:
    """CrazyStone-Fuego records from UEC Cup write 'Comment[...]' for C."""
    path = "fuego_regression_sgf/games/2014/2014-UEC-Cup/crazystone-fuego.sgf"
    nodes = list(parse_file(_corpus(path)).games[0].nodes())
    assert any("C" in n.properties for n in nodes)
    assert ("lower-case letters dropped from property Comment", 467, 1) in _messages(path)


def test_gnugo_header_before_game_tree() -> None:
    """ego2.sgf carries a text header before '(;', as mail and news archives did."""
    assert _messages("gnugo_regression/games/ego2.sgf")[0] == (
        "text before the first game tree ignored",
        1,
        1,
    )


def test_gnugo_unterminated_record() -> None:
    """owl42.sgf ends without its closing ')'."""
    messages = _messages("gnugo_regression/games/owl42.sgf")
    assert messages == [("unexpected end of data: game tree not closed", 24, 1)]


def test_turbogo_latin1_without_ca() -> None:
    """TurboGo wrote French comments in Windows Latin-1 with no CA and only two accented bytes."""
    result = parse_file(_corpus("gnugo_regression/games/egc2001/tg-gg.sgf"))
    assert result.encoding == "cp1252"
    assert result.games[0].root.get("C").startswith("Fichier SGF créé par TurboGo")


def test_sabaki_gb2312_without_ca() -> None:
    """Sabaki's no-ca.sgf is GB2312 text with no CA: detection finds the GB charset."""
    result = parse_file(_corpus("sabaki_sgf_lib_tests/no-ca.sgf"))
    assert result.encoding == "gb18030"
    assert result.games[0].root.get("C").startswith("【第三型】 黑先")


def test_sabaki_japanese_bad_ca() -> None:
    """japanese_bad.sgf claims CA[MS_KANJI] but holds UTF-8: the bytes win, with a warning."""
    result = parse_file(_corpus("sabaki_sgf_lib_tests/japanese_bad.sgf"))
    assert result.encoding == "utf-8"
    assert result.warnings[0].message == "CA[MS_KANJI] is wrong: detected utf-8"


def test_libsgfcplusplus_utf16_without_bom() -> None:
    """BBEdit writes big-endian UTF-16 with no BOM; every other byte is NUL."""
    result = parse_file(_corpus("libsgfcplusplus_test_files/encoding-utf16-nobom.sgf"))
    assert result.encoding == "utf-16-be"
    assert result.games[0].root.get("CA") == "UTF-16BE"


@pytest.mark.parametrize(
    ("name", "codec"),
    [
        ("encoding-chinese-gb18030.sgf", "gb18030"),
        ("encoding-chinese-gbk.sgf", "gb18030"),
        ("encoding-simplifiedchinese-gb2312.sgf", "gb18030"),
        ("encoding-traditionalchinese-big5.sgf", "big5hkscs"),
        ("encoding-japanese-shiftjis.sgf", "cp932"),
        ("encoding-japanese-iso2022jp.sgf", "iso2022_jp"),
        ("encoding-korean-macos.sgf", "cp949"),
        ("encoding-cyrillic-windows.sgf", "cp1251"),
        ("encoding-western-macosroman.sgf", "mac-roman"),
        ("encoding-utf8-withbom.sgf", "utf-8-sig"),
        ("encoding-utf16-withbom.sgf", "utf-16"),
    ],
)
def test_libsgfcplusplus_declared_encodings(name: str, codec: str) -> None:
    """libsgfc++ ships one record per charset, each naming it in CA."""
    result = parse_file(_corpus(f"libsgfcplusplus_test_files/{name}"), strict=True)
    assert result.encoding == codec
    assert result.warnings == []
    texts = [n.get("C") for n in result.games[0].nodes() if "C" in n.properties]
    assert any(ord(ch) > 0x7F for text in texts for ch in text)


def test_libsgfcplusplus_escaping() -> None:
    """A text header, escaped ':' in composed values and escaped ordinary letters in texts."""
    result = parse_file(_corpus("libsgfcplusplus_test_files/escaping.sgf"))
    assert [w.message for w in result.warnings] == ["text before the first game tree ignored"]
    game = result.games[0]
    assert game.game_type == 19
    first, second = game.root.get("AP")
    assert first.startswith("First : SimpleText : value")
    assert "[neces\\sary]" in first
    assert second.endswith("unneccessary : escape : characters")
    comment = game.main_line()[1].get("C")
    assert comment == "Text : value : with : unneccessary : escape : characters"


def test_libsgfcplusplus_compressed_point_list() -> None:
    """AB/AW/AE with rectangles like aa:cc are expanded point by point."""
    game = parse_file(_corpus("libsgfcplusplus_test_files/compressed-point-list.sgf")).games[0]
    stones = [p for n in game.nodes() for ident in ("AB", "AW") for p in n.get(ident) or []]
    assert len(stones) > len([v for n in game.nodes() for v in n.get_raw("AB") or []])


def test_ff4_example_from_red_bean() -> None:
    """The official FF[4] example: variations, markup, and an unescaped nothing-to-repair file."""
    result = parse_file(_corpus("littlego_sgf/sgfc/ff4_ex.sgf"), strict=True)
    game = result.games[0]
    assert game.size == (19, 19)
    assert len(game.root.children) == 5
    labels = [n.get("LB") for n in game.nodes() if "LB" in n.properties]
    assert labels and all(isinstance(point, Point) for lb in labels for point, _ in lb)


def test_sgfc_test_file_problems_at_sgfc_positions() -> None:
    """SGFC's test.sgf holds nearly every syntax error; we repair them at SGFC's positions."""
    messages = _messages("sgfc_test_files/test.sgf")
    for expected in [
        ("property illegal without a value ignored", 8, 4),
        ("empty game tree '()' ignored", 12, 2),
        ("lower-case letters dropped from property nolowercaseinpropida", 16, 2),
        ("property AB without a value ignored", 20, 15),
        ("'(' before the first node of a game tree ignored", 21, 2),
        ("duplicate property C: values merged", 28, 11),
        ("duplicate property MA: values merged", 28, 27),
        ("duplicate property W: values merged", 28, 40),
        ("values without a property identifier ignored", 54, 2),
        ("node after variations taken as a new variation", 66, 20),
        ("missing ';' before the first property of a game tree", 67, 21),
        ("unexpected end of data: game tree not closed", 76, 33),
    ]:
        assert expected in messages
    with pytest.raises(SgfError):
        parse_file(_corpus("sgfc_test_files/test.sgf"), strict=True)


def test_sgfc_unescaped_bracket() -> None:
    """SGFC's escaping.sgf writes ']' inside texts; the escaped ones stay text in strict mode."""
    game = parse_file(_corpus("sgfc_test_files/escaping.sgf")).games[0]
    texts = [n.get("C") for n in game.nodes() if "C" in n.properties]
    assert any("]" in text for text in texts)


def test_sgfc_mixed_encodings_parse_with_a_warning() -> None:
    """mixed-encoding.sgf gives each game its own CA; the first (UTF-16LE) cannot be the file's."""
    result = parse_file(_corpus("sgfc_test_files/mixed-encoding.sgf"))
    assert len(result.games) == 5
    assert result.warnings[0].message.startswith("CA[UTF-16LE] is wrong")


def test_littlego_two_passes() -> None:
    """Little Go's 2-passes.sgf ends with two FF[4] passes, B[] and W[]."""
    game = parse_file(_corpus("littlego_sgf/9x9/2-passes.sgf")).games[0]
    assert [n.move for n in game.main_line()[-2:]] == [(Color.BLACK, None), (Color.WHITE, None)]


def test_littlego_25x25_board() -> None:
    """A 25x25 record, larger than GTP's and FF[3]'s 19x19 limits, reads with its size."""
    game = parse_file(_corpus("littlego_sgf/25x25/25x25_single_black_move.sgf")).games[0]
    assert game.size == (25, 25)
    assert next(n.move for n in game.main_line() if n.move)[0] is Color.BLACK
