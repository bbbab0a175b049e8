"""The scoring mode of a Go session: open the count, mark stones dead or alive, accept the
marking (the result goes to the record) or go back to play.

A mixin of `session.GameSession` on `go_base.GoSessionBase`: these are the requests' checks
(seat tokens, phase); the marking and the count are `scoring_view`'s.
"""

from __future__ import annotations

from typing import Any

from tengen.web import scoring_view
from tengen.web.go_base import GoSessionBase
from tengen.web.seats import BadRequest, Conflict


class ScoringMode(GoSessionBase):
    """The scoring actions of a Go session."""

    def score_start(self, token: str | None) -> None:
        """Open the scoring view now (play mode: also before two passes)."""
        with self.lock:
            self._require_any(token)
            if self.meta.dead is None:
                scoring_view.start(self)
                self.save()

    def score_toggle(self, vertex: Any, token: str | None) -> None:
        """Mark the chain at `vertex` dead or alive again. Raises Conflict outside scoring."""
        with self.lock:
            self._require_any(token)
            if self.meta.dead is None or self.phase() == "over":
                raise Conflict("the game is not being scored")
            point = self._parse_vertex(vertex)
            if point is None:
                raise BadRequest("click a stone to mark it dead or alive")
            scoring_view.toggle(self, point)
            self.save()

    def score_accept(self, token: str | None) -> None:
        """Accept the marking for the token's seats. In play mode every seat a person holds
        must accept it (a computer agrees, a change of the marking asks again); then, or at
        once in review, the counted result is written to the record (RE) and play is over."""
        with self.lock:
            held = self._require_any(token)
            if self.meta.dead is None:
                raise Conflict("the game is not being scored")
            result = scoring_view.view(self)["result"]
            if result is None:
                raise Conflict("the position cannot be counted with these dead stones")
            if self.mode == "play":
                scoring_view.accept(self, held)
                if scoring_view.waiting_for(self):
                    self.save()
                    return
            self.tree.root.set("RE", result)
            self.save()

    def score_cancel(self, token: str | None) -> None:
        """Leave the scoring view and go on playing (the last pass is taken back in play)."""
        with self.lock:
            self._require_any(token)
            if self.meta.dead is None:
                raise Conflict("the game is not being scored")
            self.meta.dead = None
            if self.mode == "play":
                self.tree.root.delete("RE")
                if self._passes_at_end():
                    self.cursor.delete_branch()
            self.save()
