"""The rules engine: cards, rules, the game state machine, views, events and records.

It depends on nothing outside the standard library and knows nothing of bots or
interfaces; everything else in ``ronda`` stands on it, through the names below.

- :class:`Game`: the game — decisions verified then applied, public events out, views for seats;
  :meth:`Game.from_scores` begins a game at given scores (a position near the target without the rounds
  before it); :meth:`Game.from_view` builds a game to search in from a view and a guess of its hidden cards
  (:meth:`Game.positions` makes a :class:`PositionBuilder` that builds many), :meth:`Game.playout`
  plays on by itself (with a :data:`Policy` reading a :class:`SearchState`);
- :class:`Rules`: players and the variants of R10;
- :class:`SeatView`, :class:`PublicView`: what a seat, and what a spectator, may know (R11);
- :data:`Action` (:class:`Play`, :class:`Declare`, :class:`Challenge`): the three decisions;
  ``PLAYS``, ``DECLARES`` and ``CHALLENGES`` hold one of each; :func:`parse_action` reads ``play 5c``;
- :data:`Card`, :class:`CardSet`: a card (an id 0..39) and a set of cards; :func:`parse_card`, :func:`card_name`;
- :data:`Event`: what happened, in public (:mod:`ronda.engine.events` has each kind);
- :data:`Kind`, :data:`Phase`, :data:`Reason`: declarations, phases and score reasons, as literal strings;
- :func:`combination_of`, :func:`hand_combination`, :func:`candidates`: what a hand holds (R8.1), what a
  declaration may still be (R8.5);
- :func:`replay`, :func:`load_record`, :func:`save_record`, :func:`dumps_record`, :func:`replay_result`:
  game records (RECORD.md), written whole or not at all (:func:`write_atomically`);
  :func:`read_json`, :func:`parse_json`: JSON from files and messages, size and nesting bounded before parsing;
  :func:`shuffled_deck`, :func:`check_deck`: decks (R3.3, R3.4);
- :class:`RondaError` and its subclasses: every error the package raises on bad input, all ``ValueError``.

How the engine is built (where each rule happens, the state declared once): docs/engine.md.

Masks (plain ints, bit ``c`` for card ``c``) appear in the API only where
searches read state millions of times: :class:`SearchState`,
:class:`PositionBuilder`, :func:`hand_combination`, and ``CardSet.mask``.
"""

from .actions import CHALLENGES, DECLARES, PLAYS, Action, Challenge, Declare, Play, parse_action
from .cards import Card, CardSet, Mask, card_name, parse_card
from .combinations import DECLARATIONS, Kind, candidates, combination_of, hand_combination
from .deck import check_deck, shuffled_deck
from .errors import (
    CardError,
    DeckError,
    IllegalActionError,
    InputError,
    NotYourTurnError,
    PositionError,
    RecordError,
    RondaError,
    RulesError,
)
from .events import Event, Reason
from .game import Game, Policy, SearchState
from .jsontext import parse_json, read_json
from .position import PositionBuilder
from .record import dumps_record, load_record, replay, replay_result, save_record, write_atomically
from .rules import Rules
from .view import DECLARE, OVER, PLAY, WAITING, Chain, Phase, PublicView, SeatView

__all__ = [
    "Action",
    "Card",
    "CardError",
    "CardSet",
    "Chain",
    "Challenge",
    "CHALLENGES",
    "Declare",
    "DECLARE",
    "DECLARATIONS",
    "DECLARES",
    "DeckError",
    "Event",
    "Game",
    "IllegalActionError",
    "InputError",
    "Kind",
    "Mask",
    "NotYourTurnError",
    "OVER",
    "Phase",
    "PLAY",
    "Play",
    "PLAYS",
    "Policy",
    "PositionBuilder",
    "PositionError",
    "PublicView",
    "Reason",
    "RecordError",
    "RondaError",
    "Rules",
    "RulesError",
    "SearchState",
    "SeatView",
    "WAITING",
    "candidates",
    "card_name",
    "check_deck",
    "combination_of",
    "dumps_record",
    "hand_combination",
    "load_record",
    "parse_action",
    "parse_json",
    "parse_card",
    "read_json",
    "replay",
    "replay_result",
    "save_record",
    "shuffled_deck",
    "write_atomically",
]
