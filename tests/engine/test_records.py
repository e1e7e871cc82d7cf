"""Game records and ``ronda replay`` (RECORD.md): the contract, and bad records fuzzed.

A bad record must always end the same way: exit status 2, nothing on stdout,
exactly one line on stderr that names the problem (and the round and action
where there is one), never a traceback.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from random_games import games, play_out

from ronda.cli.main import main
from ronda.engine.combinations import hand_combination
from ronda.engine.game import Game
from ronda.engine.record import replay
from ronda.engine.rules import Rules

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample-2p.json"


def run_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *flags: str) -> tuple[int, str, str]:
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    code = main(["replay", str(path), *flags])
    out, err = capsys.readouterr()
    return code, out, err


def assert_refused(code: int, out: str, err: str, *words: str) -> None:
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n"), f"one line on stderr, got {err!r}"
    assert "Traceback" not in err
    for word in words:
        assert word in err, f"{word!r} not in {err!r}"


def a_game(players: int = 2, seed: int = 11, choice_seed: int = 3, **variants: object) -> Game:
    return play_out(Rules(players=players, **variants), seed, choice_seed)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the contract


def test_replay_json_prints_the_result_object_of_record_md(tmp_path, capsys) -> None:
    game = a_game(players=3, target=21)
    code, out, err = run_replay(tmp_path, capsys, json.dumps(game.to_record()), "--json")
    assert code == 0 and err == ""
    result = json.loads(out)
    assert set(result) == {"scores", "winner", "finished", "events"}
    assert result["scores"] == game.scores and result["winner"] == game.winner
    assert result["finished"] is game.finished
    scores = [e for e in result["events"] if e["type"] == "score"]
    assert scores, "a whole game scores points"
    for event in scores:
        assert set(event) == {"type", "side", "points", "reason", "seat"}
        assert event["reason"] in {
            "caida",
            "chain",
            "missa",
            "announcement",
            "false_announcement",
            "undeclared",
            "cards",
            "dealer_duty",
        }
        if event["reason"] in ("announcement", "cards"):
            assert event["seat"] is None
        else:
            assert isinstance(event["seat"], int)
    assert [sum(e["points"] for e in scores if e["side"] == s) for s in range(3)] == game.scores


def test_a_record_that_stops_mid_game_reports_the_state_reached(tmp_path, capsys) -> None:
    game = Game(Rules(players=2), seed=5)
    for _ in range(9):
        game.apply(game.legal_actions()[0])
    code, out, _ = run_replay(tmp_path, capsys, json.dumps(game.to_record()), "--json")
    result = json.loads(out)
    assert code == 0 and result["finished"] is False and result["winner"] is None
    assert result["scores"] == game.scores


def test_a_failed_challenge_ends_with_the_game_over_event(tmp_path, capsys) -> None:
    # seat 0 holds a true ronda and declares it; seat 1 challenges and loses the game (R8.8)
    for seed in range(200):
        game = Game(Rules(players=2), seed=seed)
        truth = hand_combination(game.hand(0).mask, False)
        if truth is not None and truth.kind == "ronda":
            break
    from ronda.engine.actions import Challenge, Declare

    game.apply(Declare("ronda"))
    game.apply(Declare("none"))
    game.apply(game.legal_actions()[0])  # seat 0 plays
    game.apply(Challenge(0))
    code, out, _ = run_replay(tmp_path, capsys, json.dumps(game.to_record()), "--json")
    result = json.loads(out)
    assert code == 0
    assert result["events"][-1] == {"type": "game_over", "winner": 0, "reason": "failed_challenge"}
    assert result["finished"] is True and result["winner"] == 0


def test_replay_play_by_play_speaks_the_games_words(capsys) -> None:
    assert main(["replay", str(SAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "declares ronda" in out
    assert "— caida! +1" in out
    assert " drops " in out and " takes " in out
    assert "round 1 over" in out
    assert "game over: seat 0 wins" in out


def test_a_hand_shown_before_a_win_is_an_event_of_the_replay_and_told_in_its_words(tmp_path, capsys) -> None:
    """RECORD.md, R9.5: the show event comes before the exposure it leads to; the play-by-play tells it."""
    from decks import run, start

    game = start(Rules(players=4, target=6), [{0: "12o 12c 1b", 2: "5o 6c 7e"}], table="1o 3o 10o 4b")
    run(game, "declare ronda; declare none; declare tringa; declare none")
    text = json.dumps(game.to_record())
    code, out, _ = run_replay(tmp_path, capsys, text, "--json")
    kinds = [(e["type"], e.get("seat")) for e in json.loads(out)["events"] if e["type"] in ("show", "exposure")]
    assert code == 0 and kinds == [("show", 0), ("show", 2), ("exposure", 2)]
    assert {"type": "show", "seat": 2, "hand": ["5o", "6c", "7e"]} in json.loads(out)["events"]
    code, out, _ = run_replay(tmp_path, capsys, text)
    assert "seat 0 shows 1b 12o 12c: a ronda of 12s" in out  # told sorted, though the event lists it as dealt
    assert "seat 2 shows 5o 6c 7e: no tringa" in out


def test_a_challenged_hand_is_shown_in_the_order_it_was_dealt(tmp_path, capsys) -> None:
    """RECORD.md shows a hand "as dealt": a record written by hand deals seat 0 7o, 1o, 4o (a false ronda), and
    the challenge event lists them in that order, as another program replaying the same record would (an audit
    found them sorted: 1o, 4o, 7o)."""
    dealt = ["7o", "1o", "4o", "11b", "2b", "5b", "3c", "6c", "10c", "12c"]  # seat 0, seat 1 (dealer), the table
    rest = [f"{rank}{suit}" for suit in "oceb" for rank in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
    record = {
        "format": "ronda/1",
        "rules": {"players": 2},
        "dealer": 1,
        "rounds": [
            {
                "deck": dealt + [card for card in rest if card not in dealt],
                "actions": [
                    {"seat": 0, "declare": "ronda"},
                    {"seat": 1, "declare": "none"},
                    {"seat": 0, "play": "1o"},
                    {"seat": 1, "challenge": 0},
                ],
            }
        ],
    }
    code, out, err = run_replay(tmp_path, capsys, json.dumps(record), "--json")
    assert code == 0, err
    challenges = [event for event in json.loads(out)["events"] if event["type"] == "challenge"]
    assert challenges == [{"type": "challenge", "seat": 1, "target": 0, "hand": ["7o", "1o", "4o"], "truthful": False}]


def test_the_sample_record_replays_to_a_won_game(capsys) -> None:
    assert main(["replay", str(SAMPLE), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["finished"] is True and max(result["scores"]) >= 41


def test_replay_as_a_real_command(tmp_path) -> None:
    good = subprocess.run(
        [sys.executable, "-m", "ronda", "replay", str(SAMPLE), "--json"], capture_output=True, text=True, check=False
    )
    assert good.returncode == 0 and json.loads(good.stdout)["finished"] is True
    bad_file = tmp_path / "bad.json"
    bad_file.write_text('{"format": "ronda/1", "rules": {"players": 2}, "rounds": [{"deck": ["5o"]')
    bad = subprocess.run(
        [sys.executable, "-m", "ronda", "replay", str(bad_file), "--json"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert "invalid JSON" in bad.stderr and bad.stderr.count("\n") == 1


# --------------------------------------------------------------------------- bad records


def _record() -> dict:
    return a_game(players=2, seed=21, choice_seed=8).to_record()


def test_truncated_json_at_every_sampled_cut(tmp_path, capsys) -> None:
    text = SAMPLE.read_text()
    rng = random.Random(4)
    for cut in sorted(rng.sample(range(1, len(text) - 2), 60)):
        code, out, err = run_replay(tmp_path, capsys, text[:cut], "--json")
        assert_refused(code, out, err, "invalid JSON")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", ["invalid JSON"]),
        ("[1, 2]", ["JSON object"]),
        ('{"rules": {"players": 2}, "rounds": []}', ["rounds"]),
        ('{"format": "ronda/9", "rules": {"players": 2}, "rounds": [{}]}', ["format"]),
        ('{"rules": {"players": 5}, "rounds": [{"deck": []}]}', ["players"]),
        ('{"rules": {"players": 2, "jokers": true}, "rounds": [{"deck": []}]}', ["unknown rule", "jokers"]),
        ('{"rules": {"players": 3, "four_card_hands": true}, "rounds": [{"deck": []}]}', ["four_card_hands"]),
        ('{"rules": {"players": 2}, "dealer": 7, "rounds": [{"deck": []}]}', ["dealer"]),
        ('{"rules": {"players": 2}, "colour": 1, "rounds": [{"deck": []}]}', ["unknown record key"]),
        (
            '{"rules": {"players": 2}, "rounds": [{"deck": [], "moves": []}]}',
            ["rounds[0]", "unknown round key", "moves"],
        ),
    ],
)
def test_malformed_records_are_refused_with_one_line(tmp_path, capsys, text, words) -> None:
    assert_refused(*run_replay(tmp_path, capsys, text, "--json"), *words)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('{"rules": {"players": 2}, "dealer": 1, "dealer": 0, "rounds": [{"deck": []}]}', "dealer"),
        ('{"rules": {"players": 2, "players": 3}, "rounds": [{"deck": []}]}', "players"),
        ('{"rules": {"players": 2}, "rounds": [{"deck": []}], "rounds": [{"deck": []}]}', "rounds"),
    ],
)
def test_a_key_given_twice_is_refused_by_name(tmp_path, capsys, text, key) -> None:
    """A JSON reader keeps the last of two equal keys without a word: a record with a second "rounds" replayed
    only that one and said nothing, and two "dealer"s gave an error about whose turn it was (a researcher's
    audit). Refused, naming the key, as unknown keys are."""
    assert_refused(*run_replay(tmp_path, capsys, text, "--json"), f"gives the key '{key}' twice")


def test_a_record_without_format_is_read_as_ronda_1_and_any_other_value_is_refused(tmp_path, capsys) -> None:
    """RECORD.md shows "format" without saying it may be left out: ronda reads a record without it as ronda/1.

    This pins behaviour that already held, now written in docs/RECORD.md.
    """
    record = json.loads(SAMPLE.read_text())
    assert record["format"] == "ronda/1"
    code, with_format, _ = run_replay(tmp_path, capsys, json.dumps(record), "--json")
    del record["format"]
    assert run_replay(tmp_path, capsys, json.dumps(record), "--json") == (code, with_format, "") and code == 0
    for value in (None, "ronda/2", 1):
        text = json.dumps({**record, "format": value})
        assert_refused(*run_replay(tmp_path, capsys, text, "--json"), "unknown record format", "reads 'ronda/1'")


def _deck_case(mutate) -> dict:
    record = _record()
    mutate(record["rounds"][0])
    return record


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda r: r.update(deck=r["deck"][:39]), ["rounds[0]", "40 cards"]),
        (lambda r: r.update(deck=[*r["deck"], "5o"]), ["rounds[0]", "40 cards"]),
        (lambda r: r["deck"].__setitem__(3, "8o"), ["rounds[0].deck[3]: unknown card '8o'"]),
        (lambda r: r["deck"].__setitem__(3, r["deck"][4]), ["rounds[0].deck[4]: ", "twice (first at deck[3])"]),
        (lambda r: r["deck"].__setitem__(3, 17), ["rounds[0].deck[3]: "]),
    ],
)
def test_bad_decks_are_refused(tmp_path, capsys, mutate, words) -> None:
    assert_refused(*run_replay(tmp_path, capsys, json.dumps(_deck_case(mutate)), "--json"), *words)


def test_an_opening_table_that_breaks_r3_4_is_refused(tmp_path, capsys) -> None:
    record = _record()
    deck = record["rounds"][0]["deck"]
    # put a card of the first table card's rank into the table (R3.4: four distinct ranks)
    table_start = 6
    rank = deck[table_start][:-1]
    twin = next(i for i, c in enumerate(deck) if c[:-1] == rank and i != table_start and i > table_start + 3)
    deck[table_start + 1], deck[twin] = deck[twin], deck[table_start + 1]
    assert_refused(*run_replay(tmp_path, capsys, json.dumps(record), "--json"), "rounds[0]", "R3.4")


def _action_case(index: int, replacement: object) -> dict:
    record = _record()
    record["rounds"][0]["actions"][index] = replacement
    return record


def test_wrong_seat_is_refused_naming_the_action(tmp_path, capsys) -> None:
    record = _record()
    first = record["rounds"][0]["actions"][0]
    first["seat"] = 1 - first["seat"]
    assert_refused(*run_replay(tmp_path, capsys, json.dumps(record), "--json"), "rounds[0].actions[0]", "seat")


def test_a_card_not_in_hand_is_refused(tmp_path, capsys) -> None:
    record = _record()
    actions = record["rounds"][0]["actions"]
    index = next(i for i, a in enumerate(actions) if "play" in a)
    game = replay({**record, "rounds": [{"deck": record["rounds"][0]["deck"], "actions": actions[:index]}]})
    held = {c for seat in range(2) for c in game.hand(seat).names()}
    foreign = next(c for c in record["rounds"][0]["deck"] if c not in held)
    actions[index]["play"] = foreign
    assert_refused(
        *run_replay(tmp_path, capsys, json.dumps(record), "--json"),
        f"rounds[0].actions[{index}]",
        "does not hold",
        foreign,
    )


@pytest.mark.parametrize(
    ("replacement", "words"),
    [
        ({"seat": 0, "play": "5o"}, ["rounds[0].actions[0]", "declare first"]),
        ({"seat": 0, "declare": "quinta"}, ["rounds[0].actions[0]", "unknown declaration"]),
        ({"seat": 0, "challenge": 1}, ["rounds[0].actions[0]"]),
        ({"seat": 0}, ["rounds[0].actions[0]", "exactly one of"]),
        ({"seat": 0, "declare": "none", "shout": 1}, ["rounds[0].actions[0]", "unknown action key"]),
        ("play 5o", ["rounds[0].actions[0]"]),
        ({"seat": "0", "declare": "none"}, ["rounds[0].actions[0]", "seat"]),
    ],
)
def test_bad_actions_are_refused(tmp_path, capsys, replacement, words) -> None:
    assert_refused(*run_replay(tmp_path, capsys, json.dumps(_action_case(0, replacement)), "--json"), *words)


def test_a_challenge_of_a_partner_or_of_none_is_refused() -> None:
    """R8.8: only an opponent's declaration can be challenged, and "none" is no declaration."""
    from ronda.engine.actions import Challenge, Declare
    from ronda.engine.errors import IllegalActionError

    game = Game(Rules(players=4), seed=1)
    for seat in (0, 1, 2, 3):  # the dealer is seat 3; seat 0 declares first
        game.apply(Declare("ronda" if seat in (1, 2) else "none"))
    with pytest.raises(IllegalActionError, match="declared nothing"):
        game.apply(Challenge(3))  # an opponent, but it declared none
    with pytest.raises(IllegalActionError, match="only an opponent's declaration"):
        game.apply(Challenge(2))  # seat 2 is seat 0's partner
    game.apply(game.legal_actions()[0])  # seat 0 plays; seat 1 to act
    with pytest.raises(IllegalActionError, match="only an opponent's declaration"):
        game.apply(Challenge(3))
    assert Challenge(2) in game.legal_actions() and Challenge(3) not in game.legal_actions()


