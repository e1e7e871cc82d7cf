"""One episode of the environments: a round or a whole game, dealt from the environment's own generator.

PettingZoo and Gymnasium share it, so both end an episode at the same moment
and pay the same returns (:mod:`ronda.adapters.returns`):

- ``reward="round"``: the episode is the first round of a new game at the
  real target, so scores mean what they mean in play; it ends when the round
  ends, or earlier when the game is decided inside it (a failed challenge,
  R8.8, or a side at the target, R9.3).
- ``reward="game"`` or ``"outcome"``: the episode is a whole game; it ends
  when the game is won.

Decks are drawn with :func:`~ronda.engine.deck.shuffled_deck` from the
generator the environment was seeded with and given round by round, so the
game never deals a round the episode does not play, and equal seeds give
equal episodes. The first dealer is drawn too (``dealer=None``, the default),
so a fixed seat sees every position at the table.

``reset(options={"deck": [...], "dealer": 1})`` deals the first round from
a given deck (RECORD.md order, card names or ids) with a given dealer: a
fixed deal to evaluate on, or an exact position to test.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.actions import Action
from ..engine.cards import parse_card
from ..engine.deck import shuffled_deck
from ..engine.events import Event
from ..engine.game import OVER, WAITING, Game
from ..engine.rules import Rules
from .returns import Reward, return_bounds, seat_returns


class Episode:
    """A game played for one episode (see the module docstring)."""

    def __init__(
        self,
        rules: Rules,
        reward: Reward,
        rng: random.Random,
        dealer: int | None = None,
        options: Mapping[str, Any] | None = None,
        strict: bool = True,
    ) -> None:
        self.rules = rules
        self.reward = reward
        self._rng = rng
        options = dict(options or {})
        deck = options.pop("deck", None)
        dealer = options.pop("dealer", dealer)
        if options:
            problem = f"unknown reset option {sorted(options)[0]!r} (options: deck, dealer)"
            if strict:
                raise ValueError(problem)
            warnings.warn(problem, stacklevel=3)
        if dealer is None:
            dealer = rng.randrange(rules.players)
        self.game = Game(rules, decks=[], dealer=dealer)
        first = shuffled_deck(rules, rng) if deck is None else _deck(deck)
        self.events: list[Event] = self.game.add_deck(first)

    @property
    def over(self) -> bool:
        """The episode has ended: the game is won, or (``round``) the round is over."""
        return self.game.phase in (OVER, WAITING)

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """One decision; the next round is dealt at once when a whole game is the episode."""
        events = self.game.apply(action, seat=seat)
        if self.reward != "round" and self.game.phase == WAITING:
            events = events + self.game.add_deck(shuffled_deck(self.rules, self._rng))
        self.events = events
        return events

    def returns(self) -> tuple[float, ...]:
        """Every seat's return; zeros until the episode is over."""
        if not self.over:
            return (0.0,) * self.rules.players
        return seat_returns(self.rules, self.reward, self.game.scores, self.game.winner)

    def lowest_return(self) -> float:
        """The worst return of this reward: what an illegal action that ends the episode is worth."""
        return return_bounds(self.rules, self.reward)[0]


def _deck(cards: Sequence[int | str]) -> list[int]:
    """A deck given as card ids or names; the engine checks it is one (R3.4, RECORD.md)."""
    return [parse_card(card) if isinstance(card, str) else card for card in cards]
