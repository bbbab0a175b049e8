"""Find the main line of an SGF file's first game in its bytes, in one compiled pass.

The bulk path of ``sgf.bulk``: no text and no nodes, only what replaying the main line needs.
The scan reads the first game's tokens (`sgf.tokens`) and hands back the root's SZ, GM, RU,
KM and HA, and the main line as rows `core.replay.play_line` plays: each node's setup (AB, AW,
AE points, rectangles expanded, then the end of the setup with PL) and its move. The main line
is every node before the game's first ``)``.

Beyond the tokens' grammar it takes two repairs of lenient reading that cannot move a node or
a value: lower-case letters in property names (dropped, so ``AddBlack`` is ``AB``) and
properties given twice in a node (values merged, so the first stays first). It gives up (a
status other than ``OK``) wherever the full path (``sgf.tree.parse`` then ``sgf.replay``) might
read the game otherwise: a deviation from the grammar in the first game, a move or setup value
that is not a plain point, an SZ, GM or PL that is not plainly valid, a point off the board.
Charsets are the caller's: the bytes must be UTF-8 (or ASCII).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tengen.core.replay import MOVE, SETUP, STONE
from tengen.sgf.tokens import MAIN_NODES as _MAIN_NODES
from tengen.sgf.tokens import OK as _TOKENS_OK
from tengen.sgf.tokens import STATUS as _TOKENS_STATUS
from tengen.sgf.tokens import WHERE as _TOKENS_WHERE
from tengen.sgf.tokens import tokenize

# Statuses.
OK = 0
DEVIATION = 1  # a deviation from the grammar that lenient reading repairs (see above)
UNUSUAL = 2  # the main line holds something only the full path reads (see above)

# The properties the scan reads: rows of the spans array.
_OTHER, _B, _W, _AB, _AW, _AE, _PL, _SZ, _GM, _RU, _KM, _HA = range(-1, 11)

# Slots of the ``info`` array the scan returns.
STATUS, WHERE, WIDTH, HEIGHT, HANDICAP, RU_START, RU_END, KM_START, KM_END = range(9)

_COLON = 58


@njit(cache=True, inline="always")
def _letter(b: int) -> int:
    """The index of an SGF letter (a-z 0-25, A-Z 26-51), or -1."""
    if 97 <= b <= 122:
        return b - 97
    if 65 <= b <= 90:
        return b - 65 + 26
    return -1


@njit(cache=True)
def _ident(data: np.ndarray, start: int, end: int) -> int:
    """Which property the name ``data[start:end]`` is, of those the scan reads.

    Only its capitals count, as lenient reading drops lower-case letters (FF[3] ``AddBlack``
    is ``AB``); a name with no capital is read by no one.
    """
    a = b = 0
    capitals = 0
    for i in range(start, end):
        if 65 <= data[i] <= 90:
            capitals += 1
            if capitals == 1:
                a = data[i]
            elif capitals == 2:
                b = data[i]
            else:
                return _OTHER
    if capitals == 1:
        return _B if a == 66 else _W if a == 87 else _OTHER
    if a == 65:  # A
        return _AB if b == 66 else _AW if b == 87 else _AE if b == 69 else _OTHER
    if a == 80 and b == 76:
        return _PL
    if a == 83 and b == 90:
        return _SZ
    if a == 71 and b == 77:
        return _GM
    if a == 82 and b == 85:
        return _RU
    if a == 75 and b == 77:
        return _KM
    if a == 72 and b == 65:
        return _HA
    return _OTHER


@njit(cache=True)
def _number(data: np.ndarray, start: int, end: int) -> int:
    """The digits ``data[start:end]`` (one to three) as a number, or -1."""
    if end <= start or end - start > 3:
        return -1
    value = 0
    for i in range(start, end):
        if not 48 <= data[i] <= 57:
            return -1
        value = value * 10 + data[i] - 48
    return value


@njit(cache=True)
def _read_root(data: np.ndarray, spans: np.ndarray, info: np.ndarray) -> int:
    """Check the root's SZ and GM, and put the size and the RU and KM spans into `info`."""
    width = height = 19
    start, end = spans[_SZ, 0], spans[_SZ, 1]
    if start >= 0:
        colon = -1
        for i in range(start, end):
            if data[i] == _COLON:
                colon = i
                break
        if colon < 0:
            width = height = _number(data, start, end)
        else:
            width = _number(data, start, colon)
            height = _number(data, colon + 1, end)
        if not (1 <= width <= 52 and 1 <= height <= 52):
            return UNUSUAL
    info[WIDTH] = width
    info[HEIGHT] = height
    start, end = spans[_GM, 0], spans[_GM, 1]
    if start >= 0 and not (end == start + 1 and data[start] == 49):  # exactly GM[1]
        return UNUSUAL
    info[RU_START], info[RU_END] = spans[_RU, 0], spans[_RU, 1]
    info[KM_START], info[KM_END] = spans[_KM, 0], spans[_KM, 1]
    return OK


