"""Bad input is one clear ``LabError``, never a traceback: deck files, hand records, hand
histories and the evaluator's batch arrays (and, from the command line, one ``error:`` line
with exit code 2)."""

from __future__ import annotations

import copy
import json
import subprocess
import warnings
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from analysis.dilemma.decks import (
    MAX_DOLLARS,
    MAX_FACTOR,
    DeckError,
    builtin_path,
    load_deck,
    parse_deck,
)
from analysis.dilemma.settlement import (
    HandState,
    PlayerState,
    SettlementError,
    load_hand_record,
    settle,
    settle_fast,
)
from analysis.dilemma.settlement.state import MAX_CHIPS, bank_order_problem
from analysis.engine.errors import HistoryError
from analysis.engine.history import history_record
from evaluator import brag, evaluate, evaluate_batch
from evaluator.errors import CardError, LabError
from tests.conftest import ROOT
from tests.dilemma.test_settlement_properties import legal_bank

EXAMPLES = ROOT / "examples"
REFERENCE_TEXT = builtin_path("reference").read_text(encoding="utf-8")
RECORD_C = json.loads((EXAMPLES / "hand_example_C.json").read_text(encoding="utf-8"))
HISTORY_C = json.loads((EXAMPLES / "hand_history_example_C.jsonl").read_text().splitlines()[0])
HUGE = 10000000000000000000000


@pytest.fixture
def command(cli, capsys):
    """``command(*args, real=...)`` runs ``dilemma ARGS``: in a real process (the ``cli``
    fixture) where ``real``, else through the same entry point (:func:`analysis.cli.run`) in
    this process, warnings as errors, its exit code and output returned as a process's
    (a process costs about 1.5 s: one bad-input case per command stays one)."""
    from analysis.cli import run

    def go(*args: str, real: bool) -> subprocess.CompletedProcess:
        if real:
            return cli(*args)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            code = run(list(args))
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(list(args), code, out, err)

    return go


def one_error_line(result) -> str:
    """The CLI failed as a user should see it: exit 2, one ``error:`` line, no traceback."""
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


# ---------------------------------------------------------------- deck files


def deck_text(old: str, new: str) -> str:
    assert old in REFERENCE_TEXT
    return REFERENCE_TEXT.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "fragments"),
    [
        (
            'effect = "dividend", amount = 30',
            f'effect = "dividend", amount = {HUGE}',
            ["card As (line", "'amount'", f"0 to {MAX_DOLLARS} dollars", str(HUGE)],
        ),
        (
            "2d = { plus = 20,",
            f"2d = {{ plus = {HUGE},",
            ["card 2d (line", "'plus'", f"0 to {MAX_DOLLARS} dollars"],
        ),
        (
            "2d = { plus = 20, minus = 20 }",
            f"2d = {{ plus = 20, minus = {MAX_DOLLARS + 10} }}",
            ["card 2d", "'minus'", f"got {MAX_DOLLARS + 10}"],
        ),
        (
            'effect = "boom", amount = 2',
            f'effect = "boom", amount = {HUGE}',
            ["card 7s", "'amount'", f"factor 0 to {MAX_FACTOR}"],
        ),
        (
            'effect = "dividend", amount = 30',
            'effect = "dividend", amount = ' + "9" * 5000,
            ["not valid TOML", "too many digits"],
        ),
        ('effect = "insurance"', 'effect = "insurance", amount = 0.0', ["takes no amount"]),
    ],
)
def test_deck_numbers_out_of_range_are_refused(old, new, fragments):
    with pytest.raises(DeckError) as info:
        parse_deck(deck_text(old, new), "mine.toml")
    message = str(info.value)
    assert message.startswith("mine.toml") and "\n" not in message and len(message) < 300
    for fragment in fragments:
        assert fragment in message, message


def test_deck_amounts_up_to_the_maximum_are_accepted():
    text = deck_text('effect = "windfall", amount = 100', f'effect = "windfall", amount = {MAX_DOLLARS}')
    text = text.replace('effect = "bubble", amount = 3', f'effect = "bubble", amount = {MAX_FACTOR}')
    deck = parse_deck(text, "max.toml")
    assert sorted(int(a) for a in deck.amount)[-2:] == [MAX_FACTOR, MAX_DOLLARS]


