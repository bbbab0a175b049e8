"""Automatic dead-stone estimate: which chains are alive, dead or in seki, each with a confidence.

The truth it aims at is the play-out: after both players pass, two strong players go on under
area rules until every dead stone is captured (``tests/scoring/crosscheck.py`` checks it
against GNU Go doing just that). Five steps, from certain to likely:

1. Kos are settled first, as the play-out settles them: the player to move takes a ko it can
   take and then connects, or fills the point where the opponent could take one, and the
   players alternate until no ko is left (neither has a ko threat left in a finished game, so
   the first to move wins each). A ko counts here when its connection joins chains; or, for
   the player to move, when it is worth the lone stone taken and no chain of the taker's
   next to it is short of liberties; or, to be filled but not taken, when its capture would
   give liberties to such a chain short of them, unless the player to move can take it and
   connect into a seki (then it does). Stones captured there are dead, unless the
   chain that took them is itself judged dead: then the capture does not stand in the end.
   The rest is judged on the settled position.
2. Benson's algorithm (`scoring.benson`) for both colours: pass-alive chains are alive and
   stones inside the opponent's pass-alive territory are dead, with confidence 1.
3. For every other chain, the mean ownership of its stones over many playouts from the
   position (`Board.ownership`: `core.playout`'s policy, which takes and saves chains in
   atari and never puts its own group into atari, so a group without two eyes is captured and
   a seki is left standing; half of them with each player moving first, so that having the
   move does not tilt the estimate). Seen from the chain's colour, a mean below
   `DEAD_BELOW` means the chain is dead; anything else leaves it alive. `DEAD_BELOW` is
   0.12, not 0: the policy never lets the defender's group into atari, so the playouts lean
   towards the group short of eyes, and one kept in no more than 56% of them is lost to good
   play (on the cross-check's games, every chain below 0.12 is dead in the play-out; the
   nearest live one sits at 0.13, the nearest in a game otherwise right at 0.2). The
   confidence is the share of playouts, by that mean, that agree with the status:
   ``(1 + m) / 2`` for alive, ``(1 - m) / 2`` for dead, so a chain whose fate the playouts
   leave open is reported near 0.5.
4. A seki check. Chains of both colours joined by shared liberties are in seki when every
   liberty of each of them is one the opponent cannot take (illegal, or self-atari that
   captures nothing) or all are shared with one opponent chain that has no other (without
   eyes, whoever fills one first is the first to be left in atari), each has two liberties or
   more, none touches an opponent chain in atari, whose capture would break the seki open
   (dead opponent chains in atari next to standing chains are taken first, as the play-out
   takes them, and the check judges the position after), and none can join through a
   liberty another chain of its colour that is not in the seki too; only chains the playouts
   leave standing (not dead by step 3 or 5) take part, as a dead chain's liberties are no seki's. A
   chain that passes all this but dies to a throw-in is dead, not in seki (a false seki, which
   the playouts miss as their policy never puts its own stones in atari): the opponent fills
   one of its liberties leaving three stones or fewer, or four in a square, a pyramid or a
   bent four in the corner, in atari, and once they are taken the chain has no liberty but
   the points taken, one eye the opponent kills from its middle (the bent four by a ko the
   chain cannot win; it takes the opponent's stones of that shape for its one chance, so
   they are dead too).

5. Reading, for the chains step 3 leaves alive but uncertain: a mean from `DEAD_BELOW` up to
   `READ_BELOW` (0.6). Where such a chain's fight is small (`_read_dead`: the points
   reachable from it through empty points and weak stones, bounded by chains pass-alive or
   at `READ_BELOW` or more and by empty points the playouts give one side `SETTLED_FROM` or
   more, hold `READ_POINTS` empty points or fewer), `scoring.reading` plays it out inside
   that region, the opponent free to fill the chain's liberties in its own area too; a chain
   captured even when its own side moves first is dead when the opponent is to move (moving
   second is no better), and with its own side to move unless an opponent chain in the same
   fight that neither encloses the other is captured moving first too (then whoever moves
   first wins, which the playouts weigh better). The chain's side may likewise play on the
   settled points of its own area next to the fight that touch an opponent stone in it (to
   fill that chain's outside liberties in a semeai). A chain whose every opponent chain next
   to it is read dead stands, whatever the playouts say: its captors are captured. Each
   reading stops after `READ_NODES` positions, and an estimate's readings together after
   `READ_TOTAL`, leaving the chain as the playouts judged it. This takes the groups the
   playouts keep because their policy misses the exact kill: a group in a corner too small
   for two eyes, a chain without eyes between two walls, a group whose one eye space holds
   opponent stones that, once taken, leave a killable shape, a group of chains joined by a
   false eye. A chain whose fight is too big to read is dead, with the opponent to move,
   when it is an invasion that has not lived: a few stones with no eye in a region of up to
   `INVADED_POINTS` empty points that only the opponent's stones and surely-owned points
   enclose (`_invaded`). With its own side to move, such an invasion is dead too when the
   playouts keep it in fewer than two thirds of them (a mean below `INVADER_KEPT_FROM`) and
   every opponent chain around it has a liberty outside it: the invader cannot take the
   walls, and the playouts, whose owner never answers the invader's moves, lean its way.

The same position, playouts and seed give the same estimate (the playouts are seeded).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from tengen.core.board import Board, Chain
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.core.game import Game
from tengen.scoring.benson import pass_alive
from tengen.scoring.reading import Budget, Fight

PLAYOUTS = 2000
DEAD_BELOW = 0.12
READ_BELOW = 0.6
READ_POINTS = 10
INVADED_POINTS = 25
INVADERS = 6
INVADER_KEPT_FROM = 0.33
READ_NODES = 24000
READ_TOTAL = 24000
SETTLED_FROM = 0.8


class Status(Enum):
    """A chain's fate at the end of the game."""

    ALIVE = "alive"
    DEAD = "dead"
    SEKI = "seki"


