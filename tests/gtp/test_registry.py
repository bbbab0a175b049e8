"""The GTP command table comes from the handlers' marks: none is missed, none claimed twice."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tengen.gtp.engine import GtpEngine
from tengen.gtp.registry import command, table


def test_every_handler_method_is_a_listed_command() -> None:
    handlers = {name for name in vars(GtpEngine) if name.startswith("cmd_")}
    assert {entry.method for entry in GtpEngine.TABLE.values()} == handlers
    assert set(GtpEngine.COMMANDS) | set(GtpEngine.ANALYSIS_COMMANDS) == set(GtpEngine.TABLE)
    assert not set(GtpEngine.COMMANDS) & set(GtpEngine.ANALYSIS_COMMANDS)


def test_two_handlers_for_one_name_are_refused() -> None:
    class Twice:
        @command("komi")
        def cmd_komi(self, args: Sequence[str]) -> str:
            return ""

        @command("komi")
        def cmd_komi_again(self, args: Sequence[str]) -> str:
            return ""

    with pytest.raises(ValueError, match="'komi' has two handlers"):
        table(Twice)


def test_a_subclass_handler_replaces_its_base_one() -> None:
    class Base:
        @command("name")
        def cmd_name(self, args: Sequence[str]) -> str:
            return "base"

        @command("version", analysis=True)
        def cmd_version(self, args: Sequence[str]) -> str:
            return "1"

    class Derived(Base):
        @command("name")
        def cmd_name(self, args: Sequence[str]) -> str:
            return "derived"

    entries = table(Derived)
    assert list(entries) == ["name", "version"]
    assert entries["version"].analysis and not entries["name"].analysis
