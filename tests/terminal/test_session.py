"""The game session behind both terminal interfaces: turns, words, illegal choices, summaries, save and resume."""

from __future__ import annotations

import json

import pytest
from terminal_helpers import (
    card_names_in,
    explicit_session,
    hidden_from,
    proven_ronda_session,
    quick_settings,
    simple_choice,
)

from decks import build_deck
from ronda.engine.actions import DECLARES, PLAYS, Challenge, Declare, Play
from ronda.engine.cards import parse_card
from ronda.engine.errors import RondaError
from ronda.engine.game import DECLARE, PLAY, Game
from ronda.engine.presets import parse_variant, preset_rules
from ronda.engine.record import load_record, replay
from ronda.engine.rules import Rules
from ronda.interfaces.terminal.session import (
    IllegalMove,
    Session,
    Settings,
    parse_command,
    side_file,
    spread_levels,
)


def play_until_round_ends(session: Session, rounds: int = 1) -> None:
    while len(session.rounds) < rounds and not session.over:
        if session.human_to_act():
            action = parse_command(simple_choice(session), session)
            assert not isinstance(action, str)
            session.act(action)
        else:
            session.step_bot()


def test_a_round_is_narrated_and_summed_up_with_the_engine_scores():
    session = Session(quick_settings(seed=11))
    play_until_round_ends(session)
    summary = session.rounds[0]
    assert list(session.game.scores) == session.totals == summary.totals
    assert sum(summary.piles) == 40  # R7.1: every card ends in a pile
    assert summary.piles is not None
    lines = session.lines
    start = lines.index("— Summary of round 1 —")
    assert lines[start + 1] == (
        f"  You: {summary.piles[0]} cards, {summary.round_points(0):+d} this round, {summary.totals[0]} in all"
    )
    assert lines[start + 3].startswith(f"  Seat 1: {summary.piles[1]} cards")
    assert lines[start + 5] == "— round 2, seat 0 deals —"  # R3.2: the deal passes on


def test_narration_speaks_to_the_human_and_never_names_a_hidden_card():
    """R11: what the human is told names only its own cards and public ones."""
    for seed, players, seat in ((3, 2, 0), (4, 3, 1), (5, 4, 2)):
        session = Session(quick_settings(seed=seed, players=players, seat=seat))
        checked = 0
        while session.game.round < 2 and not session.over:
            if session.human_to_act():
                round_start = max(i for i, line in enumerate(session.lines) if line.startswith("— round"))
                told = card_names_in("\n".join(session.lines[round_start:]))
                assert not told & hidden_from(session)
                checked += 1
                action = parse_command(simple_choice(session), session)
                assert not isinstance(action, str)
                session.act(action)
            else:
                session.step_bot()
        assert checked > 10
        assert any(line.startswith("You ") for line in session.lines)
        assert not any(line.startswith(f"Seat {seat} ") for line in session.lines)


def test_the_settlement_names_the_winning_pair_only_once_it_is_public():
    session = explicit_session([{0: "5o 5c 3e", 1: "12o 12c 2b"}], table="7e 10e 4b 6c")
    session.act(DECLARES["ronda"])
    lines = session.apply_bot(1, DECLARES["ronda"])
    assert lines == ["Seat 1 declares ronda"]  # both sides declared: not decided yet (R8.5)
    session.act(PLAYS[parse_card("3e")])
    session.apply_bot(1, PLAYS[parse_card("12o")])
    lines = session.act(PLAYS[parse_card("5o")])
    assert lines == ["You drop 5o"]
    lines = session.apply_bot(1, PLAYS[parse_card("12c")])
    assert lines == [
        "Seat 1 plays 12c, takes 12o",  # not a caida: 5o came after 12o (R5.1)
        # two 12s played: no other candidate; the 2 is both rondas' (R8.4)
        "Ronda contest decided: seat 1 (pair of 12s) takes 2 (1 for seat 1's ronda, 1 for your ronda)",
    ]
    assert session.game.scores == [0, 2]


