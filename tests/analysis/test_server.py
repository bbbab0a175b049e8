"""`tengen analysis` as a program: queries in, results out as KataGo's docs describe them
(every searched turn ends with exactly one final result; terminate answers queued turns with
``noResults``; errors and warnings carry the query's id), and the input's end finishes the
queued work."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

QUERY = {
    "id": "g",
    "moves": [["B", "E5"], ["W", "C3"], ["B", "G7"]],
    "rules": "chinese",
    "komi": 7,
    "boardXSize": 9,
    "boardYSize": 9,
}


def _start() -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tengen", "analysis", "--threads", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def _send(proc: subprocess.Popen[str], data: object) -> None:
    assert proc.stdin is not None
    proc.stdin.write((data if isinstance(data, str) else json.dumps(data)) + "\n")
    proc.stdin.flush()


def _read(proc: subprocess.Popen[str]) -> dict[str, Any]:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, "tengen analysis closed its output"
    result: dict[str, Any] = json.loads(line)
    return result


def test_every_turn_ends_once_and_the_end_of_input_finishes_the_queue() -> None:
    with _start() as proc:
        _send(proc, {**QUERY, "analyzeTurns": [3, 0, 2], "maxVisits": 40, "includeOwnership": True})
        _send(proc, {**QUERY, "id": "h", "maxVisits": 20, "priority": 5})
        assert proc.stdin is not None
        proc.stdin.close()
        assert proc.stdout is not None
        results = [json.loads(line) for line in proc.stdout]
        assert proc.wait(timeout=60) == 0
        final = [(r["id"], r["turnNumber"]) for r in results if not r["isDuringSearch"]]
        assert sorted(final) == [("g", 0), ("g", 2), ("g", 3), ("h", 3)]
        for r in results:
            assert r["rootInfo"]["visits"] >= 1 and r["moveInfos"][0]["order"] == 0
            assert r["rootInfo"]["currentPlayer"] == "BWBW"[r["turnNumber"]]
        assert all(len(r["ownership"]) == 81 for r in results if r["id"] == "g")


def test_terminate_stops_the_search_and_answers_queued_turns() -> None:
    with _start() as proc:
        query = {**QUERY, "analyzeTurns": [1, 2], "maxVisits": 10_000_000,
                 "reportDuringSearchEvery": 0.2}  # fmt: skip
        _send(proc, query)
        first = _read(proc)
        assert first["isDuringSearch"] and first["turnNumber"] == 1
        _send(proc, {"id": "t", "action": "terminate", "terminateId": "g"})
        seen: list[dict[str, Any]] = []
        while not any(_final(r, "g", 1) for r in seen):
            seen.append(_read(proc))
        ack = [r for r in seen if r.get("action") == "terminate"]
        assert ack == [{"id": "t", "action": "terminate", "terminateId": "g"}]
        dropped = [r for r in seen if r.get("noResults")]
        assert dropped == [{"id": "g", "isDuringSearch": False, "noResults": True, "turnNumber": 2}]
        stopped = [r for r in seen if r.get("turnNumber") == 1 and not r["isDuringSearch"]]
        assert stopped[0]["rootInfo"]["visits"] < 10_000_000
        # Still answering afterwards.
        _send(proc, {"id": "v", "action": "query_version"})
        assert _read(proc)["version"]
        assert proc.stdin is not None
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0


def test_bad_lines_get_errors_with_ids_and_the_server_goes_on() -> None:
    with _start() as proc:
        _send(proc, "{not json")
        assert "could not parse JSON" in _read(proc)["error"]
        _send(proc, {**QUERY, "moves": [["B", "E5"], ["W", "E5"]], "boardXSize": 99})
        bad = _read(proc)
        assert bad["id"] == "g" and bad["field"] == "boardXSize"
        _send(proc, {"id": "x", "action": "fly"})
        assert _read(proc) == {"error": "unknown action 'fly'", "field": "action", "id": "x"}
        _send(proc, {**QUERY, "id": "w", "maxVisits": 5, "colour": "blue"})
        assert _read(proc) == {
            "warning": "unknown field 'colour' ignored",
            "field": "colour",
            "id": "w",
        }
        assert _read(proc)["id"] == "w"
        _send(proc, "[1, 2]")
        assert _read(proc) == {"error": "a query must be a JSON object"}
        assert proc.stdin is not None
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0


def _final(result: dict[str, Any], ident: str, turn: int) -> bool:
    return (
        result.get("id") == ident
        and result.get("turnNumber") == turn
        and (not result.get("isDuringSearch"))
    )