def test_deck_file_with_a_byte_order_mark_loads_like_the_same_file_without(tmp_path):
    plain = tmp_path / "plain.toml"
    bom = tmp_path / "bom.toml"
    plain.write_bytes(REFERENCE_TEXT.encode("utf-8"))
    bom.write_bytes(b"\xef\xbb\xbf" + REFERENCE_TEXT.encode("utf-8"))
    a, b = load_deck(plain), load_deck(bom)
    assert (a.name, a.description, a.assumed, a.fingerprint) == (
        b.name, b.description, b.assumed, b.fingerprint)
    assert np.array_equal(a.kernel_args, b.kernel_args)
    assert b.fingerprint == load_deck("reference").fingerprint
    # the line numbers of errors are those of the file
    broken = deck_text("2d = { plus = 20,", "2d = { plus = 25,")
    bom.write_bytes(b"\xef\xbb\xbf" + broken.encode("utf-8"))
    with pytest.raises(DeckError, match=r"card 2d \(line 14\)"):
        load_deck(bom)


def test_deck_file_that_is_not_utf8_is_one_error(tmp_path):
    path = tmp_path / "latin1.toml"
    data = REFERENCE_TEXT.replace('name = "reference"', 'name = "référence"').encode("latin-1")
    path.write_bytes(data)
    with pytest.raises(DeckError) as info:
        load_deck(path)
    message = str(info.value)
    offset = data.index(b"\xe9")
    assert "latin1.toml" in message and "not UTF-8" in message
    assert f"byte offset {offset}" in message and "line 4" in message and "0xe9" in message


@pytest.mark.parametrize(
    ("content", "fragments", "real"),
    [
        (deck_text('amount = 30', f"amount = {HUGE}").encode(), ["card As", "0 to 10000 dollars"], False),
        (REFERENCE_TEXT.encode().replace(b"ASSUMED", b"ASS\xffUMED", 1), ["not UTF-8", "byte offset"], True),
    ],
)
def test_deck_command_reports_one_error_line(tmp_path, command, content, fragments, real):
    path = tmp_path / "bad.toml"
    path.write_bytes(content)
    line = one_error_line(command("deck", "--deck", str(path), real=real))
    for fragment in fragments:
        assert fragment in line


def test_deck_command_accepts_a_byte_order_mark(tmp_path, cli):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + REFERENCE_TEXT.encode())
    result = cli("deck", "--deck", str(path))
    assert result.returncode == 0, result.stderr
    assert "12 effect cards" in result.stdout


# ---------------------------------------------------------------- hand records


def write_record(tmp_path: Path, data, name: str = "hand.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def record(**change) -> dict:
    data = copy.deepcopy(RECORD_C)
    data.update(change)
    return data


def record_error(tmp_path: Path, data) -> str:
    with pytest.raises(SettlementError) as info:
        load_hand_record(write_record(tmp_path, data))
    message = str(info.value)
    assert message.startswith("hand.json: ") and "\n" not in message, message
    return message


def test_record_that_is_not_utf8_names_the_file_and_the_byte(tmp_path):
    raw = json.dumps(RECORD_C).encode().replace(b'"P2"', b'"P\xff2"', 1)
    path = tmp_path / "hand.json"
    path.write_bytes(raw)
    with pytest.raises(SettlementError) as info:
        load_hand_record(path)
    message = str(info.value)
    offset = raw.index(b"\xff")
    assert message.startswith("hand.json: not UTF-8 text")
    assert f"byte offset {offset}" in message and "line 1" in message


def test_record_with_a_byte_order_mark_loads(tmp_path):
    path = tmp_path / "hand.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(RECORD_C).encode())
    assert load_hand_record(path).state == load_hand_record(EXAMPLES / "hand_example_C.json").state


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[" * 200_000 + "]" * 200_000, "nested too deeply"),
        ('{"players": [' * 50_000 + "]}" * 50_000, "nested too deeply"),
        ('{"bank": [' + "9" * 5000 + ", 0, 0]}", "more than 4300 digits"),
        ("{not json", "not valid JSON"),
    ],
)
def test_record_json_that_python_cannot_read_is_one_error(tmp_path, text, fragment):
    path = tmp_path / "hand.json"
    path.write_text(text)
    with pytest.raises(SettlementError, match=fragment) as info:
        load_hand_record(path)
    assert str(info.value).startswith("hand.json: ")


