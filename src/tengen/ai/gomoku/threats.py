"""Threat-space search: wins by continuous fours (VCF) and by threes and fours (VCT).

Both search the attacker's threats only and play out the defence, compiled: the VCF in
`ai.gomoku.vcf` (each attacker move a four, the defender's one reply its five-point), the VCT
in `ai.gomoku.vct` (threes too, every defence tried). `ThreatSearch` gives them one budget.

A win found is a first move; the search gives up (None) past its node budget or deadline, so
"None" means "not found", never "none exists".
"""

from __future__ import annotations

import time

from tengen.ai.gomoku import vcf as compiled_vcf
from tengen.ai.gomoku import vct as compiled_vct
from tengen.ai.gomoku.position import Position
from tengen.ai.gomoku.vcf import NOT_FOUND
from tengen.core import jit

k_vcf = jit.live(compiled_vcf)  # interpreted until compiled (see `core.jit`)
k_vct = jit.live(compiled_vct)


class ThreatSearch:
    """VCF and VCT over `pos` within `nodes` nodes and `seconds` seconds."""

    def __init__(self, pos: Position, nodes: int, seconds: float) -> None:
        self.pos = pos
        self.limit = pos.nodes + nodes
        self.deadline = time.monotonic() + seconds

    def vcf(self, attacker: int, depth: int = 24) -> int | None:
        """A first move of a win by continuous fours for `attacker` (to move), or None."""
        found = int(k_vcf.vcf(self.pos.s, attacker, depth, self.limit, self.deadline))
        return found if found >= 0 else None

    def vct(self, attacker: int, depth: int = 8) -> int | None:
        """A first move of a win by threes and fours for `attacker` (to move) within `depth`
        threats, or None. It deepens one threat at a time: a search straight to `depth`
        spends its budget on long lines first and runs out before short wins. Of 100
        self-play positions where Rapfi saw a mate and there was no VCF, within the player's
        20,000 nodes it found 16 and straight at 8 threats 10; at 100,000 nodes 30 each."""
        for within in range(1, depth + 1):
            found = int(
                k_vct.root(
                    self.pos.s, compiled_vct.VCT, attacker, within, self.limit, self.deadline, 0
                )
            )
            if found != NOT_FOUND:
                return found if found >= 0 else None
        return None
