"""The value of every option of one decision, from the deciding seat's view alone (R11).

An honest evaluation cannot look at the hidden cards: a player is judged on
what it could know then. So each option is valued by *determinized search*, as
the search bots value a card: guesses of the hidden hands and the stock are drawn
by the bots' :class:`~ronda.bots.determinize.Determinizer` from the view (the
cards seen, the hand sizes, the declarations believed but bluffs allowed, the
other seats' plays this deal read by :class:`~ronda.bots.inference.PlayModel`),
every option is applied in every guess, and the game is played on
(:func:`~ronda.bots.rollout.rollout`, the three-ply lookahead policy of the
``expert`` bot) or, at the end of a round (its last cards, and in the last deal
of a two-player round its declarations), searched exactly
(:func:`~ronda.bots.endgame.solve`, each side playing for the game). Every option meets the same guesses and the
same rollout random numbers, so their differences are measured far more
precisely than their values.

**What an option is worth: its chance to win the game.** A player wants the
game, not the points (R9.1): a point at 39-25 is worth far less than at
20-20, and a caida that wins on the spot more than any margin. So an option's
value is the mean over the guesses of the seat's side's chance to win the game
at the end of the horizon — :attr:`Method.deals` deals (the current one first)
or the round, whichever comes first: 1 for a game won within it, 0 for a game
lost, and otherwise the win-probability model
(:func:`~ronda.bots.winprob.game_win_probability`: at the end of a round, the
model at the new scores with the next dealer; inside one, at the scores the
round is expected to end with), as the search bots value their horizon. A
loss — the best option's chance minus that of the option taken — is in
winning chances, and the classes (:mod:`.grades`) are set by it, as Lichess
grades moves by the winning chances they lose, not by raw evaluation.

**Points, the explanation.** Each option also keeps its *expected points*:
the seat's side's points from now minus the others' (their average with three
players) over the same horizon, each card captured in a round the horizon
stops inside counting half a point (with two sides the card count, R7.2, pays
one point per card above half the pack), and its points by source
(:class:`Sources`: the card count, caidas, missas, ...), whose sum it is. Points
say *why* an option wins more often; they no longer say how much it matters.
Options are ranked by their chance to win, then by the points; among chances
shown alike, a bluff or a hidden combination comes after the truth
(:func:`rank` says why).

**Declarations and challenges.** A declaration (R8.2) is an option like a card:
after it the other seats declare what they hold (truthfully, as in the
rollouts), and the game is played on against opponents who count cards: while
a declaration of the deal that may still be challenged is false, every seat,
at its turn and before its card, challenges it when its own view proves it
false (:meth:`~ronda.engine.view.SeatView.possible_kinds`: no hand of its
declarer's played cards and the cards that seat has not seen holds the kind),
as the bots from ``medium`` up do (:func:`~ronda.bots.declarations.challenge`).
Such a challenge cannot fail; one that might (a gamble) is never made. So a
bluff is valued by what happens when an opponent can prove it false, when its
cards show it false (R8.5: the penalty, R8.6), or when it delays a settlement:
a false tringa takes the settlement's points at once, and the game is won by
it only if a caida or a missa comes before the bluff is proven or shown. The
assumption is the opponents': people who do not count cards may let a bluff
pass that the coach's play-outs would have challenged. Elsewhere (no false
declaration left to challenge) a play-out plays exactly as a rollout. In the
last deal, where the end of the round is searched exactly (``exact_plays``:
with two players, from the declarations on), a declaration is searched exactly
too in each guess: it, the others' true declarations, then every card, with
the same forced challenges, so a declaration and the card after it are valued
alike. A challenge (R8.8) is
valued by playing it in every guess: where the guess holds the declared
combination the challenge fails and the game is lost at once (R8.8), elsewhere
the declaration is exposed and the seat plays on; its value is that of the
best card after it. Its chance of losing the game is the share of guesses in
which the declaration was true.

**Reproducible.** The search is a pure function of the view, the legal actions,
the :class:`Method` (counts, never a clock) and a seed; :func:`decision_seed`
derives the seed from the decision's place in the game and the view, never
from a hidden card, so the same decision gets the same numbers on any machine,
and two games that differ only in cards the seat could not see get identical
analyses (``tests/analysis/test_honesty.py``).

>>> from ronda import Game, Rules
>>> game = Game(Rules(players=2), seed=2)
>>> str(game.hand(0))
'6o 6c 10c'
>>> evaluation = evaluate(game.view(0), game.legal_actions(), Method(guesses=8), seed=1)
>>> [str(option.action) for option in evaluation.options], evaluation.guesses
(['declare ronda', 'declare none', 'declare tringa'], 8)
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from ..bots.declarations import challenge as proven_challenge
from ..bots.declarations import true_declaration
from ..bots.determinize import Determinizer
from ..bots.endgame import declare_truthfully, solve
from ..bots.inference import PlayModel
from ..bots.rollout import lookahead_policy, rollout, utility
from ..bots.winprob import game_win_probability
from ..engine.actions import Action, Challenge, Declare, Play
from ..engine.cards import Card
from ..engine.combinations import KIND_VALUE, NONE, RONDA, Kind, hand_combination
from ..engine.events import Event, Exposure, Score, TableTaken, Transfer
from ..engine.game import DECLARE, OVER, PLAY, Game, Policy
from ..engine.table import capture_run, play_step
from ..engine.view import SeatView
from .grades import LOSS_DIGITS

DEFAULT_GUESSES = 200
"""Guesses of the hidden cards per decision: the differences between options' chances then have a standard error
of about 0.8 percentage point (two seeds, ``benchmarks/coach_calibration.py``)."""


@dataclass(frozen=True, slots=True)
class Method:
    """How a decision is searched; every knob is a count, so results never depend on a machine's speed.

    ``guesses``: hidden-card placements per decision (each option is played
    out once in each); ``deals``: the horizon of a rollout, in deals (the
    current one first; 0, the default, plays to the end of the round, where the
    win-probability model is exact: inside a round it reads the scores the
    round is expected to end with, too sure of a win near the target); ``exact_plays``: at
    most this many cards left in all hands with the stock empty, the rest of
    the round is searched exactly in each guess — and with two players, where
    counting leaves one placement, in that one guess only — the declarations of
    a deal whose first card is searched so included; ``read_plays``:
    weigh the guesses by the other seats' plays this deal, as ``expert`` does.
    """

    guesses: int = DEFAULT_GUESSES
    deals: int = 0
    exact_plays: int = 6
    read_plays: bool = True

    def __post_init__(self) -> None:
        if self.guesses < 1:
            raise ValueError(f"an analysis needs at least one guess of the hidden cards, not {self.guesses}")
        if self.deals < 0 or self.exact_plays < 0:
            raise ValueError("the horizon and the exact search are counts of deals and cards, 0 or more")


_POLICY: Policy = lookahead_policy(3, card_value=0.7, explore=0.1)
"""The rollout policy: ``expert``'s, each seat looking three plays ahead in the guess."""