@dataclass(frozen=True)
class ChainEstimate:
    """One chain: its status, how sure the estimate is, and on what it rests.

    `ownership` is the mean playout ownership of its stones seen from its colour (+1: always
    its own); `certain` marks the statuses that Benson's algorithm proves, `read` the chains
    that reading found captured though the playouts left them alive (`invaded`: an invasion
    too big to read that cannot live, `_invaded`), `ko` the chains taken when the kos were
    settled.
    """

    color: Color
    stones: frozenset[Point]
    status: Status
    confidence: float
    ownership: float
    certain: bool
    read: bool = False
    ko: bool = False
    invaded: bool = False

    @property
    def reason(self) -> str:
        """A few words on why the chain got its status."""
        if self.ko:
            if self.status is Status.DEAD:
                return "taken in a ko the opponent wins"
            return "taken in a ko, but the chain that took it dies"
        if self.certain:
            return "pass-alive" if self.status is Status.ALIVE else "in pass-alive territory"
        if self.status is Status.SEKI:
            return "seki: neither side can approach"
        if self.invaded:
            return "a sealed invasion with no eye, unable to live"
        if self.read:
            return "captured even moving first, read out"
        return f"mean ownership {self.ownership:+.2f} over the playouts"


@dataclass(frozen=True)
class Estimate:
    """Every chain's estimate and the expected owner of every point.

    `ownership` is a (height, width) array from -1 (white) to +1 (black): the playouts' mean,
    set to the owner where Benson's algorithm settles the point.
    """

    chains: tuple[ChainEstimate, ...]
    ownership: np.ndarray
    playouts: int
    seed: int

    def chain_at(self, point: Point) -> ChainEstimate | None:
        """The estimate of the chain on `point`, or None if the point is empty."""
        return next((c for c in self.chains if point in c.stones), None)