@pytest.mark.parametrize(
    ("expected", "fragments"),
    [
        ({"bank": 5}, ["expected.bank", "three stacks [bank 1, bank 2, bank 3]", "got 5"]),
        ({"bank": [280, 700]}, ["expected.bank", "three stacks"]),
        ({"bank": [280, True, 500]}, ["expected.bank", "three stacks"]),
        ({"stacks": [980, 1170]}, ["expected.stacks", "player name -> dollars"]),
        ({"stacks": {"P1": "980"}}, ["expected.stacks.P1", "whole number of dollars", '"980"']),
        ({"stacks": {"P1": True}}, ["expected.stacks.P1", "whole number", "true"]),
        ({"stacks": {"P9": 980}}, ["expected.stacks.P9", "not a player", "P1, P2, P3, P4"]),
        ({"game_over": "no"}, ["expected.game_over", "true or false"]),
        ({"blind_level": True}, ["expected.blind_level", "0, 1 or 2"]),
        ({"blind_level": 3}, ["expected.blind_level", "0, 1 or 2"]),
        ({"bonus": 70}, ["expected.bonus", "unknown field"]),
        (5, ["expected", "an object like"]),
    ],
)
def test_record_expected_block_of_the_wrong_shape(tmp_path, expected, fragments):
    message = record_error(tmp_path, record(expected=expected))
    for fragment in fragments:
        assert fragment in message, message


def with_player(i: int, **change) -> dict:
    data = record()
    data["players"][i].update(change)
    data.pop("expected")
    return data


@pytest.mark.parametrize(
    ("data", "fragments"),
    [
        (record(blind_level=True), ["blind_level", "0, 1 or 2", "got true"]),
        (record(blind_level=1.0), ["blind_level", "0, 1 or 2"]),
        (record(blind_level="1"), ["blind_level", "0, 1 or 2"]),
        (record(bank=[300, True, 500]), ["bank[1]", "whole number of dollars"]),
        (record(bank=[300.0, 700, 500]), ["bank[0]", "whole number of dollars"]),
        (record(dealer=True), ["dealer", "seat index"]),
        (record(last_round=True), ["last_round", "a street"]),
        (with_player(0, stack=True), ["players[0] (P1).stack", "whole number of dollars"]),
        (with_player(0, **{"in": True}), ["players[0] (P1).in", "whole number of dollars"]),
        (with_player(0, stack=10**30), ["players[0] (P1).stack", f"at most {MAX_CHIPS}"]),
        (with_player(0, folded=True), ["players[0].folded", "a street"]),
        (with_player(1, hole=[True, 5]), ["players[1].hole", "card True"]),
        (with_player(1, conceded=1), ["players[1].conceded", "true or false"]),
    ],
)
def test_record_booleans_and_odd_numbers_in_integer_fields_are_refused(tmp_path, data, fragments):
    message = record_error(tmp_path, data)
    for fragment in fragments:
        assert fragment in message, message


def test_record_folded_zero_is_the_preflop_and_false_is_not_folded(tmp_path):
    data = with_player(0, folded=0)
    assert load_hand_record(write_record(tmp_path, data)).state.players[0].folded == 0
    data = with_player(1, folded=False)
    assert load_hand_record(write_record(tmp_path, data)).state.players[1].folded is None


@pytest.mark.parametrize(
    "bank", [(10, 0, 500), (300, 0, 0), (0, 700, 0), (10, 700, 0), (300, 0, 500)]
)
def test_bank_states_that_cannot_arise_in_play_are_refused(tmp_path, bank):
    data = record(bank=list(bank))
    data.pop("expected")
    message = record_error(tmp_path, data)
    assert f"bank {'/'.join(map(str, bank))}" in message and "RULES §1.8" in message
    assert "cannot arise in play" in message
    state = load_hand_record(EXAMPLES / "hand_example_C.json").state
    illegal = HandState(state.players, state.board, state.board_streets, state.last_round, bank)
    for path in (settle, settle_fast):  # the fast path validates at the Python boundary too
        with pytest.raises(SettlementError, match="RULES §1.8"):
            path(illegal, "plain")


