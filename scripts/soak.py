"""Soak: many random hands, games and settlements through the fast kernels, each checked by
the readable referee (or pokerkit), with chips conserved everywhere. Not part of CI.

    python scripts/soak.py                 # the full soak (about an hour on 2 cores)
    python scripts/soak.py --scale 0.01    # 1% of every part, a few minutes
    python scripts/soak.py --processes 2 --seed 7 --json soak.json

Parts (full-scale counts):
- engine: 1,000,000 random hands (half Dilemma, half Texas: the source's and the casino
  no-limit, pot-limit and fixed limit, and the rule options of RULES §1.2 and §2) played by
  the numba kernel at random tables with random strategies, each one replayed action by
  action through the readable referee: same final stacks, chips (stacks + bank) conserved
  in every hand.
- pokerkit: 100,000 random Texas hands (casino no-limit, pot-limit and fixed limit, with
  pokerkit's short all-in rule ``short_all_in=consecutive``, RULES §1.2) played by our
  referee and pokerkit side by side, checked at every decision; every disagreement is a
  failure. The report counts the hands with two or more short all-ins in one round.
- games: 10,000 random whole Dilemma games (2-6 seats, random strategies), every hand of
  every game retraced: chips conserved after every hand, no negative stack or bank, blinds
  never down. (A game may end with chips left in the bank: a short payment ends it, RULES
  §1.8, and penalties paid after it in the same settlement refill the bank.)
- settlement: 1,000,000 random end states (2-7 players, any last round, folds, all-ins,
  every legal bank state of RULES §1.8 and blind level) on the reference, plain and two
  random stress decks, the numba core against the readable referee.

Exit code 0 only when every part has 0 failures.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import warnings
import zlib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FULL = {"engine": 1_000_000, "pokerkit": 100_000, "games": 10_000, "settlement": 1_000_000}
CHUNK = {"engine": 2_000, "pokerkit": 1_000, "games": 250, "settlement": 10_000}
DILEMMA_STRATEGIES = ["abc", "maniac", "tight-aggressive", "calling-station", "random",
                      "fold-free-multiway", "fold-free-always"]
TEXAS = ("nl", "pl", "fl", "nl-casino", "pl-casino", "fl-casino",
         "fl,limit=spread,short_cap=table", "fl,limit=per_round,raises_per_player=2",
         "nl,raises_per_player=0,max_raises=3,short_all_in=never",
         "pl-casino,short_all_in=consecutive", "nl-casino,short_all_in=reopens")


def _engine_chunk(seed: int, chunk: int, hands: int) -> dict:
    """``hands`` kernel hands (a few tables of 60), each replayed through the referee."""
    from analysis.engine import TableSetup, get_structure
    from analysis.engine._layout import X_N_ACTIONS
    from analysis.engine.history import history_from_log, replay
    from analysis.engine.simulate import play_hands

    rng = np.random.default_rng([seed, chunk])
    failures, done = [], 0
    while done < hands:
        n = int(rng.integers(2, 7))
        dilemma = chunk % 2 == 0
        if dilemma:
            stacks = tuple(int(rng.choice([30, 60, 200, 1000, 1500])) for _ in range(n))
            bank = tuple(int(x) for x in rng.choice([0, 40, 300, 700], 3))
            if bank[2] == 0:
                bank = (0, 0, 500)
            if bank[1] == 0:
                bank = (0, 0, bank[2])
            level = max(int(rng.integers(0, 3)), (bank[0] == 0) + (bank[1] == 0))
            setup = TableSetup(names=tuple(f"P{i + 1}" for i in range(n)), stacks=stacks,
                               dealer=0, bank=bank, blind_level=level)
            policies = [str(p) for p in rng.choice(DILEMMA_STRATEGIES, n)]
        else:
            structure = str(rng.choice(TEXAS))
            stacks = tuple(int(rng.integers(3, 250)) for _ in range(n))
            setup = TableSetup(names=tuple(f"P{i + 1}" for i in range(n)), stacks=stacks, dealer=0,
                               blinds=(1, 2), game="holdem", structure=get_structure(structure),
                               deck="holdem")
            policies = [str(p) for p in rng.choice(["random", "maniac", "abc"], n)]
        setup = setup.validate()
        count = min(60, hands - done)
        batch = play_hands(setup, policies, count, seed=int(rng.integers(1 << 31)), log=True)
        money = sum(setup.stacks) + (sum(setup.bank) if dilemma else 0)
        for h in range(count):
            hs = TableSetup(**{**setup.__dict__, "dealer": h % n}).validate()
            line = history_from_log(hs, batch.cards[h], batch.logs[h], int(batch.summary[h, X_N_ACTIONS]))
            try:
                _, result = replay(line, f"hand {h}", check_result=False)
                if list(result.stacks) != list(batch.stacks[h]):
                    raise AssertionError(f"stacks {list(result.stacks)} != kernel {list(batch.stacks[h])}")
                after = sum(result.stacks) + (sum(result.bank) if dilemma else 0)
                if after != money:
                    raise AssertionError(f"chips not conserved: {money} -> {after}")
            except Exception as exc:  # noqa: BLE001 - every disagreement is reported
                failures.append(f"{type(exc).__name__}: {exc} | {json.dumps(line)[:400]}")
        done += count
    return {"checked": done, "failures": failures}


def _short_all_ins(hand) -> int:
    """The most bets or raises short of a full raise (all-ins) in one round of the hand
    (the largest increment of the round measures a full raise, as in the casino presets)."""
    most = 0
    for street in range(4):
        to_before, increment, short = 0, 0, 0
        for s, action in hand.actions:
            if s != street or action.kind not in ("bet", "raise") or action.to is None:
                continue
            step = action.to - to_before
            if step < increment:
                short += 1
            increment = max(increment, step)
            to_before = max(to_before, action.to)
        most = max(most, short)
    return most


def _pokerkit_chunk(seed: int, chunk: int, hands: int) -> dict:
    from tests.engine.test_pokerkit_agreement import STRUCTURES, play_one

    structures = list(STRUCTURES)
    rng = random.Random(zlib.crc32(f"{seed}-{chunk}".encode()))
    failures, several = [], 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k in range(hands):
            seen: dict = {}
            structure = structures[k % len(structures)]
            try:
                play_one(rng, structure, seen)
            except AssertionError as exc:
                failures.append(f"{structure}: {exc}"[:600])
            if "hand" in seen and _short_all_ins(seen["hand"]) >= 2:
                several += 1
    return {"checked": hands, "failures": failures, "several_short_all_ins": several}


def _games_chunk(seed: int, chunk: int, games: int) -> dict:
    from analysis.engine import _batch as B
    from analysis.engine import games as G

    rng = np.random.default_rng([seed, chunk, 3])
    n = int(rng.integers(2, 7))
    strategies = tuple(str(s) for s in rng.choice(DILEMMA_STRATEGIES, n))
    config = G.GameConfig(strategies, seed=int(rng.integers(1 << 31)))
    policies, seat_idx = G._unique_policies(config.strategies)
    plan = G.GamesPlan(config, policies, np.array([seat_idx]), games)
    total = n * config.stack + 1500
    failures = []
    for g in range(games):
        trace = plan.trace(0, g)
        money = trace[:, :n].sum(axis=1) + trace[:, B.TR_BANK1:B.TR_BANK3 + 1].sum(axis=1)
        level = trace[:, B.TR_LEVEL]
        problems = []
        if (money != total).any():
            problems.append(f"chips not conserved at hand {int(np.argmax(money != total))}")
        if (trace[:, :n] < 0).any() or (trace[:, B.TR_BANK1:B.TR_BANK3 + 1] < 0).any():
            problems.append("a negative stack or bank")
        if (np.diff(level) < 0).any():
            problems.append("blinds went down")
        if problems:
            failures.append(f"{strategies} seed {config.seed} game {g}: {'; '.join(problems)}")
    return {"checked": games, "failures": failures}


def _settlement_chunk(seed: int, chunk: int, states: int) -> dict:
    from analysis.dilemma.settlement import Rules
    from tests.dilemma.test_settlement_properties import (
        DECKS,
        RULE_CHOICES,
        _seeded_state,
        assert_agree,
    )

    rng = np.random.default_rng([seed, chunk, 4])
    names = sorted(DECKS)
    failures = []
    for _ in range(states):
        state = _seeded_state(rng)
        deck = DECKS[names[int(rng.integers(len(names)))]]
        rules = Rules(**{k: str(rng.choice(v)) for k, v in RULE_CHOICES.items()})
        try:
            result = assert_agree(state, deck, rules)  # settled once, by both paths
            if sum(result.stacks) + sum(result.bank) != state.total_money:
                raise AssertionError("chips not conserved")
        except Exception as exc:  # noqa: BLE001 - every disagreement is reported
            failures.append(f"{deck.name} {rules}: {type(exc).__name__}: {str(exc)[:300]}")
    return {"checked": states, "failures": failures}


PARTS = {"engine": _engine_chunk, "pokerkit": _pokerkit_chunk, "games": _games_chunk,
         "settlement": _settlement_chunk}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", type=float, default=1.0, help="share of the full counts (default 1)")
    ap.add_argument("--parts", default=",".join(PARTS), help="comma-separated: " + ", ".join(PARTS))
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--json", type=Path, help="write the report here as JSON")
    args = ap.parse_args()
    report = {"seed": args.seed, "scale": args.scale, "parts": {}}
    ok = True
    with ProcessPoolExecutor(args.processes) as pool:
        for part in args.parts.split(","):
            total = max(1, round(FULL[part] * args.scale))
            sizes = [CHUNK[part]] * (total // CHUNK[part]) + ([total % CHUNK[part]] if total % CHUNK[part] else [])
            start = time.perf_counter()
            results = list(pool.map(PARTS[part], [args.seed] * len(sizes), range(len(sizes)), sizes))
            merged = {"checked": sum(r["checked"] for r in results),
                      "failures": [f for r in results for f in r["failures"]],
                      "seconds": round(time.perf_counter() - start, 1)}
            if part == "pokerkit":
                merged["several_short_all_ins"] = sum(r["several_short_all_ins"] for r in results)
            report["parts"][part] = {**merged, "failures": len(merged["failures"]),
                                     "first_failures": merged["failures"][:5]}
            ok &= not merged["failures"]
            extra = (f" ({merged['several_short_all_ins']:,} with two or more short all-ins in a round)"
                     if part == "pokerkit" else "")
            print(f"{part:<10} {merged['checked']:>9,} checked, {len(merged['failures'])} failures"
                  f"{extra}, {merged['seconds']} s", flush=True)
            for line in merged["failures"][:5]:
                print(f"    {line}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
