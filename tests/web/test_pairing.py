"""The play-now queue alone (ronda.interfaces.web.pairing), on a fake clock: who is seated with whom, and when."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest

from ronda.interfaces.web.pairing import Ask, Game, LocalPairing, Match, Seating, TooManyWaiting

T = TypeVar("T")
TWO, THREE, FOUR = Game(2, "classic"), Game(3, "classic"), Game(4, "classic")


def run(step: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(step)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def ask(
    ticket: str, game: Game = THREE, bots_after: float | None = None, level: str = "medium", client: str = ""
) -> Ask:
    return Ask(ticket, game, ticket.title(), client or f"10.0.0.{len(ticket)}", bots_after, level)


def names(match: Match | None) -> list[str]:
    assert match is not None
    return [a.ticket for a in match.people]


def test_people_asking_for_the_same_game_are_seated_together_once_there_are_enough() -> None:
    pairing = LocalPairing(clock=Clock())
    assert run(pairing.ask(ask("amina"))) is None
    assert run(pairing.ask(ask("brahim"))) is None
    match = run(pairing.ask(ask("chama")))
    assert names(match) == ["amina", "brahim", "chama"] and match is not None and match.bots == 0
    assert run(pairing.waiting("amina")) is None  # out of the queue: nobody is seated twice
    assert run(pairing.ask(ask("driss"))) is None  # the next one waits afresh


def test_a_different_count_or_preset_is_a_different_game() -> None:
    pairing = LocalPairing(clock=Clock())
    assert run(pairing.ask(ask("amina", TWO))) is None
    assert run(pairing.ask(ask("brahim", THREE))) is None
    assert run(pairing.ask(ask("chama", Game(2, "short")))) is None
    assert names(run(pairing.ask(ask("driss", TWO)))) == ["amina", "driss"]
    waiting = run(pairing.waiting("brahim"))
    assert waiting is not None and waiting.others == 0


def test_asking_again_replaces_the_one_request() -> None:
    pairing = LocalPairing(clock=Clock())
    run(pairing.ask(ask("amina", TWO)))
    run(pairing.ask(ask("amina", TWO)))  # twice for the same game: still one request
    assert run(pairing.ask(ask("amina", THREE))) is None  # changed her mind: now she waits for three only
    assert run(pairing.ask(ask("brahim", TWO))) is None  # so Brahim is not paired with her
    waiting = run(pairing.waiting("amina"))
    assert waiting is not None and waiting.ask.game == THREE


def test_cancelling_leaves_the_queue_and_a_second_cancel_finds_nothing() -> None:
    pairing = LocalPairing(clock=Clock())
    run(pairing.ask(ask("amina", TWO)))
    assert run(pairing.cancel("amina")) is True
    assert run(pairing.cancel("amina")) is False
    assert run(pairing.ask(ask("brahim", TWO))) is None  # Amina is gone: Brahim waits


def test_a_wait_that_ends_brings_bots_of_the_chosen_level_and_takes_the_others_who_accept_bots() -> None:
    clock = Clock()
    pairing = LocalPairing(clock=clock)
    run(pairing.ask(ask("amina", FOUR, bots_after=30, level="hard")))
    clock.now = 5
    run(pairing.ask(ask("brahim", FOUR)))  # people only
    run(pairing.ask(ask("chama", FOUR, bots_after=300, level="easy")))
    clock.now = 29.9
    assert run(pairing.due()) == []
    waiting = run(pairing.waiting("amina"))
    assert waiting is not None and waiting.bots_in == pytest.approx(0.1) and waiting.others == 2
    clock.now = 30
    (match,) = run(pairing.due())
    assert names(match) == ["amina", "chama"] and match.bots == 2 and match.level == "hard"
    assert run(pairing.waiting("brahim")) is not None  # who refused bots never gets them
    assert run(pairing.due()) == []


def test_a_wait_of_zero_is_due_at_once_and_waits_without_bots_never_are() -> None:
    clock = Clock()
    pairing = LocalPairing(clock=clock)
    run(pairing.ask(ask("amina", TWO)))
    clock.now = 10_000
    assert run(pairing.due()) == []
    run(pairing.ask(ask("brahim", THREE, bots_after=0)))
    (match,) = run(pairing.due())
    assert names(match) == ["brahim"] and match.bots == 2


def test_one_address_may_keep_only_so_many_requests_waiting() -> None:
    pairing = LocalPairing(clock=Clock(), per_client=2)
    run(pairing.ask(ask("a", FOUR, client="6.6.6.6")))
    run(pairing.ask(ask("b", FOUR, client="6.6.6.6")))
    run(pairing.ask(ask("b", THREE, client="6.6.6.6")))  # replacing one's own request is not one more
    with pytest.raises(TooManyWaiting):
        run(pairing.ask(ask("c", FOUR, client="6.6.6.6")))
    assert run(pairing.waiting("c")) is None
    assert run(pairing.ask(ask("d", FOUR, client="7.7.7.7"))) is None  # another address still may


def test_a_seated_ticket_never_waits_again() -> None:
    pairing = LocalPairing(clock=Clock())
    run(pairing.ask(ask("amina", TWO)))
    run(pairing.ask(ask("brahim", TWO)))
    run(pairing.seat("amina", Seating("t1", 0, "secret")))
    assert run(pairing.seating("amina")) == Seating("t1", 0, "secret")
    with pytest.raises(ValueError):
        run(pairing.ask(ask("amina", TWO)))


def test_a_matched_ticket_is_pending_from_the_very_step_that_matched_it() -> None:
    """A look while the table is being made finds the ticket matched, not lost (nor waiting, to be matched again)."""
    pairing = LocalPairing(clock=Clock())
    run(pairing.ask(ask("amina", TWO)))
    run(pairing.ask(ask("brahim", TWO)))
    for ticket in ("amina", "brahim"):
        seating = run(pairing.seating(ticket))
        assert seating is not None and seating.pending and run(pairing.waiting(ticket)) is None
    assert run(pairing.cancel("amina")) is False