@njit(cache=True)
def _push(line: np.ndarray, n: int, kind: int, color: int, col: int, row: int) -> np.ndarray:
    """`line` with row `n` set, grown if it was full."""
    if n >= line.shape[0]:
        bigger = np.empty((2 * line.shape[0], 5), np.int32)
        bigger[:n] = line[:n]
        line = bigger
    line[n, 0] = kind
    line[n, 1] = color
    line[n, 2] = col
    line[n, 3] = row
    line[n, 4] = 0
    return line


@njit(cache=True)
def _setup(
    data: np.ndarray, values: np.ndarray, count: int, info: np.ndarray, line: np.ndarray, n: int
) -> tuple[np.ndarray, int]:
    """Add a node's AB, AW and AE points to `line` as STONE rows (colour 1, 2, or 0 for AE),
    rectangles row by row. Returns the line and its new length, or a length of -1 if a value
    is neither empty nor a plain point or rectangle on the board, or if the node sets more
    points than the board has (some twice: the full path reads values given again once)."""
    width, height = info[WIDTH], info[HEIGHT]
    most = n + width * height
    for v in range(count):
        ident, start, end = values[v, 0], values[v, 1], values[v, 2]
        color = 1 if ident == _AB else 2 if ident == _AW else 0
        if end == start:  # an empty value adds nothing
            continue
        if end - start == 2:
            c0 = c1 = _letter(data[start])
            r0 = r1 = _letter(data[start + 1])
        elif end - start == 5 and data[start + 2] == _COLON:
            a, b = _letter(data[start]), _letter(data[start + 3])
            c, d = _letter(data[start + 1]), _letter(data[start + 4])
            if a < 0 or b < 0 or c < 0 or d < 0:
                return line, -1
            c0, c1, r0, r1 = min(a, b), max(a, b), min(c, d), max(c, d)
        else:
            return line, -1
        if c0 < 0 or r0 < 0 or c1 >= width or r1 >= height:
            return line, -1
        if n + (r1 - r0 + 1) * (c1 - c0 + 1) > most:
            return line, -1
        for row in range(r0, r1 + 1):
            for col in range(c0, c1 + 1):
                line = _push(line, n, STONE, color, col, row)
                n += 1
    return line, n


@njit(cache=True)
def _player(data: np.ndarray, start: int, end: int) -> int:
    """PL as a colour (B, W, or FF[3]'s 1 and 2, in either case), or -1."""
    b = data[start] if end == start + 1 else 0
    if b == 66 or b == 98 or b == 49:
        return 1
    if b == 87 or b == 119 or b == 50:
        return 2
    return -1


@njit(cache=True)
def _move(data: np.ndarray, start: int, end: int, info: np.ndarray) -> tuple[int, int]:
    """The point of a move value as (col, row); (-1, -1) for a pass ([] or [tt] up to 19x19);
    (-2, -2) for anything else (not two letters, or off the board)."""
    if end == start:
        return -1, -1
    if end - start != 2:
        return -2, -2
    col, row = _letter(data[start]), _letter(data[start + 1])
    width, height = info[WIDTH], info[HEIGHT]
    if col == 19 and row == 19 and width <= 19 and height <= 19:  # tt
        return -1, -1
    if col < 0 or row < 0 or col >= width or row >= height:
        return -2, -2
    return col, row


