"""Tokenise SGF bytes under the strict FF[4] grammar in one compiled pass; nothing Go-specific.

The fast front of ``sgf.grammar`` (whole collections) and ``sgf.scan`` (the first game's main
line): it finds every node, with its parent, and every property, with its name and raw values,
as arrays of byte offsets. It reads only what has one reading, the grammar with no deviation,
plus lower-case letters in property names, which it flags (``LOWER_CASE``) because lenient
reading drops them with a warning. Anything else (text outside the game trees, a missing ';',
a node or property after variations, an empty tree, a name without a value, an unterminated
tree or value) stops it with ``DEVIATION`` and the offset, for the full parser to read. Works
on ASCII or UTF-8 bytes, where no byte of a multi-byte character is SGF syntax.
"""

from __future__ import annotations

import numpy as np
from numba import njit

OK, DEVIATION = 0, 1
# Slots of the ``info`` array `tokenize` returns.
STATUS, WHERE, NODES, PROPERTIES, VALUES, MAIN_NODES, LOWER_CASE = range(7)

_OPEN, _CLOSE, _SEMI, _LBRACKET, _RBRACKET, _BACKSLASH = 40, 41, 59, 91, 93, 92


@njit(cache=True, inline="always")
def skip_space(data: np.ndarray, pos: int) -> int:
    """The offset of the first byte from `pos` that is not white space (' ', '\\t'..'\\r')."""
    n = data.shape[0]
    while pos < n and (data[pos] == 32 or 9 <= data[pos] <= 13):
        pos += 1
    return pos


@njit(cache=True, inline="always")
def pair_code(data: np.ndarray, start: int, end: int) -> int:
    """``128 * first + second`` for a value of two ASCII bytes from `start` to `end`, else -1:
    a key the parser uses to share one string among all the equal short values it makes."""
    if end - start == 2 and data[start] < 128 and data[start + 1] < 128:
        return 128 * int(data[start]) + int(data[start + 1])
    return -1


@njit(cache=True, inline="always")
def _is_letter(b: int) -> bool:
    return 65 <= b <= 90 or 97 <= b <= 122


@njit(cache=True)
def tokenize(
    data: np.ndarray, first_only: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Read the game trees of SGF bytes (a uint8 array), or the first one with `first_only`.

    Returns ``info`` (the slots above: status, the offset of a deviation, the counts of nodes,
    properties and values, how many nodes come before the first game's first ``)`` (its main
    line), whether a name has lower-case letters); each node's parent in file order (-1 for a
    game's root); each property as (node, name start, name end, first value, value count); and
    each raw value as (start, end, pair), the bytes between its brackets and, for a value of
    two ASCII bytes (a point, mostly), their `pair_code` (-1 for any other value).
    """
    n = data.shape[0]
    info = np.zeros(7, np.int64)
    parents = np.empty(n + 1, np.int32)
    props = np.empty((n // 3 + 1, 5), np.int64)  # at least 'A[]'
    values = np.empty((n // 2 + 1, 3), np.int64)  # at least '[]'
    # Per open tree, the node its first node hangs from (-1: none, a root) and its state:
    # 0 no node yet, 1 in its nodes, 2 branched into variations.
    hang = np.empty(n // 2 + 2, np.int32)
    state = np.zeros(n // 2 + 2, np.uint8)
    n_nodes = n_props = n_values = 0
    main_nodes = -1
    last = -1  # the node read last in the innermost open tree
    depth = 0
    pos = skip_space(data, 0)
    while True:
        if pos >= n or data[pos] != _OPEN:  # each game tree starts with '('
            info[STATUS], info[WHERE] = DEVIATION, pos
            return info, parents[:0], props[:0], values[:0]
        while True:
            pos = skip_space(data, pos)
            c = data[pos] if pos < n else 0
            if c == _OPEN:
                if depth > 0:
                    if state[depth] == 0:  # '(' before the tree's first node
                        info[STATUS], info[WHERE] = DEVIATION, pos
                        return info, parents[:0], props[:0], values[:0]
                    state[depth] = 2
                depth += 1
                hang[depth] = last
                state[depth] = 0
                pos += 1
                continue
            if c == _CLOSE:
                if state[depth] == 0:  # an empty tree
                    info[STATUS], info[WHERE] = DEVIATION, pos
                    return info, parents[:0], props[:0], values[:0]
                if main_nodes < 0:
                    main_nodes = n_nodes
                last = hang[depth]
                depth -= 1
                pos += 1
                if depth == 0:
                    break
                continue
            if c != _SEMI or state[depth] == 2:  # junk, the end, or a node after variations
                info[STATUS], info[WHERE] = DEVIATION, pos
                return info, parents[:0], props[:0], values[:0]
            parents[n_nodes] = last if state[depth] == 1 else hang[depth]
            last = n_nodes
            n_nodes += 1
            state[depth] = 1
            pos += 1
            # The node's properties: NAME [value] [value] ...
            while True:
                pos = skip_space(data, pos)
                if pos >= n or not _is_letter(data[pos]):
                    break
                start = pos
                while pos < n and _is_letter(data[pos]):
                    if data[pos] >= 97:
                        info[LOWER_CASE] = 1
                    pos += 1
                end = pos
                pos = skip_space(data, pos)
                if pos >= n or data[pos] != _LBRACKET:  # a name without a value
                    info[STATUS], info[WHERE] = DEVIATION, start
                    return info, parents[:0], props[:0], values[:0]
                props[n_props, 0] = last
                props[n_props, 1] = start
                props[n_props, 2] = end
                props[n_props, 3] = n_values
                while pos < n and data[pos] == _LBRACKET:
                    value = pos + 1
                    pos = value
                    while pos < n:
                        b = data[pos]
                        if b == _RBRACKET:
                            break
                        pos += 2 if b == _BACKSLASH else 1
                    if pos >= n:  # unterminated
                        info[STATUS], info[WHERE] = DEVIATION, value - 1
                        return info, parents[:0], props[:0], values[:0]
                    values[n_values, 0] = value
                    values[n_values, 1] = pos
                    values[n_values, 2] = pair_code(data, value, pos)
                    n_values += 1
                    pos = skip_space(data, pos + 1)
                props[n_props, 4] = n_values - props[n_props, 3]
                n_props += 1
        pos = skip_space(data, pos)
        if first_only or pos >= n:
            break
    info[NODES], info[PROPERTIES], info[VALUES] = n_nodes, n_props, n_values
    info[MAIN_NODES] = main_nodes
    return info, parents[:n_nodes], props[:n_props], values[:n_values]