# ------------------------------------------------------------------ facts


@dataclass(frozen=True, slots=True)
class PlayFacts:
    """What a card does, for the reason given with it: at once (public), and what the next seat may answer.

    ``taken``: the table cards it captures (R4.2); ``caida``, ``missa``,
    ``raised``: what it scores at once (R5.1, R6.1, R5.3). ``next_seat``: the
    opponent who plays next (``None`` when it is a partner or nobody);
    ``reply_caida``, ``reply_missa``: the share of guesses in which that seat
    holds a card that takes this card for a caida, or clears the table.

    ``exposes``: the share of guesses in which the card exposes the seat's own
    false declaration, ``declared`` (R8.6: its cards leave it no candidate, R8.5,
    complete the combination it did not declare, R8.7, or its hand is shown
    before a win, R9.5) — as the engine exposes it in the guess, never by a
    second reading of the rules; then ``penalty``: what each opposing side
    scores for it, ``taken_back``: the settlement points the seat's side loses.
    The chance to win already counts it; the words did not say it, and a
    learner who bluffed a tringa read "drops it" for the card that gave the
    bluff away (a learner's audit). ``partner``: the declaration exposed is the
    partner's (four players), not the seat's own: the seat's card decides the
    settlement, whose award would bring the side to the target, so the side's
    hands are shown first (R9.5) and the partner's false one is exposed; it is
    said only where the seat's own is not exposed in any guess.
    """

    card: Card
    taken: tuple[Card, ...]
    caida: bool
    missa: bool
    raised: bool
    next_seat: int | None
    reply_caida: float
    reply_missa: float
    exposes: float = 0.0
    declared: Kind = NONE
    penalty: int = 0
    taken_back: int = 0
    partner: bool = False


@dataclass(frozen=True, slots=True)
class DeclareFacts:
    """A declaration against what the hand as dealt holds (R8.1): true, a bluff, or a combination hidden.

    ``penalty``: what each opposing side is sure to score for it if nothing ends
    the game first — the declared value when it is false (R8.6), and the
    undeclared combination's when the hand's own is not declared exactly (R8.7).
    ``shown``: the declared value would bring the side to the target, so the hand
    is shown before its points are given (R9.5): a false declaration is exposed
    then, never scored — the settlement does not come first, as it does further
    from the target (a learner's audit: at 36 a bluffed tringa was said to score first).
    """

    declared: Kind
    held: Kind
    penalty: int
    shown: bool = False

    @property
    def truthful(self) -> bool:
        return self.declared == self.held