def test_an_unopposed_declaration_is_told_without_its_rank():
    session = explicit_session([{0: "5o 6c 3e", 1: "12o 12c 2b"}], table="7e 10e 4b 1c")
    session.act(DECLARES["none"])
    lines = session.apply_bot(1, DECLARES["ronda"])
    assert lines == ["Seat 1 declares ronda", "Seat 1's ronda scores 1: nobody else announced"]


def test_a_challenge_shows_the_hand_and_the_false_declaration_costs_its_value():
    session = explicit_session([{0: "5o 6c 3e", 1: "11o 12c 2b"}], table="7e 10e 4b 1c")
    session.act(DECLARES["none"])
    session.apply_bot(1, DECLARES["ronda"])  # a bluff
    assert "challenge seat 1's ronda" in session.prompt()
    lines = session.act(Challenge(1))
    assert lines[0] == "You challenge seat 1: hand 2b 11o 12c — the declaration is false"
    assert "Seat 1's ronda is exposed as false" in lines
    assert "You +1 (false announcement)" in lines
    assert "Seat 1's announcement points are taken back (-1)" in lines  # R8.6
    assert session.game.scores == [1, 0]
    assert session.declaration_text(1) == "ronda (exposed as false), hand shown: 2b 11o 12c"


@pytest.mark.parametrize(
    ("action", "phase", "reason"),
    [
        (PLAYS[parse_card("5o")], DECLARE, "First declare for this deal: none, ronda, tringa."),
        (DECLARES["double_ronda"], DECLARE, "A double ronda can only be declared with four-card hands."),
        (Challenge(1), DECLARE, "Challenges come on your turn to play, after the declarations."),
        (PLAYS[parse_card("12b")], PLAY, "You do not hold 12b; your hand is 3e 5o 6c."),
        (DECLARES["ronda"], PLAY, "Declarations are made when a deal starts; now play a card."),
        (Challenge(0), PLAY, "You cannot challenge yourself."),
        (Challenge(1), PLAY, "Seat 1 declared nothing this deal."),
        (Challenge(7), PLAY, "There is no seat 7."),
    ],
)
def test_illegal_choices_are_explained_and_change_nothing(action, phase, reason):
    session = explicit_session([{0: "5o 6c 3e", 1: "11o 12c 2b"}], table="7e 10e 4b 1c")
    if phase == PLAY:
        session.act(DECLARES["none"])
        session.apply_bot(1, DECLARES["none"])
    before = session.game.to_record()
    with pytest.raises(IllegalMove) as error:
        session.act(action)
    assert str(error.value) == reason
    assert session.game.to_record() == before


def test_acting_out_of_turn_is_refused():
    session = explicit_session([{0: "5o 6c 3e", 1: "11o 12c 2b"}], table="7e 10e 4b 1c")
    session.act(DECLARES["none"])
    with pytest.raises(IllegalMove, match=r"Wait: it is seat 1 \(random\)'s turn."):
        session.act(DECLARES["none"])


def test_points_taken_back_from_a_side_say_what_it_keeps():
    rules = Rules(players=4)
    hands = {0: "6o 7c 3e", 1: "5o 5c 12b", 3: "11o 10c 2b"}
    deck = [parse_card(c) for c in build_deck(rules, [hands], "7e 10e 4b 1c")]
    session = Session(Settings(rules, 0, spread_levels("random", 4, 0), seed=1, pace=0), Game(rules, decks=[deck]))
    session.act(DECLARES["none"])
    session.apply_bot(1, DECLARES["ronda"])
    session.apply_bot(2, DECLARES["none"])
    lines = session.apply_bot(3, DECLARES["tringa"])  # a bluff beside the partner's true ronda
    assert lines[-1] == (  # one side: at once, the bluff counted until it is exposed (R8.5)
        "Side 1 (seats 1 and 3) scores 6 (1 for seat 1's ronda, 5 for seat 3's tringa):"
        " the other side announced nothing"
    )
    lines = session.act(Challenge(3))
    assert lines[1:] == [
        "Seat 3's tringa is exposed as false",
        "Your side (you and seat 2) +5 (false announcement)",
        "The announcement points of side 1 (seats 1 and 3) are taken back (-5), 1 left",
    ]
    assert session.game.scores == [5, 1]


