"""The game-tree cursor: incremental navigation, edits, and the position kept in step."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tengen.core import Color, Point
from tengen.core.coords import to_sgf
from tengen.core.diagram import render
from tengen.core.errors import IllegalMove, IllegalReason
from tengen.core.game import Game
from tengen.sgf import GameTree, Node, parse, serialise, trees_equal
from tengen.sgf import cursor as cursor_module
from tengen.sgf import replay as replay_module
from tengen.sgf.cursor import Cursor
from tengen.sgf.markup import dimmed
from tengen.sgf.replay import ReplayProblem, check_tree, replay

# Main line with a capture; a second variation that ends in an occupied point; a third with
# setup stones.
RECORD = (
    b"(;GM[1]FF[4]SZ[5]"
    b";B[cc]"
    b"(;W[aa];B[ba];W[dd];B[ab]C[captures];W[ee])"
    b"(;W[dd];B[dc](;W[cd])(;W[cc]))"
    b"(;AB[aa]AW[ee]C[setup];W[cb];B[bb]))"
)
# Black has just taken a ko: White's retake at bb is illegal.
KO = b"(;SZ[4]RU[Japanese]AB[ba][ab][bc]AW[ca][bb][cc][db];B[cb])"


def tree_of(record: bytes) -> GameTree:
    (tree,) = parse(record).games
    return tree


def state(game: Game) -> tuple[object, ...]:
    """Everything that makes two positions the same, ko and superko history included."""
    return (
        render(game.board),
        game.to_play,
        game.board.captures(Color.BLACK),
        game.board.captures(Color.WHITE),
        game.board.hash,
        game.move_number,
        game.legal_moves(Color.BLACK),
        game.legal_moves(Color.WHITE),
    )


def reread(tree: GameTree) -> GameTree:
    """`tree` written and parsed again (strictly), less the CA[UTF-8] that writing adds."""
    (back,) = parse(serialise(tree), strict=True).games
    back.root.delete("CA")
    return back


def assert_in_step(cursor: Cursor) -> None:
    """The cursor's game and problems are those of a replay from the root to its node."""
    fresh, problems = replay(cursor.tree, cursor.node)
    assert state(cursor.game) == state(fresh)
    assert [str(p) for p in cursor.problems] == [str(p) for p in problems]
    assert cursor.move_number == cursor.node.move_number


def node_at(tree: GameTree, *path: int) -> Node:
    node = tree.root
    for index in path:
        node = node.children[index]
    return node


def shape(node: Node) -> str:
    """The tree below `node` as moves, variations in brackets: ``cc(aa ba)(dd)``."""
    move = node.move
    text = "" if move is None else move[0].letter.lower() + to_sgf(move[1])
    if len(node.children) == 1:
        return f"{text} {shape(node.children[0])}".strip()
    return text + "".join(f"({shape(c)})" for c in node.children)


# -- navigation ------------------------------------------------------------------------------


def test_every_node_by_go_to_and_by_steps_matches_a_fresh_replay() -> None:
    tree = tree_of(RECORD)
    cursor = Cursor(tree)
    for node in tree.nodes():
        assert cursor.go_to(node) is node
        assert_in_step(cursor)
    cursor.to_start()
    stack = [0]  # depth-first by forward/back, with the index of the next child to visit
    while stack:
        if stack[-1] < len(cursor.variations):
            cursor.forward(stack[-1])
            stack[-1] += 1
            stack.append(0)
        else:
            stack.pop()
            if stack:
                cursor.back()
        assert_in_step(cursor)
    assert cursor.node is tree.root


