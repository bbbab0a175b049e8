"""Writing a figure in the format its file suffix names."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from tengen.core import Game
from tengen.render import game_figure, render_svg, render_text, save


def test_save_picks_the_format_by_suffix(ko_game: Game, tmp_path: Path) -> None:
    fig = game_figure(ko_game, moves=(1, 17))
    save(fig, tmp_path / "a.svg")
    save(fig, tmp_path / "a.TXT")
    save(fig, tmp_path / "a.png")
    assert (tmp_path / "a.svg").read_text(encoding="utf-8") == render_svg(fig)
    assert (tmp_path / "a.TXT").read_text(encoding="utf-8") == render_text(fig)
    with Image.open(tmp_path / "a.png") as image:
        assert image.format == "PNG"
    with pytest.raises(ValueError, match="unknown diagram format"):
        save(fig, tmp_path / "a.pdf")