def estimate(
    board_or_game: Board | Game,
    to_play: Color | None = None,
    *,
    playouts: int = PLAYOUTS,
    seed: int = 0,
    suicide_allowed: bool | None = None,
) -> Estimate:
    """Estimate the status of every chain (see the module docstring).

    `to_play` defaults to the game's player to move (Black for a bare board); `suicide_allowed`
    to the game's ruleset (False for a bare board). Raises ValueError if `playouts` < 2.
    """
    if playouts < 2:
        raise ValueError(f"playouts must be at least 2, not {playouts}")
    if isinstance(board_or_game, Game):
        board = board_or_game.board
        to_play = board_or_game.to_play if to_play is None else to_play
        if suicide_allowed is None:
            suicide_allowed = board_or_game.ruleset.suicide_allowed
    else:
        board = board_or_game
    to_play = Color.BLACK if to_play is None else to_play
    suicide = bool(suicide_allowed)

    settled, taken = _settle_kos(board, to_play)
    half = playouts // 2
    owner = (
        settled.ownership(to_play, half, 2 * seed) * half
        + settled.ownership(to_play.opponent, playouts - half, 2 * seed + 1) * (playouts - half)
    ) / playouts

    alive: set[Point] = set()
    dead: set[Point] = set()
    for color in Color:
        stones, safe = pass_alive(settled, color, suicide_allowed=suicide)
        alive |= stones
        dead |= {p for p in safe if settled[p] is color.opponent}
        sign = 1.0 if color is Color.BLACK else -1.0
        for p in stones | safe:
            owner[p.row, p.col] = sign

    settled_chains = settled.chains()
    means = {c.label: _mean(owner, c.color, c.stones) for c in settled_chains}
    read, invaded = _read_dead(settled, settled_chains, means, owner, alive, alive | dead, to_play)
    freed = _freed(settled, settled_chains, read, alive | dead)

    def standing(chain: Chain) -> bool:
        """Not settled by Benson, and not dead by the playouts or by reading."""
        return (
            chain.stones.isdisjoint(alive | dead)
            and (means[chain.label] >= DEAD_BELOW or chain.label in freed)
            and chain.label not in read
        )

    kept = {p for c in settled_chains if standing(c) for p in c.stones}
    closed, takers = _take_dead_in_atari(settled, settled_chains, kept)
    seki_labels, killed_labels = _seki_chains(
        closed, [c for c in closed.chains() if c.stones & kept and c.stones <= kept | takers]
    )
    seki = {p for c in closed.chains() if c.label in seki_labels for p in c.stones}
    killed = {p for c in closed.chains() if c.label in killed_labels for p in c.stones}
    label_at = {p: c.label for c in settled_chains for p in c.stones}

    def beaten(mean: float, label: str, stones: frozenset[Point]) -> bool:
        """Dead by the playouts (unless freed), by reading, or in a false seki."""
        return (
            (mean < DEAD_BELOW and label not in freed)
            or label in read
            or not stones.isdisjoint(killed)
        )

    fallen = {  # settled chains judged dead: a ko they took is not won in the end
        c.label
        for c in settled_chains
        if c.stones <= dead or beaten(means[c.label], c.label, c.stones)
    }
    result = []
    for chain in board.chains():
        m = _mean(owner, chain.color, chain.stones)
        stone = next(iter(chain.stones))
        label = label_at.get(stone, "")  # "": the point was taken and left empty
        if chain.stones <= taken:
            won = label not in fallen
            status = Status.DEAD if won else Status.ALIVE
            confidence = (1.0 - m) / 2 if won else (1.0 + m) / 2
            result.append(
                ChainEstimate(chain.color, chain.stones, status, confidence, m, False, ko=True)
            )
            continue
        certain = not chain.stones.isdisjoint(alive | dead)
        if certain:
            status = Status.DEAD if chain.stones <= dead else Status.ALIVE
            confidence = 1.0
        elif beaten(m, label, chain.stones):
            status, confidence = Status.DEAD, (1.0 - m) / 2
        else:
            in_seki = stone in seki
            status = Status.SEKI if in_seki else Status.ALIVE
            confidence = (1.0 + m) / 2
        result.append(
            ChainEstimate(
                chain.color,
                chain.stones,
                status,
                confidence,
                m,
                certain,
                label in read,
                invaded=label in invaded,
            )
        )
    return Estimate(tuple(result), owner, playouts, seed)