def test_moves_along_the_current_line() -> None:
    tree = tree_of(RECORD)
    cursor = Cursor(tree)
    assert cursor.to_end() is node_at(tree, 0, 0, 0, 0, 0, 0)
    assert cursor.move_number == 6 and cursor.comment == ""
    assert cursor.to_move(5) is node_at(tree, 0, 0, 0, 0, 0) and cursor.comment == "captures"
    assert cursor.to_move(0) is tree.root
    cursor.go_to(node_at(tree, 0, 1, 0))
    assert cursor.to_move(4) is node_at(tree, 0, 1, 0, 0)  # the line goes on by first children
    assert cursor.to_move(1) is node_at(tree, 0)
    with pytest.raises(ValueError, match="6 moves, not 7"):
        cursor.to_move(7)  # from move 1, the current line is the main line again
    assert_in_step(cursor)


def test_to_move_counts_setup_nodes_as_no_move() -> None:
    tree = tree_of(RECORD)
    cursor = Cursor(tree)
    cursor.go_to(node_at(tree, 0, 2))
    assert cursor.move_number == 1
    assert cursor.to_move(2) is node_at(tree, 0, 2, 0)
    assert cursor.to_move(1) is node_at(tree, 0)  # the first node with one move
    assert_in_step(cursor)


def test_variations_and_main_line() -> None:
    tree = tree_of(RECORD)
    cursor = Cursor(tree)
    cursor.forward()
    assert cursor.variations == node_at(tree, 0).children
    cursor.forward(1)
    assert cursor.next_variation() is node_at(tree, 0, 2)
    with pytest.raises(IndexError, match="no next variation"):
        cursor.next_variation()
    assert cursor.previous_variation() is node_at(tree, 0, 1)
    assert cursor.previous_variation() is node_at(tree, 0, 0)
    with pytest.raises(IndexError, match="no previous variation"):
        cursor.previous_variation()
    cursor.go_to(node_at(tree, 0, 1, 0, 1))
    assert cursor.to_main_line() is node_at(tree, 0, 0, 0, 0)  # same depth
    cursor.go_to(node_at(tree, 0, 2, 0, 0))
    cursor.play(Point(4, 0))
    cursor.play(Point(4, 1))
    cursor.play(Point(3, 0))
    cursor.play(Point(0, 4))
    assert cursor.to_main_line() is node_at(tree, 0, 0, 0, 0, 0, 0)  # the deepest
    assert_in_step(cursor)


def test_navigation_errors_leave_the_cursor_in_place() -> None:
    tree = tree_of(RECORD)
    cursor = Cursor(tree)
    with pytest.raises(IndexError):
        cursor.back()
    with pytest.raises(IndexError):
        cursor.next_variation()
    with pytest.raises(IndexError):
        cursor.forward(1)
    with pytest.raises(ValueError, match="not in this game tree"):
        cursor.go_to(tree_of(RECORD).root.children[0])
    with pytest.raises(ValueError):
        cursor.to_move(-1)
    assert cursor.node is tree.root
    assert_in_step(cursor)


def test_forward_and_back_are_incremental(monkeypatch: pytest.MonkeyPatch) -> None:
    tree = tree_of(RECORD)
    cursor = Cursor(tree)
    applied: list[Node] = []

    def counting_apply(game: Game, node: Node, **kwargs: Any) -> list[ReplayProblem]:
        applied.append(node)
        return replay_module.apply_node(game, node, **kwargs)

    def no_replay(*args: object, **kwargs: object) -> None:
        raise AssertionError("replayed from the root")

    monkeypatch.setattr(cursor_module, "apply_node", counting_apply)
    monkeypatch.setattr(cursor_module, "new_game", no_replay)
    monkeypatch.setattr(replay_module, "replay", no_replay)
    monkeypatch.setattr(replay_module, "new_game", no_replay)

    cursor.to_end()
    assert applied == tree.main_line()[1:]
    actions = cursor.game.actions
    applied.clear()
    cursor.back()
    assert applied == [] and cursor.game.actions == actions - 1
    cursor.forward()
    assert applied == [node_at(tree, 0, 0, 0, 0, 0, 0)] and cursor.game.actions == actions
    applied.clear()
    cursor.go_to(node_at(tree, 0, 2, 0))  # up to the common ancestor (move 1), then down
    assert applied == [node_at(tree, 0, 2), node_at(tree, 0, 2, 0)]
    assert cursor.game.actions == 3  # B[cc], the setup, W[cb]
    applied.clear()
    cursor.back()
    cursor.back()
    assert applied == [] and cursor.game.actions == 1


