"""The card-level solver against postflop-solver on the same Texas Hold'em trees: each player's
expected value within 0.1% of the pot when both are solved to 0.1% of the pot.

Runs postflop-solver's ``spotbench`` (built outside the lab by
../shared/peers/postflop-solver/build.sh) from ``$SPOTBENCH`` or the default path;
skips with the reason when it is not built.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from analysis.solvers.card_level import CardSolver, CardSpot

PEER = Path(os.environ.get("SPOTBENCH", "/tmp/postflop-solver/target/release/examples/spotbench"))
OOP = "66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s"
IP = "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+"
TARGET = 0.1  # % of the pot, both solvers

pytestmark = pytest.mark.skipif(
    not PEER.exists(),
    reason=f"postflop-solver's spotbench is not built at {PEER} (set SPOTBENCH, or build it with "
           "../shared/peers/postflop-solver/build.sh)",
)


def _peer(flop: str, turn: str, river: str, bets: str, raises: str) -> dict:
    out = subprocess.run([str(PEER), flop, turn, river, OOP, IP, "200", "900", bets, raises, str(TARGET)],
                         capture_output=True, text=True, timeout=600, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("flop, turn, river, bets, raises", [
    ("Td9d6h", "Qc", "2s", "50%, a", "100%"),
    ("Td9d6h", "Qc", "2s", "33%, 75%", "2.5x"),
    ("Td9d6h", "Qc", "-", "50%, a", "100%"),
    # the flop (the peer's README ranges and tree): a few minutes for both solvers on 2 cores
    pytest.param("Td9d6h", "-", "-", "50%, a", "100%", marks=pytest.mark.long),
])
def test_expected_values_agree_with_postflop_solver(flop, turn, river, bets, raises):
    peer = _peer(flop, turn, river, bets, raises)
    board = flop + "".join(c for c in (turn, river) if c != "-")
    solver = CardSolver(CardSpot.holdem(board, OOP, IP, 200, 900, bets, raises))
    solver.run(target_pct=TARGET, max_iterations=3000)
    assert solver.exploitability_pct <= TARGET
    assert peer["exploitability_pct_pot"] <= TARGET
    ev = solver.expected_values()
    assert abs(ev[0] - peer["oop_ev"]) <= 0.001 * 200
    assert abs(ev[1] - peer["ip_ev"]) <= 0.001 * 200
    assert len(solver.spot.holdings(0)[0]) == peer["oop_combos"]
    assert len(solver.spot.holdings(1)[0]) == peer["ip_combos"]
