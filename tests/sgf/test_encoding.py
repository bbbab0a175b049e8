"""Charsets: CA honoured, widened to its superset, detected when missing or wrong; UTF-8 out."""

from __future__ import annotations

import codecs

import pytest

from tengen.sgf.encoding import declared_charset, decode
from tengen.sgf.errors import SgfError

_GO = "围棋是一种古老的游戏"


def _record(text: str, ca: str | None) -> str:
    header = f"CA[{ca}]" if ca else ""
    return f"(;FF[4]{header}GM[1]C[{text}])"


def test_ascii_needs_no_charset() -> None:
    decoded = decode(b"(;FF[4]C[plain])")
    assert (decoded.text, decoded.encoding, decoded.warnings) == ("(;FF[4]C[plain])", "ascii", [])


@pytest.mark.parametrize(
    ("ca", "codec", "text"),
    [
        ("UTF-8", "utf-8", "Gō ☗"),
        ("GB2312", "gb18030", _GO),
        ("GBK", "gb18030", _GO),
        ("Big5", "big5hkscs", "圍棋是一種古老的遊戲"),
        ("Shift_JIS", "cp932", "囲碁は古代のゲーム"),
        ("EUC-KR", "cp949", "바둑은 고대 게임"),
        ("ISO-8859-1", "cp1252", "Hrabánek"),
        ("Windows-1251", "cp1251", "Го - древняя игра"),
    ],
)
def test_declared_charset_is_honoured(ca: str, codec: str, text: str) -> None:
    data = _record(text, ca).encode(codec)
    decoded = decode(data, strict=True)
    assert decoded.text == _record(text, ca)
    assert decoded.encoding == codec
    assert decoded.warnings == []


def test_declared_charset_found_among_root_properties() -> None:
    data = b"junk (;FF[4]C[x\\]CA[no\\]]\n CA [GB2312];CA[UTF-8])"
    assert declared_charset(data) == ("GB2312", data.index(b"CA [GB"))
    assert declared_charset(b"(;FF[4];CA[UTF-8])") is None


def test_missing_ca_is_detected_with_a_warning() -> None:
    data = _record(_GO * 5, None).encode("gb18030")
    decoded = decode(data)
    assert decoded.text == _record(_GO * 5, None)
    assert decoded.encoding == "gb18030"
    assert [(w.message, w.line, w.col) for w in decoded.warnings] == [
        ("no CA: charset detected as gb18030", 1, 1)
    ]


def test_wrong_ca_is_detected_with_a_warning_at_the_property() -> None:
    data = ("(;FF[4]\nCA[ISO-8859-1]C[" + _GO + "])").encode("utf-8")
    decoded = decode(data)
    assert decoded.encoding == "utf-8"
    assert _GO in decoded.text
    assert [(w.message, w.line, w.col) for w in decoded.warnings] == [
        ("CA[ISO-8859-1] is wrong: detected utf-8", 2, 1)
    ]


def test_wrong_or_unknown_ca_is_an_error_when_strict() -> None:
    with pytest.raises(SgfError, match=r"CA\[UTF-8\] is wrong") as info:
        decode(_record("Hrabánek", "UTF-8").encode("latin-1"), strict=True)
    assert (info.value.line, info.value.col) == (1, 8)
    with pytest.raises(SgfError, match="not a known charset"):
        decode(_record("Hrabánek", "foo").encode("latin-1"), strict=True)


def test_truncated_utf8_keeps_utf8_and_brackets() -> None:
    """A name cut inside a UTF-8 character must not make the file GB18030 and eat its ']'."""
    data = "(;CA[UTF-8]PB[小心我".encode() + "捶".encode()[:2] + "]BR[9段])".encode()
    decoded = decode(data)
    assert decoded.encoding == "utf-8-replace"
    assert decoded.text == "(;CA[UTF-8]PB[小心我\ufffd]BR[9段])"


@pytest.mark.parametrize(
    ("bom", "codec"),
    [(codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (b"", "utf-16-be")],
)
def test_boms_and_utf16(bom: bytes, codec: str) -> None:
    text = _record("Го 囲碁", None)
    decoded = decode(bom + text.encode(codec))
    assert decoded.text == text
    assert decoded.warnings == []


def test_iso_2022_is_not_mistaken_for_ascii() -> None:
    data = _record("囲碁", "ISO-2022-JP").encode("iso2022_jp")
    assert data.isascii()
    assert decode(data).text == _record("囲碁", "ISO-2022-JP")
