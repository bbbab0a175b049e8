"""Every request body of the API, declared once as a pydantic model.

The models check types, ranges and lengths at the door (strictly: ``"9"`` is not a size, NaN
is not a komi) and are the source of the OpenAPI document (`openapi`); `parse` turns a raw body
into a model or a `BadRequest` naming the field. What needs the game (a legal move, a fitting
handicap) is the session's to judge.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    WithJsonSchema,
    model_validator,
)

from tengen.ai.levels import DEFAULT_LEVEL, MAX_LEVEL, MIN_LEVEL
from tengen.clock import TimeControl
from tengen.core.rules import PRESETS
from tengen.gomoku import Rule
from tengen.web.markup_view import KINDS, MAX_LABEL, PAIRS
from tengen.web.seats import COMPUTER, BadRequest

MAX_TITLE = 200  # characters of a game's title
MAX_ENGINE_NAME = 40  # characters of an analysis engine's name
MAX_COMMAND = 2000  # characters of an analysis engine's command line
MAX_PATH = 4096  # characters of a folder's path
MAX_INFO = 100  # characters of a game-info value (a name, an event, a date...)
MAX_COMMENT = 20_000  # characters of a comment: a long commentary, not a book
MAX_NAME = 255  # characters of an uploaded file's name
MAX_VERTEX = 8  # "pass", "T19", "AA52"...
MAX_SECONDS = 600.0  # of one analysis, or of each position of a graph
MAX_PLAYOUTS = 10_000_000
MAX_CLOCK_SECONDS = 24 * 3600  # of a clock's main time or period: a day
MAX_CLOCK_COUNT = 1000  # byo-yomi periods or Canadian stones

GOMOKU_RULES = tuple(r.value for r in Rule)
SEAT_KINDS = ("human", "remote", "builtin", "random", "engine")
GOMOKU_SEATS = ("human", "remote", "builtin", "engine")


def _one_of(names: tuple[str, ...], what: str) -> Callable[[str], str]:
    """A check that a name is one of `names`, refusing others with the list."""

    def check(name: str) -> str:
        if name not in names:
            raise ValueError(f"unknown {what} {name!r} (known: {', '.join(names)})")
        return name

    return check


def _names(names: tuple[str, ...]) -> WithJsonSchema:
    return WithJsonSchema({"type": "string", "enum": list(names)})


Ruleset = Annotated[str, AfterValidator(_one_of(tuple(PRESETS), "ruleset")), _names(tuple(PRESETS))]
GomokuRule = Annotated[
    str, AfterValidator(_one_of(GOMOKU_RULES, "Gomoku rule")), _names(GOMOKU_RULES)
]
Seat = Annotated[str, AfterValidator(_one_of(SEAT_KINDS, "opponent")), _names(SEAT_KINDS)]
Vertex = Annotated[str, Field(max_length=MAX_VERTEX, description="D4, or pass")]


def _time_control(text: str) -> str:
    """A clock's text form (`tengen.clock`), refused when unreadable, empty or too long."""
    control = TimeControl.parse(text)
    if control.main > MAX_CLOCK_SECONDS or control.period > MAX_CLOCK_SECONDS:
        raise ValueError(f"a clock's times must be at most {MAX_CLOCK_SECONDS} s")
    if control.periods > MAX_CLOCK_COUNT or control.stones > MAX_CLOCK_COUNT:
        raise ValueError(f"a clock's periods and stones must be at most {MAX_CLOCK_COUNT}")
    if control.system in ("absolute", "fischer") and control.main <= 0:
        raise ValueError(f"{control.system} time needs some main time")
    return str(control)


TimeText = Annotated[
    str,
    Field(
        max_length=64,
        description="absolute:600, byoyomi:600+5x30, canadian:600+25/300, fischer:300+10",
    ),
    AfterValidator(_time_control),
]


class Body(BaseModel):
    """A JSON object with exactly the declared fields, each of its declared JSON type."""

    model_config = ConfigDict(extra="forbid", strict=True)