def _mean(owner: np.ndarray, color: Color, stones: frozenset[Point]) -> float:
    """The mean ownership of `stones` seen from `color` (+1: always its own)."""
    sign = 1.0 if color is Color.BLACK else -1.0
    return sign * float(np.mean([owner[p.row, p.col] for p in stones]))


def _read_dead(
    board: Board,
    chains: list[Chain],
    means: dict[str, float],
    owner: np.ndarray,
    pass_alive_stones: set[Point],
    certain: set[Point],
    to_play: Color,
) -> tuple[set[str], set[str]]:
    """Labels of the chains the playouts leave alive but uncertain that reading kills, and
    of those among them that are invasions too big to read (`_invaded`).

    A chain with a mean ownership from `DEAD_BELOW` up to `READ_BELOW` is read
    (`reading.Fight`) in its fight: the points reachable from it through
    empty points and stones of weak chains (neither pass-alive nor at `READ_BELOW` or more),
    leaving out the empty points the playouts give one side `SETTLED_FROM` or more, when they
    hold `READ_POINTS` empty points or fewer. The opponent may also play on the points next
    to the fight that the playouts give it so surely (the defender gains nothing running into
    them), and the defender on those given it so surely that touch an opponent stone in the
    fight (to fill that chain's outside liberties in a semeai). The chain is dead when it is
    captured even moving first, and either the opponent is to move (moving second is no
    better) or every opponent chain in the fight survives moving first (else the fight is one
    whoever moves first wins, which the playouts judge better), leaving aside an opponent
    chain that one of the two encloses: one may die after taking the other.
    """
    strong = {
        p
        for c in chains
        if means[c.label] >= READ_BELOW or not c.stones.isdisjoint(pass_alive_stones)
        for p in c.stones
    }
    strong |= {p for p in board.empty_points() if abs(owner[p.row, p.col]) >= SETTLED_FROM}
    read: set[str] = set()
    invaded: set[str] = set()
    budget = Budget(READ_TOTAL)
    fights: dict[tuple[frozenset[Point], Color], Fight] = {}
    for chain in chains:
        if not chain.stones.isdisjoint(certain) or not (
            DEAD_BELOW <= means[chain.label] < READ_BELOW
        ):
            continue
        region = _fight(board, chain.stones, strong)
        if region is None:
            moving = means[chain.label] if chain.color is to_play else None
            if _invaded(board, chain, strong, owner, moving):
                invaded.add(chain.label)
            continue
        if _captured(board, chain, region, owner, budget, fights) and (
            chain.color is not to_play
            or all(
                _captured(board, o, region, owner, budget, fights) is False
                for o in chains
                if o.color is not chain.color
                and o.stones <= region
                and not (_enclosed(board, o, chain) or _enclosed(board, chain, o))
            )
        ):
            read.add(chain.label)
    return read | invaded, invaded