@dataclass(frozen=True, slots=True)
class ChallengeFacts:
    """A challenge (R8.8): whom, of what, how likely it fails (and loses the game), what the view proves."""

    target: int
    declared: Kind
    loses_game: float
    proven: Literal["true", "false"] | None


Facts = PlayFacts | DeclareFacts | ChallengeFacts

Source = Literal["cards", "caidas", "missas", "combinations", "penalties", "dealer_duty"]

SOURCES: tuple[Source, ...] = ("cards", "caidas", "missas", "combinations", "penalties", "dealer_duty")
"""Where an option's points come from, in the order the coach names them."""

_SOURCE_OF: dict[str, Source] = {
    "cards": "cards",
    "caida": "caidas",
    "chain": "caidas",
    "missa": "missas",
    "announcement": "combinations",
    "false_announcement": "penalties",
    "undeclared": "penalties",
    "dealer_duty": "dealer_duty",
}
"""The source of each reason a side scores for (RECORD.md's ``score`` reasons)."""


@dataclass(frozen=True, slots=True)
class Sources:
    """An option's points by where they come from: the explanation of its value, in the coach's words.

    Each is a margin over the same horizon as the option's value (the seat's
    side's points minus the others' — their average with three players — on
    average over the guesses): ``cards``
    the card count (R7.2) and, in a round the horizon stops inside, the cards
    captured since at half a point each (as the value counts them); ``caidas``
    caidas and chains (R5); ``missas`` (R6.1); ``combinations`` declared ones
    scored (R8.4); ``penalties`` false and undeclared announcements (R8.6,
    R8.7); ``dealer_duty`` (R10). ``sweep``: the share of guesses in which the
    seat's side makes the round's last capture and so takes the cards left on
    the table (R7.1) within the horizon. Points scored on the way to a game won
    or lost count here as scored (the option's ``expected`` is their sum), though
    its chance to win counts only the game.
    Under ``transfer_scoring`` (R10) every point reaches the score through the
    card count, so ``cards`` holds them all.
    """

    cards: float = 0.0
    caidas: float = 0.0
    missas: float = 0.0
    combinations: float = 0.0
    penalties: float = 0.0
    dealer_duty: float = 0.0
    sweep: float = 0.0

    def margin(self, source: Source) -> float:
        """The margin of one source, by name."""
        value: float = getattr(self, source)
        return value


_WIDTH = 4 + len(SOURCES) + 1
"""The numbers summed per option and guess: chance, points, won, lost, the margin of each source, the sweep."""