def test_actions_after_the_game_is_won_are_refused(tmp_path, capsys) -> None:
    record = json.loads(SAMPLE.read_text())
    record["rounds"][-1]["actions"].append({"seat": 0, "play": "5o"})
    last = len(record["rounds"]) - 1
    index = len(record["rounds"][-1]["actions"]) - 1
    assert_refused(
        *run_replay(tmp_path, capsys, json.dumps(record), "--json"), f"rounds[{last}].actions[{index}]", "won"
    )


def test_actions_after_a_round_has_ended_are_refused(tmp_path, capsys) -> None:
    record = json.loads(SAMPLE.read_text())
    record["rounds"][0]["actions"].append({"seat": 0, "declare": "none"})
    index = len(record["rounds"][0]["actions"]) - 1
    assert_refused(*run_replay(tmp_path, capsys, json.dumps(record), "--json"), f"rounds[0].actions[{index}]", "ended")


_EDITS = st.sampled_from(["drop", "duplicate", "swap", "seat", "card", "verb", "deck"])


@settings(max_examples=300, deadline=None)
@given(games, st.lists(st.tuples(_EDITS, st.integers(0, 10_000), st.integers(0, 10_000)), min_size=1, max_size=3))
def test_randomly_mutated_records_replay_or_fail_cleanly(game_spec, edits) -> None:
    """Whatever is changed in a valid record, replay either works or names the problem (never crashes)."""
    rules, seed, choice_seed = game_spec
    record = copy.deepcopy(play_out(rules, seed, choice_seed, max_actions=120).to_record())
    for kind, i, j in edits:
        rnd = record["rounds"][i % len(record["rounds"])]
        actions, deck = rnd["actions"], rnd["deck"]
        if kind == "deck":
            deck[i % 40], deck[j % 40] = deck[j % 40], deck[i % 40]
        elif not actions:
            continue
        elif kind == "drop":
            del actions[i % len(actions)]
        elif kind == "duplicate":
            actions.insert(i % len(actions), dict(actions[j % len(actions)]))
        elif kind == "swap":
            a, b = i % len(actions), j % len(actions)
            actions[a], actions[b] = actions[b], actions[a]
        elif kind == "seat":
            actions[i % len(actions)]["seat"] = j % 5
        elif kind == "card":
            actions[i % len(actions)] = {"seat": actions[i % len(actions)]["seat"], "play": deck[j % 40]}
        elif kind == "verb":
            actions[i % len(actions)] = {"seat": 0, "challenge": j % 4}
    from ronda.engine.errors import RecordError

    try:
        replay(json.loads(json.dumps(record)))
    except RecordError as error:
        assert str(error) and "\n" not in str(error)