def _invaded(
    board: Board, chain: Chain, strong: set[Point], owner: np.ndarray, moving: float | None
) -> bool:
    """Whether `chain` belongs to an invasion that cannot live: the points reachable from it
    through points not in `strong` hold `INVADED_POINTS` empty points or fewer, no opponent
    stone, `INVADERS` stones of its colour or fewer and no eye of theirs (an empty point with
    only their stones next to it), and every point around them is the opponent's: its
    stones, or empty points the playouts give it `SETTLED_FROM` or more. A fight too big to
    read where the playouts fail: their defender, never put in atari, keeps a few scattered
    stones in a sealed area as often as not (trevor_20 in the cross-check, whose four
    invaders GNU Go's play-out captures with Black to move, and keeps with White to move).

    `moving` is the chain's mean ownership when its own side is to move (None when the
    opponent is). Having the move saves an invasion that can take a wall short of outside
    liberties (most invaders that lived in the invasion stress set of docs/DEADSTONES.md took
    one), or that the playouts keep often: so it is dead then only when its mean is below
    `INVADER_KEPT_FROM` and every opponent chain next to its points has a liberty outside
    them (gnugo-13-g2-t4-s2 in the cross-check: three white stones that GNU Go, its play-out
    and Pachi all give to Black with White to move, kept by the playouts at 0.16-0.28)."""
    if moving is not None and moving >= INVADER_KEPT_FROM:
        return False
    region = _fight(board, chain.stones, strong, INVADED_POINTS)
    if region is None:
        return False
    own, opponent = chain.color, chain.color.opponent
    sign = 1.0 if opponent is Color.BLACK else -1.0
    if any(board[p] is opponent for p in region):
        return False
    if sum(1 for p in region if board[p] is own) > INVADERS:
        return False
    for p in region:
        near = [q for q in _neighbours(p) if board.on_board(q)]
        if board[p] is None and all(board[q] is own for q in near):
            return False  # an eye
        for q in near:
            if q in region:
                continue
            if board[q] is own or (board[q] is None and sign * owner[q.row, q.col] < SETTLED_FROM):
                return False
            if moving is not None and board[q] is opponent and board.liberties(q) <= region:
                return False  # a wall the invader, moving first, might take
    return True


def _freed(board: Board, chains: list[Chain], read: set[str], certain: set[Point]) -> set[str]:
    """Labels of the chains every opponent chain next to which reading found dead: their
    captors are captured, so they stand whatever the playouts say (a chain short of
    liberties in a semeai that the other side loses)."""
    label_at = {p: c.label for c in chains for p in c.stones}
    return {
        c.label
        for c in chains
        if c.label not in read
        and c.stones.isdisjoint(certain)
        and (around := {label_at[q] for q in _touching(board, c)})
        and around <= read
    }


def _captured(
    board: Board,
    chain: Chain,
    region: set[Point],
    owner: np.ndarray,
    budget: Budget,
    fights: dict[tuple[frozenset[Point], Color], Fight],
) -> bool | None:
    """`reading.Fight.captured_moving_first` for `chain` in `region`, where the opponent may
    also play on the empty points next to it that the playouts give the opponent surely, and
    the chain's side on those given it surely that touch an opponent stone in the region.
    `fights` keeps each fight (a region and a colour) for the next chain read in it."""
    key = (frozenset(region), chain.color)
    if key not in fights:
        sign = 1.0 if chain.color is Color.BLACK else -1.0
        around = {
            q
            for p in region
            for q in _neighbours(p)
            if board.on_board(q) and q not in region and board[q] is None
        }
        fringe = {q for q in around if -sign * owner[q.row, q.col] >= SETTLED_FROM}
        own = {
            q
            for q in around
            if sign * owner[q.row, q.col] >= SETTLED_FROM
            and any(r in region and board[r] is chain.color.opponent for r in _neighbours(q))
        }
        fights[key] = Fight(board, region, chain.color, fringe, own)
    return fights[key].captured_moving_first(next(iter(chain.stones)), budget, READ_NODES)


def _enclosed(board: Board, inner: Chain, outer: Chain) -> bool:
    """Whether every stone next to `inner` belongs to `outer`."""
    return all(
        board[q] is None or q in outer.stones
        for p in inner.stones
        for q in _neighbours(p)
        if board.on_board(q) and q not in inner.stones
    )


def _fight(
    board: Board, stones: frozenset[Point], strong: set[Point], most: int = READ_POINTS
) -> set[Point] | None:
    """The points reachable from `stones` through points not in `strong`, or None when they
    hold more than `most` empty points.

    A strong chain whose every liberty lies in the fight is part of it: its fate is the
    fight's (a lone stone the playouts keep because the group around it dies, inside that
    group's eye space, is captured if the group lives)."""
    seen, stack, empty = set(stones), list(stones), 0
    while stack:
        while stack:
            for q in _neighbours(stack.pop()):
                if q not in seen and q not in strong and board.on_board(q):
                    seen.add(q)
                    stack.append(q)
                    if board[q] is None:
                        empty += 1
                        if empty > most:
                            return None
        for q in {q for p in seen for q in _neighbours(p) if q in strong and q not in seen}:
            if board[q] is not None and q not in seen and board.liberties(q) <= seen:
                chain = board.chain(q)
                seen |= chain
                stack += chain
    return seen