@dataclass(frozen=True, slots=True)
class Option:
    """One legal action with its value, its points, and the facts its reason is made of (see the module).

    ``chance``: the seat's side's chance to win the game after it, its value;
    ``expected``: its expected points, the explanation; ``won`` and ``lost``:
    the share of guesses in which the game was won or lost within the horizon
    after it; ``sources``: its points by where they come from (:class:`Sources`).
    """

    action: Action
    chance: float
    expected: float
    won: float
    lost: float
    facts: Facts
    sources: Sources = field(default_factory=Sources)

    @property
    def misdeclared(self) -> bool:
        """A declaration of something other than the hand holds (R8.2): a bluff (R8.6) or a combination hidden (R8.7).

        Such an option never comes before one that declares the truth, or a card, whose chance to win is shown
        alike (:func:`rank`).
        """
        return type(self.facts) is DeclareFacts and not self.facts.truthful

    @property
    def gamble(self) -> bool:
        """A misdeclaration (:attr:`misdeclared`) or a challenge that may fail (R8.8): an option that can end the
        game by itself, its points counted only until then.

        Such an option never comes before one that is neither, whose chance to win is shown alike (:func:`rank`):
        beside it, its points say only how soon the game ends.
        """
        if type(self.facts) is ChallengeFacts:
            return self.facts.loses_game > 0
        return self.misdeclared

    @property
    def offered(self) -> bool:
        """Whether a player is offered it: every option but a challenge the seat's own cards prove would fail.

        Such a challenge is legal (R8.8) but only loses the game, and no interface offers it
        (:func:`~ronda.presentation.challenge.offered_targets`, the page's note in place of its button), so a
        hint does not list it and it makes no choice (:attr:`Evaluation.choice`). It is still searched like
        every legal action, so that a record which made one (written elsewhere) is graded: a blunder.
        """
        return type(self.facts) is not ChallengeFacts or self.facts.proven != "true"


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Every option of one decision, best first (:func:`rank`); ``guesses`` searched, ``exact`` when solved to the
    round's end; ``sides``: the game's sides, whose number the others' points are averaged over (with three
    players, two: the words must say so)."""

    seat: int
    phase: Literal["declare", "play"]
    options: tuple[Option, ...]
    guesses: int
    exact: bool
    seed: int
    method: Method = field(default_factory=Method)
    sides: int = 2

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def choice(self) -> bool:
        """Whether the seat had a choice: more than one option offered (:attr:`Option.offered`), two cards of one
        rank counting as one (R1.1: they play alike). Without one, the analysis does not grade the move
        (:meth:`.review.Moment.is_choice`, the same rule on the legal actions) and a hint says there is nothing to
        choose, not "your best options": a last card beside a challenge the cards prove would fail is no choice."""
        return has_choice([option.action for option in self.options if option.offered])

    def option(self, action: Action) -> Option:
        """The option of ``action``; raises ``ValueError`` when it was not legal at this decision."""
        for option in self.options:
            if option.action == action:
                return option
        raise ValueError(f"{action} was not a legal option of this decision")

    def loss(self, action: Action) -> float:
        """The chance to win the game ``action`` gave up against the best option (0 for the best)."""
        return max(0.0, self.best.chance - self.option(action).chance)

    def points_behind(self, action: Action) -> float:
        """How many expected points ``action`` scores less than the best option: negative when it scores more."""
        return self.best.expected - self.option(action).expected


def has_choice(legal: Sequence[Action]) -> bool:
    """Whether ``legal`` offers a choice: not one action, nor cards of a single rank with nothing else (R1.1).

    >>> has_choice([Play.parse("5o"), Play.parse("5c")]), has_choice([Play.parse("5o"), Play.parse("6c")])
    (False, True)
    """
    return len({a.card >> 2 if type(a) is Play else a for a in legal}) > 1


def offered(view: SeatView, legal: Sequence[Action]) -> list[Action]:
    """The actions of ``legal`` a player is offered: all but a challenge ``view`` proves would fail (R8.8).

    The same rule as :attr:`Option.offered`, on the actions before they are searched.
    """
    return [a for a in legal if type(a) is not Challenge or view.proof(a.target) != "true"]


def rank(option: Option) -> tuple[float, bool, float, float]:
    """Where an option comes among its decision's options: the smallest key first, the best option.

    First the chance to win the game, as it is shown (to a tenth of a percentage point,
    :data:`~ronda.analysis.grades.LOSS_DIGITS`, the precision losses are shown and graded with); among
    chances shown alike, a gamble (:attr:`Option.gamble`: a bluff, R8.6, a combination hidden, R8.7, or a
    challenge that may fail, R8.8) after every option that is not one; then the exact chance; then the points.

    Why the truth first: where every chance is the same — a lost position, each option 0% — the points were
    the only order left, and points are counted only until the game ends (R9.3). A bluff whose penalty
    (R8.6) brings the other side to the target ends the count at once, its own settlement points (R8.5)
    still on the board, so it "concedes" fewer points than the truthful option that plays the lost round
    on, and the coach's first hint was the bluff: "declare tringa: 0.0% to win (+0.00 points)" above
    "declare none: 0.0% to win (-11.00 points)" (``tests/analysis/test_coach_words.py``). A bluff pays only by
    winning the game before its cards expose it (R8.5, R9.3); where it does not win more often, it gains
    nothing it is for, and a hint that puts it first teaches bluffing for nothing. Chances are compared as
    shown, not exactly, so that no bluff is put first by a difference its reader cannot see; a bluff shown
    to win more often keeps its place, its reason beside it. A challenge that may fail is the same case: failed,
    it loses the game at once (R8.8), and in a lost position its "+0.00 points" read as the best (an audit).

    Not chosen: the points measured as if the game went on past its end. They would tell these options
    apart too, but need a game played past a win (R9.4) and would change every option's points in every
    decided game, where the points now explain what the round gave.

    >>> from ronda.engine.actions import DECLARES
    >>> bluff = Option(DECLARES["tringa"], 0.0, 0.0, 0.0, 1.0, DeclareFacts("tringa", "none", 5))
    >>> truth = Option(DECLARES["none"], 0.0, -11.0, 0.0, 1.0, DeclareFacts("none", "none", 0))
    >>> [str(option.action) for option in sorted([bluff, truth], key=rank)]
    ['declare none', 'declare tringa']
    """
    return (
        -round(option.chance, LOSS_DIGITS),
        option.gamble,
        -round(option.chance, 9),
        -round(option.expected, 9),
    )


# ------------------------------------------------------------------ seeds


def decision_seed(view: SeatView, index: int, base: int = 0) -> int:
    """The seed of the search of one decision: its index in the game's decisions and its seat's view, hashed.

    Nothing hidden from the seat enters it, so twin games that differ only in
    cards the seat cannot see get the same seed; a digest (not ``hash()``,
    which changes between runs) keeps it the same on every machine.

    >>> from ronda import Game, Rules
    >>> view = Game(Rules(players=2), seed=3).view(0)
    >>> decision_seed(view, 0) == decision_seed(view, 0), decision_seed(view, 0) == decision_seed(view, 1)
    (True, False)
    """
    digest = hashlib.sha256(f"ronda-analysis/1|{base}|{index}|{view!r}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


# ------------------------------------------------------------------ search


def evaluate(view: SeatView, legal: Sequence[Action], method: Method | None = None, *, seed: int) -> Evaluation:
    """Every legal option of the decision ``view`` faces, valued from ``view`` alone (see the module).

    ``legal`` is what the engine offers the seat now (what a bot is given).
    Raises ``ValueError`` when no decision is due.
    """
    method = method or Method()
    if view.phase not in (DECLARE, PLAY) or view.turn != view.seat or not legal:
        raise ValueError(f"seat {view.seat} has no decision to analyse now (phase {view.phase}, turn {view.turn})")
    return _Search(view, list(legal), method, seed).run()


class _Search:
    """One evaluation: the options, the guesses, the sums."""

    def __init__(self, view: SeatView, legal: list[Action], method: Method, seed: int) -> None:
        self.view = view
        self.legal = legal
        self.method = method
        self.seed = seed
        self.rng = random.Random(seed)
        self.sampler = Determinizer(view, play_model=PlayModel() if method.read_plays else None)
        self.start = list(view.scores)
        # Declarations are played out as far as cards: their consequences fall within the deal (R8.9), but
        # what they are worth to the game shows where the points are counted, at the round's end.
        self.deals = method.deals
        self.piles = (view.round, list(view.pile_sizes)) if self.deals else None
        # Two cards of one rank play alike (R1.1: suits never matter): one is searched for both.
        self.plays: list[Play] = []
        ranks: set[int] = set()
        for action in legal:
            if type(action) is Play and action.card >> 2 not in ranks:
                ranks.add(action.card >> 2)
                self.plays.append(action)
        self.declares = [a for a in legal if type(a) is Declare]
        self.challenges = [a for a in legal if type(a) is Challenge]
        # The end of the round is searched exactly: the cards, and the declarations of the deal whose first card
        # would be searched so (where counting leaves one placement, the last deal with two players), so that a
        # declaration and the card after it are valued alike.
        last = view.stock == 0 and sum(view.hand_sizes) <= method.exact_plays
        self.exact = last and bool(self.plays if view.phase == PLAY else self.declares)
        self.forced = self.exact and len(self.sampler.unknown_seats()) <= 1

    # Sums per searched option (:data:`_WIDTH` numbers: chance, points, won, lost, the sources); the replies to plays.
    def run(self) -> Evaluation:
        view = self.view
        guesses = 1 if self.forced else self.method.guesses
        searched: list[Action] = [*self.plays, *self.declares]
        sums: dict[Action, list[float]] = {a: [0.0] * _WIDTH for a in searched}
        after_challenge: dict[Challenge, dict[Play, list[float]]] = {c: {} for c in self.challenges}
        failed: dict[Challenge, int] = dict.fromkeys(self.challenges, 0)
        replies: dict[Play, list[int]] = {p: [0, 0] for p in self.plays}
        exposures: dict[Play, list[int]] = {p: [0] * 6 for p in self.plays}
        for _ in range(guesses):
            guess = self.sampler.sample_game(self.rng)
            crn = self.rng.getrandbits(64)
            for action in sums:
                game = guess.copy(history=False)
                events = game.apply(action)
                if type(action) is Play:
                    self._note_reply(game, replies[action])
                    self._note_exposure(events, exposures[action])
                self._add(sums[action], self._finish(game, crn))
            for challenge in self.challenges:
                game = guess.copy(history=False)
                game.apply(challenge)
                table = after_challenge[challenge]
                if game.phase == OVER or self.exact:
                    # A failed challenge ends the game whatever card would follow (R8.8); an exact search
                    # of the rest of the round already plays the best card after it.
                    failed[challenge] += game.phase == OVER
                    outcome = self._finish(game, crn)
                    for play in self.plays:
                        self._add(table.setdefault(play, [0.0] * _WIDTH), outcome)
                    continue
                for play in self.plays:
                    child = game.copy(history=False)
                    child.apply(play)
                    self._add(table.setdefault(play, [0.0] * _WIDTH), self._finish(child, crn, game.events))
        options = [
            self._option(a, sums[self._searched(a) if type(a) is Play else a], guesses, replies, exposures)
            for a in self.legal
            if type(a) is not Challenge
        ]
        for challenge in self.challenges:
            best = max(after_challenge[challenge].values(), key=lambda s: (s[0], s[1]))
            facts = self._challenge_facts(challenge, failed[challenge] / guesses)
            chance, value, won, lost, *rest = (x / guesses for x in best)
            options.append(Option(challenge, chance, value, won, lost, facts, Sources(*rest)))
        order = sorted(range(len(options)), key=lambda i: (*rank(options[i]), i))
        phase: Literal["declare", "play"] = "declare" if view.phase == DECLARE else "play"
        return Evaluation(
            view.seat,
            phase,
            tuple(options[i] for i in order),
            guesses,
            self.exact,
            self.seed,
            self.method,
            view.rules.sides,
        )

    @staticmethod
    def _add(total: list[float], outcome: Sequence[float]) -> None:
        for i, x in enumerate(outcome):
            total[i] += x

    def _finish(self, game: Game, crn: int, before: Sequence[Event] = ()) -> list[float]:
        """Play ``game`` on to the horizon (or solve it exactly): the chance to win, points, won, lost, sources.

        ``game`` is a light copy, whose events start where it was copied;
        ``before``: what the option did before that copy. The chance is 1 for
        a game won, 0 for one lost, else the win-probability model where the
        horizon ends (see the module); the points are the margin, each source's
        and their sum, whether or not the game ended on the way.
        """
        side = self.view.side
        if self.exact and game.phase in (PLAY, DECLARE):
            events = [*before, *game.events]
            game, line = self._solve(game)
            events += line
        else:
            if game.phase != OVER:
                _play_on(game, random.Random(crn), self.deals)
            events = [*before, *game.events]
        chance = game_win_probability(game, side)
        value = utility(game, self.start, side, 0.0, self.piles)
        winner = game.winner
        return [chance, value, winner == side, winner is not None and winner != side, *self._sources(game, events)]

    def _sources(self, game: Game, events: Sequence[Event]) -> list[float]:
        """Each of :data:`SOURCES`' margins from the decision to ``game``, then the sweep (see :class:`Sources`)."""
        side, sides = self.view.side, self.view.rules.sides
        margins = dict.fromkeys(SOURCES, 0.0)
        sweep = 0.0
        swept = False
        for event in events:
            if type(event) is Score:
                source = _SOURCE_OF[event.reason]
                margins[source] += event.points if event.side == side else -event.points / (sides - 1)
            elif type(event) is TableTaken and not swept:
                swept = True  # the first round's sweep: the one the decision's round ends with
                sweep = float(event.side == side)
        if self.piles is not None and game.round == self.piles[0] and game.phase in (PLAY, DECLARE):
            gained = [size - before for size, before in zip(game.pile_sizes, self.piles[1], strict=True)]
            theirs = sum(gained[s] for s in range(sides) if s != side) / (sides - 1)
            margins["cards"] += 0.5 * (gained[side] - theirs)
        return [*margins.values(), sweep]

    def _solve(self, game: Game) -> tuple[Game, list[Event]]:
        """The game at the end of the round along the line of best play, and that line's events.

        Every side plays for its chance to win the game (the value of the
        round's end, :func:`~ronda.bots.winprob.game_win_probability`), the
        other sides against the seat's ("paranoid" with three players).
        """
        side = self.view.side

        def leaf(end: Game) -> float:
            # Equal chances (a game sure to be won either way) are told apart by the points, a millionth each.
            return game_win_probability(end, side) + 1e-6 * utility(end, self.start, side, 0.0)

        line: list[Event] = []
        if game.phase == DECLARE:  # after a declaration: the other seats declare what they hold (R8.2)
            seen = len(game.events)
            declare_truthfully(game)
            line += game.events[seen:]
        while game.phase == PLAY:
            proven = _forced_challenge(game)
            if proven is not None:
                line += game.apply(proven)
                continue
            mine = game.rules.side_of(game.turn) == side
            children = []
            for action in game.legal_actions():
                if type(action) is Play:
                    child = game.copy(history=False)
                    child.apply(action)
                    value = solve(child, side, self.start, 0.0, leaf=leaf, before_card=_challenged)
                    children.append((value, child))
            game = (max if mine else min)(children, key=lambda pair: pair[0])[1]
            line += game.events
        return game, line

    def _searched(self, play: Play) -> Play:
        """The play searched for ``play``: the first card of its rank."""
        return next(p for p in self.plays if p.card >> 2 == play.card >> 2)

    def _note_reply(self, game: Game, counts: list[int]) -> None:
        """Whether the next seat, if an opponent, can take the card just dropped for a caida or clear the table."""
        if game.phase != PLAY:
            return
        state = game.search_state()
        if not self.view.is_opponent(state.seat):
            return
        hand = state.hands[state.seat]
        if state.drop >= 0 and hand >> (4 * state.drop) & 0xF:
            counts[0] += 1
        table = state.table
        if table and not (state.last_deal and state.cards_left == 1):
            for rank in range(10):
                if hand >> (4 * rank) & 0xF and capture_run(table, rank) == table:
                    counts[1] += 1
                    break

    def _note_exposure(self, events: Sequence[Event], counts: list[int]) -> None:
        """Whether the card just played exposed the seat's own declaration (R8.6), or else its partner's, what each
        opposing side scored for it and what the seat's side lost of the settlement: counts[0:3] for its own
        (one more, then the most seen), counts[3:6] for its partner's.

        Read from the engine's events of the play (its R8.5, R8.7 and R9.5 steps), so the words say what the
        engine does. The seat's own exposure depends on its own hand and public facts alone, so in practice it is
        the same in every guess. A partner's is exposed by the seat's card too, with four players: the card
        narrows the seat's own declaration (R8.5) or exposes it, the settlement is decided, and its award would
        bring the side to the target, so the side's hands are shown first and the first false one is exposed
        (R9.5). Whether the partner's is false depends on the partner's hidden hand, so that happens in a share
        of the guesses; an opponent's exposed so is no cost of the seat's and is not counted. Where the seat's
        own and its partner's fall on one card, both penalties are its own's (one card, one cost). Under
        ``transfer_scoring`` (R10) the penalty is paid in cards, read from the transfers; what is paid back of
        the settlement is not told apart there from the other side's new settlement points, and is left unsaid
        (and R9.5 does not apply, so no partner's is exposed by a card).
        """
        view = self.view
        seat, side = view.seat, view.side
        partner = (seat + 2) % 4 if view.players == 4 else -1
        exposed = False
        whose = 0  # 0: the seat's own, 3: its partner's (an offset into counts)
        penalty = taken_back = 0
        opposing = -1
        for event in events:
            if type(event) is Exposure and event.seat in (seat, partner):
                if event.seat == seat or not exposed:
                    whose = 0 if event.seat == seat else 3
                exposed = True
                continue
            if type(event) is Score:
                receiver, points = event.side, event.points
            elif type(event) is Transfer:
                receiver, points = event.payee, event.cards + event.owed
            else:
                continue
            if receiver != side and event.reason in ("false_announcement", "undeclared"):
                if opposing < 0:
                    opposing = receiver  # every opposing side scores the same: one is counted
                if receiver == opposing:
                    penalty += points
            elif exposed and type(event) is Score and receiver == side and event.reason == "announcement":
                taken_back -= min(0, points)
        if exposed:
            counts[whose] += 1
            counts[whose + 1] = max(counts[whose + 1], penalty)
            counts[whose + 2] = max(counts[whose + 2], taken_back)

    def _option(
        self,
        action: Action,
        total: list[float],
        guesses: int,
        replies: dict[Play, list[int]],
        exposures: dict[Play, list[int]],
    ) -> Option:
        chance, value, won, lost, *rest = (x / guesses for x in total)
        facts: Facts
        if type(action) is Play:
            searched = self._searched(action)
            counts = replies[searched]
            facts = self._play_facts(action.card, counts[0] / guesses, counts[1] / guesses)
            noted = exposures[searched]
            partner = not noted[0] and noted[3] > 0  # the seat's own first: a card's cost is its own bluff's
            exposed, penalty, taken_back = noted[3:6] if partner else noted[0:3]
            if exposed:
                whose = (self.view.seat + 2) % 4 if partner else self.view.seat
                declared = self.view.declarations[whose]
                assert declared is not None
                facts = replace(
                    facts,
                    exposes=exposed / guesses,
                    declared=declared,
                    penalty=penalty,
                    taken_back=taken_back,
                    partner=partner,
                )
        else:
            assert type(action) is Declare
            facts = self._declare_facts(action.declaration)
        return Option(action, chance, value, won, lost, facts, Sources(*rest))

    def _declare_facts(self, declared: Kind) -> DeclareFacts:
        rules = self.view.rules
        held = true_declaration(self.view)
        penalty = 0
        if declared not in (NONE, held):
            penalty += KIND_VALUE[declared]
        if held not in (NONE, declared):
            penalty += rules.undeclared_ronda_penalty if held == RONDA else KIND_VALUE[held]
        view = self.view
        shown = (
            declared != NONE
            and not rules.transfer_scoring  # no points win mid-round there: nothing is shown first (R9.5)
            and view.scores[view.side] + KIND_VALUE[declared] >= rules.target
        )
        return DeclareFacts(declared, held, penalty, shown)

    def _play_facts(self, card: Card, reply_caida: float, reply_missa: float) -> PlayFacts:
        view = self.view
        table_ranks = 0
        by_rank: dict[int, Card] = {}
        for c in view.table:
            table_ranks |= 1 << (c >> 2)
            by_rank[c >> 2] = c
        drop = -1 if view.last_drop is None else view.last_drop >> 2
        chain = view.chain
        taken_ranks, caida, raised, after, _, _, _ = play_step(
            table_ranks,
            drop,
            -1 if chain is None else chain.rank,
            0 if chain is None else chain.count,
            card >> 2,
            view.players > 2,
        )
        taken = tuple(by_rank[r] for r in range(10) if taken_ranks >> r & 1)
        if raised and chain is not None:
            taken = tuple(chain.cards)
        last_turn = view.stock == 0 and sum(view.hand_sizes) == 1
        missa = bool(taken_ranks or raised) and after == 0 and not last_turn
        following = (view.turn + 1) % view.players
        next_seat = following if view.is_opponent(following) and sum(view.hand_sizes) > 1 else None
        return PlayFacts(card, taken, caida, missa, raised, next_seat, reply_caida, reply_missa)

    def _challenge_facts(self, challenge: Challenge, loses: float) -> ChallengeFacts:
        view = self.view
        target = challenge.target
        declared = view.declarations[target]
        assert declared is not None and declared != NONE
        return ChallengeFacts(target, declared, loses, view.proof(target))


