"""Twin games for the honesty tests: the same game with the cards one seat cannot see dealt differently.

The cards a seat has never seen by the end of a record (the other hands' unplayed
cards and the stock) are shuffled among themselves in the last round's deck and
the record is replayed: every action stays legal (none names an unseen card),
and wherever the seat's view is the same in both, an honest analysis must be too.
"""

from __future__ import annotations

import random

from ronda.engine.cards import card_name, parse_card
from ronda.engine.game import Game
from ronda.engine.record import replay


def twin(game: Game, seat: int, rng: random.Random, tries: int = 20) -> Game | None:
    """``game`` replayed with the cards hidden from ``seat`` shuffled: a twin whose other hands differ
    and whose view for ``seat`` is the same now, or ``None`` when no shuffle gives one."""
    hidden = list(game.view(seat).unseen())
    if len(hidden) < 2:
        return None
    record = game.to_record()
    deck = record["rounds"][-1]["deck"]
    for _ in range(tries):
        shuffled = hidden[:]
        rng.shuffle(shuffled)
        swap = dict(zip(hidden, shuffled, strict=True))
        record["rounds"][-1]["deck"] = [card_name(swap.get(parse_card(c), parse_card(c))) for c in deck]
        other = replay(record)
        hands = [[g.hand(s) for s in range(game.players)] for g in (game, other)]
        if other.view(seat) == game.view(seat) and hands[0] != hands[1]:
            return other
    return None
