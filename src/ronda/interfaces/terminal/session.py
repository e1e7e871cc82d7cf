"""A game against computer opponents, apart from any screen: the one place the terminal interfaces play.

:class:`Session` owns the :class:`~ronda.engine.game.Game`, the human's seat and
the bots, and turns every step into lines of narration. The full-screen app and
the plain line mode both drive a session and draw from it, so the rules of
taking turns, explaining an illegal choice, summing up a round, saving and
resuming are written once, here.

What the human is shown comes only from ``game.view(human)`` and the public
events (R11); bots are given their own seat's view, as always.

>>> session = Session(Settings(rules=Rules(players=2), levels=(None, "random"), seed=3, pace=0))
>>> session.human_to_act(), session.view.phase
(True, 'declare')
>>> lines = session.act(Declare(session.true_declaration()))
>>> while not session.human_to_act():
...     lines += session.step_bot()
>>> session.view.phase
'play'
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ...analysis.hints import Hint, hint_of, read_hints
from ...analysis.review import Review, analyse
from ...analysis.search import Evaluation, Method, decision_seed, evaluate
from ...bots import make_bot
from ...bots.base import Bot
from ...engine.actions import DECLARES, PLAYS, Action, Challenge, Declare, Play
from ...engine.cards import RANKS, card_name, parse_card
from ...engine.combinations import NONE, Kind, describe_strength, hand_combination
from ...engine.deck import shuffled_deck
from ...engine.errors import BotError, IllegalActionError, InputError, RondaError
from ...engine.events import Capture, Drop, Event, GameOver, Raise, RoundStart
from ...engine.game import DECLARE, OVER, PLAY, WAITING, Game
from ...engine.jsontext import read_json
from ...engine.presets import PRESETS, preset_rules
from ...engine.record import dumps_record, load_record, replay, write_atomically
from ...engine.rules import Rules
from ...engine.view import SeatView
from ...presentation.challenge import ChallengeOption, challenge_options, challenge_warning
from ...presentation.coaching import hint_lines, slips_lines, summary_lines
from ...presentation.messages import listed
from ...presentation.narration import Narrator, seat_name, side_name
from ...presentation.rules_text import rules_name, rules_summary, rules_text
from ...presentation.summary import RoundTally, Tally

DEFAULT_LEVEL = "medium"
DEFAULT_PACE = 0.6
"""Seconds between two bot decisions in the full-screen app, so a person can follow them."""

SIDE_FILE_SUFFIX = ".play.json"
"""The interface's own settings (seat, bot levels, seed) are kept beside a saved record, never in it (RECORD.md)."""


def cards_text(count: int) -> str:
    """A number of cards in words: '1 card', '3 cards'."""
    return f"{count} card{'' if count == 1 else 's'}"


def places_text(count: int) -> str:
    """The places of a hand of ``count`` cards, as the keys and ``play N`` number them: '1', '1 to 3'."""
    return "1" if count == 1 else f"1 to {count}"


# ------------------------------------------------------------------ presets


def presets() -> dict[str, dict[str, Any]]:
    """The named rule sets (:mod:`ronda.engine.presets`) as variant values; ``classic`` is the rules with none."""
    return {name: dict(preset.values) for name, preset in PRESETS.items()}


def rules_help(rules: Rules) -> str:
    """The rules in short for the ``?`` key and the ``help`` command, written from the rules being played."""
    return rules_summary(rules)


def rulebook(rules: Rules, preset: str = "classic", width: int | None = 88) -> str:
    """The whole rules of this game in plain words (what ``ronda rules`` prints); ``width=None`` leaves lines whole.

    Titled in the game's own words (:func:`rules_name`, as the table's heading): the preset the rules happen to
    match named "advanced rules" a game the start screen had called classic with dealer duty ticked (an audit).
    """
    return rules_text(rules, width=width, heading=rules_name(rules, preset))


# ------------------------------------------------------------------ settings