def _settle_kos(board: Board, to_play: Color) -> tuple[Board, set[Point]]:
    """The position once every ko is settled, and the stones captured doing it.

    Players alternate from `to_play`: each takes a ko and connects (the opponent, with no ko
    threat, cannot take back), else fills the point where the opponent could take a ko,
    until neither has a ko left. A ko here is a lone stone in atari whose capture leaves the
    capturing stone's chain in atari on its point (the stone alone in a true ko; a snapback,
    where it joins a chain, counts too), and whose point the capturer can then fill
    keeping two liberties, joining chains there. Two kinds join none (`_ko`): a ko worth the
    stone alone, which the player to move takes (its opponent's are left to the playouts),
    and one whose capture would give liberties to the capturer's chains short of them,
    which is not taken but filled: the chain short of liberties does not live on a ko its
    opponent can close first. The player to move still takes such a ko when its chain,
    once connected, is in seki (`_seki_after`): that is what it lives by.
    """
    settled, taken = board.copy(), set[Point]()
    mover, idle = to_play, 0
    while idle < 2:  # every step adds a stone for good, so this ends
        ko = _ko(settled, mover, lone=mover is to_play)
        if ko is None and mover is to_play:
            short = _ko(settled, mover, short=True)
            if short is not None and _seki_after(settled, short, mover):
                ko = short
        if ko is not None:
            point, stone = ko
            settled.play(point, mover)
            settled.play(stone, mover)
            taken.add(stone)
            idle = 0
        elif (threat := _ko(settled, mover.opponent, short=True)) is not None and _safe_fill(
            settled, threat[0], mover
        ):
            settled.play(threat[0], mover)
            idle = 0
        else:
            idle += 1
        mover = mover.opponent
    return settled, taken


def _ko(
    board: Board, color: Color, *, lone: bool = False, short: bool = False
) -> tuple[Point, Point] | None:
    """A ko `color` can take: (where it plays, the lone stone it captures), or None.

    Its connection must join chains; or with `lone` it may join none when every chain of
    `color` next to the stone has `_LONE_KO_LIBERTIES` or more (a ko worth one stone, next to
    no chain that a fight there could endanger); with `short`, when one has fewer.
    """
    for chain in board.chains():
        if chain.color is color or len(chain.stones) != 1 or len(chain.liberties) != 1:
            continue
        point = next(iter(chain.liberties))
        if board.legality(point, color) is not None:
            continue
        trial = board.copy()
        record = trial.play_unchecked(point, color)
        stone = next(iter(chain.stones))
        if record.captured == 1 and trial.liberty_count(point) == 1:
            joined = {trial.chain(q) for q in _neighbours(stone) if trial.on_board(q)}
            near = [
                board.liberty_count(q)
                for q in _neighbours(stone)
                if board.on_board(q) and board[q] is color
            ]
            endangered = any(n < _LONE_KO_LIBERTIES for n in near)
            kind = len(joined) >= 3 or (short if endangered else lone)
            if kind and _safe_fill(trial, stone, color):
                return point, stone
    return None


def _seki_after(board: Board, ko: tuple[Point, Point], color: Color) -> bool:
    """Whether `color` taking the ko and connecting leaves its chain there in seki."""
    trial = board.copy()
    trial.play(ko[0], color)
    trial.play(ko[1], color)
    chains = trial.chains()
    chain = next(c for c in chains if ko[1] in c.stones)
    near = [o for o in chains if o.liberties & chain.liberties and o != chain]
    seki, _ = _seki_chains(trial, [chain, *near])
    return chain.label in seki


_LONE_KO_LIBERTIES = 3  # fewer: taking would give those chains liberties, so it is filled


