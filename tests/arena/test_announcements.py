"""The arena's count of bluffs and challenges, checked on explicit deals and against a whole match."""

from __future__ import annotations

import bluffers  # noqa: F401  (registers the "always-tringa" bot)
from decks import build_deck
from ronda.arena import MatchSpec, run_match, summary
from ronda.arena.announcements import Referee
from ronda.engine.actions import Action, Challenge, Declare, Play
from ronda.engine.cards import parse_card
from ronda.engine.game import Game
from ronda.engine.rules import Rules


def _game(rules: Rules, deals: list[dict[int, str]]) -> Game:
    deck = build_deck(rules, deals=deals, table="10o 11c 4b 12b")
    return Game(rules, decks=[[parse_card(c) for c in deck]])


def _apply(game: Game, referee: Referee, action: Action) -> None:
    seat = game.turn
    events = game.apply(action)
    if isinstance(action, Declare):
        referee.declared(seat, action.declaration)
    referee.saw(events)


def test_R8_8_a_bluff_exposed_by_a_challenge_is_counted_for_both_seats() -> None:
    game = _game(Rules(players=2, target=3), [{0: "5o 5c 7e", 1: "1o 2c 3e"}])
    referee = Referee(game, seating=(0, 1), entrants=2)
    _apply(game, referee, Declare("ronda"))  # true
    _apply(game, referee, Declare("ronda"))  # a bluff
    _apply(game, referee, Challenge(1))
    ours, theirs = referee.counts
    assert (theirs.declarations, theirs.bluffs, theirs.bluffs_challenged, theirs.bluff_penalty) == (1, 1, 1, 1)
    assert (ours.declarations, ours.bluffs, ours.challenges) == (1, 0, 1)
    assert (ours.challenges_won, ours.challenge_points) == (1, 1)
    # R8.6: seat 0's ronda now stands alone and is awarded (1), after the penalty (1): 2 of 3, the game goes on.
    assert game.scores == [2, 0] and game.winner is None
    assert theirs.bluff_games_lost == theirs.bluff_games_won == 0


def test_R8_8_a_failed_challenge_is_a_game_lost_and_a_won_challenge_that_wins_is_credited() -> None:
    game = _game(Rules(players=2), [{0: "5o 5c 7e", 1: "1o 2c 3e"}])
    referee = Referee(game, seating=(1, 0), entrants=2)  # seat 0 is entrant 1
    _apply(game, referee, Declare("ronda"))  # true
    _apply(game, referee, Declare("ronda"))  # seat 1 bluffs: whose ronda is higher waits for the cards
    _apply(game, referee, Play(parse_card("7e")))
    assert game.winner is None
    _apply(game, referee, Challenge(0))  # seat 1 challenges a true ronda: seat 0's side wins (R8.8)
    assert game.winner == 0
    seat0, seat1 = referee.counts[1], referee.counts[0]
    assert (seat0.bluffs, seat0.challenges) == (0, 0)
    assert (seat1.bluffs, seat1.bluffs_exposed, seat1.bluff_games_lost, seat1.bluff_games_won) == (1, 0, 1, 0)
    assert (seat1.challenges, seat1.challenges_lost, seat1.challenges_won) == (1, 1, 0)

    game = _game(Rules(players=2, target=1), [{0: "5o 6c 7e", 1: "1o 2c 2e"}])
    referee = Referee(game, seating=(0, 1), entrants=2)
    _apply(game, referee, Declare("ronda"))  # a bluff
    _apply(game, referee, Declare("ronda"))  # true: whose is higher waits for seat 0's cards
    _apply(game, referee, Play(parse_card("7e")))
    _apply(game, referee, Challenge(0))  # false: seat 1 scores the penalty and wins
    assert game.winner == 1
    bluffer, challenger = referee.counts
    assert (bluffer.bluffs, bluffer.bluffs_challenged, bluffer.bluff_penalty, bluffer.bluff_games_lost) == (1, 1, 1, 1)
    assert (challenger.challenges_won, challenger.challenge_points, challenger.challenge_games_won) == (1, 1, 1)


def test_a_match_counts_each_bluff_once_on_each_side() -> None:
    spec = MatchSpec(("always-tringa", "medium"), Rules(players=2), seed=4)
    result = summary(spec, run_match(spec, units=2))
    bluffer, medium = (e["announcements"] for e in result["entrants"])
    assert bluffer["bluffs"] > 0 and bluffer["bluffs"] <= bluffer["declarations"]
    assert bluffer["bluffs_exposed"] <= bluffer["bluffs"]
    assert bluffer["bluffs_challenged"] == medium["challenges_won"] > 0  # medium challenges what counting proves
    assert medium["challenges_lost"] == 0 and medium["bluffs"] == 0
    assert bluffer["bluff_penalty"] >= 5 * bluffer["bluffs_exposed"] - 5 * (bluffer["declarations"] - bluffer["bluffs"])