# ------------------------------------------------------------------ challenges in the play-outs


def _false_declarers(game: Game) -> list[int]:
    """The seats whose declaration of this deal is false in ``game`` (a guess) and may still be challenged.

    Only such a declaration can be proven false, so only while there is one does a play-out look at
    each turn's view for a challenge: elsewhere it plays on as fast as ever.
    """
    if game.phase != PLAY or game.rules.auto_declare:
        return []
    public = game.view_masks(game.turn)
    ace_high = game.rules.ace_high
    false = []
    for seat, declared in enumerate(public.declarations):
        if declared in (None, NONE) or public.exposed[seat] or public.shown[seat] is not None:
            continue
        combo = hand_combination(game.dealt_hand(seat).mask, ace_high)
        if (NONE if combo is None else combo.kind) != declared:
            false.append(seat)
    return false


def _forced_challenge(game: Game, false: Sequence[int] | None = None) -> Challenge | None:
    """The challenge the seat to play makes before its card: of an opponent's live declaration that its own
    view proves false (:func:`~ronda.bots.declarations.challenge`, what the bots from ``medium`` up do).

    A challenge that cannot fail; a gamble on one that may fail is never made here. ``false``: the
    seats :func:`_false_declarers` gives, if already known.
    """
    if false is None:
        false = _false_declarers(game)
    side_of, turn = game.rules.side_of, game.turn
    if not any(side_of(seat) != side_of(turn) for seat in false):
        return None
    return proven_challenge(game.view(turn), game.legal_actions())