# -- edits of the tree -----------------------------------------------------------------------


def test_play_follows_an_existing_child_or_starts_a_variation() -> None:
    tree = tree_of(RECORD)
    cursor = Cursor(tree)
    first = cursor.play(Point(2, 2))
    assert first is node_at(tree, 0) and len(tree.root.children) == 1
    assert cursor.play(Point(3, 3)) is node_at(tree, 0, 1)
    cursor.back()
    new = cursor.play(Point(4, 4))
    assert new is node_at(tree, 0, 3) and new.properties == {"W": ["ee"]}
    assert cursor.play(None).properties == {"B": [""]}  # a pass
    assert cursor.play(Point(0, 0), Color.WHITE).properties == {"W": ["aa"]}
    cursor.to_start()
    assert shape(tree.root) == "bcc(waa bba wdd bab wee)(wdd bdc(wcd)(wcc))(wcb bbb)(wee b waa)"
    cursor.go_to(new)
    cursor.forward()
    cursor.forward()
    assert_in_step(cursor)


def test_play_refuses_illegal_moves_with_reason_and_move_number() -> None:
    tree = tree_of(KO)
    cursor = Cursor(tree)
    cursor.to_end()
    with pytest.raises(IllegalMove) as refused:
        cursor.play(Point(1, 1))
    assert refused.value.reason is IllegalReason.KO and refused.value.move_number == 2
    with pytest.raises(IllegalMove) as refused:
        cursor.play(Point(2, 1))
    assert refused.value.reason is IllegalReason.OCCUPIED
    with pytest.raises(IllegalMove) as refused:
        cursor.play(Point(4, 0))
    assert refused.value.reason is IllegalReason.OFF_BOARD
    assert cursor.variations == [] and cursor.move_number == 1
    assert_in_step(cursor)


def test_a_permissive_cursor_plays_a_ko_violation_and_reports_it() -> None:
    tree = tree_of(KO)
    cursor = Cursor(tree, permissive=True)
    cursor.to_end()
    node = cursor.play(Point(1, 1))
    assert node.properties == {"W": ["bb"]}
    assert [str(p) for p in cursor.problems] == ["move 2: illegal move W[bb]: ko"]
    assert cursor.game.board[Point(2, 1)] is None  # the ko stone was taken
    with pytest.raises(IllegalMove, match="occupied"):
        cursor.play(Point(1, 1))
    assert_in_step(cursor)
    cursor.back()
    assert cursor.problems == []


def test_delete_branch() -> None:
    tree = tree_of(RECORD)
    cursor = Cursor(tree)
    deleted = cursor.go_to(node_at(tree, 0, 1, 0))
    assert cursor.delete_branch() is node_at(tree, 0, 1)
    assert shape(tree.root) == "bcc(waa bba wdd bab wee)(wdd)(wcb bbb)"
    assert deleted.parent is None
    with pytest.raises(ValueError, match="not in this game tree"):
        cursor.go_to(deleted)
    cursor.go_to(node_at(tree, 0, 0, 0))
    cursor.delete_branch()
    assert shape(tree.root) == "bcc(waa)(wdd)(wcb bbb)"
    assert_in_step(cursor)
    cursor.to_start()
    with pytest.raises(ValueError, match="root"):
        cursor.delete_branch()


def test_promote_makes_the_current_line_the_main_line() -> None:
    tree = tree_of(RECORD)
    cursor = Cursor(tree)
    node = cursor.go_to(node_at(tree, 0, 1, 0, 1))
    cursor.promote()
    assert node.path == [0, 0, 0, 0]
    assert shape(tree.root) == "bcc(wdd bdc(wcc)(wcd))(waa bba wdd bab wee)(wcb bbb)"
    assert tree.main_line()[-1] is node
    assert [str(p) for p in cursor.problems] == ["move 4: illegal move W[cc]: occupied"]
    assert_in_step(cursor)
    cursor.to_start()
    cursor.promote()  # at the root: nothing to do
    assert tree.main_line()[-1] is node