@dataclass(frozen=True)
class Settings:
    """Everything chosen before a game: rules, the human's seat, a bot level for every other seat, seed, pace.

    ``levels`` holds one entry per seat, ``None`` at the human's seat.
    ``time_limit`` caps a search bot's thinking per decision in seconds
    (``None``: its fixed budget alone, so a seed replays the same game).
    """

    rules: Rules = field(default_factory=Rules)
    seat: int = 0
    levels: tuple[str | None, ...] = (None, DEFAULT_LEVEL)
    seed: int | None = None
    preset: str = "classic"
    pace: float = DEFAULT_PACE
    time_limit: float | None = None

    @classmethod
    def make(
        cls,
        players: int = 2,
        seat: int = 0,
        level: str | Sequence[str] = DEFAULT_LEVEL,
        *,
        preset: str = "classic",
        variants: dict[str, Any] | None = None,
        seed: int | None = None,
        pace: float = DEFAULT_PACE,
        time_limit: float | None = None,
    ) -> Settings:
        """Settings from the choices a player makes; raises ``RondaError``/``ValueError`` naming a bad one.

        ``level`` is one level for every bot, or one per other seat in seat order
        (``"easy,medium,hard"``).
        """
        rules = preset_rules(preset, players, **(variants or {}))
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise RondaError(f"your seat must be from 0 to {players - 1}, not {seat}")
        return cls(rules, seat, spread_levels(level, players, seat), seed, preset, pace, time_limit)

    @property
    def players(self) -> int:
        return self.rules.players


def level_count_error(given: int, players: int, seat: int) -> str | None:
    """What is wrong with ``given`` bot levels for the seats other than ``seat``, else ``None``: one level for
    all, or one a seat. Worded for one other seat as well as three ("one for each of the 1 other seats (1)" was
    said to two-player games).

    >>> level_count_error(2, 2, 0)
    'a 2-player game has one bot, seat 1: give one level, not 2'
    >>> level_count_error(2, 4, 0)
    'give one bot level, or one for each of the 3 other seats (1, 2 and 3) in that order, not 2'
    """
    others = [str(s) for s in range(players) if s != seat]
    if given in (1, len(others)):
        return None
    if len(others) == 1:
        return f"a {players}-player game has one bot, seat {others[0]}: give one level, not {given}"
    return (
        f"give one bot level, or one for each of the {len(others)} other seats ({listed(others)}) "
        f"in that order, not {given}"
    )


def spread_levels(level: str | Sequence[str], players: int, seat: int) -> tuple[str | None, ...]:
    """A level for every seat but the human's from ``"medium"`` or ``"easy,hard"`` (other seats in order).

    >>> spread_levels("easy,hard", 3, 1)
    ('easy', None, 'hard')
    """
    names = [part.strip() for part in level.split(",")] if isinstance(level, str) else list(level)
    names = [name for name in names if name]
    others = [s for s in range(players) if s != seat]
    wrong = level_count_error(len(names), players, seat)
    if wrong:
        raise RondaError(wrong)
    if len(names) == 1:
        names *= len(others)
    levels: list[str | None] = [None] * players
    for s, name in zip(others, names, strict=True):
        levels[s] = name
    return tuple(levels)


# ---------------------------------------------------------------- last play


@dataclass(frozen=True)
class PlayMark:
    """The last card played, what it took, and its narration line: what a screen marks on the table for a moment."""

    seat: int
    card: int
    taken: tuple[int, ...]
    line: str


# ------------------------------------------------------------------- session


