"""The rules engine: cards, rules, the game state machine, views, events and records.

It depends on nothing outside the standard library and knows nothing of bots or
interfaces; everything else in ``ronda`` stands on it, through the names below.

==================================== =====================================================================
:class:`Game`                        the game: decisions verified then applied, events out, views for seats
:class:`Rules`                       players and the variants of R10
:class:`SeatView`, :class:`PublicView` what a seat, and what a spectator, may know (R11)
:data:`Action`: :class:`Play`,       the three decisions; ``PLAYS``, ``DECLARES``, ``CHALLENGES`` hold one
:class:`Declare`, :class:`Challenge` of each; :func:`parse_action` reads ``play 5c``
:data:`Card`, :class:`CardSet`       a card (an id 0..39) and a set of cards; :func:`parse_card`, :func:`card_name`
:data:`Event`                        what happened, in public (``ronda.engine.events`` has each kind)
:data:`Kind`, :data:`Phase`,         declarations, phases and score reasons, as literal strings
:data:`Reason`
:func:`combination_of`,              the combination a hand holds (R8.1), the candidates of a declaration (R8.5)
:func:`hand_combination`,
:func:`candidates`
:func:`replay`, :func:`load_record`, game records (RECORD.md)
:func:`save_record`, ...
:class:`PositionBuilder`,            games built from a view and a guess of its hidden cards, for searches
:class:`SearchState`, :data:`Policy` (:meth:`Game.from_view`, :meth:`Game.playout`)
:class:`RondaError` and subclasses   every error the engine raises, all ``ValueError``
==================================== =====================================================================

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
    NotYourTurnError,
    PositionError,
    RecordError,
    RondaError,
    RulesError,
)
from .events import Event, Reason
from .game import Game, Policy, SearchState
from .position import PositionBuilder
from .record import dumps_record, load_record, replay, replay_result, save_record
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
    "parse_card",
    "replay",
    "replay_result",
    "save_record",
    "shuffled_deck",
]
