"""The words of the analysis: a hint's options, each decision's verdict, a seat's summary.

Numbers come from :mod:`ronda.analysis` (each option's chance to win the
game, its expected points and where they come from, shares of the guesses
searched from the seat's view); this module only says them in the game's
words — the chance first, what the game is about, then the points that
explain it — what a card takes, the caida or missa it leaves the next seat,
what a bluff or a hidden combination costs, what a challenge risks — for
``ronda analyse``, the terminal's hints and its summary after a game. ``me``
is the reader's seat, told "you" as in the play-by-play.

>>> from ronda.analysis.search import Option, PlayFacts
>>> from ronda.engine.actions import Play
>>> drop = Option(Play.parse("5o"), 0.47, -0.9, 0.0, 0.0, PlayFacts(16, (), False, False, False, 1, 0.62, 0.0))
>>> option_reason(drop, me=0)
'drops it; seat 1 holds a 5 in 62% of the guesses: a likely caida'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..analysis.grades import GRADES, LOSS_DIGITS, chance_points, shown_chance, thresholds_text
from ..analysis.hints import HINT_OPTIONS, shown_options
from ..analysis.review import Decision, Review, SeatSummary
from ..analysis.search import SOURCES, ChallengeFacts, DeclareFacts, Evaluation, Option, PlayFacts, Source, rank
from ..engine.actions import Action, Challenge, Declare, Play
from ..engine.cards import RANKS, card_name
from ..engine.combinations import NONE
from .narration import possessive, seat_name, side_name

LIKELY = 0.5
"""A reply the next seat has in at least this share of the guesses is called likely."""
WORTH_SAYING = 0.2
"""Below this share a risk is not mentioned: most cards leave some."""

WORTH_COMPARING = 0.05
"""In a hint where one option's share of games won (or lost) within the horizon is said, each other option's is
said too from this share: near-equal options, one "wins the game within this round in 20%" and the next silent at
18%, read as different when they are not (a learner's audit)."""


def _cards(cards: tuple[int, ...]) -> str:
    return " ".join(card_name(c) for c in cards)


def _kind(kind: str) -> str:
    return kind.replace("_", " ")


def points(value: float) -> str:
    """A value in points, signed, to two decimals: ``+0.80``, ``-1.25``."""
    return f"{value:+.2f}"


def _share(share: float) -> str:
    return f"{share:.0%}"


def chance(share: float) -> str:
    """A chance to win the game, to a tenth of a percent: ``62.0%``.

    A game neither won nor lost is never said certain: a chance that rounds to 100.0% or 0.0% without being
    it reads "over 99.9%" or "under 0.1%", so that "100.0% to win" means a game the option wins.

    >>> chance(0.62), chance(1.0), chance(0.9996), chance(0.0003), chance(0.0)
    ('62.0%', '100.0%', 'over 99.9%', 'under 0.1%', '0.0%')
    """
    text = f"{shown_chance(share):.1%}"  # the chance a loss is the difference of (shown_chance)
    if text == "100.0%" and share < 1:
        return "over 99.9%"
    if text == "0.0%" and share > 0:
        return "under 0.1%"
    return text


def a_rank(rank: int) -> str:
    """A card of ``rank`` with its article, as the rank is read aloud: ``a 3``, ``a 1`` (one), ``an 11`` (eleven).

    >>> a_rank(1), a_rank(11), a_rank(12)
    ('a 1', 'an 11', 'a 12')
    """
    return f"an {rank}" if rank == 11 else f"a {rank}"


def horizon(evaluation: Evaluation) -> str:
    """How far the search looked, as the won and lost shares are said: ``this round``, ``this deal or the next``."""
    deals = evaluation.method.deals
    if evaluation.exact or deals == 0:
        return "this round"
    return "this deal" if deals == 1 else "this deal or the next" if deals == 2 else f"the next {deals} deals"


def option_name(action: Action, me: int | None = None) -> str:
    """An option as a player says it: ``play 3c``, ``declare ronda``, ``challenge seat 1``."""
    if isinstance(action, Challenge):
        return f"challenge {seat_name(action.target, me)}"
    return str(action)


def option_reason(
    option: Option,
    me: int | None = None,
    outcome: bool = True,
    risks: bool = True,
    seat: int | None = None,
    within: str = "this round",
    known: bool = False,
    floors: tuple[float, float] = (WORTH_SAYING, WORTH_SAYING),
) -> str:
    """Why an option is worth what it is, in a few words of the game.

    ``risks``: with what the next seat may answer; ``outcome``: with its chances of ending the game
    ``within`` the search's horizon (:func:`horizon`); ``seat``: the deciding seat, when it may not be
    the reader's (its hand is then "seat 1's hand", not "your hand": ``ronda analyse --json`` has no reader,
    and its reasons name the seat as its lines do — the coach audit, item 9, read "seat 1 declared none"
    beside "your hand holds no combination"); ``known``: the cards left are known
    (:func:`known`), so a share of the guesses is a certainty and said as one; ``floors``: the shares of games
    won and lost from which they are said (:func:`outcome_floors`).
    """
    facts = option.facts
    who = "you" if seat is None else seat_name(seat, me)
    if isinstance(facts, PlayFacts):
        text = _play_reason(facts, me, risks, known, who)
    elif isinstance(facts, DeclareFacts):
        text = _declare_reason(facts, who)
    else:
        text = _challenge_reason(facts, who, known)
    if not outcome:
        return text
    if option.won >= floors[0]:
        text += f"; wins the game within {within}{_of_guesses(option.won, known)}"
    if option.lost >= floors[1] and not isinstance(facts, ChallengeFacts):
        text += f"; loses the game within {within}{_of_guesses(option.lost, known)}"
    return text


def outcome_floors(options: Sequence[Option]) -> tuple[float, float]:
    """The shares of games won and lost from which options shown together say theirs: :data:`WORTH_SAYING`, or
    :data:`WORTH_COMPARING` once one of them says it, so that options are compared on the same terms.

    >>> from ronda.engine.actions import DECLARES
    >>> said = lambda won: Option(DECLARES["none"], 0.5, 0.0, won, 0.0, DeclareFacts("none", "none", 0))
    >>> outcome_floors([said(0.26), said(0.185)]), outcome_floors([said(0.1), said(0.15)])
    ((0.05, 0.2), (0.2, 0.2))
    """
    won = WORTH_COMPARING if any(o.won >= WORTH_SAYING for o in options) else WORTH_SAYING
    challenge = [o for o in options if not isinstance(o.facts, ChallengeFacts)]
    lost = WORTH_COMPARING if any(o.lost >= WORTH_SAYING for o in challenge) else WORTH_SAYING
    return won, lost


def known(evaluation: Evaluation) -> bool:
    """Whether the cards left were known to the deciding seat: one guess, searched exactly (counting shows them all).

    Every share of such a search is 0 or 1: "seat 1 holds an 11 in 100% of the guesses: a likely caida"
    spoke of guesses where nothing was guessed (coach audit, item 9), so the words say a certainty.
    """
    return evaluation.exact and evaluation.guesses == 1


def _certain(share: float, known: bool) -> bool:
    return known and share >= 1.0


def _of_guesses(share: float, known: bool) -> str:
    """`` in 62% of the guesses`` — nothing when the cards are known and it always happens."""
    return "" if _certain(share, known) else f" in {_share(share)} of the guesses"


def _play_reason(facts: PlayFacts, me: int | None, risks: bool = True, known: bool = False, who: str = "you") -> str:
    if facts.raised:
        text = f"raises the chain, takes {_cards(facts.taken)}"
    elif facts.taken:
        text = f"takes {_cards(facts.taken)}"
        scored = [word for word, yes in (("caida", facts.caida), ("missa", facts.missa)) if yes]
        if scored:
            text += " — " + " and ".join(scored)
    else:
        text = "drops it"
    if facts.raised and facts.missa:
        text += " — missa"
    text += _exposure(facts, who)
    return text + _risk(facts, me, known) if risks else text


def _exposure(facts: PlayFacts, who: str = "you", lead: str = "; exposes") -> str:
    """What the card does to the side's false declaration: exposes it (R8.6), said with what it costs.

    It is no risk of the next seat's reply but the card's own doing, so it is said even where risks are not
    (an analysis's best option), and of the option taken as of the best (``lead``: ", which exposes" after what
    the seat did). A learner who had bluffed a tringa read "drops it" for the card that gave the bluff away, its
    penalty and the points taken back unsaid (a learner's audit); then "you dropped 6b" for the option taken,
    beside a best option that said it. With four players it may be the partner's, shown before a win (R9.5).
    """
    if facts.exposes < WORTH_SAYING:
        return ""
    often = "" if facts.exposes >= 1.0 else f" in {_share(facts.exposes)} of the guesses"
    back = ", and the points it scored are taken back" if facts.taken_back else ""
    whose = possessive(who) + (" partner's" if facts.partner else "")
    return (
        f"{lead} {whose} false {_kind(facts.declared)}{often}:"
        f" {facts.penalty} to each opposing side in penalties{back} (R8.6)"
    )


def _risk(facts: PlayFacts, me: int | None, known: bool = False) -> str:
    """What the next seat may answer: a caida on the card dropped, a missa on what is left."""
    if facts.next_seat is None:
        return ""
    who = seat_name(facts.next_seat, me)
    rank = RANKS[facts.card >> 2]
    holds = "hold" if who == "you" else "holds"
    parts = []
    if _certain(facts.reply_caida, known):
        parts.append(f"{who} {holds} {a_rank(rank)}: a caida")
    elif facts.reply_caida >= WORTH_SAYING:
        likely = _caida_words(facts.reply_caida)
        parts.append(f"{who} {holds} {a_rank(rank)} in {_share(facts.reply_caida)} of the guesses: {likely}")
    if _certain(facts.reply_missa, known):
        parts.append(f"{who} can clear the table for a missa")
    elif facts.reply_missa >= WORTH_SAYING:
        how = ("likely clear" if facts.reply_missa >= LIKELY else "may clear") + ("" if who == "you" else "s")
        how = how.replace("may clears", "may clear")
        parts.append(f"{who} {how} the table for a missa ({_share(facts.reply_missa)})")
    return "".join(f"; {part}" for part in parts)


def _caida_words(share: float) -> str:
    """A caida the next seat may answer with, in the same words in a hint and an analysis (coach audit, item 9).

    The hint once said "a caida" where the analysis of the same share said "a chance of a caida"; a learner
    comparing the two read two different facts.
    """
    return "a likely caida" if share >= LIKELY else "a chance of a caida"


def _declare_reason(facts: DeclareFacts, who: str = "you") -> str:
    declared, held, penalty = facts.declared, facts.held, facts.penalty
    your = possessive(who)
    if facts.truthful:
        return f"what {your} hand holds" if held != NONE else f"{your} hand holds no combination"
    if declared == NONE:
        return f"hides {your} {_kind(held)}: {penalty} to each opposing side once its cards are played (R8.7)"
    mechanism = _shown_first(your) if facts.shown else _bluff_mechanism(your)
    if held == NONE:
        return f"a bluff: {mechanism}; exposed, {penalty} to each opposing side (R8.6)"
    held_by = "you hold" if who == "you" else f"{who} holds"
    return (
        f"a false {_kind(declared)} ({held_by} a {_kind(held)}): {mechanism};"
        f" exposed, {penalty} to each opposing side in penalties (R8.6, R8.7)"
    )


def _shown_first(your: str) -> str:
    """Why a false declaration whose points would reach the target pays nothing by them (R9.5).

    Its points would win the game, so the hand is shown before they are given, and the shown hand exposes it:
    the delaying bluff works only below that (a ronda at 39 scores its point first, R8.5), and "its settlement
    points are scored first" said at 36 of a tringa was what the engine does not do (a learner's audit).
    """
    side = "your side" if your == "your" else "the side"
    return f"its points would bring {side} to the target, so {your} hand is shown before they are given (R9.5)"


def _bluff_mechanism(your: str) -> str:
    """How a bluff pays, in the words a learner needs beside its cost (coach audit, item 3).

    A reason that gave only the penalty ("6 to each opponent in penalties") left the bluff recommended with no
    why: its settlement points are scored first (R8.5), the game must be won (R9.3) before the cards expose it (R8.5),
    and an opponent who counts the cards may prove it false and challenge (R8.8) — the coach's play-outs assume
    such an opponent (docs/coach.md).
    """
    return (
        f"its settlement points are scored first (R8.5), and it pays if the game is won (R9.3) before {your} cards"
        " expose it (R8.5); an opponent who counts the cards may challenge it (R8.8)"
    )


def _challenge_reason(facts: ChallengeFacts, who: str = "you", known: bool = False) -> str:
    kind = _kind(facts.declared)
    seen = "the cards you have seen" if who == "you" else f"the cards {who} has seen"
    if facts.proven == "false":
        return f"{seen} prove the {kind} false: the penalty comes at once (R8.6)"
    if facts.proven == "true":
        return f"{seen} prove the {kind} true: the challenge fails and loses the game (R8.8)"
    if _certain(facts.loses_game, known):
        return f"the {kind} is true: the challenge fails and loses the game (R8.8)"
    return f"the {kind} is true in {_share(facts.loses_game)} of the guesses: a failed challenge loses the game (R8.8)"


# ------------------------------------------------------------------ hints


def hint_lines(evaluation: Evaluation, shown: int = HINT_OPTIONS, me: int | None = None) -> list[str]:
    """A hint: the best ``shown`` options (one card of a rank), each with its chance to win, its points, a reason.

    A move without a choice (:attr:`~ronda.analysis.search.Evaluation.choice`: one card, or cards of one rank) is
    said to be one first: "1. play 10o" under "each option" read as advice where there was nothing to choose (a
    student's audit). Its chance to win, its points and what the card risks are still said — where the game
    stands, and what may come of the card — and they are what the search is run for: no choice depends on it,
    but everything the hint says but "nothing to choose" does, so a forced move is searched as any other.
    """
    within = horizon(evaluation)
    where = (
        f"from what you can see ({_guesses(evaluation)}); "
        f"in brackets the expected points, {_margin_words(evaluation.sides)}, within {within}:"
    )
    options = shown_options(evaluation, shown)
    floors = outcome_floors(options)

    def said(option: Option) -> str:
        name = option_name(option.action, me)
        reason = option_reason(option, me, within=within, known=known(evaluation), floors=floors)
        return f"{name}: {chance(option.chance)} to win ({points(option.expected)} points): {reason}"

    if not evaluation.choice:
        return [f"Hint — {_nothing_to_choose(evaluation, me)}. Your chance to win the game after it, {where}"] + [
            f"  {said(option)}" for option in options
        ]
    lines = [f"Hint — your chance to win the game after each option, {where}"]
    lines += [f"  {number}. {said(option)}" for number, option in enumerate(options, 1)]
    return lines


def _nothing_to_choose(evaluation: Evaluation, me: int | None = None) -> str:
    """Why a decision without a choice has none: its one card, its cards of one rank (R1.1), its one move.

    >>> from ronda.engine.actions import DECLARES
    >>> options = lambda *actions: tuple(Option(a, 0.5, 0.0, 0.0, 0.0, None) for a in actions)
    >>> forced = lambda *actions: Evaluation(0, "play", options(*actions), 1, False, 0)
    >>> _nothing_to_choose(forced(Play.parse("10o")))
    'your only card: 10o, nothing to choose'
    >>> _nothing_to_choose(forced(Play.parse("5o"), Play.parse("5c")))
    'your cards 5o 5c are of one rank and play alike (R1.1): nothing to choose'
    >>> _nothing_to_choose(forced(DECLARES["none"]))
    'your only move: declare none, nothing to choose'
    """
    cards = [option.action.card for option in evaluation.options if isinstance(option.action, Play)]
    if len(cards) == 1:
        return f"your only card: {card_name(cards[0])}, nothing to choose"
    if cards:
        return f"your cards {_cards(tuple(cards))} are of one rank and play alike (R1.1): nothing to choose"
    return f"your only move: {option_name(evaluation.best.action, me)}, nothing to choose"


def _margin_words(sides: int) -> str:
    """Whose points the expected points are: with three players, the others' are their average (the search's
    margin, :class:`~ronda.analysis.search.Sources`), and "the others'" read as the two together (a learner's audit).

    >>> _margin_words(2), _margin_words(3)
    ("your side's minus the others'", "yours minus the average of the other two players'")
    """
    if sides == 3:
        return "yours minus the average of the other two players'"
    return "your side's minus the others'"


def _guesses(evaluation: Evaluation) -> str:
    if known(evaluation):
        return "the cards left are known: searched exactly"
    exact = ", the end of the round searched exactly" if evaluation.exact else ""
    return f"{evaluation.guesses} guesses of the hidden cards{exact}"


# ------------------------------------------------------------------ decisions


def _did(action: Action, option: Option, me: int | None, who: str = "you") -> str:
    """What the seat did, in the past tense, with the false declaration its card exposed (:func:`_exposure`)."""
    facts = option.facts
    if isinstance(facts, PlayFacts):
        card = card_name(facts.card)
        if facts.raised:
            did = f"raised the chain with {card}"
        elif facts.taken:
            did = f"played {card}, taking {_cards(facts.taken)}"
        else:
            did = f"dropped {card}"
        return did + _exposure(facts, who, ", which exposes")
    if isinstance(facts, DeclareFacts):
        if facts.truthful:
            return f"declared {_kind(facts.declared)}"
        if facts.declared == NONE:
            return f"declared none, hiding a {_kind(facts.held)}"
        if facts.held != NONE:
            return f"declared {_kind(facts.declared)}, holding a {_kind(facts.held)}"
        return f"declared {_kind(facts.declared)}, a bluff"
    assert isinstance(action, Challenge)
    return f"challenged {possessive(seat_name(action.target, me))} {_kind(facts.declared)}"


def _consequence(option: Option, me: int | None, known: bool = False) -> str:
    """What an option risks or pays by itself, when a few words can say it: the cost of the option taken."""
    facts = option.facts
    if isinstance(facts, PlayFacts) and facts.next_seat is not None:
        who = seat_name(facts.next_seat, me)
        rank = RANKS[facts.card >> 2]
        if _certain(facts.reply_caida, known):
            holds = "hold" if who == "you" else "holds"
            return f", giving {who} a caida ({who} {holds} {a_rank(rank)})"
        if _certain(facts.reply_missa, known):
            return f", leaving {who} the table to clear for a missa"
        if facts.reply_caida >= WORTH_SAYING:
            likely = _caida_words(facts.reply_caida)
            return f", giving {who} {likely} ({a_rank(rank)} in {_share(facts.reply_caida)} of the guesses)"
        if facts.reply_missa >= WORTH_SAYING:
            likely = "a likely missa" if facts.reply_missa >= LIKELY else "a chance of a missa"
            return f", leaving {who} {likely} ({_share(facts.reply_missa)} of the guesses)"
    if isinstance(facts, ChallengeFacts) and facts.proven == "true":
        # Not "in 100% of the guesses": no guess was needed, the cards seen proved it (no interface offers it).
        return ", proven true by the cards seen: the challenge fails and loses the game (R8.8)"
    if isinstance(facts, ChallengeFacts) and _certain(facts.loses_game, known):
        return ", which fails and loses the game (R8.8)"
    if isinstance(facts, ChallengeFacts) and facts.loses_game >= WORTH_SAYING:
        return f", which fails and loses the game in {_share(facts.loses_game)} of the guesses (R8.8)"
    if isinstance(facts, DeclareFacts) and not facts.truthful:
        rule = "R8.7" if facts.declared == NONE else "R8.6, R8.7" if facts.held != NONE else "R8.5, R8.6"
        return f", {facts.penalty} to each opposing side unless the game ends first ({rule})"
    return ""


def _instead(option: Option, me: int | None) -> str:
    """The better option, as the costliest decisions name it: ``3c``, ``declaring ronda``, ``challenging seat 1``."""
    action = option.action
    if isinstance(action, Play):
        return card_name(action.card)
    if isinstance(action, Declare):
        return f"declaring {_kind(action.declaration)}"
    return f"challenging {seat_name(action.target, me)}"


SOURCE_WORTH = 0.1
"""A source of points is named when the two options differ by at least this much in it."""
SOURCES_SAID = 3
"""At most this many sources are named, the largest differences first."""
CHANCE_WORTH = 0.05
"""A chance of ending the game is named when it is at least this, after either option, and they differ by as much."""

_SOURCE_WORDS: dict[Source, str] = {
    "cards": "the card count",
    "caidas": "caidas",
    "missas": "missas",
    "combinations": "combinations",
    "penalties": "penalties",
    "dealer_duty": "the dealer's duty",
}


def gains_text(
    better: Option,
    worse: Option,
    worse_name: str,
    seat: int,
    players: int,
    me: int | None,
    within: str = "this round",
    known: bool = False,
) -> str:
    """What ``better`` gains over ``worse``, by source, each number the difference between the two.

    Like "+4.10 points from the card count (seat 1 takes the cards left on the table in 90% of the
    guesses, against 10% after 1e), +0.80 from caidas; wins the game within this round in
    60% of the guesses, against 20% after 1e". A negative number is what ``better`` gives up for the rest.
    The last capture is named with the card count only when it goes the same way as the count's difference.
    ``known``: the cards left are known (:func:`known`), and the shares, all 0 or 1, are said as what happens.
    """
    parts = []
    chances = _chances(better, worse, worse_name, within, known)
    differences = [(better.sources.margin(s) - worse.sources.margin(s), s) for s in SOURCES]
    named = sorted((d for d in differences if abs(d[0]) >= SOURCE_WORTH), key=lambda d: -abs(d[0]))[:SOURCES_SAID]
    for difference, source in sorted(named, key=lambda d: -d[0]):  # the gains first, then what is given up
        part = f"{difference:+.2f} from {_SOURCE_WORDS[source]}"
        sweep, against = better.sources.sweep, worse.sources.sweep
        # The last capture is said only where it explains the card count's difference, gained or given up: a
        # better option that makes it less often gains the count elsewhere, and the note would point the wrong way.
        if source == "cards" and abs(sweep - against) >= SOURCE_WORTH and (sweep > against) == (difference > 0):
            who = side_name(seat % 2 if players == 4 else seat, players, me)
            makes, takes = ("make", "take") if who == "you" or who.startswith("your") else ("makes", "takes")
            if _sure(sweep, against, known):
                when = f"not after {worse_name}" if sweep > against else f"only after {worse_name}"
                part += f" ({who} {makes} the round's last capture, and so {takes} the cards left on the table, {when})"
            else:
                part += (
                    f" ({who} {makes} the round's last capture, and so {takes} the cards left on the table,"
                    f" in {_share(sweep)} of the guesses, against {_share(against)} after {worse_name})"
                )
        parts.append(part)
    if parts:
        parts[0] = parts[0].replace(" from ", " points from ", 1)
    text = ", ".join(parts)
    if chances:
        text = f"{text}; {chances}" if text else chances
    return text


def _sure(mine: float, theirs: float, known: bool) -> bool:
    """Whether two shares are a certainty each, one happening and the other not: said without guesses."""
    return known and {mine, theirs} == {0.0, 1.0}


def _chances(better: Option, worse: Option, worse_name: str, within: str, known: bool = False) -> str:
    """The shares of guesses in which the game is won or lost within the horizon after each option, if they differ."""
    said = []
    for verb, mine, theirs in (("wins", better.won, worse.won), ("loses", better.lost, worse.lost)):
        if _sure(mine, theirs, known):
            said.append(
                f"{verb} the game within {within}, {worse_name} does not"
                if mine
                else f"{worse_name} {verb} the game within {within}"
            )
        elif max(mine, theirs) >= CHANCE_WORTH and abs(mine - theirs) >= CHANCE_WORTH:
            said.append(
                f"{verb} the game within {within} in {_share(mine)} of the guesses,"
                f" against {_share(theirs)} after {worse_name}"
            )
    return "; ".join(said)


def costly_text(decision: Decision, me: int | None = None) -> str:
    """One costly decision in words: what was done and what it cost, what the best option gains, numbers attached.

    Like "round 2, deal 3: you dropped 5o, giving seat 1 a likely caida (a 5 in 62% of the guesses):
    a 48.0% chance to win the game (-0.90 points). 3c (takes 3o) gave 53.5%, 5.5 percentage points more:
    +1.00 points from caidas, +0.50 from the card count". Each chance and each value is the option's own
    (:mod:`ronda.analysis.search`); "more" is the loss, in percentage points of the chance to win; each
    source's number is the best option's points minus the option taken's: why it wins more often.
    """
    moment, evaluation = decision.moment, decision.evaluation
    taken = evaluation.option(moment.taken)
    who = seat_name(moment.seat, me)
    best = evaluation.best
    what = option_reason(best, me, outcome=False, risks=False, seat=moment.seat)
    sure = known(evaluation)
    gains = gains_text(best, taken, _short(taken), moment.seat, moment.view.players, me, horizon(evaluation), sure)
    return (
        f"round {moment.round + 1}, deal {moment.deal + 1}: {who} {_did(moment.taken, taken, me, who)}"
        f"{_consequence(taken, me, sure)}: a {chance(taken.chance)} chance to win the game"
        f" ({points(taken.expected)} points). "
        f"{_capital(_instead(best, me))} ({what}) gave {chance(best.chance)}, "
        f"{chance_points(decision.loss)} percentage points more" + (f": {gains}" if gains else "")
    )


def _short(option: Option) -> str:
    """An option in a few words, to say which one a number belongs to: ``1e``, ``declaring none``, ``the challenge``."""
    action = option.action
    if isinstance(action, Play):
        return card_name(action.card)
    if isinstance(action, Declare):
        return f"declaring {_kind(action.declaration)}"
    return "the challenge"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def decision_line(decision: Decision, me: int | None = None) -> str:
    """One analysed decision on one line: who did what, its chance to win, its class, and the best option if not taken.

    The best option's chance, points and sources are said against the option taken, by name.
    """
    moment, evaluation = decision.moment, decision.evaluation
    taken = evaluation.option(moment.taken)
    who = seat_name(moment.seat, me)
    did = _did(moment.taken, taken, me, who)
    value = f"{chance(taken.chance)} to win ({points(taken.expected)} points)"
    line = f"{who} {did}: {value}, {decision.grade}"
    if decision.grade != "best":
        best = evaluation.best
        line = f"{who} {did}{_consequence(taken, me, known(evaluation))}: {value}, {decision.grade}"
        line += f" (-{chance_points(decision.loss)} percentage points)"
        line += f"; best {option_name(best.action, me)} {chance(best.chance)} ({points(best.expected)} points)"
        line += f": {option_reason(best, me, outcome=False, risks=False, seat=moment.seat)}"
        within = horizon(evaluation)
        gains = gains_text(best, taken, _short(taken), moment.seat, moment.view.players, me, within, known(evaluation))
        if gains:
            line += f"; against {_short(taken)}: {gains}"
    else:
        line += _points_left(evaluation, taken, me)
    if decision.hinted:
        line += " [after a hint]"
    return line


POINTS_WORTH_TELLING = 1.0
"""Expected points behind another option from which a decision graded "best" still names that option."""


def _points_left(evaluation: Evaluation, taken: Option, me: int | None) -> str:
    """For a decision graded "best": the option that would have scored clearly more points, if there is one.

    "best" says the chance to win was within the search's precision of the best; where the game is decided
    either way (a won or lost game, a far target) that hides points a player still cares to know of: dropping
    7c for -11 when 12b gave -7 read "best" and 12b was never named (the coach audit).

    The option named wins at least as often as the one taken, as shown: "challenge seat 1 would have scored
    2.15 points more (0.0% to win)" beside a drop at 20.0% pointed a learner at a challenge that loses the game
    (an audit). Beside an option that is no gamble, a gamble (a bluff, a combination hidden, a challenge that
    may fail: :attr:`~ronda.analysis.search.Option.gamble`) is named only where it ranks first
    (:func:`~ronda.analysis.search.rank`: shown to win more often): its points are often more only because it
    ends a lost game at once (R8.6, R8.8, R9.3), and "declare tringa would have scored 11.00 points more" beside
    a truthful "declare none" taught bluffing where the hint no longer does.
    """
    first = rank(taken)

    def named(option: Option) -> bool:
        if round(option.chance, LOSS_DIGITS) < round(taken.chance, LOSS_DIGITS):
            return False
        return option is taken or taken.gamble or not option.gamble or rank(option) < first

    most = max(filter(named, evaluation.options), key=lambda option: option.expected)
    more = most.expected - taken.expected
    if most is taken or more < POINTS_WORTH_TELLING:
        return ""
    return f"; {option_name(most.action, me)} would have scored {more:.2f} points more ({chance(most.chance)} to win)"


CHOICES = "with a choice"
"""What the decisions an analysis counts are: a play of one card, or of cards of one rank, is no choice."""


def decisions_text(decisions: int, moves: int | None = None) -> str:
    """How many decisions an analysis is of, said as what they are, of how many moves where they were counted.

    A person counts moves: after 112 of them, "You: 88 decisions" read as a miscount (a terminal audit).

    >>> decisions_text(88, 112), decisions_text(1)
    ('88 decisions with a choice (of 112 moves)', '1 decision with a choice')
    """
    said = f"{decisions} decision{'' if decisions == 1 else 's'} {CHOICES}"
    if moves is None:
        return said
    return f"{said} (of {moves} move{'' if moves == 1 else 's'})"


def summary_lines(summary: SeatSummary, me: int | None = None) -> list[str]:
    """A seat's summary: decisions, average loss, classes, and the costliest decisions in words."""
    who = seat_name(summary.seat, me)
    title = "You" if who == "you" else who[:1].upper() + who[1:]
    lines = [
        f"{title}: {decisions_text(summary.decisions, summary.moves)},"
        f" average loss {chance_points(summary.average_loss)}"
        " percentage points of the chance to win a decision",
        "  " + " · ".join(f"{grade} {summary.classes[grade]}" for grade in GRADES),
    ]
    if summary.costliest:
        lines.append("  The costliest:")
        for number, decision in enumerate(summary.costliest, 1):
            lines.append(f"  {number}. {costly_text(decision, me)}")
    elif summary.decisions:
        lines.append("  No decision gave up a noticeable chance to win against the best option.")
    return lines


def slips_lines(review: Review, seat: int) -> list[str]:
    """Every decision of ``seat`` that was not the best, by round and deal, told to ``seat`` itself ("you")."""
    lines = []
    for decision in review.decisions:
        if decision.seat == seat and decision.grade != "best":
            moment = decision.moment
            lines.append(f"round {moment.round + 1}, deal {moment.deal + 1}: {decision_line(decision, me=seat)}")
    if lines:
        lines.insert(0, "Every decision that lost some chance to win:")
    return lines


def review_lines(review: Review, me: int | None = None, every: bool = True) -> list[str]:
    """The whole analysis as text: every decision by round and deal (if ``every``), then each seat's summary."""
    method = review.method
    reach = "to the end of the round" if method.deals == 0 else f"over {method.deals} deals"
    lines = [
        f"{method.guesses} guesses of the hidden cards a decision, rollouts {reach} "
        f"(seed {review.seed}); each option valued by its chance to win the game, its expected points in brackets; "
        f"{thresholds_text()}"
    ]
    if every:
        place = None
        for decision in review.decisions:
            here = (decision.moment.round, decision.moment.deal)
            if here != place:
                place = here
                lines.append(f"— round {here[0] + 1}, deal {here[1] + 1} —")
            lines.append("  " + decision_line(decision, me))
    for seat in review.seats:
        lines += summary_lines(review.summary(seat), me)
    return lines


def review_json(review: Review) -> dict[str, Any]:
    """:meth:`Review.to_json` with the words: a reason for every option, a line for every decision, the costliest.

    The JSON has no reader: every line names the seats ("seat 1 declared none"), and so does each option's
    reason ("seat 1's hand holds no combination"), never "you" for one seat and "seat 1" for the same seat.
    """
    data = review.to_json()
    for entry, decision in zip(data["decisions"], review.decisions, strict=True):
        for option_entry, option in zip(entry["options"], decision.evaluation.options, strict=True):
            option_entry["reason"] = option_reason(
                option, seat=decision.seat, within=horizon(decision.evaluation), known=known(decision.evaluation)
            )
        entry["text"] = decision_line(decision)
    by_index = {d.moment.index: d for d in review.decisions}
    for seat_entry in data["seats"]:
        seat_entry["costliest"] = [
            {"index": index, "text": costly_text(by_index[index])} for index in seat_entry["costliest"]
        ]
    return data


__all__ = [
    "CHOICES",
    "a_rank",
    "chance",
    "costly_text",
    "decisions_text",
    "gains_text",
    "decision_line",
    "hint_lines",
    "horizon",
    "known",
    "option_name",
    "option_reason",
    "points",
    "review_json",
    "review_lines",
    "slips_lines",
    "summary_lines",
]