# -- setup edits -----------------------------------------------------------------------------


def test_setup_edit_reports_a_later_move_in_a_variation_that_became_occupied() -> None:
    tree = tree_of(RECORD)
    cursor = Cursor(tree)
    node = cursor.forward()
    problems = cursor.set_setup(white=[Point(3, 2)])
    assert node.properties == {"B": ["cc"], "AW": ["dc"]}
    assert [str(p) for p in problems] == [
        "move 3, path 0.1.0: illegal move B[dc]: occupied",
        "move 4, path 0.1.0.1: illegal move W[cc]: occupied",
    ]
    assert [str(p) for p in problems] == [
        str(p) for p in check_tree(tree) if p.node is not tree.root
    ]
    assert cursor.node is node  # the cursor's place is kept
    assert_in_step(cursor)
    problems = cursor.set_setup(clear=[Point(3, 2)])
    assert node.properties == {"B": ["cc"]}
    assert [str(p) for p in problems] == ["move 4, path 0.1.0.1: illegal move W[cc]: occupied"]
    assert_in_step(cursor)


def test_setup_edit_reports_the_nodes_own_move() -> None:
    tree = tree_of(RECORD)
    cursor = Cursor(tree)
    cursor.forward()
    problems = cursor.set_setup(white=[Point(2, 2)])
    assert str(problems[0]) == "move 1: illegal move B[cc]: occupied"
    assert_in_step(cursor)


def test_setup_edits_merge_so_a_point_is_in_one_list_only() -> None:
    tree = tree_of(b"(;SZ[5];AB[aa:bb]AW[ee]AE[cc]C[x])")
    cursor = Cursor(tree)
    node = cursor.forward()
    cursor.set_setup(black=[Point(4, 4), Point(2, 2)], white=[Point(4, 0)], empty=[Point(3, 3)])
    assert node.properties == {
        "AB": ["aa", "ba", "ab", "bb", "ee", "cc"],
        "AW": ["ea"],
        "AE": ["dd"],
        "C": ["x"],
    }
    assert_in_step(cursor)
    cursor.set_setup(black=[Point(1, 0)])  # already there: the raw values stay as they are
    assert node.properties["AB"] == ["aa", "ba", "ab", "bb", "ee", "cc"]
    cursor.set_setup(clear=[Point(4, 0), Point(3, 3), Point(0, 0)])
    assert node.properties == {"AB": ["ba", "ab", "bb", "ee", "cc"], "C": ["x"]}
    assert_in_step(cursor)


def test_refused_setup_edits_change_nothing() -> None:
    tree = tree_of(b"(;SZ[3];AB[ba][ab];W[cc])")
    cursor = Cursor(tree)
    node = cursor.forward()
    before = dict(node.properties)
    with pytest.raises(ValueError, match="no liberty"):
        cursor.set_setup(white=[Point(0, 0)])
    with pytest.raises(ValueError, match="off the 3x3 board"):
        cursor.set_setup(black=[Point(3, 0)])
    with pytest.raises(ValueError, match="two colours"):
        cursor.set_setup(black=[Point(2, 0)], white=[Point(2, 0)])
    assert node.properties == before
    assert_in_step(cursor)


# -- comments, markup, annotations ------------------------------------------------------------


