"""The rules engine: cards, rules, the game state machine, views, events and records.

It depends on nothing outside the standard library and knows nothing of bots or
interfaces; everything else in ``ronda`` stands on it.
"""

from .actions import CHALLENGES, DECLARES, PLAYS, Action, Challenge, Declare, Play, parse_action
from .cards import Card, CardSet, Mask, card_name, parse_card
from .combinations import DECLARATIONS, candidates, combination_of
from .deck import DeckError, check_deck, shuffled_deck
from .errors import (
    CardError,
    IllegalActionError,
    NotYourTurnError,
    RecordError,
    RondaError,
    RulesError,
)
from .events import Event
from .game import DECLARE, OVER, PLAY, WAITING, Game
from .record import dumps_record, load_record, replay, replay_result, save_record
from .rules import Rules
from .view import Chain, SeatView

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
    "Mask",
    "NotYourTurnError",
    "OVER",
    "PLAY",
    "Play",
    "PLAYS",
    "RecordError",
    "RondaError",
    "Rules",
    "RulesError",
    "SeatView",
    "WAITING",
    "candidates",
    "card_name",
    "check_deck",
    "combination_of",
    "dumps_record",
    "load_record",
    "parse_action",
    "parse_card",
    "replay",
    "replay_result",
    "save_record",
    "shuffled_deck",
]
