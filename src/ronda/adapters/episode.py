"""One episode of the environments: a round or a whole game, begun anywhere, dealt from the environment's generator.

PettingZoo and Gymnasium share it, so both end an episode at the same moment
and pay the same returns (:mod:`ronda.adapters.returns`):

- ``reward="round"``: the episode is one round, by default the first round
  of a new game at the real target, so scores mean what they mean in play; it
  ends when the round ends, or earlier when the game is decided inside it (a
  failed challenge, R8.8, or a side at the target, R9.3).
- ``reward="chances"``: the same round, paid by the change in each side's
  chance to win the game (:mod:`ronda.adapters.returns`).
- ``reward="game"`` or ``"outcome"``: the episode is a whole game (from where
  it begins); it ends when the game is won.

Decks are drawn with :func:`~ronda.engine.deck.shuffled_deck` from the
generator the environment was seeded with and given round by round, so the
game never deals a round the episode does not play, and equal seeds give
equal episodes. The first dealer is drawn too (``dealer=None``, the default),
so a fixed seat sees every position at the table.

Where an episode begins: the options of ``reset(options=...)``, or the
environment's ``start=`` (the same options, used at every reset, autoresets of
a vector environment included; a reset's own options override them):

==========================  ==========================================================
``deck``                    the first round's deck (RECORD.md order, card names or ids)
``dealer``                  the seat that deals the first round
``scores``                  one number per side, each from 0 to ``target - 1``: the
                            game begins there (:meth:`Game.from_scores
                            <ronda.engine.game.Game.from_scores>`), where R9.5, the
                            delaying bluff and the risky challenge live; or
                            ``"uniform"``: each side's drawn uniformly from that
                            range at every reset; or a function ``(rules, rng) ->
                            scores`` drawing them from any distribution
``round``                   the number of the first round (default 0)
``record``, ``decision``    a real game's position: a RECORD.md record (a mapping, or
                            the path of its file) replayed up to its ``decision``-th
                            decision (0 = before the first; counted over the whole
                            record). That round's deck is the record's; later rounds
                            are dealt from the generator. With neither ``deck``,
                            ``dealer``, ``scores`` nor ``round``: the record gives them.
==========================  ==========================================================

>>> import random
>>> from ronda.engine.rules import Rules
>>> episode = Episode(Rules(players=2), "round", random.Random(1), options={"scores": [36, 30], "dealer": 0})
>>> episode.game.scores, episode.game.dealer, episode.start
([36, 30], 0, (36, 30))
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..bots.winprob import game_win_probability
from ..engine.actions import Action
from ..engine.cards import parse_card
from ..engine.deck import shuffled_deck
from ..engine.errors import RondaError
from ..engine.events import Event
from ..engine.game import OVER, WAITING, Game
from ..engine.record import load_record, replay
from ..engine.rules import Rules
from .returns import ROUND_REWARDS, Reward, forfeiting_side, return_bounds, seat_returns

ScoreSampler = Callable[[Rules, random.Random], Sequence[int]]
"""``sampler(rules, rng) -> scores``: a distribution of score states to begin episodes at."""

START_OPTIONS = ("deck", "dealer", "scores", "round", "record", "decision")
"""The options that say where an episode begins (the module docstring)."""


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
        unknown = sorted(set(options) - set(START_OPTIONS))
        if unknown:
            problem = f"unknown reset option {unknown[0]!r} (options: {', '.join(START_OPTIONS)})"
            if strict:
                raise ValueError(problem)
            warnings.warn(problem, stacklevel=3)
        self.chances_before: tuple[float, ...] | None = None
        """``chances``' value of the start when the episode begins inside a round (a record's decision after the
        round's first): the chance to win from there as a search values it, not the chance at the round's start
        at the scores reached, which leaves out what the round has already done to the piles."""
        if "record" in options:
            self.game, under_way = _record_position(rules, options)
            if under_way:
                self.chances_before = tuple(game_win_probability(self.game, side) for side in range(rules.sides))
        else:
            if "decision" in options:
                raise ValueError("the reset option 'decision' needs a 'record' to take the decision from")
            dealer = options.get("dealer", dealer)
            if dealer is None:
                dealer = rng.randrange(rules.players)
            deck = options.get("deck")
            first = shuffled_deck(rules, rng) if deck is None else _deck(deck)
            scores = _scores(rules, options.get("scores"), rng)
            try:
                self.game = Game.from_scores(rules, scores, round=options.get("round", 0), decks=[first], dealer=dealer)
            except RondaError as error:
                raise ValueError(f"reset options: {error}") from None
        self.events: list[Event] = list(self.game.events)
        self.start: tuple[int, ...] = tuple(self.game.scores)
        """The scores the episode began at: ``round`` pays what the episode scored from them."""
        self.start_dealer = self.game.dealer
        """The seat dealing when the episode began: ``chances`` values the start with it."""

    @property
    def over(self) -> bool:
        """The episode has ended: the game is won, or (``round``) the round is over."""
        return self.game.phase in (OVER, WAITING)

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """One decision; the next round is dealt at once when a whole game is the episode."""
        events = self.game.apply(action, seat=seat)
        if self.reward not in ROUND_REWARDS and self.game.phase == WAITING:
            events = events + self.game.add_deck(shuffled_deck(self.rules, self._rng))
        self.events = events
        return events

    def returns(self) -> tuple[float, ...]:
        """Every seat's return; zeros until the episode is over."""
        if not self.over:
            return (0.0,) * self.rules.players
        game = self.game
        forfeit = None if game.winner is None else forfeiting_side(self.rules, self.events)
        dealers = (self.start_dealer, game.dealer)
        return seat_returns(
            self.rules,
            self.reward,
            game.scores,
            game.winner,
            start=self.start,
            forfeit=forfeit,
            dealers=dealers,
            before=self.chances_before,
        )

    def lowest_return(self) -> float:
        """The worst return of this reward: what an illegal action that ends the episode is worth."""
        return return_bounds(self.rules, self.reward)[0]