class Session:
    """One game between a person at ``settings.seat`` and bots at every other seat."""

    def __init__(self, settings: Settings, game: Game | None = None) -> None:
        self.settings = settings
        self.human = settings.seat
        rules = settings.rules if game is None else game.rules
        if not 0 <= self.human < rules.players:
            raise RondaError(f"your seat must be from 0 to {rules.players - 1}, not {self.human}")
        self.seed = settings.seed if settings.seed is not None else random.randrange(1_000_000)
        self._deck_rng = random.Random(self.seed)
        if game is None:
            game = Game(rules, seed=self.seed)
        else:
            self._deck_rng = _continued_rng(game, self.seed)
        self.game = game
        levels = settings.levels
        if len(levels) != rules.players or levels[self.human] is not None:
            levels = spread_levels([lvl for lvl in levels if lvl] or [DEFAULT_LEVEL], rules.players, self.human)
        self.levels = levels
        self.bots: dict[int, Bot] = {
            seat: make_bot(level, seed=self.seed * 10 + seat + 1, time_limit=settings.time_limit)
            for seat, level in enumerate(levels)
            if level
        }
        self.narrator = Narrator(rules.players, me=self.human, ace_high=rules.ace_high)
        self.lines: list[str] = []
        self.tally = Tally(rules.players)
        self.rounds: list[RoundTally] = []
        """The rounds played to their last card, each with its breakdown (:mod:`ronda.presentation.summary`)."""
        self._summarised = 0
        self.saved_to: Path | None = None
        self.sitting = 1
        """This game's number among those played in one run of ``ronda play`` (play again, a new game)."""
        self.resumed_from: Path | None = None
        """The file the run's first game was resumed from: it names the games played after it (:meth:`save_path`)."""
        self.last_play: PlayMark | None = None
        """The latest card played by anyone (R4.4: public), with the cards it took."""
        self.hints: list[Hint] = []
        """The hints shown to the human, kept with the game when it is saved (the record's ``hints``)."""
        self.method = Method()
        """How hints and the analysis after the game are searched: the defaults of ``ronda analyse``."""
        self.review: Review | None = None
        """The analysis of the human's decisions, once asked for after the game."""
        self._saved_events = -1
        self._consume(list(game.events))
        self._deal_in_waiting_game()
        self._saved_events = len(game.events)  # nothing to lose before anything happens

    # ------------------------------------------------------------- queries

    @property
    def rules(self) -> Rules:
        return self.game.rules

    @property
    def view(self) -> SeatView:
        """The human's view: everything the interfaces may show (R11)."""
        return self.game.view(self.human)

    @property
    def over(self) -> bool:
        return self.game.phase == OVER

    def human_to_act(self) -> bool:
        return self.game.phase in (DECLARE, PLAY) and self.game.turn == self.human

    def bot_to_act(self) -> int | None:
        """The bot seat whose decision is due, if any."""
        if self.game.phase in (DECLARE, PLAY) and self.game.turn != self.human:
            return self.game.turn
        return None

    def name(self, seat: int) -> str:
        """'you', or 'seat 2 (medium)'."""
        if seat == self.human:
            return "you"
        return f"seat {seat} ({self.levels[seat]})"

    def true_declaration(self) -> Kind:
        """What the human's hand as dealt holds (R8.1): the declaration that is true."""
        combo = hand_combination(self.view.hand.mask, self.rules.ace_high) if self.game.phase == DECLARE else None
        return NONE if combo is None else combo.kind

    def hand_holds(self) -> str:
        """The human's combination in words, for the declaration prompt."""
        combo = hand_combination(self.view.hand.mask, self.rules.ace_high)
        if combo is None:
            return "nothing to declare"
        kind, strength, _ = combo
        return f"a {kind.replace('_', ' ')} ({describe_strength(kind, strength, self.rules.ace_high)})"

    @property
    def totals(self) -> list[int]:
        """The scores as the events told them (they match the engine's)."""
        return self.tally.totals

    def challenge_options(self) -> list[ChallengeOption]:
        """Every challenge the human may make now (R8.8), with what the human's view proves of it."""
        if not self.human_to_act():
            return []
        return challenge_options(self.view, self.game.legal_actions())

    def challenge_targets(self) -> list[int]:
        """The challenges to offer the human now: never one its own view proves true (it could only lose, R8.8)."""
        return [option.target for option in self.challenge_options() if option.offered]

    def challenge_question(self, target: int) -> str:
        """The question to answer y or n before a challenge of ``target``: what it risks, in the game's words (R8.8).

        Raises :class:`IllegalMove` saying why when the challenge is not allowed now.
        """
        reason = self.explain(Challenge(target))
        if reason is not None:
            raise IllegalMove(reason)
        option = next(o for o in self.challenge_options() if o.target == target)
        anyway = "" if option.offered else " anyway"
        return f"{challenge_warning(option, self.rules.players)} Challenge{anyway}? y/n"

    def unchallengeable_text(self) -> str:
        """Why no challenge is offered although one is allowed: the declarations the human's view proves true."""
        proven = [o for o in self.challenge_options() if not o.offered]
        if not proven:
            return ""
        named = " and ".join(f"seat {o.target}'s {o.declared.replace('_', ' ')}" for o in proven)
        verb = "is" if len(proven) == 1 else "are"
        return f"{named[:1].upper() + named[1:]} {verb} proven true by the cards you have seen: no challenge to make"

    def declarations(self) -> list[str]:
        """The declarations the human may make now."""
        return [a.declaration for a in self.game.legal_actions() if isinstance(a, Declare)]

    def prompt(self) -> str:
        """What is expected now, in words."""
        game = self.game
        if game.phase == OVER:
            return "The game is over."
        if game.turn != self.human:
            return f"{self.name(game.turn).capitalize()} is thinking…"
        if game.phase == DECLARE:
            kinds = ", ".join(k.replace("_", " ") for k in self.declarations())
            return f"Declare {kinds} — your hand holds {self.hand_holds()}."
        text = "Your turn: play a card."
        targets = self.challenge_targets()
        if targets:
            declared = self.view.declarations
            text += " You may first challenge " + ", ".join(f"seat {t}'s {declared[t]}" for t in targets) + "."
        return text

    # ---------------------------------------------------------------- words

    def title(self) -> str:
        """The game in one line: who plays whom, under which rules, with which seed."""
        rules = self.rules
        others = ", ".join(self.name(s) for s in range(rules.players) if s != self.human)
        partner = f", your partner is seat {(self.human + 2) % 4}" if rules.players == 4 else ""
        return (
            f"Ronda, {rules.players} players: you are seat {self.human}{partner}; bots: {others}. "
            f"{rules_name(rules, self.settings.preset)}, target {rules.target}. Seed {self.seed}."
        )

    def scores_text(self) -> str:
        view = self.view
        parts = [f"{side_name(s, view.players, self.human)} {p}" for s, p in enumerate(view.scores)]
        return f"{', '.join(parts)} (target {self.rules.target})"

    def where_text(self) -> str:
        """Round, deal, dealer and stock."""
        view = self.view
        return (
            f"round {view.round + 1}, deal {view.deal + 1} of {view.deals_in_round}; "
            f"{seat_name(view.dealer, self.human)} {'deal' if view.dealer == self.human else 'deals'}; "
            f"{view.stock} cards in the stock"
        )

    def declaration_text(self, seat: int) -> str:
        """A seat's declaration this deal as everyone knows it: 'ronda', 'ronda (exposed as false)', '' if not yet."""
        view = self.view
        kind = view.declarations[seat]
        if kind is None:
            return ""
        text = kind.replace("_", " ")
        if view.exposed[seat]:
            text += " (exposed as false)"
        shown = view.shown[seat]
        if shown is not None:
            text += f", hand shown: {shown}"
        return text

    def seat_text(self, seat: int) -> str:
        """One seat's public facts (R11): hand size, its side's pile, its declaration."""
        view = self.view
        name = self.name(seat)
        side = self.rules.side_of(seat)
        pile = "your side's" if self.rules.players == 4 and side == view.side else "its side's"
        if self.rules.players != 4:
            pile = "your" if seat == self.human else "its"
        text = f"{name}: {cards_text(view.hand_sizes[seat])} in hand, {pile} pile {view.pile_sizes[side]}"
        declared = self.declaration_text(seat)
        if declared:
            text += f", declared {declared}"
        if seat == view.dealer:
            text += ", dealer"
        return text[:1].upper() + text[1:]

    def side_title(self, side: int) -> str:
        """A side as the score bar names it, short enough for any label: 'You', 'Seat 1'; 'Us', 'Them (seats 1 & 3)'."""
        view = self.view
        if self.rules.players != 4:
            return "You" if side == view.side else f"Seat {side}"
        return "Us" if side == view.side else f"Them (seats {side} & {side + 2})"

    def chain_text(self) -> str:
        """The open chain (R5.3) in words, the side that holds it named as on the score bar, or ''."""
        chain = self.view.chain
        if chain is None:
            return ""
        rank = RANKS[chain.rank]
        title = self.side_title(chain.side)
        holder = title if title.startswith("Seat") else title[:1].lower() + title[1:]
        return f"Open chain on {rank}s: {chain.cards}, taken by {holder}; another {rank} raises it"

    # ------------------------------------------------------------- actions

    def explain(self, action: Action) -> str | None:
        """Why the human may not take ``action`` now, in the player's words; ``None`` when it is legal."""
        game = self.game
        if game.phase == OVER:
            return "The game is over."
        if game.turn != self.human:
            return f"Wait: it is {self.name(game.turn)}'s turn."
        if action in game.legal_actions():
            return None
        view = self.view
        if isinstance(action, Play):
            if game.phase == DECLARE:
                return "First declare for this deal: " + ", ".join(self.declarations()) + "."
            return f"You do not hold {card_name(action.card)}; your hand is {view.hand}."
        if isinstance(action, Declare):
            if game.phase == PLAY:
                return "Declarations are made when a deal starts; now play a card."
            if action.declaration == "double_ronda":
                return "A double ronda can only be declared with four-card hands."
            return f"Unknown declaration {action.declaration!r}."
        if isinstance(action, Challenge):
            return self._explain_challenge(action.target)
        return f"Not a move: {action!r}."

    def _explain_challenge(self, target: int) -> str:
        game, view = self.game, self.view
        if game.phase == DECLARE:
            return "Challenges come on your turn to play, after the declarations."
        if self.rules.auto_declare:
            return "There are no challenges when declarations are automatic."
        if view.challenged_this_turn:
            return "You have challenged this turn already: now play a card."
        if not 0 <= target < self.rules.players:
            return f"There is no seat {target}."
        if target == self.human:
            return "You cannot challenge yourself."
        if not view.is_opponent(target):
            return f"Seat {target} is your partner: only an opponent's declaration can be challenged."
        if view.declarations[target] in (None, NONE):
            return f"Seat {target} declared nothing this deal."
        if view.exposed[target]:
            return f"Seat {target}'s declaration is already exposed."
        return f"Seat {target} cannot be challenged now."

    def act(self, action: Action) -> list[str]:
        """The human's decision; raises :class:`IllegalMove` with the reason and changes nothing if not legal."""
        reason = self.explain(action)
        if reason is not None:
            raise IllegalMove(reason)
        return self._consume(self.game.apply(action, seat=self.human))

    def bot_choice(self) -> tuple[int, Action]:
        """The due bot's decision, from its own view only. Safe to run in a worker thread: it changes nothing."""
        seat = self.bot_to_act()
        if seat is None:
            raise RondaError("no bot decision is due")
        action = self.bots[seat].choose(self.game.view(seat), self.game.legal_actions())
        return seat, action

    def apply_bot(self, seat: int, action: Action) -> list[str]:
        return self._consume(self.game.apply(action, seat=seat))

    def step_bot(self) -> list[str]:
        """One bot decision, applied; the new narration lines."""
        return self.apply_bot(*self.bot_choice())

    def run_bots(self, pace: float = 0.0) -> Iterable[list[str]]:
        """Bot decisions until the human must act or the game is over, waiting ``pace`` seconds before each."""
        while self.bot_to_act() is not None:
            if pace:
                time.sleep(pace)
            yield self.step_bot()

    # ---------------------------------------------------------- learning

    def hint_evaluation(self) -> Evaluation:
        """The human's options now, valued from the human's view alone (R11) as ``ronda analyse`` values them.

        The same seed as the analysis of this decision, so a hint and the analysis
        after the game agree. Safe to run in a worker thread: it changes nothing.
        Raises :class:`IllegalMove` when the human has no decision to take.
        """
        if not self.human_to_act():
            raise IllegalMove("A hint is for your own decision: wait for your turn.")
        view = self.view
        seed = decision_seed(view, self.game.actions_taken)
        return evaluate(view, self.game.legal_actions(), self.method, seed=seed)

    def give_hint(self, evaluation: Evaluation) -> list[str]:
        """Keep a hint with the game (once per decision) and return its lines; ``[]`` if the decision has passed."""
        game = self.game
        if not self.human_to_act() or evaluation.seed != decision_seed(self.view, game.actions_taken):
            return []
        round_actions = len(game.to_record()["rounds"][-1]["actions"])
        hint = hint_of(evaluation, game.round, round_actions)
        self.hints = [h for h in self.hints if (h.round, h.action) != (hint.round, hint.action)] + [hint]
        return hint_lines(evaluation, me=self.human)

    def hint(self) -> list[str]:
        """A hint for the human's decision now, kept with the game: the best options with their chances to win."""
        return self.give_hint(self.hint_evaluation())

    def analyse(
        self,
        progress: Callable[[int, int], None] | None = None,
        jobs: int = 1,
        started: Callable[[int], None] | None = None,
    ) -> Review:
        """The analysis of the human's decisions in this game (computed once); ``progress(done, total)`` as it goes.

        ``started(total)`` before the first decision is searched, so that a progress line shows at once.
        Ctrl-C (``KeyboardInterrupt``) leaves no analysis behind: asked again, it starts over.
        """
        if self.review is None:
            record = self.record()
            self.review = analyse(
                record, method=self.method, seats=[self.human], jobs=jobs, progress=progress, started=started
            )
        return self.review

    def analysis_lines(self) -> list[str]:
        """The analysis after the game in words: the human's summary, then every decision that lost points."""
        review = self.analyse()
        return summary_lines(review.summary(self.human), me=self.human) + slips_lines(review, self.human)

    # -------------------------------------------------------------- events

    def _consume(self, events: list[Event]) -> list[str]:
        """Narrate new events, with a summary after each round; deal on when a replayed game waits for a deck."""
        lines: list[str] = []
        start = 0
        for index, event in enumerate(events):
            if isinstance(event, RoundStart) and self._summary_due():
                lines += self.narrator.feed(events[start:index])
                lines += self._summary()
                start = index
            self.rounds += self.tally.feed((event,))
        lines += self.narrator.feed(events[start:])
        if self._summary_due():
            lines += self._summary()
        self.lines.extend(lines)
        self._mark_last_play(events, lines)
        return lines + self._deal_in_waiting_game()

    def _mark_last_play(self, events: list[Event], lines: list[str]) -> None:
        play = next((e for e in reversed(events) if isinstance(e, (Capture, Drop, Raise))), None)
        if play is None:
            return
        who = self.name(play.seat).split(" (")[0]
        said = f"{who[:1].upper() + who[1:]} "
        line = next((text for text in reversed(lines) if text.startswith(said) and card_name(play.card) in text), "")
        taken = () if isinstance(play, Drop) else tuple(play.cards)
        self.last_play = PlayMark(play.seat, play.card, taken, line)

    def _summary_due(self) -> bool:
        return len(self.rounds) > self._summarised

    def _summary(self) -> list[str]:
        self._summarised = len(self.rounds)
        return self.rounds[-1].lines(self.rules.players, self.human)

    def round_tallies(self) -> list[RoundTally]:
        """Every round begun, the one the game ended in last even when it was not played out (R9.3)."""
        return list(self.tally.rounds)

    def _deal_in_waiting_game(self) -> list[str]:
        """A game replayed from a record has no shuffler: give it the next deck from the session's own."""
        if self.game.phase != WAITING:
            return []
        return self._consume(self.game.add_deck(shuffled_deck(self.rules, self._deck_rng)))

    def result(self) -> list[str]:
        """The end of the game in words: who won, how, and the totals."""
        game = self.game
        if game.winner is None:
            return []
        players = self.rules.players
        winner = side_name(game.winner, players, self.human)
        how = ""
        for event in reversed(game.events):
            if isinstance(event, GameOver):
                how = " by a failed challenge" if event.reason == "failed_challenge" else ""
                break
        verb = "win" if winner == "you" else "wins"
        scores = ", ".join(f"{side_name(s, players, self.human)} {p}" for s, p in enumerate(game.scores))
        return [
            f"{winner[:1].upper() + winner[1:]} {verb}{how}!",
            f"Final scores: {scores} (target {self.rules.target}).",
        ]

    # --------------------------------------------------------- save/resume

    def record(self) -> dict[str, Any]:
        """The game as a record (RECORD.md), with the hints shown in its ``hints`` extension."""
        record = self.game.to_record()
        if self.hints:
            record["hints"] = [hint.to_json() for hint in self.hints]
        return record

    def save(self, path: str | Path | None = None) -> Path:
        """Write the game as a record (RECORD.md) and the interface settings beside it; returns the record's path."""
        target = Path(path) if path else Path(time.strftime("ronda-%Y%m%d-%H%M%S.json"))
        write_atomically(target, dumps_record(self.record()).encode("utf-8"))
        side = {
            "seat": self.human,
            "levels": list(self.levels),
            "seed": self.seed,
            "preset": self.settings.preset,
        }
        write_atomically(side_file(target), (json.dumps(side, indent=2) + "\n").encode("utf-8"))
        self.saved_to = target
        self._saved_events = len(self.game.events)
        return target

    def save_path(self, asked: str | Path | None) -> Path | None:
        """Where a save with no path of its own writes this game (``None``: a new dated name).

        The file it was resumed from or last saved to; else ``asked`` (``--save``) or the file the run's first
        game was resumed from, numbered from the second game of a run ("game-2.json"): the path names the first
        game, and playing again once wrote the next game over the finished one without a word. A game played
        after a resumed one was saved under a dated name, where ``--help`` promised "game-2.json" (an audit).
        """
        if self.saved_to is not None:
            return self.saved_to
        if asked is None:
            asked = self.resumed_from
        if asked is None:
            return None
        path = Path(asked)
        return path if self.sitting == 1 else path.with_name(f"{path.stem}-{self.sitting}{path.suffix}")

    def saved_text(self) -> str:
        """What saving wrote, both files by name, and the command that takes the game up again.

        A save is two files: the record (RECORD.md, what ``ronda replay`` reads)
        and beside it the seat, levels and seed of this game (``.play.json``),
        which ``--resume`` reads too. Both are named, so none is a surprise.
        """
        record = self.saved_to
        assert record is not None, "saved_text is for a saved game"
        again = (
            f"Watch it again with: ronda replay {record}"
            if self.over
            else (f"Continue it later with: ronda play --resume {record}")
        )
        return f"Saved to {record} (the game) and {side_file(record)} (your seat and the bots). {again}"

    def unsaved(self) -> bool:
        """Whether anything has happened since the game was last saved (or resumed), or it was never saved."""
        return len(self.game.events) != self._saved_events

    def asks_before_leaving(self, quitting: bool) -> bool:
        """Whether leaving this game (by quitting, or else by playing again or starting anew) asks first.

        It asks when moves would be lost: a game in progress, and a finished one, whose last moves are as easily
        lost. But playing again after a finished game never kept in a file (never saved, not resumed) goes at
        once: that player was not keeping it, and a question at every play again would tax the commonest
        command; quitting still asks. One rule for the full screen and the plain mode (an audit found the plain
        mode quitting a finished, unsaved game unasked where the full screen asked).
        """
        if not self.unsaved():
            return False
        return quitting or not self.over or self.saved_to is not None

    @classmethod
    def resume(
        cls,
        path: str | Path,
        seat: int | None = None,
        level: str | Sequence[str] | None = None,
        pace: float = DEFAULT_PACE,
        seed: int | None = None,
        time_limit: float | None = None,
    ) -> Session:
        """Continue a saved game: the record is replayed by the engine; the seat and bots come from the side file.

        Explicit ``seat``/``level`` win over the side file; without either, seat 0 against ``medium``.
        Raises :class:`~ronda.engine.errors.RecordError` for a bad record (its message does not name
        the file), and :class:`~ronda.engine.errors.RondaError` naming the side file for a bad one.
        """
        record = load_record(path)
        game = replay(record)
        hints = read_hints(record)
        saved: dict[str, Any] = {}
        side = side_file(Path(path))
        if side.exists():  # a record from elsewhere has none: seat 0 against the default level
            try:
                loaded = read_json(side, what="a saved game's settings", max_bytes=64 * 1024, max_depth=8)
            except InputError as error:
                raise RondaError(f"{side}: {error}") from None
            if isinstance(loaded, dict):
                saved = loaded
        players = game.rules.players
        human = seat if seat is not None else saved.get("seat", 0)
        if not isinstance(human, int) or not 0 <= human < players:
            # Said where it came from: a person who gave no --seat read "your seat" as something they typed.
            where = "your seat" if seat is not None else f"{side}: the seat saved there"
            raise RondaError(f"{where} must be from 0 to {players - 1}, not {human!r}")
        from_side = False
        if level is not None:
            levels = spread_levels(level, players, human)
        elif human == saved.get("seat") and isinstance(saved.get("levels"), list):
            levels, from_side = tuple(saved["levels"]), True
        else:
            levels = spread_levels(DEFAULT_LEVEL, players, human)
        seed = seed if seed is not None else saved.get("seed") if isinstance(saved.get("seed"), int) else None
        preset = saved.get("preset", "classic") if isinstance(saved.get("preset"), str) else "classic"
        settings = Settings(game.rules, human, levels, seed, preset, pace, time_limit)
        try:
            session = cls(settings, game)
        except BotError as error:
            if not from_side:
                raise
            raise RondaError(f"{side}: {error} (--level chooses others)") from None
        session.hints = hints
        session.saved_to = session.resumed_from = Path(path)
        session._saved_events = len(session.game.events)
        return session

    def again(self) -> Session:
        """A new game with the same choices and the next seed."""
        return self.followed_by(Session(replace(self.settings, rules=self.rules, seed=self.seed + 1)))

    def followed_by(self, session: Session) -> Session:
        """``session``, numbered as the game after this one in the same run and saved by the same name
        (:meth:`save_path`): played again, or a new game from the start screen."""
        session.sitting = self.sitting + 1
        session.resumed_from = self.resumed_from
        return session