def test_partners_cannot_be_challenged():
    rules = Rules(players=4)
    deck = [parse_card(c) for c in build_deck(rules, [{0: "5o 6c 3e", 2: "11o 11c 2b"}], "7e 10e 4b 1c")]
    session = Session(Settings(rules, 0, spread_levels("random", 4, 0), seed=1, pace=0), Game(rules, decks=[deck]))
    session.act(DECLARES["none"])
    session.apply_bot(1, DECLARES["none"])
    session.apply_bot(2, DECLARES["ronda"])
    session.apply_bot(3, DECLARES["none"])
    with pytest.raises(IllegalMove, match="Seat 2 is your partner"):
        session.act(Challenge(2))


def test_save_writes_a_plain_record_and_resume_continues_where_it_was(tmp_path):
    session = Session(quick_settings(seed=21, players=3, seat=1, level="random,easy"))
    play_until_round_ends(session)
    while not session.human_to_act():
        session.step_bot()
    path = session.save(tmp_path / "game.json")
    record = load_record(path)
    assert set(record) <= {"format", "rules", "dealer", "rounds"}  # RECORD.md keys only
    assert replay(record).to_record() == session.game.to_record()
    assert json.loads(side_file(path).read_text())["levels"] == ["random", None, "easy"]

    resumed = Session.resume(path)
    assert resumed.human == 1 and resumed.levels == ("random", None, "easy")
    assert resumed.view == session.view
    assert resumed.human_to_act()
    # The seeded shuffler picks up where it was: the next round is dealt as in the unsaved game.
    play_until_round_ends(session, 2)
    play_until_round_ends(resumed, 2)
    assert resumed.game.to_record()["rounds"][2]["deck"] == session.game.to_record()["rounds"][2]["deck"]


def test_resume_takes_a_seat_and_levels_when_there_is_no_side_file(tmp_path):
    game = Game(Rules(players=2), seed=8)
    path = tmp_path / "other.json"
    path.write_text(json.dumps(game.to_record()))
    session = Session.resume(path, seat=1, level="random")
    assert session.human == 1 and session.levels == ("random", None)
    with pytest.raises(RondaError, match="seat must be from 0 to 1"):
        Session.resume(path, seat=2)


def test_a_bad_seat_or_level_in_the_side_file_is_named_with_that_file(tmp_path):
    """An audit: with "godlike" as a level, or seat 5, in game.play.json, --resume said "unknown bot level" or
    "your seat must be…", which a person who gave no --level or --seat could not place."""
    game = Game(Rules(players=2), seed=8)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.to_record()))
    side = tmp_path / "game.play.json"
    side.write_text(json.dumps({"seat": 0, "levels": [None, "godlike"]}))
    with pytest.raises(RondaError, match=rf"^{side}: unknown bot level 'godlike'.* \(--level chooses others\)$"):
        Session.resume(path)
    assert Session.resume(path, level="easy").levels == (None, "easy")  # --level chooses others indeed
    side.write_text(json.dumps({"seat": 5}))
    with pytest.raises(RondaError, match=rf"^{side}: the seat saved there must be from 0 to 1, not 5$"):
        Session.resume(path)
    assert Session.resume(path, seat=1).human == 1


def test_a_record_that_waits_for_a_deck_is_dealt_on():
    session = Session(quick_settings(seed=2))
    play_until_round_ends(session)
    record = session.game.to_record()
    record["rounds"] = record["rounds"][:1]
    game = replay(record)  # the first round only: the engine waits for a deck
    assert game.phase == "waiting"
    resumed = Session(quick_settings(seed=2), game)
    assert resumed.game.phase == DECLARE and resumed.game.round == 1