@pytest.mark.parametrize(
    "bank", [(300, 700, 500), (0, 700, 500), (0, 0, 500), (0, 0, 0), (10, 1, 1), (0, 10, 10**6)]
)
def test_bank_states_that_arise_in_play_are_accepted(bank):
    assert bank_order_problem(bank) is None
    assert legal_bank(list(bank)) == bank  # the property tests' generator keeps legal banks


def test_property_generator_banks_are_always_legal():
    rng = np.random.default_rng(0)
    for _ in range(2000):
        bank = legal_bank([int(x) for x in rng.choice([0, 10, 300], 3)])
        assert bank_order_problem(bank) is None


def test_hand_state_refuses_bools_where_integers_are_expected():
    state = load_hand_record(EXAMPLES / "hand_example_C.json").state
    for change in ({"blind_level": True}, {"dealer": True}, {"last_round": True}):
        bad = HandState(**{**state.__dict__, **change})
        with pytest.raises(SettlementError):
            bad.validate()
    p0 = state.players[0]
    for player in (
        PlayerState(p0.name, p0.stack, p0.put_in, True, p0.hole),
        PlayerState(p0.name, p0.stack, p0.put_in, p0.folded, (True, 5)),
    ):
        bad = HandState(**{**state.__dict__, "players": (player, *state.players[1:])})
        with pytest.raises(SettlementError):
            bad.validate()


# ---------------------------------------------------------------- hand histories (.jsonl)


def write_history(tmp_path: Path, line, raw: bytes | None = None) -> Path:
    path = tmp_path / "hands.jsonl"
    path.write_bytes(raw if raw is not None else (json.dumps(line) + "\n").encode())
    return path


def history(**table_change) -> dict:
    data = copy.deepcopy(HISTORY_C)
    data["table"].update(table_change)
    return data