def _deck(cards: Sequence[int | str]) -> list[int]:
    """A deck given as card ids or names; the engine checks it is one (R3.4, RECORD.md)."""
    return [parse_card(card) if isinstance(card, str) else card for card in cards]


def _scores(rules: Rules, scores: object, rng: random.Random) -> list[int]:
    """The scores to begin at: given, drawn uniformly (``"uniform"``), drawn by a sampler, or 0 each."""
    if scores is None:
        return [0] * rules.sides
    if scores == "uniform":
        return [rng.randrange(rules.target) for _ in range(rules.sides)]
    if callable(scores):
        scores = scores(rules, rng)
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence):
        raise ValueError(
            f"the reset option 'scores' is one number per side, 'uniform' or a function (rules, rng) -> scores, "
            f"not {scores!r}"
        )
    return list(scores)


def _record_position(rules: Rules, options: Mapping[str, Any]) -> tuple[Game, bool]:
    """The game of a record replayed up to its ``decision``-th decision, waiting for no deck of the record after,
    and whether a decision of its round has been taken already (the episode begins inside the round)."""
    given = sorted(set(options) & {"deck", "dealer", "scores", "round"})
    if given:
        raise ValueError(f"the reset option {given[0]!r} cannot go with 'record': the record gives it")
    record = options["record"]
    if isinstance(record, (str, Path)):
        record = load_record(record)
    if not isinstance(record, Mapping):
        raise ValueError(f"the reset option 'record' is a RECORD.md record or the path of one, not {record!r}")
    decision = options.get("decision", 0)
    if not isinstance(decision, int) or isinstance(decision, bool) or decision < 0:
        raise ValueError(f"the reset option 'decision' is a whole number from 0, not {decision!r}")
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise ValueError("the record has no rounds (RECORD.md: a non-empty list of rounds)")
    left, kept = decision, []
    for rnd in rounds:
        actions = rnd.get("actions", []) if isinstance(rnd, Mapping) else []
        if left < len(actions) or rnd is rounds[-1]:
            kept.append({**rnd, "actions": actions[:left]})
            break
        kept.append(rnd)
        left -= len(actions)
    total = sum(len(rnd.get("actions", [])) for rnd in rounds if isinstance(rnd, Mapping))
    if decision > total:
        raise ValueError(f"the record holds {total} decisions: there is no decision {decision}")
    try:
        game = replay({**record, "rounds": kept})
    except RondaError as error:
        raise ValueError(f"the record cannot be replayed: {error}") from None
    if game.rules != rules:
        raise ValueError(f"the record is played under {game.rules}, this environment under {rules}")
    if game.phase == OVER:
        raise ValueError(f"the record's game is won before decision {decision}: nothing is left to decide")
    if game.phase == WAITING:
        raise ValueError(f"decision {decision} ends the record's last round: the record has no next round")
    return game, bool(kept[-1]["actions"])
