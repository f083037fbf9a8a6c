"""Every command refuses bad input with one line: ``error: ...`` on stderr, exit code 2.

A table of (command line, words the message must contain), driven through the
real entry point (:func:`analysis.cli.run`) in this process, so a hundred cases
cost seconds. A new command joins this table (README, contributor notes).

``{tmp}`` in an argument is a folder of prepared bad files (see ``bad_files``).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from analysis.cli import run

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "examples" / "hand_example_C.json"
HISTORY = ROOT / "examples" / "hand_history_example_C.jsonl"

# (arguments, words the one line must contain (case-insensitive))
CASES: list[tuple[str, ...]] = [
    # --- the program and its groups
    ("nosuch", "no such command"),
    ("--nosuch", "no such option"),
    ("table nosuch", "no such command"),
    ("study nosuch", "no such command"),
    ("game nosuch", "no such command"),
    ("brag nosuch", "no such command"),
    ("bluffjack nosuch", "no such command"),
    # --- eval / categories
    ("eval", "missing argument"),
    ("eval As", "5, 6 or 7 cards", "got 1"),
    ("eval As Ah Kd", "not in the dilemma deck"),
    ("eval As As 2c 3d 4h", "duplicate", "As"),
    ("eval Zz 2c 3d 4h 5s", "Zz"),
    ("eval As 2c 3d 4h 5s 6h 7c 8d", "5, 6 or 7 cards", "got 8"),
    ("eval --game nosuch As 2c 3d 4h 5s", "nosuch"),
    ("categories --cards 4", "--cards"),
    ("categories --cards 8", "--cards"),
    ("categories --format xml", "--format"),
    ("categories --game poker", "poker"),
    # --- equity
    ("equity", "missing argument"),
    ("equity AA", "at least 2 players"),
    ("equity 'As Ah 9c' random", "3 cards", "two cards"),
    ("equity As random", "1 card", "two cards"),
    ("equity AA -10%(AA)", "-10%(AA)", "'--'"),
    ("equity AA -- -10%(AA)", "-10%"),
    ("equity AA 150%(A10o)", "weight"),
    ("equity AA 40%(77-99", "missing ')'"),
    ("equity AA A10o --board 'As 2c'", "board"),
    ("equity AA A10o --board 'Zz 2c 3d'", "Zz"),
    ("equity 'As Ah' 'As 2c'", "As"),
    ("equity AA A10o --trials 0", "--trials"),
    ("equity AA A10o --trials abc", "--trials"),
    ("equity AA A10o --trials 100000000000000000000", "1,000,000,000,000"),
    ("equity AA A10o --stderr 0", "standard-error", "positive"),
    ("equity AA A10o --stderr -1", "standard-error"),
    ("equity AA A10o --seed -1", "--seed"),
    ("equity AA A10o --threads 0", "--threads"),
    ("equity AA A10o --workers 0", "--workers"),
    ("equity AA A10o --format xml", "--format"),
    ("equity AA A10o --game chess", "chess"),
    ("equity AA " + " ".join(["random"] * 17), "players"),
    ("equity AA A10o --dead 'Zz'", "Zz"),
    ("equity AA A10o --vs-random -1", "--vs-random"),
    ("equity AA --vs-random 20", "players"),
    # --- table
    ("table starting-hands --opponents 0", "opponent"),
    ("table starting-hands --opponents 1-20", "opponent"),
    ("table starting-hands --opponents abc", "opponents", "abc"),
    ("table starting-hands --game chess", "chess"),
    ("table starting-hands --stderr 0", "standard-error"),
    ("table starting-hands --threads 0", "--threads"),
    ("table starting-hands --kickers low", "kickers='low' is not a reading"),
    ("table kickers --game chess", "chess"),
    ("settle examples/hand_example_C.json --rule kickers=low", "kickers", "all or top"),
    ("table starting-hands --out {tmp}/afile", "--out", "not a folder"),
    ("table starting-hands --out {tmp}/afile/sub", "--out", "is a file"),
    ("table starting-hands --out /proc/dilemma-x", "--out", "cannot create"),
    ("table streets --out {tmp}/afile", "--out", "not a folder"),
    ("table streets --nosuch", "no such option"),
    # --- study
    ("study spot", "--hand"),
    ("study spot --hand AA --pot 45", "multiple of $10"),
    ("study spot --hand AA --stack 15", "multiple of $10"),
    ("study spot --hand AA --stack -10", "stack"),
    ("study spot --hand AA --pot 4000", "pot $4000 is too large"),
    ("study spot --hand AA --pot 10", "blinds"),
    ("study spot --hand AA --stderr 0", "standard-error", "more than $0"),
    ("study spot --hand AA --trials 0", "--trials"),
    ("study spot --hand AA --opponents 0", "opponents"),
    ("study spot --hand AA --opponents 10", "opponents"),
    ("study spot --hand AA --opponents abc", "--opponents"),
    ("study spot --hand AA --street preflop", "flop, turn or river"),
    ("study spot --hand AA --board 'As 2c'", "3, 4 or 5 cards"),
    ("study spot --hand AA --board 'As 2c 3d' --street turn", "turn board has 4 cards"),
    ("study spot --hand ZZ", "ZZ"),
    ("study spot --hand 'As Ah' --board 'As 2c 3d'", "As"),
    ("study spot --hand AA --model nosuch", "nosuch"),
    ("study spot --hand AA --policy nosuch", "nosuch"),
    ("study spot --hand AA --buckets 1", "buckets"),
    ("study spot --hand AA --format xml", "--format"),
    ("study spot --hand AA --seed -1", "--seed"),
    ("study spot --hand AA --deck nosuch", "nosuch"),
    ("study spot --hand AA --exact --street flop", "exact enumeration"),
    ("study spot --hand AA --stack 0", "stack", "more than $0"),
    ("study spot --hand AA --pot 2000", "pot $2000 is too large", "nothing behind"),
    ("study spot --hand AA --bank 0,0,0", "bank 0/0/0 is empty", "game is over"),
    ("study spot --hand AA --bank 0/0/0", "game is over"),
    ("study spot --hand AA --bank 10,0,500", "cannot arise in play"),
    ("study spot --hand AA --bank 300,700", "three stacks"),
    ("study spot --hand AA --bank 305,700,500", "$10 units"),
    ("study spot --hand AA --opponents 2 --position 3", "position", "0 to 2"),
    ("study spot --hand AA --position button", "first, last"),
    ("study spot --hand AA --bank x", "bank 'x'"),
    ("study spot --hand AA --bank 0,700,500 --level 0", "level 0", "never go down"),
    ("study spot --hand AA --level 3", "--level", "0, 1 or 2"),
    ("study spot --hand AA --rule winners=nope", "winners", "any_pot"),
    ("study spot --hand AA --rule nosuch=1", "nosuch"),
    ("study spot --hand AA --rule winners", "name=value"),
    ("study spot --hand AA --rule blinds=10", "blinds"),
    ("study fold-vs-check --pots 45", "multiple of $10"),
    ("study fold-vs-check --pots abc", "--pots"),
    ("study fold-vs-check --opponents 0-3", "--opponents"),
    ("study fold-vs-check --position first,button", "first, last"),
    ("study fold-vs-check --more-opponents 12", "--more-opponents"),
    ("study fold-vs-check --streets preflop", "--streets"),
    ("study fold-vs-check --models nosuch", "nosuch"),
    ("study fold-vs-check --policy nosuch", "nosuch"),
    ("study fold-vs-check --buckets 500", "--buckets"),
    ("study fold-vs-check --stderr 0", "--stderr"),
    ("study fold-vs-check --hands ZZ --out {tmp}/fvc", "ZZ"),
    ("study fold-vs-check --out {tmp}/afile", "--out", "not a folder"),
    ("study fold-vs-check --out /proc/dilemma-x", "--out", "cannot create"),
    ("study fold-vs-check --bank 0,0,0", "game is over"),
    ("study fold-vs-check --rule nosuch=1", "nosuch"),
    ("study fold-vs-check --bank 0,0,500 --level 1", "never go down"),
    # --- deck
    ("deck --deck nosuch", "nosuch"),
    ("deck --deck {tmp}/invalid.toml", "invalid.toml"),
    ("deck --deck {tmp}/baddeck.toml", "baddeck.toml"),
    ("deck --deck {tmp}/missing.toml", "missing.toml"),
    # --- settle
    ("settle", "missing argument"),
    ("settle {tmp}/missing.json", "missing.json"),
    ("settle {tmp}/notjson.json", "notjson.json"),
    ("settle {tmp}/wrongshape.json", "wrongshape.json"),
    ("settle {tmp}", "directory"),
    ("settle {record} --format xml", "--format"),
    ("settle {record} --rule nosuch=1", "nosuch"),
    ("settle {record} --rule winners", "winners"),
    ("settle {record} --deck nosuch", "nosuch"),
    ("settle {history} --line 0", "--line"),
    ("settle {history} --line 999", "999"),
    # --- economy
    ("economy --deck nosuch", "nosuch"),
    ("economy --out {tmp}/afile", "--out", "not a folder"),
    ("economy --out /proc/dilemma-x", "--out", "cannot create"),
    ("economy --losers 0", "--losers"),
    # --- guide
    ("guide --only nosuch --out {tmp}/guide", "nosuch"),
    ("guide --out {tmp}/afile", "--out", "not a folder"),
    ("guide --deck nosuch --out {tmp}/guide", "nosuch"),
    ("guide --seed -1", "--seed"),
    ("guide --threads 0", "--threads"),
    # --- game
    ("game simulate", "--out"),
    ("game simulate --out {tmp}/g --strategies nosuch", "nosuch"),
    ("game simulate --out {tmp}/g --players 1", "players"),
    ("game simulate --out {tmp}/g --games 0", "--games"),
    ("game simulate --out {tmp}/g --structure nosuch", "nosuch"),
    # the rule options of RULES §1.2 and §2 (structure options, the odd big blind)
    ("game hands --out {tmp}/h.jsonl -g holdem --structure fl,limit=wide", "limit='wide'", "spread"),
    ("game hands --out {tmp}/h.jsonl -g holdem --structure fl,limit", "name=value"),
    ("game hands --out {tmp}/h.jsonl -g holdem --structure nl,raises_per_player=-1",
     "raises_per_player=-1", ">= 0"),
    ("game hands --out {tmp}/h.jsonl -g holdem --structure nl,short_all_in=sometimes",
     "short_all_in", "never"),
    ("game hands --out {tmp}/h.jsonl -g holdem --structure nl,nosuch=1", "unknown structure option"),
    ("game hands --out {tmp}/h.jsonl -g holdem --structure fl,short_cap=all", "short_cap", "table"),
    ("game simulate --out {tmp}/g -g holdem --big-blind 0", "big blind 0"),
    ("game hands --out {tmp}/h.jsonl --big-blind 5", "--big-blind", "holdem"),
    ("game simulate --out {tmp}/g --stack 15", "stack"),
    ("game simulate --out {tmp}/afile", "--out", "not a folder"),
    ("game tournament --out {tmp}/g --strategies abc", "2 to 10 players"),
    ("game hands --out {tmp}", "--out", "folder"),
    ("game hands --out {tmp}/h.jsonl --hands 0", "--hands"),
    ("game replay {tmp}/missing.jsonl", "missing.jsonl"),
    ("game replay {tmp}/notjson.json", "notjson.json"),
    # --- brag
    ("brag eval As Ah", "3 cards", "got 2"),
    ("brag eval As Ah Zz", "Zz"),
    ("brag eval As Ah Kd --rules nosuch", "nosuch"),
    ("brag equity 'As Ah Kd' --opponents 0", "opponents"),
    ("brag equity 'As Ah Kd' --stderr 0", "standard-error"),
    ("brag equity 'As Ah'", "3 cards", "got 2"),
    ("brag table --opponents 0", "opponents"),
    ("brag table --out {tmp}/afile", "--out", "not a folder"),
    ("brag blind --stakes abc", "--stakes"),
    ("brag blind --strategies nosuch", "first hero strategy must be 'open'"),
    # --- bluffjack
    ("bluffjack total", "missing argument"),
    ("bluffjack total Zz", "Zz"),
    ("bluffjack total As --rules nosuch", "nosuch"),
    ("bluffjack odds 'As 9c' --stand-on 40", "stand"),
    ("bluffjack odds 'Zz'", "Zz"),
    ("bluffjack table --out {tmp}/afile", "--out", "not a folder"),
    ("bluffjack hit-stand --opponents 0", "opponents"),
    ("bluffjack hit-stand --stderr 0", "standard-error"),
    ("bluffjack hands", "missing option", "--out"),
    ("bluffjack hands --out {tmp}/h.jsonl -s nosuch", "unknown bluffjack strategy", "nosuch"),
    ("bluffjack hands --out {tmp}/h.jsonl -s solid", "2-10 players", "--players"),
    ("bluffjack hands --out {tmp}/h.jsonl -n 11", "2-10 players", "11"),
    ("bluffjack hands --out {tmp}/h.jsonl --stakes limit=spread", "limit", "spread"),
    ("bluffjack hands --out {tmp}/h.jsonl --stakes bet=0", "bet", "at least 1"),
    ("bluffjack hands --out {tmp}/h.jsonl --stakes extra=1", "unknown stakes option", "extra"),
    ("bluffjack hands --out {tmp}/h.jsonl --rules charlie=2", "charlie must be 0"),
    ("bluffjack hands --out {tmp}/h.jsonl --hands 0", "--hands"),
    ("bluffjack replay {tmp}/nosuch.jsonl", "cannot read", "nosuch.jsonl"),
    ("bluffjack replay {tmp}/bj.jsonl", "line 1, action 1", "'check' by P2", "open with the minimum",
     "RULES §3"),
    ("bluffjack replay {tmp}/notjson.json", "not valid JSON"),
    ("bluffjack replay {tmp}/wrongshape.json", "table"),
    ("bluffjack games", "missing option", "--out"),
    ("bluffjack games --out {tmp}/g --stack 0", "--stack"),
    ("bluffjack games --out {tmp}/g --max-hands 0", "--max-hands"),
    ("bluffjack games --out {tmp}/afile", "--out", "not a folder"),
    ("bluffjack solve", "missing option", "--out"),
    ("bluffjack solve --out {tmp}/s --target 0", "--target", "positive"),
    ("bluffjack solve --out {tmp}/s --max-hits 2", "--max-hits"),
    ("bluffjack solve --out {tmp}/s --max-iterations 0", "--max-iterations"),
    ("bluffjack solve --out {tmp}/s --players 4", "--players"),
    ("bluffjack solve --out {tmp}/s --players 3 --max-raises 4", "max_raises above 3"),
    ("bluffjack solve --out {tmp}/s --players 3 --iterations 0", "--iterations"),
    ("bluffjack solve --out {tmp}/s --players 3 --deals -1", "--deals"),
    # --- solve
    ("solve", "missing argument"),
    ("solve chess", "chess"),
    ("solve kuhn --method nosuch", "nosuch"),
    ("solve kuhn --iterations 0", "--iterations"),
    ("solve kuhn --out {tmp}/afile", "--out", "not a folder"),
    ("solve dilemma --players 9", "players"),
    ("solve dilemma --street preflop", "street"),
    ("solve dilemma --buckets 0", "buckets"),
    ("solve dilemma --bank 0,0,0", "game is over"),
    ("solve dilemma --rule winners=nope", "winners"),
    ("solve dilemma --level 5", "--level"),
    ("solve kuhn --rule winners=any_pot", "--rule", "dilemma game"),
    ("solve preflop --method mccfr", "mccfr", "dcfr, cfr+"),
    ("solve preflop --boards 3", "boards", "at least 10"),
    ("solve preflop --boards 0", "boards", "got 0"),  # not read as the default 2000
    ("solve preflop --raise-cap 0", "max_raises", "got 0"),  # not read as the default 3
    ("solve preflop --check-every 0", "check_every", "got 0"),
    ("solve preflop --state {tmp}/s.npz", "--state", "preflop"),
    ("solve preflop --simultaneous", "--simultaneous", "preflop"),
    ("solve preflop --players 4", "--players 4", "three-handed (3)"),
    ("solve preflop --deals 3", "--deals", "--players 3"),  # heads-up deals every holding pair
    ("solve kuhn --postflop-edge {tmp}/edges20.csv", "--postflop-edge", "preflop game"),
    ("solve spot --postflop-edge {tmp}/edges20.csv", "--postflop-edge", "preflop game"),
    ("solve preflop --players 3 --boards 20 --postflop-edge {tmp}/edges20.csv", "holds levels 20", "60, 180, 540"),
    ("solve preflop --players 3 --boards 10 --deals 1", "misses all six cards", "more boards"),
    ("solve preflop --postflop-edge {tmp}/nosuch.csv", "edge table", "nosuch.csv"),
    ("solve preflop --postflop-edge {tmp}/wrongshape.json", "not a class-edge table"),
    ("solve preflop --players 3 --postflop-edge {tmp}/edgesnone.csv", "edgesnone.csv: no rows"),
    ("solve preflop --boards 20 --postflop-edge {tmp}/edges20.csv", "holds levels 20", "60, 180, 540"),
    ("solve preflop --boards 20 --postflop-edge {tmp}/edgesbank3.csv", "bank3-low state", "bank 300/700/500"),
    ("solve preflop --boards 20 --postflop-edge {tmp}/invalid.toml", "edge table"),
    ("solve preflop --players 3 --deals 0", "deals", "got 0"),
    ("solve preflop --players 3 --boards 3", "boards", "at least 10"),
    ("solve preflop --players 3 --method mccfr", "mccfr", "dcfr, cfr+"),
    ("solve preflop --rule kickers=top", "kickers"),
    ("solve preflop --deck holdem", "40-card deck"),
    ("solve kuhn --boards 10", "--boards", "preflop"),
    # --- brag and bluffjack (from tests/cli/test_cli_brag_bluffjack.py: there in a real process, one case each)
    ("brag equity 'As Ks'", 'a Brag hand has 3 cards; got 2'),
    ("brag equity 'As Ks Qs Js'", 'got 4'),
    ("brag equity 'As As Qs'", 'duplicate card'),
    ("brag equity 'As Ks Qs' --opponents 17", '1-16 opponents; got 17'),
    ("brag equity 'As Ks Qs' --opponents 0", '1-16 opponents; got 0'),
    ("brag equity 'As Ks Qs' --opponents two", "--opponents: cannot read 'two'"),
    ("brag equity 'As Ks Qs' --rules jokers", "unknown Brag rules 'jokers'"),
    ("brag equity 'As Ks Qs' --format xml", '--format must be table or json'),
    ("brag equity 'As Ks Qs' --opponents 2 --trials 5 --stderr 0.1", 'not both'),
    ('brag blind --stakes -1', 'stakes must be positive'),
    ('brag blind --strategies open,peek', "unknown hero strategy 'peek'"),
    ('brag blind --opponents 20', 'opponents must be 1-16'),
    ('brag table --opponents 0-3', '1-16 opponents; got 0'),
    ('bluffjack total As 1d', 'malformed card'),
    ("bluffjack odds 'As Kd' --seen Kd", 'both in the hand and seen'),
    ("bluffjack odds 'As Kd' --stand-on 25", '2-21'),
    ("bluffjack odds 'As Kd' --rules joker=1", "unknown Bluffjack rule option 'joker'"),
    ('bluffjack hit-stand --opponents 10', 'opponents must be 1-9'),
    ('bluffjack hit-stand --rules source,charlie=12', 'charlie must be 0'),
    ('bluffjack hit-stand --opp-stand-on 30', '2-21'),
    # --- solve spot (from tests/cli/test_cli_solve_spot.py: one case of each list there in a real process)
    ("solve spot --board Td9d6hQc2s --oop 'AA, KK, T9s, 76s, AKs' --ip 'QQ, JJ, AKs, 98s' --pot 200 --stack 900 --bets 50", 'bad bet size'),
    ("solve spot --board Td9d6hQc2s --oop 'AA, KK, T9s, 76s, AKs' --ip 'QQ, JJ, AKs, 98s' --pot 200 --stack 900 --format yaml", 'choose text or json'),
    ("solve spot --board Td9d6hQc2s --oop 'AA, KK, T9s, 76s, AKs' --ip 'QQ, JJ, AKs, 98s' --pot 200 --stack 900 --precision float16", 'choose float64 or float32'),
    ('solve kuhn --board Td9d6h', 'option of the spot game'),
    ("solve spot --board Td9d6hQc2s --oop 'AA, KK, T9s, 76s, AKs' --ip 'QQ, JJ, AKs, 98s' --pot 200 --stack 900 --players 3", 'give one range per player'),
    ("solve spot --board Td9d6hQc2s --oop 'AA, KK, T9s, 76s, AKs' --ip 'QQ, JJ, AKs, 98s' --pot 200 --stack 900 --lock ip=nobody", 'unknown opponent model'),
    ('solve kuhn --lock ip=threshold', 'option of the spot game'),
    ("solve spot --board Td9d6hQc2s --oop 'AA, KK, T9s, 76s, AKs' --ip 'QQ, JJ, AKs, 98s' --pot 200 --stack 900 --bank 300,700,500", 'option of the dilemma game'),
    ("solve spot --board Td9d6hQc2s --oop 'AA, KK, T9s, 76s, AKs' --ip 'QQ, JJ, AKs, 98s' --pot 200 --stack 900 --deck reference", 'need --game dilemma'),
    ("solve spot --board Td9d6hQc2s --oop 'AA, KK, T9s, 76s, AKs' --ip 'QQ, JJ, AKs, 98s' --pot 200 --stack 900 --game poker", 'choose holdem or dilemma'),
    ("solve spot --game dilemma --board 4s9h8h6c10s --oop 'AA, 99, 108s, 76s, 2s2h, As2c, 43s' --ip 'A10s, 88, 65s, 2h2d, 3c3d' --pot 40 --stack 980 --bets '100%, a' --raises a --bank 0,0,500 --level 1", 'blind level 1 cannot go with bank'),
    ("solve spot --game dilemma --board 4s9h8h6c10s --oop 'AA, 99, 108s, 76s, 2s2h, As2c, 43s' --ip 'A10s, 88, 65s, 2h2d, 3c3d' --pot 40 --stack 980 --bets '100%, a' --raises a --rule winners=everyone", 'is not an option'),
    ("solve spot --game dilemma --board 4s9h8h6c10s --oop 'AA, 99, 108s, 76s, 2s2h, As2c, 43s' --ip 'A10s, 88, 65s, 2h2d, 3c3d' --pot 40 --stack 980 --bets '100%, a' --raises a --rule kickers=top", 'compares every kicker'),
    ("solve spot --game dilemma --board 4s9h8h6c10s --oop 'AA, 99, 108s, 76s, 2s2h, As2c, 43s' --ip 'A10s, 88, 65s, 2h2d, 3c3d' --pot 40 --stack 980 --bets '100%, a' --raises a --pot 50", 'multiple of 20'),
    ('solve kuhn --game dilemma', 'option of the spot game'),
    # the spot file's [tree] and types, the place named (the issue 17 walkthrough's finds)
    ("solve spot --spot-file {tmp}/spot_tree_typo.toml", "spot_tree_typo.toml", "unknown key 'tree.raise'"),
    ("solve spot --spot-file {tmp}/spot_street_typo.toml", "unknown key 'tree.flop.bet'"),
    ("solve spot --spot-file {tmp}/spot_pot_text.toml", "spot_pot_text.toml", "pot = 'lots'", "whole number"),
    ("solve spot --board Td9d6hQc2s --oop AA --ip QQ --pot 200 --stack 900 --tree rivr.bets=50%", "'tree.rivr'"),
    ("solve spot --board Td9d6hQc2s --oop AA --ip QQ --pot 200 --stack 900 --tree raise_cap=two", "raise_cap", "whole number"),
    ("solve spot --board Td9d6hQc2s --oop AA --ip QQ --pot 200 --stack 900 --tree river.oop.bets=3y", "tree.river.oop", "bad bet size"),
    ("solve spot --board Td9d6hQc2s --oop AA --ip QQ --pot 200 --stack 900 --tree free_fold=maybe", "free_fold", "true or false"),
    ("solve spot --board Td9d6hQc2s --oop AA --ip QQ --pot 200 --stack 900 --tree flop", "--tree 'flop'", "KEY=VALUE"),
    ("solve spot --board Td9d6hZz --oop AA --ip QQ --pot 200 --stack 900", "board 'Td9d6hZz'", "'Zz'"),
    ("solve spot --board Td9d6hQc2s --oop xyz --ip QQ --pot 200 --stack 900", "range of oop 'xyz'"),
    ("solve spot --board Td9d6hQc2s --oop AA --ip QQ --pot 200 --stack 900 --nash-conv bogus", "--nash-conv 'bogus'"),
    ("solve spot --board Td9d6hQc2s --oop AA --ip QQ --pot 200 --stack 900 --state {tmp}/picture.png", "picture.png", "not a card-solver solution file"),
    ("solve spot --board Td9d6hQc2s --oop AA --ip QQ --pot 200 --stack 900 --range KK", "--range, once a player"),
    # --- equity (from tests/cli/test_cli_equity.py: one case there in a real process)
    ("equity 'As Ah' --vs-random 17", "at most 17 players"),
    ("equity 'As Ah' 'Kd Kc' --game holdem --board '2c 3c'", "0, 3, 4 or 5 cards"),
    ("equity 'As Ah' A2s --board '2s 3s 4s' --dead 'Ad Ac 2h 2d 2c'", "is empty"),
    ("equity 'As Ah' 'AA, 77x'", "'77x'"),
    ("equity 'As Ah' random --exact --trials 10", "choose one of"),
    # --- study spot (from tests/studies/test_fold_vs_check.py: one case there in a real process)
    ("study spot --hand 'As 10h' --pot 10", "smaller than the blinds"),
    ("study spot --hand 'As 10h' --opponents 12", "opponents must be 1 to 9"),
    ("study spot --hand 'As 10h' --model nobody", "unknown opponent model 'nobody'"),
    ("study spot --hand 'As 10h' --board 'Kd 2s 3s'", "'Kd' is not in the dilemma deck"),
    # --- game and settle (from tests/engine/test_games_and_inputs.py: one case there in a real process)
    ("settle {tmp}/illegal.jsonl --line 1", "illegal action 'bet to 10' by P2"),
    ("game simulate --out {tmp}/o --stack -10", "must not be negative"),
    ("game simulate --out {tmp}/o -s {tmp}/many.toml", "line 4, field 'rule[1].players'"),
]


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory) -> Path:
    """Files a careless or hostile user might pass."""
    tmp = tmp_path_factory.mktemp("bad")
    (tmp / "afile").write_text("a file, not a folder\n")
    (tmp / "notjson.json").write_text("this is not JSON\n")
    (tmp / "wrongshape.json").write_text(json.dumps({"a": 1}))
    (tmp / "invalid.toml").write_text("garbage = = 1\n")
    (tmp / "edges20.csv").write_text("level,player,hand,edge\n20,oop,AA,1.0\n20,ip,AA,1.0\n")
    (tmp / "edgesnone.csv").write_text("level,player,hand,edge\n")
    (tmp / "edgesnone.manifest.json").write_text('{"deck": "reference", "state": "start", "chips": 1000}')
    (tmp / "edges20.manifest.json").write_text('{"deck": "reference", "state": "start", "chips": 1000}')
    (tmp / "edgesbank3.csv").write_text("level,player,hand,edge\n20,oop,AA,1.0\n20,ip,AA,1.0\n")
    (tmp / "edgesbank3.manifest.json").write_text('{"deck": "reference", "state": "bank3-low", "chips": 1000}')
    (tmp / "baddeck.toml").write_text('[[cards]]\nname = "x"\n')
    spot = 'board = "Td9d6hQc2s"\noop = "AA"\nip = "QQ"\nstack = 900\n'
    (tmp / "spot_tree_typo.toml").write_text(spot + 'pot = 200\n[tree]\nraise = "3x"\n')
    (tmp / "spot_street_typo.toml").write_text(spot + 'pot = 200\n[tree.flop]\nbet = "33%"\n')
    (tmp / "spot_pot_text.toml").write_text(spot + 'pot = "lots"\n')
    (tmp / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    (tmp / "bj.jsonl").write_text(json.dumps({
        "table": {"seats": ["P1", "P2"], "stacks": [50, 50], "dealer": "P1"},
        "down": {"P1": "Kh", "P2": "5c"}, "up": {"P1": "6d", "P2": "9s"},
        "actions": [["initial", "P2", "check"]]}) + "\n")
    illegal = json.loads(HISTORY.read_text().splitlines()[0])  # a legal hand, one bet made too small
    illegal["actions"][12] = ["river", "P2", "bet", 10]
    (tmp / "illegal.jsonl").write_text(json.dumps(illegal) + "\n")
    (tmp / "many.toml").write_text('[policy]\nname = "s"\n[[rule]]\nplayers = "many"\ndo = { call = 1.0 }\n')
    return tmp


def _argv(line: str, tmp: Path) -> list[str]:
    import shlex

    text = line.format(tmp=tmp, record=RECORD, history=HISTORY)
    return shlex.split(text)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_and_exit_2(case, bad_files, capsys):
    line, *words = case
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning may leak beside the one line
        code = run(_argv(line, bad_files))
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2, f"exit {code}; stderr {err!r}; stdout {out[-300:]!r}"
    assert len(lines) == 1, f"{len(lines)} lines on stderr: {err!r}"
    assert lines[0].startswith("error: "), lines[0]
    assert "Traceback" not in err + out
    for word in words:
        assert word.lower() in lines[0].lower(), f"{word!r} not in {lines[0]!r}"


def test_the_table_is_large_and_covers_every_command():
    """At least 100 cases, and every registered command appears in the table."""
    from typer.main import get_command

    from analysis.cli import app

    assert len(CASES) >= 100
    group = get_command(app)
    names = []
    for name, command in group.commands.items():
        subs = getattr(command, "commands", None)
        names.extend(f"{name} {sub}" for sub in subs) if subs else names.append(name)
    lines = [c[0] for c in CASES]
    missing = [n for n in names if not any(line == n or line.startswith(n + " ") for line in lines)]
    assert not missing, f"commands without a bad-input case: {missing}"


def test_no_arguments_prints_help(capsys):
    assert run([]) == 0
    assert "Usage" in capsys.readouterr().out