class NewGame(Body):
    """The options of a new game, as the new-game form sends them (``game``: go or gomoku;
    ``rule`` is Gomoku's, ``ruleset``, ``komi``, the handicap and the built-in player's
    ``level`` Go's)."""

    game: Literal["go", "gomoku"] = "go"
    rule: GomokuRule = "freestyle"
    opening: Literal["none", "swap", "swap2"] = "none"
    size: int = Field(19, ge=2, le=25, description="19 for Go, 15 for Gomoku when not given")
    ruleset: Ruleset = "chinese"
    komi: float | None = Field(
        None, allow_inf_nan=False, multiple_of=0.5, description="the ruleset's if unset"
    )
    handicap: int = Field(0, ge=0, le=9)
    handicap_type: Literal["fixed", "free"] = "fixed"
    black: Seat = "human"
    white: Seat = "human"
    title: str = Field("", max_length=MAX_TITLE)
    level: int = Field(DEFAULT_LEVEL, ge=MIN_LEVEL, le=MAX_LEVEL)
    time: TimeText | None = None

    @model_validator(mode="before")
    @classmethod
    def _default_size(cls, data: Any) -> Any:
        """Gomoku's board is 15x15 unless another size is given."""
        if isinstance(data, dict) and "size" not in data and data.get("game") == "gomoku":
            return {**data, "size": 15}
        return data

    @model_validator(mode="after")
    def _fits(self) -> NewGame:
        """What one field cannot say alone: sizes and seats per game, komi within the board."""
        gomoku = self.game == "gomoku"
        if gomoku:
            if self.size < 5:
                raise ValueError(f"a Gomoku board size must be 5 to 25, not {self.size}")
            if self.handicap:
                raise ValueError("Gomoku has no handicap")
            if self.time:
                raise ValueError("clocks are for Go games")
        elif self.opening != "none":
            raise ValueError("swap openings are for Gomoku games")
        if self.handicap == 1:
            raise ValueError("handicap must be 0 or 2 to 9, not 1")
        points = self.size * self.size
        if self.komi is not None and abs(self.komi) > points:
            raise ValueError(f"komi must be within ±{points} on {self.size}x{self.size}")
        kinds = GOMOKU_SEATS if gomoku else SEAT_KINDS
        for seat in (self.black, self.white):
            if seat not in kinds:
                raise ValueError(f"unknown opponent {seat!r} (one of {', '.join(kinds)})")
        if self.black in COMPUTER and self.white in COMPUTER:
            raise ValueError("at least one seat must be a person")
        return self


class Empty(Body):
    """No options (an empty body or ``{}``)."""


class Move(Body):
    """A point to play or mark: ``{"vertex": "D4"}`` (``"pass"`` passes)."""

    vertex: Vertex


class Navigate(Body):
    """Where to go in review: exactly one of ``to``, ``move``, ``variation``, ``node``."""

    to: Literal["start", "end", "back", "forward", "next", "previous", "main"] | None = None
    move: int | None = Field(None, ge=0, le=10_000_000)
    variation: int | None = Field(None, ge=0, le=10_000_000)
    node: int | None = Field(None, ge=0, le=100_000_000)

    @model_validator(mode="after")
    def _one(self) -> Navigate:
        if len(self.model_dump(exclude_none=True)) != 1:
            raise ValueError('give one of "to", "move", "variation" or "node"')
        return self

    def target(self) -> dict[str, Any]:
        """The one target given, as the session reads it."""
        return self.model_dump(exclude_none=True)


def _info_text(text: str) -> str:
    """A game-info value: printable text on one line."""
    if not text.isprintable():
        raise ValueError(f"game info is printable text on one line, not {text!r}")
    return text.strip()


def _sgf_date(text: str) -> str:
    """FF[4]'s DT: ISO dates, with the shortcuts SGF allows after a comma (1996-05-06,07)."""
    if text and not _DATE.fullmatch(text):
        raise ValueError(f"a date is written YYYY-MM-DD (or YYYY-MM, YYYY), not {text!r}")
    return text


_DATE = re.compile(r"\d{4}(-\d\d){0,2}(,(\d{4}(-\d\d){0,2}|\d\d(-\d\d)?))*")
InfoText = Annotated[str, Field(max_length=MAX_INFO), AfterValidator(_info_text)]


class GameInfo(Body):
    """The record's game information to change (fields left out stay; "" removes one):
    players and ranks, event, date, komi, handicap, rules, result and the game's name."""

    black: InfoText | None = None
    white: InfoText | None = None
    black_rank: InfoText | None = None
    white_rank: InfoText | None = None
    event: InfoText | None = None
    date: Annotated[InfoText, AfterValidator(_sgf_date)] | None = None
    komi: float | None = Field(None, allow_inf_nan=False, ge=-1000, le=1000)
    handicap: int | None = Field(None, ge=0, le=361)
    rules: InfoText | None = None
    result: InfoText | None = None
    name: InfoText | None = None


class PlayFrom(Body):
    """A new game from the position shown: who takes each colour, and the built-in level."""

    black: Seat = "human"
    white: Seat = "builtin"
    level: int = Field(DEFAULT_LEVEL, ge=MIN_LEVEL, le=MAX_LEVEL)

    @model_validator(mode="after")
    def _a_person(self) -> PlayFrom:
        """At least one person plays."""
        if self.black in COMPUTER and self.white in COMPUTER:
            raise ValueError("at least one seat must be a person")
        return self


