"""Which challenges to offer a seat, and the warning to read before one (R8.8).

A failed challenge loses the whole game (R8.8), so an interface must not make
it one key away. This module is the shared judgement every interface uses:
the terminal's full screen and plain mode offer challenges by it, and the web
server tells the browser page its verdicts (the view's ``proven``,
:func:`ronda.interfaces.web.protocol.view_json`), whose warning the page says
in its own languages:

- :func:`challenge_options` sorts the challenges the engine allows into those
  the seat's own view proves would fail (the declarer's hand can only hold the
  declared kind, :meth:`~ronda.engine.view.SeatView.proof`), proves
  would succeed, or leaves open;
- :func:`offered_targets` is what to offer: never one that is proven to fail;
- :func:`challenge_warning` is the sentence to show before asking for a
  confirmation, in the game's words.

Legality stays the engine's: the options are built from its legal actions,
and the proof from the view's ``proof``; nothing is re-derived here.

>>> from ronda.engine.game import Game
>>> from ronda.engine.rules import Rules
>>> game = Game(Rules(players=2), seed=2)
>>> from ronda.engine.actions import Declare
>>> _ = game.apply(Declare("ronda")); _ = game.apply(Declare("ronda"))
>>> _ = game.apply(game.legal_actions()[0])  # seat 0 plays; seat 1 is to play
>>> [(o.target, o.declared, o.verdict) for o in challenge_options(game.view(1), game.legal_actions())]
[(0, 'ronda', 'open')]
>>> challenge_warning(challenge_options(game.view(1), game.legal_actions())[0], players=2)
'If seat 0 really holds a ronda, you lose the game.'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from ..engine.actions import Action, Challenge
from ..engine.view import SeatView

Verdict = Literal["open", "proven_true", "proven_false"]
"""What the challenger's own view proves of a declaration: nothing, that it is true, or that it is false."""

__all__ = ["ChallengeOption", "Verdict", "challenge_options", "challenge_warning", "offered_targets"]


@dataclass(frozen=True, slots=True)
class ChallengeOption:
    """A challenge the engine allows now: its target, the kind declared, and what the challenger can prove of it."""

    target: int
    declared: str
    verdict: Verdict

    @property
    def offered(self) -> bool:
        """Whether an interface should offer it: a challenge proven to fail only loses the game."""
        return self.verdict != "proven_true"


_VERDICTS: dict[str | None, Verdict] = {"true": "proven_true", "false": "proven_false", None: "open"}
"""The view's proof (:meth:`~ronda.engine.view.SeatView.proof`) as an interface's verdict."""


def challenge_options(view: SeatView, legal: Iterable[Action]) -> list[ChallengeOption]:
    """The legal challenges of ``view.seat`` (from ``legal``, the engine's legal actions), each with its verdict.

    ``proven_true`` when the declarer's hand as dealt can only hold the declared
    kind as far as this seat can tell, ``proven_false`` when it cannot hold it.
    """
    options = []
    for action in legal:
        if not isinstance(action, Challenge):
            continue
        declared = view.declarations[action.target]
        if declared is None:
            continue
        options.append(ChallengeOption(action.target, declared, _VERDICTS[view.proof(action.target)]))
    return options


def offered_targets(view: SeatView, legal: Iterable[Action]) -> list[int]:
    """The seats whose declaration may be offered for a challenge: never one the seat's view proves true."""
    return [option.target for option in challenge_options(view, legal) if option.offered]


def challenge_warning(option: ChallengeOption, players: int) -> str:
    """The sentence to read before confirming a challenge: what is lost if the declaration is true (R8.8).

    The target is named as in the narration ('seat 1'); the reader is the
    challenger. With partners (4 players) it is the side that loses the game.

    >>> challenge_warning(ChallengeOption(1, "ronda", "open"), players=2)
    'If seat 1 really holds a ronda, you lose the game.'
    >>> challenge_warning(ChallengeOption(3, "tringa", "proven_true"), players=4)
    "Seat 3's tringa is proven true by the cards you have seen: challenging it loses your side the game."
    >>> challenge_warning(ChallengeOption(1, "double_ronda", "proven_false"), players=2)
    'Seat 1 cannot hold a double ronda, by the cards you have seen: a challenge exposes it as false.'
    """
    who = f"seat {option.target}"
    kind = option.declared.replace("_", " ")
    loser = "your side" if players == 4 else "you"
    if option.verdict == "proven_true":
        loses = "loses your side" if players == 4 else "loses you"
        return (
            f"{who.capitalize()}'s {kind} is proven true by the cards you have seen: challenging it {loses} the game."
        )
    if option.verdict == "proven_false":
        return f"{who.capitalize()} cannot hold a {kind}, by the cards you have seen: a challenge exposes it as false."
    verb = "loses" if players == 4 else "lose"
    return f"If {who} really holds a {kind}, {loser} {verb} the game."
