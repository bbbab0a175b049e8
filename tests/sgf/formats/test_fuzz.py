"""No input makes an importer fail with anything but RecordError: random and mutated bytes."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from tengen.sgf import GameTree
from tengen.sgf.formats import FORMATS, RecordError
from tests.sgf.formats.support import CORPUS, DATA

EXTENSIONS = sorted(FORMATS)
# Each format's opening, so that random text after it reaches the body's readers.
OPENINGS = {
    ".gib": b"\\HS\n\\[GAMEINFOMAIN=GRLT:0,ZIPSU:5\\]\n\\HE\n",
    ".ngf": b"GIx\nGIa 1k\nGIb\nGI\nGI\nGI2020-1-1\nGI19\nGI0\nGI0\nGI6\nGI1\n",
    ".ugf": b"[Header]\nSize=19\nHdcp=2,0.5\n[ReviewNode]\nNODE,1,0,0,0\n",
    ".ugi": b"[Header]\nLang=SJIS\n[Data]\n",
    ".psq": b"Piskvorky 15x15, 11:11, 0\n",
}
# Fragments of the formats' own syntax, so that mutations make near-valid lines.
TOKENS = [
    b"\n",
    b"\r\n",
    b",",
    b"=",
    b" ",
    b"\\[",
    b"\\]",
    b"\\HE",
    b"-1",
    b"0",
    b"1",
    b"2",
    b"19",
    b"99999",
    b"STO 0 2 1 ",
    b"SKI 0 3",
    b"INI 0 1 9 &4",
    b"PMAB",
    b"BAAAA",
    b"WTTTT",
    b"VARIATION,",
    b"VARIATIONEND,",
    b"NODE,2,1,20,20",
    b".Comment,2",
    b"[Data]",
    b"YA,B1",
    b"GRLT:",
    b"\xff",
    b"\xa1\xa1",
    b"\x00",
    "黑胜".encode(),
    b"[EndTxt]",
    b"IDB[",
]


def _samples(extension: str) -> list[bytes]:
    """The fixtures, and the corpus samples where the corpus is present, of one format."""
    paths = sorted(DATA.glob(f"*{extension}"))
    if CORPUS.is_dir():
        paths += sorted(CORPUS.glob(f"*/*/*{extension}")) + sorted(CORPUS.glob(f"*/*{extension}"))
    return [path.read_bytes() for path in paths]


SAMPLES = {extension: _samples(extension) for extension in EXTENSIONS}


def _load(loader: Callable[[bytes], GameTree], data: bytes) -> None:
    """Load `data`: a game tree or a RecordError with a positive line number, nothing else."""
    try:
        tree = loader(data)
    except RecordError as error:
        assert error.line is None or error.line >= 1
    else:
        assert isinstance(tree, GameTree)


@given(st.sampled_from(EXTENSIONS), st.binary(max_size=2000))
def test_arbitrary_bytes(extension: str, data: bytes) -> None:
    _load(FORMATS[extension], data)


@given(
    st.sampled_from(EXTENSIONS),
    st.lists(st.one_of(st.sampled_from(TOKENS), st.binary(max_size=4)), max_size=60),
)
def test_random_bodies_after_a_valid_opening(extension: str, parts: list[bytes]) -> None:
    _load(FORMATS[extension], OPENINGS[extension] + b"".join(parts))


@given(st.sampled_from([e for e in EXTENSIONS if SAMPLES[e]]), st.data())
def test_mutated_samples(extension: str, data: st.DataObject) -> None:
    sample = bytearray(data.draw(st.sampled_from(SAMPLES[extension])))
    edits = st.tuples(
        st.integers(0, len(sample)),
        st.integers(0, 12),
        st.one_of(st.sampled_from(TOKENS), st.binary(max_size=3)),
    )
    for at, cut, insert in data.draw(st.lists(edits, min_size=1, max_size=6)):
        sample[at : at + cut] = insert
    _load(FORMATS[extension], bytes(sample))


@given(st.sampled_from(EXTENSIONS), st.integers(5000, 6000))
def test_numbers_too_long_for_int(extension: str, digits: int) -> None:
    # Python refuses to convert strings of more than 4300 digits; no reader may try.
    huge = b"9" * digits
    for sample in [*SAMPLES[extension], OPENINGS[extension]]:
        for old in (b"19", b"2", b"0", b"1", b"15x15"):
            _load(FORMATS[extension], sample.replace(old, huge, 3))