def _safe_fill(board: Board, point: Point, color: Color) -> bool:
    """Whether `color` can play `point` leaving its chain there two liberties or more."""
    if board.legality(point, color) is not None:
        return False
    trial = board.copy()
    trial.play_unchecked(point, color)
    return trial.liberty_count(point) >= 2


def dead_stones(est: Estimate) -> set[Point]:
    """The stones of the chains estimated dead."""
    return {p for c in est.chains if c.status is Status.DEAD for p in c.stones}


def seki_stones(est: Estimate) -> set[Point]:
    """The stones of the chains estimated in seki."""
    return {p for c in est.chains if c.status is Status.SEKI for p in c.stones}


def _take_dead_in_atari(
    board: Board, chains: list[Chain], kept: set[Point]
) -> tuple[Board, set[Point]]:
    """The position once every dead chain in atari next to a standing chain (`kept`) of the
    other colour is taken, and the stones that took them.

    A dead stone in atari that touches a seki would otherwise keep the seki check from
    passing (an opponent chain in atari, whose capture could break the seki open). Taking
    it first is what the play-out does; the seki check then judges the position after."""
    after, takers = board.copy(), set[Point]()
    for chain in chains:
        stone = next(iter(chain.stones))
        if (
            chain.stones & kept
            or after[stone] is not chain.color
            or after.liberty_count(stone) != 1
            or not any(q in kept for q in _touching(after, chain))
        ):
            continue
        point = next(iter(after.liberties(stone)))
        if after.legality(point, chain.color.opponent) is None:
            after.play(point, chain.color.opponent)
            takers.add(point)
    return after, takers


def _seki_chains(board: Board, candidates: list[Chain]) -> tuple[set[str], set[str]]:
    """Labels of the candidate chains in seki, and of those in a false seki (dead).

    A chain in seki has two liberties or more, none of which the opponent can take (illegal,
    or self-atari capturing nothing) or the very liberties of an opponent chain, no opponent
    chain next to it in atari (taking it would give liberties to break the seki), and shares a
    liberty with an opponent chain that is itself in seki by the same test; one that would
    pass but dies to a throw-in (`_nakade_throw_in`) is in a false seki, and so are the
    opponent's stones it must take on the way (a bent four in the corner)."""
    closed = {
        c.label: c
        for c in candidates
        if len(c.liberties) >= 2
        and (
            all(_unplayable(board, p, c.color.opponent) for p in c.liberties)
            or any(o.color is not c.color and o.liberties == c.liberties for o in candidates)
        )
        and all(board.liberty_count(q) >= 2 for q in _touching(board, c))
    }
    killed: set[str] = set()
    taken: set[Point] = set()
    for label, c in closed.items():
        kill = _nakade_throw_in(board, c)
        if kill is not None:
            killed.add(label)
            taken |= kill
    killed |= {c.label for c in candidates if c.stones & taken}
    closed = {label: c for label, c in closed.items() if label not in killed}
    # A chain that can join another of its colour through a liberty is not closed unless that
    # one is too: joined, it may have liberties the opponent can fill, and a move that was
    # self-atari (all that kept an opponent chain standing) may no longer be.
    while True:
        owner = {p: label for label, c in closed.items() for p in c.stones}
        leaky = {
            label
            for label, chain in closed.items()
            for lib in chain.liberties
            for q in _neighbours(lib)
            if board.on_board(q) and board[q] is chain.color and owner.get(q) is None
        }
        if not leaky:
            break
        closed = {label: c for label, c in closed.items() if label not in leaky}
    seki: set[str] = set()
    for label, chain in closed.items():
        if any(
            other.color is not chain.color and other.liberties & chain.liberties
            for other in closed.values()
        ):
            seki.add(label)
    return seki, killed


