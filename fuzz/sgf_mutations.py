"""SGF-aware mutations for the SGF fuzz targets: tokens inserted, slices of nodes copied, runs of
nodes wrapped in variations (sometimes 50 deep), slices deleted, subtrees copied and properties
set in a parsed tree; libFuzzer's own byte mutations the other half of the time."""

from __future__ import annotations

import random
from pathlib import Path

import atheris

from tengen.sgf import GameTree, SgfError, parse, serialise

TOKENS = [
    b"(", b")", b";", b"[", b"]", b"\\", b"\\]", b":", b"(;", b")(", b"\n", b"\r", b" ",
    b"B[tt]", b"W[tt]", b"B[]", b"W[zz]", b"B[ aa ]", b"SZ[52]", b"SZ[1]", b"SZ[25:3]",
    b"SZ[0]", b"SZ[99999999999]", b"AB[aa:ZZ]", b"AE[aa:ss]", b"AW[cc][dd]", b"PL[2]",
    b"PL[W]", b"HA[9]", b"KM[nan]", b"KM[1e308]", b"KM[750]", b"RU[Japanese]", b"RU[{}]",
    b"GM[4]", b"GM[abc]", b"FF[3]", b"CA[UTF-16]", b"CA[gb2312]", b"CA[\x00]",
    b"AddBlack[cc]", b"LB[aa:x]", b"MN[abc]", b"C[a\\]b]", b"RE[B+R]", b"RE[W+3.5]",
    b"\xff\xfe", b"\xef\xbb\xbf", b"\xe9", b"\x1b$B", b"\x00",
]  # fmt: skip
DICTIONARY = Path(__file__).with_name("sgf.dict")  # the same for libFuzzer's byte mutations


def mutate(data: bytes, max_size: int, seed: int) -> bytes:
    """libFuzzer's byte mutations half the time; SGF-aware ones the other half."""
    rng = random.Random(seed)
    if rng.random() < 0.5:
        return atheris.Mutate(data, max_size)
    kind = rng.randrange(6)
    if kind == 0:  # a token where one begins
        at = _boundary(data, rng)
        data = data[:at] + rng.choice(TOKENS) + data[at:]
    elif kind == 1:  # a slice copied elsewhere: more nodes, values or variations
        a, b = sorted((_boundary(data, rng), _boundary(data, rng)))
        at = _boundary(data, rng)
        data = data[:at] + data[a:b] * rng.choice((1, 2, 5)) + data[at:]
    elif kind == 2:  # a run of nodes made a variation, maybe many deep
        a, b = sorted((_boundary(data, rng), _boundary(data, rng)))
        depth = rng.choice((1, 1, 3, 50))
        data = data[:a] + b"(" * depth + data[a:b] + b")" * depth + data[b:]
    elif kind == 3:  # a slice deleted
        a, b = sorted((_boundary(data, rng), _boundary(data, rng)))
        data = data[:a] + data[b:]
    else:  # the parsed tree edited and written
        data = _edit_tree(data, rng)
    return data[:max_size]


def _boundary(data: bytes, rng: random.Random) -> int:
    """A random offset, usually just before or after an SGF delimiter."""
    if not data or rng.random() < 0.2:
        return rng.randint(0, len(data))
    at = rng.randrange(len(data))
    for i in range(at, min(len(data), at + 200)):
        if data[i] in b"()[];":
            return i + rng.randint(0, 1)
    return at


def _edit_tree(data: bytes, rng: random.Random) -> bytes:
    """Parse leniently, copy a subtree under another node or set a property, write again."""
    try:
        games = parse(data).games
    except SgfError:
        return data
    nodes = [n for g in games for n in g.nodes()]
    node = rng.choice(nodes)
    if rng.random() < 0.5 and len(nodes) > 1:
        source = rng.choice(nodes)
        copy = parse(serialise(GameTree(source))).games[0].root
        copy.properties.pop("CA", None)
        copy.parent = node
        node.children.insert(rng.randint(0, len(node.children)), copy)
    else:
        token = rng.choice(TOKENS).decode("latin-1")
        ident = "".join(c for c in token.split("[")[0] if c.isupper()) or "C"
        value = token.partition("[")[2].rstrip("]") if "[" in token else token
        node.properties[ident] = [value] * rng.choice((1, 1, 2, 40))
    try:
        return serialise(games)
    except UnicodeEncodeError:
        return data