IllegalMove = IllegalActionError
"""A choice the human may not make now (the engine's :class:`IllegalActionError`); the message says why in the
player's words. The name is kept for the terminal's callers."""


def side_file(record: Path) -> Path:
    """Where the interface settings of a saved record are kept: ``game.json`` → ``game.play.json``."""
    return record.with_name(record.stem + SIDE_FILE_SUFFIX)


def _continued_rng(game: Game, seed: int) -> random.Random:
    """The shuffler a seeded game would have now, when the record's decks are the ones that seed deals.

    A game saved from ``ronda play --seed N`` then goes on with the very decks it
    would have had; a record from elsewhere simply gets new shuffles from ``seed``.
    """
    rng = random.Random(seed)
    record = game.to_record()
    for rnd in record["rounds"]:
        if [card_name(c) for c in shuffled_deck(game.rules, rng)] != rnd["deck"]:
            return random.Random(f"{seed}/{len(record['rounds'])}")
    return rng


def parse_command(text: str, session: Session) -> Action | str:
    """A typed command as an action, or the name of an interface command (help, save, state, quit, ...).

    Accepts ``play 5c`` or just ``5c``, ``play 2`` or just ``2`` (the second card
    of the hand, as the full screen numbers them); ``declare ronda`` or just
    ``ronda``; ``declare`` alone declares truthfully; ``challenge 1`` or ``c 1``.
    Raises :class:`IllegalMove` naming what could not be read.

    >>> s = Session(Settings(levels=(None, "random"), seed=1, pace=0))
    >>> parse_command("RONDA", s), parse_command("play 5c", s), parse_command("c 1", s)
    (Declare(declaration='ronda'), Play(card=17), Challenge(target=1))
    """
    words = text.strip().lower().split()
    if not words:
        raise IllegalMove("Type a command: 'play 5c', 'declare ronda', 'challenge 1', 'help' or 'quit'.")
    verb, rest = words[0], words[1:]
    if verb in ("?", "help"):
        return "help"
    if verb in ("hint", "h"):
        return "hint"
    if verb in ("analysis", "analyse", "analyze", "a"):
        return "analysis"
    if verb == "rules":
        return "rules"
    if verb in ("quit", "exit", "q"):
        return "quit"
    if verb in ("save", "s"):
        return "save " + " ".join(text.strip().split()[1:])
    if verb in ("state", "look", "l", "hand", "table", "status"):
        return "state"
    if verb in ("again", "new", "yes", "y", "no", "n"):
        return verb
    if verb in ("play", "p") and len(rest) == 1:
        return _card_play(rest[0], session)
    if verb in ("play", "p") and not rest:
        hand = session.view.hand
        if session.view.phase == DECLARE and session.human_to_act() and hand:
            raise IllegalMove(session.explain(PLAYS[next(iter(hand))]) or "")
        raise IllegalMove(
            f"Play which card? Name it or give its place in your hand: 'play {_example(hand)}' or 'play 1'."
        )
    if verb in DECLARES and not rest:
        return DECLARES[verb]
    if verb in ("declare", "d"):
        if not rest:
            return DECLARES[session.true_declaration()]
        kind = "_".join(rest)
        if kind not in DECLARES:
            raise IllegalMove(f"Unknown declaration {' '.join(rest)!r}: say none, ronda or tringa.")
        return DECLARES[kind]
    if verb in ("challenge", "c") and len(rest) == 1:
        if not rest[0].isdigit():
            raise IllegalMove(f"Challenge names a seat number, like 'challenge 1', not {rest[0]!r}.")
        return Challenge(int(rest[0]))
    if len(words) == 1 and verb[:1].isdigit():  # a card alone ("5c") or its place ("2"); a word is not one
        return _card_play(verb, session)
    raise IllegalMove(f"Cannot read {text.strip()!r}: say 'play 5c', 'declare ronda', 'challenge 1', 'help' or 'quit'.")


def _card_play(word: str, session: Session) -> Play:
    """A card by its name (``5c``) or by its place in the hand (``2``), numbered as the full screen numbers it."""
    if word.isdigit():
        hand = list(session.view.hand)
        place = int(word)
        if not 1 <= place <= len(hand):
            if not hand:
                raise IllegalMove("You hold no cards now.")
            raise IllegalMove(
                f"You hold {cards_text(len(hand))}: play {places_text(len(hand))}, "
                f"or name the card ('play {card_name(hand[0])}')."
            )
        return PLAYS[hand[place - 1]]
    try:
        return PLAYS[parse_card(word)]
    except RondaError:
        raise IllegalMove(f"Cannot read {word!r}: a card is rank then suit letter, like 5c, 10o or 12b.") from None


def _example(hand: Iterable[int]) -> str:
    return next((card_name(card) for card in hand), "5c")


__all__ = [
    "DEFAULT_LEVEL",
    "DEFAULT_PACE",
    "IllegalMove",
    "PlayMark",
    "Session",
    "Settings",
    "cards_text",
    "parse_command",
    "places_text",
    "presets",
    "rulebook",
    "rules_help",
    "side_file",
    "spread_levels",
]
