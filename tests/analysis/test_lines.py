"""Reading ``kata-analyze`` and ``lz-analyze`` reports: KataGo's documented lines, and the
lines `tengen gtp` writes (`tengen.gtp.analyze`) read back to what they were made from."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tengen.ai.analysis import Analysis, MoveInfo
from tengen.analysis.lines import BadReport, parse_report
from tengen.core.color import Color
from tengen.core.coords import Point
from tengen.gtp.analyze import AnalyzeRequest, kata_line, lz_line

# From KataGo's docs/GTP_Extensions.md (lz-analyze, then kata-analyze), on 19x19.
LZ_DOC = (
    "info move E4 visits 1178 winrate 4802 prior 2211 lcb 4781 order 0 pv E4 E3 F3 D3 "
    "info move P16 visits 1056 winrate 4796 prior 2206 lcb 4769 order 1 pv P16 P17 O17"
)
KATA_DOC = (
    "info move E4 visits 487 utility -0.0408357 winrate 0.480018 scoreMean -0.611848 "
    "scoreStdev 24.7058 scoreLead -0.611848 scoreSelfplay -0.515178 prior 0.221121 lcb "
    "0.477221 utilityLcb -0.0486664 order 0 pv E4 E3 F3 D3 F4 info move P16 visits 470 utility "
    "-0.0414945 winrate 0.479712 scoreMean -0.63075 scoreStdev 24.7179 scoreLead -0.63075 "
    "scoreSelfplay -0.5221 prior 0.220566 lcb 0.47657 utilityLcb -0.0502929 order 1 pv P16 P17"
)


def test_documented_lz_line() -> None:
    a = parse_report(LZ_DOC, Color.BLACK, 19, 19, kata=False)
    assert [m.move for m in a.moves] == [Point(4, 15), Point(14, 3)]  # P skips I: column 15
    assert a.moves[0].winrate == pytest.approx(0.4802) and a.moves[0].prior == pytest.approx(0.2211)
    assert a.moves[0].pv[:2] == (Point(4, 15), Point(4, 16)) and a.visits == 1178 + 1056


def test_documented_kata_line_with_root_and_ownership() -> None:
    own = " ".join(["0.25"] * 361)
    line = f"{KATA_DOC} rootInfo visits 1101 winrate 0.47 scoreLead -0.6 ownership {own}"
    a = parse_report(line, Color.WHITE, 19, 19, kata=True)
    assert a.visits == 1101 and a.winrate == pytest.approx(0.47) and a.score_lead == -0.6
    assert a.moves[0].score_lead == pytest.approx(-0.611848) and a.moves[1].visits == 470
    assert a.ownership == (-0.25,) * 361  # White to move: turned into Black's


@pytest.mark.parametrize(
    "line",
    [
        "move E4 visits 3",
        "info move E4 visits",
        "info visits 3 winrate 0.5",
        "info move Z99 visits 3 winrate 0.5 pv Z99",
        "info move E4 visits many winrate 0.5",
        "info move E4 visits 3 winrate nan",
        "info move E4 visits 3 winrate 0.5 pv E4 ownership 0.1 0.2",
    ],
)
def test_garbage_is_a_bad_report(line: str) -> None:
    with pytest.raises(BadReport):
        parse_report(line, Color.BLACK, 19, 19, kata=True)


points = st.one_of(st.none(), st.builds(Point, st.integers(0, 8), st.integers(0, 8)))
infos = st.builds(
    MoveInfo,
    move=points,
    visits=st.integers(1, 10_000),
    winrate=st.floats(0, 1),
    prior=st.floats(0, 1),
    pv=st.lists(points, min_size=1, max_size=6).map(tuple),
    score_lead=st.floats(-80, 80),
)


@given(infos=st.lists(infos, min_size=1, max_size=6), to_play=st.sampled_from(Color))
def test_tengen_gtp_lines_read_back(infos: list[MoveInfo], to_play: Color) -> None:
    infos = [MoveInfo(m.move, m.visits, m.winrate, m.prior, (m.move, *m.pv[1:]), m.score_lead)
             for m in sorted(infos, key=lambda m: -m.visits)]  # fmt: skip
    own = tuple((i % 5 - 2) / 2 for i in range(81))
    analysis = Analysis(to_play, 5000, 0.5, 1.0, tuple(infos), own, 9, 9)
    request = AnalyzeRequest(None, 1.0, ownership=True, root_info=True)
    kata = parse_report(kata_line(analysis, request), to_play, 9, 9, kata=True)
    assert [m.move for m in kata.moves] == [m.move for m in infos]
    assert [m.pv for m in kata.moves] == [m.pv for m in infos]
    for got, made in zip(kata.moves, infos, strict=True):
        assert got.winrate == pytest.approx(made.winrate, abs=1e-6)
        assert got.score_lead == pytest.approx(made.score_lead, abs=1e-3)
    assert kata.ownership == pytest.approx(own, abs=1e-4) and kata.visits == 5000
    lz = parse_report(lz_line(analysis, request), to_play, 9, 9, kata=False)
    assert [m.visits for m in lz.moves] == [m.visits for m in infos]
    assert [m.winrate for m in lz.moves] == pytest.approx([m.winrate for m in infos], abs=1e-4)
