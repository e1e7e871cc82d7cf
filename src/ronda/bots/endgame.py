"""Exact search of the end of a round, inside one guess of the hidden cards.

When few cards are left to play and the stock is empty, the rest of the round
is small enough to search completely: every seat's every card, to the round's
end (R7: the last capturer takes the table, then the card count). With two
players the last deal hides nothing — a seat that counts cards knows the
other hand exactly — so this is perfect play; with more, it is solved in each
guess.

The search also goes through a deal's end (``expert:exact=2``, two players: from
the penultimate deal): the next deal is dealt from the guess's stock, as the
engine deals it, and every seat declares its hand's true combination
(R8.2, as rollouts do: ``Game.playout(truthful=True)``) — never a bluff or a
challenge inside the search — then the search goes on. Like a bridge program
solving each guess double-dummy, it lets every card, the seat's later ones
included, see the whole guess.

The search is alpha-beta on the bot's side's value of the round's end (its
chance to win the game, or its points minus the others': ``leaf``), the
other sides minimising it ("paranoid" with three players).
Two cards of one rank are the same move (R1.1: suits never matter).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..engine.actions import DECLARES, PLAYS
from ..engine.combinations import NONE, hand_combination
from ..engine.game import DECLARE, PLAY, Game
from .rollout import utility


def solve(
    game: Game,
    side: int,
    start: Sequence[int],
    win_value: float,
    alpha: float = -1e9,
    beta: float = 1e9,
    *,
    leaf: Callable[[Game], float] | None = None,
    before_card: Callable[[Game], Game] | None = None,
) -> float:
    """The value to ``side`` of the rest of the round from ``game`` with best play by every side.

    ``leaf`` values a game whose round (or the game itself) is over; without it, the points from ``start``
    plus ``win_value`` for a won game (:func:`~ronda.bots.rollout.utility`). A new deal's declarations
    are made by :func:`declare_truthfully` (one line of play: no choice is searched there).
    ``before_card``, if given, is what the seat to play does at each turn before its card that the search
    does not choose (the coach's challenge of a declaration the seat can prove false, R8.8): it returns
    the game to play from, ``game`` itself or a changed copy, never ``game`` changed.
    """
    if game.phase == DECLARE:
        game = game.copy(history=False)
        declare_truthfully(game)
    if before_card is not None and game.phase == PLAY:
        game = before_card(game)
    if game.phase != PLAY:
        return leaf(game) if leaf is not None else utility(game, start, side, win_value)
    state = game.search_state()
    seat = state.seat
    mine = state.rules.side_of(seat) == side
    hand = state.hands[seat]
    best = -1e9 if mine else 1e9
    for r in range(10):
        cards = hand >> (4 * r) & 0xF
        if not cards:
            continue
        child = game.copy(history=False)
        child.apply(PLAYS[((cards & -cards) << (4 * r)).bit_length() - 1])
        value = solve(child, side, start, win_value, alpha, beta, leaf=leaf, before_card=before_card)
        if mine:
            if value > best:
                best = value
            if best > alpha:
                alpha = best
        else:
            if value < best:
                best = value
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best


def declare_truthfully(game: Game) -> None:
    """Every seat still to declare in this deal declares its hand's true combination, or none (R8.2).

    What rollouts do (``Game.playout(truthful=True)``): inside a search a declaration is never a bluff,
    and no one challenges. The hand is the dealt one, which no card of this deal has left yet.
    """
    ace_high = game.rules.ace_high
    while game.phase == DECLARE:
        combo = hand_combination(game.dealt_hand(game.turn).mask, ace_high)
        game.apply(DECLARES[NONE if combo is None else combo.kind])


__all__ = ["declare_truthfully", "solve"]