def test_comments_markup_and_annotations_survive_serialise_and_parse() -> None:
    tree = tree_of(b"(;SZ[9];B[ee])")
    cursor = Cursor(tree)
    cursor.to_end()
    cursor.comment = "a ]tricky[ comment\\ with: colon"
    cursor.add_markup("TR", Point(0, 0))
    cursor.add_markup("SQ", Point(1, 0))
    cursor.add_markup("CR", Point(2, 0))
    cursor.add_markup("MA", Point(3, 0))
    cursor.add_markup("TR", Point(8, 8))
    cursor.set_label(Point(4, 4), "A:b]")
    cursor.set_label(Point(5, 5), "2")
    cursor.add_line(Point(0, 8), Point(8, 0))
    cursor.add_arrow(Point(4, 0), Point(4, 3))
    cursor.set_move_annotation("TE", 2)
    cursor.set_position_annotation("GB")
    cursor.set_hotspot(1)
    cursor.set_move_number(101)
    node = cursor.node
    assert node.properties["LB"] == ["ee:A\\:b\\]", "ff:2"]
    back = reread(tree)
    assert trees_equal(back.root, tree.root)
    read = back.root.children[0]
    assert read.get("C") == "a ]tricky[ comment\\ with: colon"
    assert read.get("TR") == [Point(0, 0), Point(8, 8)]
    assert read.get("SQ") == [Point(1, 0)] and read.get("CR") == [Point(2, 0)]
    assert read.get("MA") == [Point(3, 0)]
    assert read.get("LB") == [(Point(4, 4), "A:b]"), (Point(5, 5), "2")]
    assert read.get("LN") == [(Point(0, 8), Point(8, 0))]
    assert read.get("AR") == [(Point(4, 0), Point(4, 3))]
    assert (read.get("TE"), read.get("GB"), read.get("HO"), read.get("MN")) == (2, 1, 1, 101)
    assert Cursor(back).to_end().get("C") == cursor.comment


def test_markup_edits_replace_and_remove() -> None:
    tree = tree_of(b"(;SZ[9];B[ee])")
    cursor = Cursor(tree)
    node = cursor.to_end()
    cursor.add_markup("TR", Point(0, 0))
    cursor.add_markup("TR", Point(0, 0))
    cursor.add_markup("CR", Point(0, 0))  # one markup per point
    assert "TR" not in node.properties and node.properties["CR"] == ["aa"]
    cursor.remove_markup("CR", Point(0, 0))
    cursor.remove_markup("SQ", Point(0, 0))  # not there: nothing happens
    cursor.set_label(Point(1, 1), "x")
    cursor.set_label(Point(1, 1), "y")
    assert node.properties["LB"] == ["bb:y"]
    cursor.set_label(Point(1, 1), None)
    cursor.add_line(Point(0, 0), Point(2, 2))
    cursor.add_line(Point(2, 2), Point(0, 0))  # the same line
    cursor.add_arrow(Point(0, 0), Point(2, 2))
    cursor.add_arrow(Point(2, 2), Point(0, 0))  # the other way: another arrow
    assert node.properties["LN"] == ["aa:cc"] and node.properties["AR"] == ["aa:cc", "cc:aa"]
    cursor.remove_line(Point(2, 2), Point(0, 0))
    cursor.remove_arrow(Point(0, 0), Point(2, 2))
    assert node.properties == {"B": ["ee"], "AR": ["cc:aa"]}
    cursor.comment = "hello"
    cursor.comment = ""
    assert "C" not in node.properties
    with pytest.raises(ValueError, match="unknown markup"):
        cursor.add_markup("LB", Point(0, 0))
    with pytest.raises(ValueError, match="off the 9x9 board"):
        cursor.add_markup("MA", Point(9, 0))
    with pytest.raises(ValueError, match="two different points"):
        cursor.add_arrow(Point(1, 1), Point(1, 1))


def test_dimming_is_inherited_and_written_only_where_it_changes() -> None:
    tree = tree_of(b"(;SZ[9]DD[aa:bb];B[ee];W[cc];B[gg])")
    cursor = Cursor(tree)
    root, first = cursor.node, cursor.forward()
    assert dimmed(first) == dimmed(root) == [Point(0, 0), Point(1, 0), Point(0, 1), Point(1, 1)]
    cursor.set_dimmed([Point(1, 1), Point(0, 0), Point(1, 0), Point(0, 1)])  # the same set
    assert "DD" not in first.properties
    second = cursor.forward()
    cursor.set_dimmed([])
    assert second.properties["DD"] == [""] and dimmed(cursor.forward()) == []
    cursor.back()
    cursor.set_dimmed([Point(0, 0), Point(0, 0)])
    assert second.properties["DD"] == ["aa"]
    assert dimmed(reread(tree).root.children[0].children[0]) == [Point(0, 0)]
    with pytest.raises(ValueError, match="off the 9x9 board"):
        cursor.set_dimmed([Point(9, 9)])