def _challenged(game: Game) -> Game:
    """``game`` after the seat to play's challenge of a declaration it can prove false: a copy, or ``game``."""
    proven = _forced_challenge(game)
    if proven is None:
        return game
    game = game.copy(history=False)
    game.apply(proven)
    return game


def _play_on(game: Game, rng: random.Random, deals: int) -> None:
    """:func:`~ronda.bots.rollout.rollout`, in which every seat challenges a declaration it can prove false.

    Declarations are made truthfully (the rollouts' way); while a false one of this deal may still be
    challenged — a bluff among the options searched, or one the guess placed in a hand — the seat to
    play challenges it before its card whenever its view proves it false (:func:`_forced_challenge`),
    then the play-out goes on card by card. The random numbers are drawn as by one
    :func:`~ronda.bots.rollout.rollout`, so a play-out in which nobody challenges plays the same cards.
    """
    if game.phase == DECLARE:
        declare_truthfully(game)
    round_, deal = game.round, game.deal
    while game.round == round_ and game.deal == deal:
        false = _false_declarers(game)
        if not false:
            break
        proven = _forced_challenge(game, false)
        if proven is not None:
            game.apply(proven)
            if game.phase != PLAY:
                return
        game.playout(rng, deals=deals, plays=1, policy=_POLICY, truthful=True)
    if game.phase not in (PLAY, DECLARE) or game.round != round_:
        return
    if deals:
        deals -= game.deal - deal
        if deals <= 0:
            return
    rollout(game, rng, _POLICY, deals)


__all__ = [
    "DEFAULT_GUESSES",
    "SOURCES",
    "ChallengeFacts",
    "DeclareFacts",
    "Evaluation",
    "Facts",
    "Method",
    "Option",
    "PlayFacts",
    "Source",
    "Sources",
    "decision_seed",
    "evaluate",
    "has_choice",
    "offered",
    "rank",
]