@pytest.mark.parametrize(
    ("data", "raw", "fragments"),
    [
        (history(bank=[10, 0, 500]), None, ["hands.jsonl line 1", "bank 10/0/500", "RULES §1.8"]),
        (history(bank=5), None, ["hands.jsonl line 1", "table.bank", "three stacks"]),
        (history(blind_level=True), None, ["hands.jsonl line 1", "blind_level", "0, 1 or 2"]),
        (history(blind_level="x"), None, ["hands.jsonl line 1", "blind_level"]),
        (history(blinds=20), None, ["hands.jsonl line 1", "table.blinds"]),
        (None, b"[" * 200_000 + b"]" * 200_000 + b"\n", ["hands.jsonl line 1", "nested too deeply"]),
        (None, json.dumps(HISTORY_C).encode().replace(b"P1", b"P\xc31", 1),
         ["hands.jsonl", "not UTF-8", "byte offset"]),
    ],
)
def test_history_line_errors(tmp_path, data, raw, fragments):
    path = write_history(tmp_path, data, raw)
    with pytest.raises(HistoryError) as info:
        history_record(path, 1)
    message = str(info.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, message


def test_history_result_of_the_wrong_shape(tmp_path):
    data = copy.deepcopy(HISTORY_C)
    data["result"]["bank"] = 5
    with pytest.raises(HistoryError, match=r"line 1: field 'result.bank': three stacks"):
        history_record(write_history(tmp_path, data), 1)


def test_history_with_a_byte_order_mark_settles(tmp_path):
    path = write_history(tmp_path, None, b"\xef\xbb\xbf" + json.dumps(HISTORY_C).encode() + b"\n")
    assert history_record(path, 1).expected["bank"] == [280, 700, 500]


# ---------------------------------------------------------------- the command line


@pytest.mark.parametrize(
    ("name", "content", "fragment", "real"),
    [
        ("utf.json", json.dumps(RECORD_C).encode().replace(b'"P1"', b'"P\xff1"', 1),
         "not UTF-8 text", False),
        # a real process: the nesting must be refused within a fresh interpreter's stack
        ("deep.json", b"[" * 200_000 + b"]" * 200_000, "nested too deeply", True),
        ("exp.json", json.dumps(record(expected={"bank": 5})).encode(), "expected.bank", False),
        ("level.json", json.dumps({k: v for k, v in record(blind_level=True).items()
                                   if k != "blinds"}).encode(), "blind_level", False),
        ("bank.json", json.dumps(record(bank=[10, 0, 500])).encode(), "RULES §1.8", False),
        ("hands.jsonl", json.dumps(history(bank=[10, 0, 500])).encode(), "RULES §1.8", False),
    ],
)
def test_settle_command_reports_one_error_line(tmp_path, command, name, content, fragment, real):
    path = tmp_path / name
    path.write_bytes(content)
    line = one_error_line(command("settle", str(path), real=real))
    assert name in line and fragment in line, line


# ---------------------------------------------------------------- evaluator batches

INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


@cache
def random_hands(n: int, k: int, n_cards: int = 40, seed: int = 4) -> np.ndarray:
    """``n`` random ``k``-card rows (uint8), dealt once per arguments: shared, so a test that
    changes a card does so in a copy (``astype`` or ``copy``)."""
    rng = np.random.default_rng(seed)
    return rng.permuted(np.tile(np.arange(n_cards, dtype=np.uint8), (n, 1)), axis=1)[:, :k]


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_evaluate_batch_takes_every_integer_dtype(dtype):
    for k in (7, 5):
        hands = random_hands(40_000, k)  # more than one parallel chunk
        want = evaluate_batch(hands)
        got = evaluate_batch(hands.astype(dtype))
        assert got.dtype == np.int32 and np.array_equal(got, want)
    assert np.array_equal(evaluate_batch(hands.astype(dtype), threads=False), want)
    assert np.array_equal(evaluate_batch(random_hands(2000, 7, 52).astype(dtype), "holdem"),
                          evaluate_batch(random_hands(2000, 7, 52), "holdem"))
    three = random_hands(5000, 3, 52)
    assert np.array_equal(brag.evaluate_batch(three.astype(dtype)), brag.evaluate_batch(three))


def test_evaluate_batch_takes_lists_strided_and_big_endian_arrays():
    hands = random_hands(3000, 7)
    want = evaluate_batch(hands)
    assert np.array_equal(evaluate_batch(np.array(hands.tolist())), want)  # int64
    assert np.array_equal(evaluate_batch(hands.astype(">i4")), want)
    wide = np.zeros((3000, 14), np.int64)
    wide[:, ::2] = hands
    assert np.array_equal(evaluate_batch(wide[:, ::2]), want)
    assert np.array_equal(evaluate_batch(np.asfortranarray(hands.astype(np.int32))), want)
    assert evaluate_batch(np.zeros((0, 7), np.int64)).shape == (0,)
    assert want[17] == evaluate(hands[17].tolist())


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_evaluate_batch_refuses_card_ids_off_the_deck_in_every_dtype(dtype):
    info = np.iinfo(dtype)
    candidates = (-1, info.min, 40, 63, 64, 255, 256, 296, 2**32 + 3, 2**63 + 5, info.max)
    valid = random_hands(50_000, 7).astype(dtype)  # dealt once, copied for each fault
    for value in sorted({v for v in candidates if info.min <= v <= info.max and not 0 <= v < 40}):
        for threads in (True, False):
            hands = valid.copy()
            hands[31_234, 3] = value
            with pytest.raises(CardError, match=r"row 31234: card ids must be in 0\.\.39"):
                evaluate_batch(hands, threads=threads)
    hands = random_hands(100, 6).astype(dtype)
    hands[7, 5] = hands[7, 0]
    with pytest.raises(CardError, match="row 7 repeats a card"):
        evaluate_batch(hands)


@pytest.mark.parametrize(
    "hands",
    [
        np.zeros((3, 7), np.float64),
        np.ones((3, 7), bool),
        np.zeros((3, 7), np.float32),
        np.array([["As"] * 7]),
        np.zeros((3, 7), object),
        np.zeros((3, 7), np.complex64),
    ],
)
def test_evaluate_batch_refuses_arrays_that_are_not_integer(hands):
    with pytest.raises(CardError, match="hands must hold integer card ids; got dtype"):
        evaluate_batch(hands)
    with pytest.raises(CardError, match="integer card ids"):
        brag.evaluate_batch(hands[:, :3])


def test_every_error_above_is_a_lab_error():
    for cls in (DeckError, SettlementError, HistoryError, CardError):
        assert issubclass(cls, LabError)