_KEEP_SAVING = """
import sys
from ronda.engine.game import Game
from ronda.engine.record import save_record
from ronda.engine.rules import Rules

games = []
for seed in (1, 2):
    game = Game(Rules(players=2), seed=seed)
    for _ in range(30):
        game.apply(game.legal_actions()[0])
    games.append(game)
save_record(games[0], sys.argv[1])
print("saving", flush=True)  # only once a first game is whole on disk: before it, there is no file to judge
turn = 1
while True:
    save_record(games[turn % 2], sys.argv[1])
    turn += 1
"""


def test_a_record_saved_over_by_a_process_killed_at_any_moment_is_one_whole_game(tmp_path: Path) -> None:
    """A real SIGKILL in the middle of saving: the file is always one of the two games, whole, never a mix or half."""
    target = tmp_path / "game.json"
    wholes = set()
    for seed in (1, 2):
        game = Game(Rules(players=2), seed=seed)
        for _ in range(30):
            game.apply(game.legal_actions()[0])
        wholes.add(json.dumps(game.to_record(), sort_keys=True))
    rng = random.Random(0)
    for _ in range(6):
        process = subprocess.Popen([sys.executable, "-c", _KEEP_SAVING, str(target)], stdout=subprocess.PIPE, text=True)
        assert process.stdout is not None and process.stdout.readline() == "saving\n"
        # let it save over the file a random number of times, then kill it wherever it is
        deadline = rng.uniform(0.01, 0.2)
        try:
            process.wait(timeout=deadline)
        except subprocess.TimeoutExpired:
            process.kill()
        process.wait()
        assert process.returncode != 0  # it was killed, not finished
        saved = json.loads(target.read_text(encoding="utf-8"))
        assert json.dumps(saved, sort_keys=True) in wholes
        assert replay(saved).actions_taken == 30


def test_a_save_that_fails_midway_leaves_the_old_record_and_no_stray_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk, faked (it cannot be made here without mounting one): the error comes out, the old game stays."""
    from ronda.engine import record

    target = tmp_path / "game.json"
    game = Game(Rules(players=2), seed=5)
    record.save_record(game, target)
    before = target.read_bytes()
    game.apply(game.legal_actions()[0])

    def full_disk(descriptor: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(record.os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space left"):
        record.save_record(game, target)
    assert target.read_bytes() == before
    assert [path.name for path in tmp_path.iterdir()] == ["game.json"]