def _nakade_throw_in(board: Board, chain: Chain) -> frozenset[Point] | None:
    """Whether the opponent kills `chain` by filling its liberties: each fill but the last
    leaves the filling stones with two liberties or more and `chain` too (so `chain` has no
    capture to answer with, and filling one of its own liberties only helps the filler),
    and the last leaves a chain in atari whose shape makes a killable eye (`_one_killable_eye`).
    Once `chain` takes them it has no liberty but the points taken, which join it to no other
    chain of its colour: one eye, the opponent to move (a false seki: it plays the eye's
    vital point). Three shared liberties around one stone make such a shape: two fills, then
    the throw-in; so do two shared liberties beside a pyramid of four. None if not; else the
    opponent's stones `chain` takes on the way: those of a bent four in the corner, which it
    must take for its one chance, a ko (a dead shape's it need not take)."""
    return _fills_to_kill(board, next(iter(chain.stones)), chain.color, _MOST_FILLS)


_MOST_FILLS = 2  # fills before the throw-in: enough for three shared liberties, and bounded


def _one_killable_eye(board: Board, points: frozenset[Point]) -> bool:
    """Whether an eye of exactly `points` dies with the opponent to move: three points or
    fewer, or four in a square or a pyramid (one point beside the three others, its vital
    point), or a bent four in the corner (a ko the defender cannot win with no threat left).
    A straight or bent four elsewhere makes two eyes whoever moves first."""
    if len(points) <= 3:
        return True
    if len(points) != 4:
        return False
    cols = {p.col for p in points}
    rows = {p.row for p in points}
    square = len(cols) == 2 and len(rows) == 2
    pyramid = any(sum(q in points for q in _neighbours(p)) == 3 for p in points)
    return square or pyramid or _bent_four_in_the_corner(board, points)


def _bent_four_in_the_corner(board: Board, points: frozenset[Point]) -> bool:
    """Whether four connected `points` hold a corner of the board and both points beside it,
    and are no square: the fourth goes on along an edge."""
    cols = {p.col for p in points}
    rows = {p.row for p in points}
    if len(points) != 4 or (len(cols) == 2 and len(rows) == 2):
        return False
    return any(
        sum(board.on_board(q) for q in _neighbours(p)) == 2
        and all(q in points for q in _neighbours(p) if board.on_board(q))
        for p in points
    )


def _fills_to_kill(board: Board, stone: Point, color: Color, fills: int) -> frozenset[Point] | None:
    """`_nakade_throw_in` for the chain of `color` at `stone` on `board`, with at most
    `fills` fills before the throw-in."""
    attacker = color.opponent
    stones = board.chain(stone)
    for point in board.liberties(stone):
        if board.legality(point, attacker) is not None:
            continue
        trial = board.copy()
        if trial.play_unchecked(point, attacker).captured:
            continue
        inside, outside = trial.chain(point), trial.liberties(point)
        if not _one_killable_eye(trial, inside):
            continue
        if len(outside) >= 2:
            if fills and trial.liberty_count(stone) >= 2:
                kill = _fills_to_kill(trial, stone, color, fills - 1)
                if kill is not None:
                    return kill
            continue
        last = next(iter(outside))
        if trial.legality(last, color) is not None:
            continue
        trial.play_unchecked(last, color)
        taker = trial.chain(last)
        joins = {
            q for p in inside for q in _neighbours(p) if trial.on_board(q) and trial[q] is color
        }
        if stones <= taker and joins <= taker and trial.liberties(last) <= inside:
            return inside if _bent_four_in_the_corner(trial, inside) else frozenset()
    return None


def _touching(board: Board, chain: Chain) -> set[Point]:
    """The opponent stones next to `chain`."""
    return {
        q
        for p in chain.stones
        for q in _neighbours(p)
        if board.on_board(q) and board[q] is chain.color.opponent
    }


def _neighbours(p: Point) -> tuple[Point, ...]:
    """The four points next to `p`, on the board or not."""
    return (
        Point(p.col - 1, p.row),
        Point(p.col + 1, p.row),
        Point(p.col, p.row - 1),
        Point(p.col, p.row + 1),
    )


def _unplayable(board: Board, point: Point, color: Color) -> bool:
    """Whether `color` cannot play `point` but to put itself in atari without capturing."""
    if board.legality(point, color) is not None:
        return True
    trial = board.copy()
    record = trial.play_unchecked(point, color)
    return record.captured == 0 and trial.liberty_count(point) == 1