def test_annotations_are_one_per_node_and_checked() -> None:
    tree = tree_of(b"(;SZ[9];B[ee])")
    cursor = Cursor(tree)
    node = cursor.to_end()
    cursor.set_move_annotation("BM", 2)
    cursor.set_move_annotation("DO")
    assert node.properties == {"B": ["ee"], "DO": [""]}
    with pytest.raises(ValueError, match="double"):
        cursor.set_move_annotation("TE", 3)
    assert node.properties == {"B": ["ee"], "DO": [""]}
    cursor.set_move_annotation(None)
    cursor.set_position_annotation("UC", 2)
    cursor.set_position_annotation("DM")
    assert node.properties == {"B": ["ee"], "DM": ["1"]}
    cursor.set_position_annotation(None)
    cursor.set_move_number(5)
    cursor.set_move_number(None)
    assert node.properties == {"B": ["ee"]}
    cursor.to_start()
    with pytest.raises(ValueError, match="no move"):
        cursor.set_move_annotation("IT")
    with pytest.raises(ValueError, match="no move"):
        cursor.set_move_number(3)
    with pytest.raises(ValueError, match="unknown"):
        cursor.set_position_annotation("BM")


# -- random walks ----------------------------------------------------------------------------

OPERATIONS = ("forward", "back", "next", "previous", "play", "delete", "promote", "main", "go")
points = st.builds(Point, st.integers(0, 4), st.integers(0, 4))


@given(st.data(), st.booleans())
def test_random_walks_keep_the_game_equal_to_a_fresh_replay(
    data: st.DataObject, permissive: bool
) -> None:
    tree = tree_of(RECORD)
    cursor = Cursor(tree, permissive=permissive)
    for _ in range(data.draw(st.integers(1, 30))):
        operation = data.draw(st.sampled_from((*OPERATIONS, "setup")))
        if operation == "forward":
            if cursor.variations:
                cursor.forward(data.draw(st.integers(0, len(cursor.variations) - 1)))
            else:
                with pytest.raises(IndexError):
                    cursor.forward()
        elif operation == "back":
            if cursor.node is not tree.root:
                cursor.back()
        elif operation in ("next", "previous"):
            with contextlib.suppress(IndexError):
                (cursor.next_variation if operation == "next" else cursor.previous_variation)()
        elif operation == "play":
            move = data.draw(st.none() | points)
            color = data.draw(st.sampled_from((None, Color.BLACK, Color.WHITE)))
            with contextlib.suppress(IllegalMove):
                cursor.play(move, color)
        elif operation == "delete":
            if cursor.node is not tree.root:
                cursor.delete_branch()
        elif operation == "promote":
            cursor.promote()
        elif operation == "main":
            cursor.to_main_line()
        elif operation == "go":
            cursor.go_to(data.draw(st.sampled_from(list(tree.nodes()))))
        else:
            colour = data.draw(st.sampled_from(("black", "white", "empty", "clear")))
            try:
                problems = cursor.set_setup(**{colour: [data.draw(points)]})
            except ValueError:
                pass  # a chain with no liberty: refused
            else:
                below = {id(n) for n in _subtree(cursor.node)}
                expected = [p for p in check_tree(tree) if id(p.node) in below]
                assert [str(p) for p in problems] == [str(p) for p in expected]
        assert_in_step(cursor)
    assert trees_equal(reread(tree).root, tree.root)


def _subtree(node: Node) -> list[Node]:
    nodes, stack = [], [node]
    while stack:
        nodes.append(stack.pop())
        stack.extend(reversed(nodes[-1].children))
    return nodes
