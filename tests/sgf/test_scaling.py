"""The shapes of the record paths' costs, counted, not timed: naming problems walks no path to
the root, ``tt`` moves read the size once, and 16k nested variations read, replay, check and
write without recursion. (The times themselves are in ``bench/records_scaling.py``.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tengen.cli import main
from tengen.core.coords import SGF_LETTERS, Point
from tengen.sgf import Node, grammar, parse, properties, serialise, trees_equal
from tengen.sgf.bulk import fast_main_line, replay_main_line
from tengen.sgf.cursor import Cursor
from tengen.sgf.formats import ugf
from tengen.sgf.replay import check_tree, replay
from tengen.sgf.tree import Place

POINTS = [a + b for b in SGF_LETTERS[:19] for a in SGF_LETTERS[:19]]


def occupied_line(n: int) -> str:
    """A main line of `n` moves, every one after the first on the occupied point ``aa``."""
    return "(;SZ[19]" + "".join(f";{'BW'[i % 2]}[aa]" for i in range(n)) + ")"


def tt_line(n: int) -> str:
    """`n` passes written ``tt`` (a pass up to 19x19), which the fast path leaves alone."""
    return "(;SZ[19]" + "".join(f";{'BW'[i % 2]}[tt]" for i in range(n)) + ")"


def nested(n: int) -> str:
    """`n` nested variations: at each level the first variation plays on the stone just
    played (a problem off the main line), the second goes on a level deeper."""
    parts = ["(;SZ[19]"]
    for i in range(n):
        color, other, point = "BW"[i % 2], "WB"[i % 2], POINTS[i % 361]
        parts.append(f";{color}[{point}](;{other}[{point}])(")
    parts.append(";B[]" + ")" * n + ")")
    return "".join(parts)


@pytest.fixture
def parent_reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts every read of ``Node.parent`` (a walk to the root reads it once per level)."""
    slot = grammar.RawNode.parent
    count = [0]

    def read(node: Node) -> Node | None:
        count[0] += 1
        return slot.__get__(node)  # type: ignore[no-any-return]

    def write(node: Node, value: Node | None) -> None:
        slot.__set__(node, value)

    monkeypatch.setattr(Node, "parent", property(read, write), raising=False)
    yield count


def test_naming_every_problem_walks_no_path(parent_reads: list[int]) -> None:
    n = 3000
    tree = parse(occupied_line(n)).games[0]
    parent_reads[0] = 0
    problems = check_tree(tree)
    names = [str(p) for p in problems]
    _, again = replay(tree)
    assert [str(p) for p in again] == names
    assert len(problems) == n - 1
    assert names[-1] == f"move {n}: illegal move {'BW'[(n - 1) % 2]}[aa]: occupied"
    assert parent_reads[0] <= 2 * n  # a walk to the root per problem would read n * n / 2


def test_naming_problems_in_nested_variations_walks_no_path(parent_reads: list[int]) -> None:
    n = 1000
    tree = parse(nested(n)).games[0]
    parent_reads[0] = 0
    names = [str(p) for p in check_tree(tree)]
    assert len(names) >= n
    assert parent_reads[0] <= 2 * n
    assert names[1].startswith("move 3, path 0.1.0: illegal move B[ba]")  # the second side move


def test_the_cursor_names_problems_without_walking(parent_reads: list[int]) -> None:
    n = 2000
    tree = parse(occupied_line(n)).games[0]
    parent_reads[0] = 0
    cursor = Cursor(tree)
    cursor.to_end()
    names = [str(p) for p in cursor.problems]
    assert len(names) == n - 1 and names[-1].startswith(f"move {n}: ")
    cursor.to_start()
    assert parent_reads[0] <= 2 * n


def test_bulk_fallback_names_problems_without_walking(parent_reads: list[int]) -> None:
    n = 2000
    data = (occupied_line(n)[:-1] + ";B[ cc])").encode()  # the scan leaves ' cc' to the tree
    assert fast_main_line(data) is None
    parent_reads[0] = 0
    line = replay_main_line(data)
    assert len(line.problems) == n - 1
    assert parent_reads[0] <= 2 * n


