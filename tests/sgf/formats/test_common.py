"""The readers the importers share: ranks, players, dates, results, numbers and decoding."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tengen.sgf.formats.common import (
    RecordError,
    _sgf_rank,
    decode,
    iso_date,
    number,
    rank,
    result_from_text,
    split_player,
)


@pytest.mark.parametrize(
    ("written", "sgf"),
    [
        ("10K", "10k"),
        ("9DP", "9p"),
        ("7D*", "7d*"),
        ("2k?", "2k?"),
        ("3段", "3d"),
        ("初段", "1d"),
        ("五段", "5d"),
        ("1급", "1k"),
        ("3단", "3d"),
        ("2级", "2k"),
        ("Pro", "Pro"),
    ],
)
def test_rank(written: str, sgf: str) -> None:
    assert rank(written) == sgf


@pytest.mark.parametrize(
    ("written", "player"),
    [
        ("dongjik (1급)", ("dongjik", "1k")),
        ("石下之臣(2段)", ("石下之臣", "2d")),
        ("LQC         9DP", ("LQC", "9p")),
        ("Lee S.D. 9p", ("Lee S.D.", "9p")),
        ("just a name", ("just a name", None)),
        ("name ()", ("name", None)),
    ],
)
def test_split_player(written: str, player: tuple[str, str | None]) -> None:
    assert split_player(written) == player


def _split_player_by_regex(text: str) -> tuple[str, str | None]:
    """The definition `split_player` keeps: ``name (rank)`` as the regex reads it (which
    takes time quadratic in a run of spaces before the '(')."""
    text = text.strip()
    bracket = re.fullmatch(r"(.*?)\s*\(([^()]*)\)", text)
    if bracket and bracket[1]:
        return bracket[1], rank(bracket[2]) if bracket[2].strip() else None
    parts = text.rsplit(None, 1)
    if len(parts) == 2 and (found := _sgf_rank(parts[1])):
        return parts[0], found
    return text, None


@given(st.text(alphabet=st.sampled_from(list("ab ()\n\t9dk段\u3000")), max_size=14))
def test_split_player_reads_as_the_regex_does(text: str) -> None:
    assert split_player(text) == _split_player_by_regex(text)


@pytest.mark.parametrize(
    ("written", "date"),
    [
        ("2015- 8-29-22-56-58", "2015-08-29"),
        ("2012年11月22日 下午 6:3", "2012-11-22"),
        ("20170316 [09:51]", "2017-03-16"),
        ("2019/03/08", "2019-03-08"),
        ("2019/13/08", None),
        ("yesterday", None),
    ],
)
def test_iso_date(written: str, date: str | None) -> None:
    assert iso_date(written) == date


@pytest.mark.parametrize(
    ("written", "result"),
    [
        ("Black wins by 0.5!", "B+0.5"),
        ("White wins by  resign!", "W+R"),
        ("Black wins by 16.5 points! >> White(66):Black(89)", "B+16.5"),
        ("White loses on time", "B+T"),
        ("Progressing!", None),
        ("white wins by time", "W+T"),
        ("흑 시간승", "B+T"),
        ("백 불계승", "W+R"),
        ("흑 3집반승", "B+3.5"),
        ("白11目胜", "W+11"),
        ("黑中盘胜(现场消息)", "B+R"),
        ("黒 3目半勝", "B+3.5"),
        ("Black wins", "B+"),
        ("jigo", "0"),
        ("", None),
    ],
)
def test_result_from_text(written: str, result: str | None) -> None:
    assert result_from_text(written) == result


def test_number() -> None:
    assert [number(x) for x in (6.5, 11.0, -5.5, 0.0, -0.0, 0.25)] == [
        "6.5",
        "11",
        "-5.5",
        "0",
        "0",
        "0.25",
    ]


def test_decode_prefers_the_declared_charset_then_utf8() -> None:
    text = "黒田 九段"
    assert decode(text.encode("cp932"), declared="cp932") == text
    assert decode(text.encode("utf-8"), declared="no-such-codec") == text
    assert decode("김철수".encode("cp949"), hint="cp949") == "김철수"
    assert decode(b"\xef\xbb\xbfplain") == "plain"


def test_record_error_names_the_line() -> None:
    error = RecordError("bad move", 12)
    assert isinstance(error, ValueError)
    assert (str(error), error.message, error.line) == ("line 12: bad move", "bad move", 12)
    assert str(RecordError("no line")) == "no line"
