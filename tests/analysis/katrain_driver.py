"""Run by the KaTrain test under a Python that has KaTrain: KaTrain's own engine class
(`katrain.core.engine.KataGoEngine`, as its GUI uses it, without the GUI) pointed at the
command in argv[2], analysing the record in argv[1] as KaTrain's game analysis does. Prints
one JSON line per node: what KaTrain made of tengen's answers."""

import json
import os
import sys
import tempfile
import time

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp())

from katrain.core.engine import KataGoEngine
from katrain.core.game import KaTrainSGF


class Host:
    """What KaTrain's engine expects of the app: a log and a way to report errors."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def log(self, message: object, level: int = 0) -> None:
        if "rror" in str(message) or "xception" in str(message):
            self.errors.append(str(message))

    def __call__(self, *args: object) -> None:
        self.errors.append(" ".join(map(str, args)))


def main() -> None:
    record, command, visits = sys.argv[1], sys.argv[2], int(sys.argv[3])
    host = Host()
    config = {
        "backend": "custom",
        "altcommand": f"exec {command}",  # run through a shell: exec, so that it is killed
        "max_visits": visits,
        "fast_visits": visits,
        "max_time": 60.0,
        "wide_root_noise": 0.0,
        "_enable_ownership": True,
        "allow_recovery": False,
    }
    engine = KataGoEngine(host, config)
    root = KaTrainSGF.parse_file(record)
    nodes = [root]
    while nodes[-1].children:
        nodes.append(nodes[-1].children[0])
    for node in nodes:
        node.analyze(engine, visits=visits, report_every=None)
    deadline = time.time() + float(os.environ.get("KATRAIN_WAIT", "600"))
    while not all(n.analysis_complete for n in nodes) and time.time() < deadline:
        if host.errors:
            break
        time.sleep(0.1)
    engine.shutdown(finish=None)  # terminate, without joining reader threads
    for node in nodes:
        root_info = node.analysis["root"] or {}
        print(
            json.dumps(
                {
                    "move": node.move.gtp() if node.move else None,
                    "complete": node.analysis_complete,
                    "visits": root_info.get("visits"),
                    "score": node.score,
                    "winrate": root_info.get("winrate"),
                    "points_lost": node.points_lost,
                    "best": node.candidate_moves[0]["move"] if node.candidate_moves else None,
                    "ownership": len(node.ownership or []),
                    "policy": len(node.policy or []),
                }
            )
        )
    print(json.dumps({"errors": host.errors}))


main()