@njit(cache=True)
def _finish_node(
    data: np.ndarray,
    root: bool,
    spans: np.ndarray,
    values: np.ndarray,
    count: int,
    info: np.ndarray,
    line: np.ndarray,
    n: int,
    moves: int,
) -> tuple[np.ndarray, int, int]:
    """Add a main-line node to `line`: its setup and SETUP row if it has any, then its move
    (label 0 in the root, else the move number). Returns the line, its new length (-1 if the
    node is unusual) and the moves so far."""
    if root and _read_root(data, spans, info) != OK:
        return line, -1, moves
    if count > 0 or spans[_PL, 0] >= 0:
        first = n
        line, n = _setup(data, values, count, info, line, n)
        if n < 0:
            return line, -1, moves
        if root and spans[_HA, 0] >= 0:
            info[HANDICAP] = np.count_nonzero(line[first:n, 1] == 1)
        to_play = 0
        if spans[_PL, 0] >= 0:
            to_play = _player(data, spans[_PL, 0], spans[_PL, 1])
            if to_play < 0:
                return line, -1, moves
        line = _push(line, n, SETUP, to_play, 0, 0)
        n += 1
    move = _B if spans[_B, 0] >= 0 else _W if spans[_W, 0] >= 0 else _OTHER
    if move != _OTHER:
        col, row = _move(data, spans[move, 0], spans[move, 1], info)
        if col == -2:
            return line, -1, moves
        line = _push(line, n, MOVE, 1 if move == _B else 2, col, row)
        moves += 1
        line[n, 4] = 0 if root else moves
        n += 1
    return line, n, moves


@njit(cache=True)
def scan(data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Scan the first game of SGF bytes (a uint8 array).

    Returns ``info`` (the slots above: status; where the scan gave up, as the byte offset of a
    deviation or the index of an unusual node; size; handicap stones (AB points in a root with
    HA); the spans of RU and KM, -1 when absent) and the main line as (kind, colour, col, row,
    label) rows for `core.replay.play_line`; a move's label is 0 in the root and otherwise its
    number (nodes with B or W from the root, as ``Node.describe`` counts).
    """
    found, _, props, values = tokenize(data, True)
    info = np.full(9, -1, np.int64)
    info[STATUS] = OK
    info[HANDICAP] = 0
    line = np.empty((props.shape[0] + 16, 5), np.int32)
    if found[_TOKENS_STATUS] != _TOKENS_OK:
        info[STATUS], info[WHERE] = DEVIATION, found[_TOKENS_WHERE]
        return info, line[:0]
    setup = np.empty((values.shape[0] + 1, 3), np.int64)  # a node's (AB/AW/AE, start, end)
    spans = np.full((11, 2), -1, np.int64)  # a node's first value of each property read
    n = moves = p = 0
    for node in range(found[_MAIN_NODES]):
        spans[:] = -1
        count = 0
        while p < props.shape[0] and props[p, 0] == node:
            ident = _ident(data, props[p, 1], props[p, 2])
            first, n_values = props[p, 3], props[p, 4]
            if _AB <= ident <= _AE:  # all their values count, in file order
                for v in range(first, first + n_values):
                    setup[count, 0] = ident
                    setup[count, 1] = values[v, 0]
                    setup[count, 2] = values[v, 1]
                    count += 1
            elif ident != _OTHER and spans[ident, 0] < 0:  # the first value of the first one
                spans[ident, 0] = values[first, 0]
                spans[ident, 1] = values[first, 1]
            p += 1
        line, n, moves = _finish_node(data, node == 0, spans, setup, count, info, line, n, moves)
        if n < 0:
            info[STATUS], info[WHERE] = UNUSUAL, node
            return info, line[:0]
    return info, line[:n]
