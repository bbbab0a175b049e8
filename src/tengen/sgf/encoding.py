"""SGF bytes -> text, honouring ``CA[]`` and detecting the charset when it is missing or wrong.

Property identifiers and brackets are ASCII, so ``CA`` is read from the root node's bytes
before anything is decoded. A declared charset is widened to the superset that real programs
write under its name (GB2312 -> GB18030, Shift_JIS -> CP932, ...). When ``CA`` is missing, is
unknown, does not decode the bytes or is a single-byte charset over valid UTF-8, the charset is
detected: BOMs and BOM-less UTF-16 first, then UTF-8, then charset-normalizer among the
charsets Go records are written in. Writing is always UTF-8 (``tengen.sgf.tree.serialise``
sets ``CA[UTF-8]``). Only the first game's ``CA`` is read: a file that mixes charsets between
game trees is decoded as a whole, with one charset.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

from charset_normalizer import from_bytes

from tengen.sgf.errors import SgfError, SgfWarning

# What programs really write under a declared name: the superset decodes every file the subset
# does, plus the vendor characters (e.g. GBK in files labelled GB2312).
_SUPERSETS = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "shift_jis": "cp932",
    "euc_kr": "cp949",
    "big5": "big5hkscs",
    "iso8859-1": "cp1252",
}
# Candidates for detection, in charset-normalizer's spelling.
_DETECTABLE = ["utf_8", "gb18030", "big5", "cp932", "cp949", "euc_jp", "cp1251", "cp1252"]
_BOMS = [
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
]
_ROOT_START = re.compile(rb"\([ \t\n\r\v\f]*;?")
_ROOT_PROPERTY = re.compile(
    rb"[ \t\n\r\v\f]*([A-Za-z]+)[ \t\n\r\v\f]*((?:\[(?:[^\]\\]|\\.)*\][ \t\n\r\v\f]*)+)", re.S
)


@dataclass(frozen=True)
class Decoded:
    """Decoded SGF text, the Python codec that decoded it, and warnings about ``CA``."""

    text: str
    encoding: str
    warnings: list[SgfWarning] = field(default_factory=list)


def _line_col(data: bytes, offset: int) -> tuple[int, int]:
    line_start = max(data.rfind(b"\n", 0, offset), data.rfind(b"\r", 0, offset)) + 1
    return data.count(b"\n", 0, offset) + 1, offset - line_start + 1


def declared_charset(data: bytes) -> tuple[str, int] | None:
    """The ``CA`` value of the first root node and its byte offset, or None if it has none."""
    m = _ROOT_START.search(data)
    if m is None:
        return None
    pos = m.end()
    while (prop := _ROOT_PROPERTY.match(data, pos)) is not None:
        if prop.group(1) == b"CA":
            value = prop.group(2).strip()
            return value[1 : value.index(b"]")].decode("ascii", "replace").strip(), prop.start(1)
        pos = prop.end()
    return None


def _codec(name: str) -> str | None:
    try:
        codec = codecs.lookup(name).name
    except (LookupError, ValueError):  # ValueError: a NUL in the name
        return None
    return _SUPERSETS.get(codec, codec)


def _utf16_without_bom(data: bytes) -> str | None:
    """``utf-16-le``/``-be`` if many bytes of one parity are NUL and hardly any of the other."""
    head = data[:2000]
    if len(head) < 4:
        return None
    even, odd = head[0::2].count(0), head[1::2].count(0)
    if odd > len(head) // 5 and even <= len(head) // 100:
        return "utf-16-le"
    if even > len(head) // 5 and odd <= len(head) // 100:
        return "utf-16-be"
    return None


def _try(data: bytes, codec: str) -> str | None:
    try:
        return data.decode(codec)
    except (UnicodeError, LookupError):  # UnicodeError: codecs like idna
        return None


def _unicode(data: bytes) -> tuple[str, str] | None:
    """Text and codec if the bytes carry a BOM or are BOM-less UTF-16, else None."""
    for bom, codec in _BOMS:
        if data.startswith(bom) and (text := _try(data, codec)) is not None:
            return text, codec
    utf16 = _utf16_without_bom(data)
    if utf16 is not None and (text := _try(data, utf16)) is not None:
        return text, utf16
    return None


def _mostly_utf8(data: bytes) -> str | None:
    """The text, bad bytes replaced, if the bytes are UTF-8 but for a few broken sequences.

    Servers cut names at a byte limit, leaving a truncated character; decoding such a file as
    a CJK double-byte charset would swallow the ']' after it.
    """
    text = data.decode("utf-8", "replace")
    broken = text.count("\ufffd")
    return text if broken * 5 <= sum(1 for ch in text if ord(ch) > 0x7F) else None


def detect(data: bytes) -> tuple[str, str]:
    """Decode bytes of unknown charset; return the text and the codec used (Latin-1 at worst).

    The codec is reported as ``utf-8-replace`` when a few broken UTF-8 sequences were replaced.
    """
    found = _unicode(data)
    if found is not None:
        return found
    if (text := _try(data, "utf-8")) is not None:
        return text, "utf-8"
    if (text := _mostly_utf8(data)) is not None:
        return text, "utf-8-replace"
    # charset-normalizer ranks by chaos, which ties at 0 when a record has only a few
    # non-ASCII bytes; a match in which it recognises a language then beats the rest.
    matches = list(from_bytes(data, cp_isolation=_DETECTABLE))
    for match in sorted(matches, key=lambda m: m.coherence == 0):
        if (text := _try(data, match.encoding)) is not None:
            return text, codecs.lookup(match.encoding).name
    return data.decode("latin-1"), "iso8859-1"


def decode(data: bytes, *, strict: bool = False) -> Decoded:
    """Decode an SGF file's bytes to text, using ``CA`` when it is right and detection otherwise.

    Raises SgfError in strict mode if ``CA`` names an unknown charset or one the bytes are not in.
    In lenient mode those cases, and a missing ``CA`` over non-ASCII bytes, give a warning.
    """
    unicode = _unicode(data)
    if unicode is not None:
        return Decoded(*unicode)
    if data.isascii() and b"\x1b" not in data:  # ESC would start ISO-2022 shifts
        return Decoded(data.decode("ascii"), "ascii")
    declared = declared_charset(data)
    if declared is None:
        guess, found = detect(data)
        return Decoded(guess, found, [SgfWarning(f"no CA: charset detected as {found}", 1, 1)])
    name, offset = declared
    codec = _codec(name)
    if codec is not None and (text := _decode_declared(data, codec)) is not None:
        return Decoded(text, codec)
    problem = f"CA[{name}] is {'wrong' if codec else 'not a known charset'}"
    if strict:
        raise SgfError(problem, *_line_col(data, offset))
    guess, found = detect(data)
    warning = SgfWarning(f"{problem}: detected {found}", *_line_col(data, offset))
    return Decoded(guess, found, [warning])


def _decode_declared(data: bytes, codec: str) -> str | None:
    """The text if the declared codec decodes the bytes to something that looks like SGF."""
    text = _try(data, codec)
    if text is None or "(" not in text:
        return None
    # Valid UTF-8 with non-ASCII bytes under another name is a mislabelled UTF-8 file.
    if codec != "utf-8" and not data.isascii() and _try(data, "utf-8") is not None:
        return None
    return text


def encode(text: str) -> bytes:
    """UTF-8 bytes of SGF text. Raises UnicodeEncodeError for lone surrogates."""
    return text.encode("utf-8")