class Comment(Body):
    """The comment of the node shown ("" removes it)."""

    comment: str = Field(max_length=MAX_COMMENT)


class OpeningChoice(Body):
    """A swap opening's choice: take the other colour, keep Black, or place two more."""

    choice: Literal["swap", "keep", "two"]


class UndoAnswer(Body):
    """The other player's answer to an undo request (the asker's false withdraws it)."""

    accept: bool


def _label(text: str) -> str:
    """A label's text: something to show, and no control characters."""
    if not text.strip():
        raise ValueError("a label needs its text")
    if not text.isprintable():
        raise ValueError(f"a label is printable text, not {text!r}")
    return text


LabelText = Annotated[str, Field(min_length=1, max_length=MAX_LABEL), AfterValidator(_label)]


class Markup(Body):
    """One click of a markup tool on the node shown: ``{"kind": "TR", "vertex": "D4"}`` adds
    a triangle at D4 or removes it; ``LB`` takes the label's ``text``, ``AR`` and ``LN`` the
    point they go ``to``; ``DD`` dims or undims; ``erase`` removes every mark at the point."""

    kind: Annotated[str, AfterValidator(_one_of(KINDS, "markup")), _names(KINDS)]
    vertex: Vertex
    to: Vertex | None = None
    text: LabelText | None = None

    @model_validator(mode="after")
    def _fits(self) -> Markup:
        """`to` for arrows and lines only, and there always; `text` for labels only."""
        if (self.to is not None) != (self.kind in PAIRS):
            raise ValueError(
                f"{self.kind} needs a 'to' point"
                if self.to is None
                else f"only arrows and lines take a 'to' point, not {self.kind}"
            )
        if self.text is not None and self.kind != "LB":
            raise ValueError(f"only labels (LB) take a 'text', not {self.kind}")
        return self


class Mode(Body):
    """Switch between play and review."""

    mode: Literal["play", "review"]


class Analysis(Body):
    """A search budget: ``seconds``, ``playouts``, either or both (whichever ends first)."""

    seconds: float | None = Field(None, gt=0, le=MAX_SECONDS, allow_inf_nan=False)
    playouts: int | None = Field(None, ge=1, le=MAX_PLAYOUTS)
    engine: str = Field("builtin", min_length=1, max_length=MAX_ENGINE_NAME)


class Graph(Analysis):
    """A search budget for each position of the win-rate graph."""


class EngineSetting(Body):
    """An analysis engine set in the app: a name, its command line, and the folder it runs in
    (empty: the server's)."""

    name: str = Field(min_length=1, max_length=MAX_ENGINE_NAME)
    command: str = Field(min_length=1, max_length=MAX_COMMAND)
    cwd: str = Field("", max_length=MAX_PATH)


class Page(BaseModel):
    """A page of the game list: ``?limit=`` games from ``?offset=``, newest change first."""

    model_config = ConfigDict(extra="ignore")

    limit: int = Field(50, ge=1, le=500)
    offset: int = Field(0, ge=0, le=1_000_000_000)


class Labels(BaseModel):
    """The query of a diagram: ``?labels=1`` adds the chains' labels."""

    model_config = ConfigDict(extra="ignore")

    labels: Literal["0", "1"] = "0"


class Upload(BaseModel):
    """The query of an upload: ``?name=`` the file's name (its extension picks the format)."""

    model_config = ConfigDict(extra="ignore")

    name: str = Field("", max_length=MAX_NAME)


M = TypeVar("M", bound=BaseModel)


def parse(model: type[M], raw: bytes) -> M:
    """The body as a `model` (an empty body is ``{}``). Raises BadRequest naming the field."""
    try:
        return model.model_validate_json(raw if raw.strip() else b"{}")
    except ValidationError as err:
        raise BadRequest(_message(err)) from None


def parse_query(model: type[M], query: dict[str, str]) -> M:
    """Query parameters as a `model` (text read as numbers where declared). Raises BadRequest."""
    try:
        return model.model_validate(query)
    except ValidationError as err:
        raise BadRequest(_message(err)) from None


def _message(err: ValidationError) -> str:
    """The first fault, for a person: the field and what is wrong with it."""
    first = err.errors(include_url=False)[0]
    kind, loc, text = first["type"], first["loc"], first["msg"]
    field = ".".join(str(part) for part in loc)
    if kind == "json_invalid":
        return f"malformed JSON: {first['ctx'].get('error', text)}"
    if kind == "model_type" and not loc:
        return "the body must be a JSON object"
    if kind == "extra_forbidden":
        return f"unknown option {field!r}"
    if kind == "value_error":
        return str(first["ctx"]["error"])
    return f"{field!r}: {text}" if field else text
