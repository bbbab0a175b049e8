"""Fuzz target `api`: the HTTP API driven from its own /openapi.json by schemathesis.

A real uvicorn server on 127.0.0.1 (`loopback`) serves a fresh app; schemathesis generates
requests for every operation, valid and invalid by the schema (positive and negative modes),
and each answer must pass its checks: no server error, a documented status, the documented
content type and, where the schema describes it, the documented body. Each generated case is
sent as generated and then, to get past the 404s of made-up ids, aimed at a live game (same
screen, two people, against the random player, Gomoku, an imported record), often with one of
its real seat tokens.
The harness keeps the built-in player and the analyses cheap (level 1, a few playouts), so
the time goes to requests rather than to searches.

    .venv/bin/python fuzz/fuzz_api.py --seconds 60 [--seed N]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from loopback import Loopback

TARGET = "api"
FAILURES = Path(__file__).parent / "failures" / TARGET
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
BATCH = 100  # examples per operation before moving on to the next
SEEDS: list[dict[str, Any]] = [
    {"size": 9},
    {"size": 9, "white": "remote"},
    {"size": 5, "white": "random"},
    {"size": 9, "handicap": 2, "handicap_type": "free"},
    {"game": "gomoku", "size": 9, "white": "remote"},
]
RECORD = b"(;GM[1]SZ[9]KM[6.5];B[ee];W[dc](;B[cc]C[main])(;B[gg]))"


class Pool:
    """Live games to aim requests at, with their seat tokens; refilled as games get deleted."""

    def __init__(self, url: str, rng: random.Random) -> None:
        self.url, self.rng = url, rng
        self.games: list[tuple[str, list[str]]] = []

    def refill(self) -> None:
        """Make one game of each kind (and an imported record) afresh."""
        made = []
        for options in SEEDS:
            data = requests.post(f"{self.url}/api/games", json=options, timeout=30).json()
            links = [link.rsplit("token=", 1)[1] for link in data["links"].values()]
            made.append((data["id"], [*data["tokens"].values(), *links]))
        data = requests.post(f"{self.url}/api/games/import", data=RECORD, timeout=30).json()
        made.append((data["id"], list(data["tokens"].values())))
        self.games = made

    def aim(self, case: Any) -> None:
        """Point most cases at a live game, many with one of its tokens."""
        if not self.games:
            self.refill()
        game, tokens = self.rng.choice(self.games)
        if "game_id" in (case.path_parameters or {}) and self.rng.random() < 0.85:
            case.path_parameters["game_id"] = game
            if self.rng.random() < 0.7:
                case.headers = {**(case.headers or {}), "X-Token": self.rng.choice(tokens)}
        body = case.body
        if isinstance(body, dict):
            if body.get("black") == "builtin" or body.get("white") == "builtin":
                body["level"] = 1  # 50 playouts a move
            if "playouts" in body or "seconds" in body or case.path.endswith(("analysis", "graph")):
                body.pop("seconds", None)
                body["playouts"] = 5


def run(seconds: float, seed: int) -> tuple[int, int]:
    """Fuzz for about `seconds`; the number of requests and of failures."""
    rng = random.Random(seed)
    counts = {"inputs": 0, "failures": 0}
    with tempfile.TemporaryDirectory() as tmp, Loopback(Path(tmp) / "fuzz.sqlite3", seed) as url:
        schema = schemathesis.openapi.from_url(f"{url}/openapi.json")
        operations = [result.ok() for result in schema.get_all_operations()]
        strategies = [
            (op, mode, op.as_strategy(generation_mode=mode))
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
            for op in operations
        ]
        pool = Pool(url, rng)
        session = requests.Session()
        end = time.monotonic() + seconds
        round_ = 0
        while time.monotonic() < end:
            round_ += 1
            if round_ % 3 == 0:
                pool.refill()
            for _, _, strategy in strategies:
                if time.monotonic() >= end:
                    break
                _batch(strategy, rng.randrange(2**32), pool, session, counts, end)
    return counts["inputs"], counts["failures"]


def _batch(
    strategy: Any,
    seed: int,
    pool: Pool,
    session: requests.Session,
    counts: dict[str, int],
    end: float,
) -> None:
    """Up to BATCH requests drawn from `strategy` (one operation's), each checked."""

    @settings(
        max_examples=BATCH,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @hypothesis_seed(seed)
    @given(case=strategy)
    def one(case: Any) -> None:
        """Send the case as generated, then aimed at a live game (the generation is the
        costly part; both requests are checked)."""
        for aimed in (False, True):
            if time.monotonic() >= end:
                return
            if aimed:
                pool.aim(case)
            counts["inputs"] += 1
            try:
                response = case.call(session=session, timeout=60)
                case.validate_response(response, checks=CHECKS)
            except Exception as err:  # a failed check, a dropped connection, a timeout
                counts["failures"] += 1
                _record(case, err, counts["failures"])

    with contextlib.suppress(Unsatisfiable):  # nothing to make invalid (no parameters)
        one()


def _record(case: Any, err: Exception, number: int) -> None:
    """Write the failing request (as curl) and what failed to fuzz/failures/api/."""
    FAILURES.mkdir(parents=True, exist_ok=True)
    try:
        curl = case.as_curl_command()
    except Exception:
        curl = json.dumps({"method": case.method, "path": case.path, "body": repr(case.body)})
    text = f"{curl}\n\n{type(err).__name__}: {err}\n"
    (FAILURES / f"{int(time.time())}-{number}.txt").write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Run, print the one summary line, and exit 1 if anything failed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    inputs, failures = run(args.seconds, seed)
    print(f"fuzz {TARGET}: {inputs} inputs, {failures} failures", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