def test_choices_are_read_and_bad_ones_named():
    assert preset_rules("classic", 3, dealer_duty=True, target=25) == Rules(players=3, dealer_duty=True, target=25)
    assert parse_variant("undeclared-ronda-penalty=5") == ("undeclared_ronda_penalty", 5)
    with pytest.raises(RondaError, match="unknown variant 'dealer'"):
        parse_variant("dealer")
    with pytest.raises(RondaError, match="chain_points needs a value"):
        parse_variant("chain_points")
    with pytest.raises(RondaError, match="unknown preset 'pro'"):
        preset_rules("pro", 2)
    with pytest.raises(RondaError, match="four_card_hands is played by 2 or 4 players"):
        Settings.make(3, variants={"four_card_hands": True})
    with pytest.raises(RondaError, match="one for each of the 3 other seats"):
        spread_levels("easy,hard", 4, 0)
    with pytest.raises(ValueError, match=r"unknown bot level 'grandmaster' \(known: random, easy, medium"):
        Session(Settings.make(2, 0, "grandmaster", seed=1))


def test_presets_name_the_rules():
    session = Session(Settings.make(2, 0, "random", preset="advanced", seed=1))
    assert session.rules.dealer_duty
    assert "Advanced rules: classic with dealer duty (the dealer's last card must capture), target 41. Seed 1." in (
        session.title()
    )
    variants = {"ace_high": True, "dealer_duty": True, "target": 30}
    custom = Session(Settings.make(2, 0, "random", variants=variants, seed=1))
    assert (
        "Classic rules with ace high (1s rank highest) and dealer duty (the dealer's last card must capture),"
        " target 30." in custom.title()
    )
    assert "Classic rules, target 3." in Session(Settings.make(2, 0, "random", variants={"target": 3})).title()
    with pytest.raises(RondaError, match="the four-card preset is played by 2 or 4 players, not 3"):
        Settings.make(3, preset="four-card")


def test_typed_commands():
    session = Session(quick_settings(seed=1))
    assert parse_command("declare", session) == Declare(session.true_declaration())
    assert parse_command("declare double ronda", session) == DECLARES["double_ronda"]
    assert parse_command("12B", session) == Play(parse_card("12b"))
    assert parse_command("save my game.json", session) == "save my game.json"
    for text, message in (
        ("", "Type a command"),
        ("play 8c", "Cannot read '8c'"),
        ("challenge x", "seat number"),
        ("dance now", "Cannot read 'dance now'"),
        ("declare pair", "Unknown declaration 'pair'"),
    ):
        with pytest.raises(IllegalMove, match=message):
            parse_command(text, session)


def test_R8_8_a_challenge_your_cards_prove_would_fail_is_not_offered():
    session = proven_ronda_session()
    assert "You may first challenge seat 0's ronda." in session.prompt()
    assert session.challenge_question(0) == "If seat 0 really holds a ronda, you lose the game. Challenge? y/n"
    session.act(PLAYS[parse_card("3e")])
    session.step_bot()
    session.act(PLAYS[parse_card("5o")])
    session.step_bot()  # 2b: all three of seat 0's cards are face up, a pair of 11s among them
    assert session.prompt() == "Your turn: play a card."
    assert session.challenge_targets() == []
    assert session.unchallengeable_text() == (
        "Seat 0's ronda is proven true by the cards you have seen: no challenge to make"
    )
    assert session.challenge_question(0) == (
        "Seat 0's ronda is proven true by the cards you have seen: challenging it loses you the game. "
        "Challenge anyway? y/n"
    )
    with pytest.raises(IllegalMove, match="You cannot challenge yourself"):
        session.challenge_question(1)  # the question is only asked of a challenge the rules allow