def test_tt_moves_read_the_size_without_walking(parent_reads: list[int]) -> None:
    n = 3000
    tree = parse(tt_line(n)).games[0]
    parent_reads[0] = 0
    game, problems = replay(tree)
    assert problems == [] and game.move_number == n
    assert check_tree(tree) == []
    assert parent_reads[0] <= 2 * n


def test_long_paths_are_named_by_their_ends() -> None:
    tree = parse(nested(40)).games[0]
    side = _at(tree.root, [0] + [1] * 39 + [0])  # the side move of the deepest level
    assert side.describe() == "move 41, path 0.1.1.1.1.1.[29 more].1.1.1.1.1.0"
    place, node = Place(tree.root), tree.root
    for index in side.path:
        node = node.children[index]
        place.down(index, node)
    assert place.describe() == side.describe()
    for _ in side.path:
        place.up()
    assert place.describe() == "root"


def _at(root: Node, path: list[int]) -> Node:
    for index in path:
        root = root.children[index]
    return root


DEEP = 16_000


def test_deep_nesting_reads_replays_and_writes_without_recursion(tmp_path: Path) -> None:
    text = nested(DEEP)
    for strict in (False, True):
        (tree,) = parse(text, strict=strict).games
    problems = check_tree(tree)
    assert len(problems) >= DEEP
    deepest = _at(tree.root, [0] + [1] * (DEEP - 1) + [0])
    assert deepest.describe().startswith(f"move {DEEP + 1}, path 0.1.1.1.1.1.[")
    _, on_the_way = replay(tree, deepest)
    assert str(on_the_way[-1]).startswith(f"{deepest.describe()}: illegal move")
    cursor = Cursor(tree)
    cursor.go_to(deepest)
    assert cursor.move_number == DEEP + 1
    written = serialise(tree)
    again = parse(written, strict=True).games[0]
    tree.root.properties["CA"] = ["UTF-8"]  # what serialise writes
    assert trees_equal(tree.root, again.root)
    path = tmp_path / "deep.sgf"
    path.write_bytes(written)
    assert main(["sgf", "check", str(path), "--no-progress"]) == 1  # the side moves are errors
    assert main(["sgf", "info", str(path), "--no-progress"]) == 0
    assert main(["convert", str(path), "-o", str(tmp_path / "out"), "--no-progress"]) == 0


def test_deep_review_variations_import_without_recursion() -> None:
    lines = ["[Header]", "Size=19", "[ReviewNode]", "NODE,1,0,0,0"]
    for i in range(DEEP):
        x, y = i % 19 + 1, i // 19 % 19 + 1
        lines += ["VARIATION,", f"NODE,{2 * i + 2},{i % 2 + 1},{x},{y}"]
    lines += ["VARIATIONEND,"] * DEEP
    tree = ugf.load("\n".join(lines).encode())
    again = parse(serialise(tree), strict=True).games[0]
    tree.root.properties["CA"] = ["UTF-8"]
    assert trees_equal(tree.root, again.root)


def test_a_rectangle_given_again_is_expanded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = [0]
    expand = properties.interpret_point_list

    def counting(raw: str) -> list[Point]:
        calls[0] += 1
        return expand(raw)

    monkeypatch.setattr(properties, "interpret_point_list", counting)
    n = 5000
    data = ("(;SZ[19]AB" + "[aa:ss]" * n + "[bb];W[tt])").encode()
    tree = parse(data).games[0]
    assert tree.root.get("AB") == [*expand("aa:ss"), Point(1, 1)]
    assert calls[0] == 2
    (problem,) = check_tree(tree)
    assert str(problem) == "root: setup: setup leaves the chain at A19 with no liberty"
    # The scan would expand each copy: it leaves such a node (more points than the board
    # has) to the full path.
    assert fast_main_line(data) is None
    assert replay_main_line(data).problems == (str(problem),)
