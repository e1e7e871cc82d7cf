"""The play-now queue alone, on a fake clock: who is seated with whom, and when.

Every test runs twice, on the same rules: against :class:`LocalPairing` (one
process's memory) and against :class:`RedisPairing` on a real Redis (a cluster's
queue, whose Lua scripts are then told the fake clock's time instead of Redis').
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar

import pytest

from ronda.interfaces.web.pairing import STALE, Ask, Game, LocalPairing, Match, Pairing, Seating, TooManyWaiting

T = TypeVar("T")
TWO, THREE, FOUR = Game(2, "classic"), Game(3, "classic"), Game(4, "classic")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Bench:
    """A kind of queue under test: ``make`` builds one on ``clock``, and ``run`` runs its calls in one event loop."""

    def __init__(self, make: Callable[..., Pairing], runner: asyncio.Runner, clock: Clock) -> None:
        self.make, self.runner, self.clock = make, runner, clock

    def run(self, step: Coroutine[Any, Any, T]) -> T:
        return self.runner.run(step)

    def looking(self, pairing: Pairing, until: float, *tickets: str) -> None:
        """Time passes up to ``until``, the waiting pages of ``tickets`` looking every second as the page does."""
        while self.clock.now < until:
            self.clock.now = min(until, self.clock.now + 1)
            for ticket in tickets:
                self.run(pairing.waiting(ticket))


@pytest.fixture(params=["local", "redis"])
def bench(request: pytest.FixtureRequest) -> Iterator[Bench]:
    clock = Clock()
    with asyncio.Runner() as runner:
        if request.param == "local":
            yield Bench(lambda **options: LocalPairing(clock=clock, **options), runner, clock)
            return
        from redis.asyncio import Redis

        from ronda.interfaces.web.redis_pairing import RedisPairing

        redis = Redis.from_url(request.getfixturevalue("redis_url"))
        try:
            yield Bench(lambda **options: RedisPairing(redis, clock=clock, **options), runner, clock)
        finally:
            runner.run(redis.aclose())


def ask(
    ticket: str,
    game: Game = THREE,
    bots_after: float | None = None,
    level: str = "medium",
    client: str = "",
    player: str | None = None,
) -> Ask:
    return Ask(ticket, game, ticket.title(), client or f"10.0.0.{len(ticket)}", bots_after, level, player)


def names(match: Match | None) -> list[str]:
    assert match is not None
    return [a.ticket for a in match.people]


def test_people_asking_for_the_same_game_are_seated_together_once_there_are_enough(bench: Bench) -> None:
    pairing = bench.make()
    assert bench.run(pairing.ask(ask("amina"))) is None
    assert bench.run(pairing.ask(ask("brahim"))) is None
    match = bench.run(pairing.ask(ask("chama")))
    assert names(match) == ["amina", "brahim", "chama"] and match is not None and match.bots == 0
    assert bench.run(pairing.waiting("amina")) is None  # out of the queue: nobody is seated twice
    assert bench.run(pairing.ask(ask("driss"))) is None  # the next one waits afresh


def test_a_different_count_or_preset_is_a_different_game(bench: Bench) -> None:
    pairing = bench.make()
    assert bench.run(pairing.ask(ask("amina", TWO))) is None
    assert bench.run(pairing.ask(ask("brahim", THREE))) is None
    assert bench.run(pairing.ask(ask("chama", Game(2, "short")))) is None
    assert names(bench.run(pairing.ask(ask("driss", TWO)))) == ["amina", "driss"]
    waiting = bench.run(pairing.waiting("brahim"))
    assert waiting is not None and waiting.others == 0


def test_asking_again_replaces_the_one_request(bench: Bench) -> None:
    pairing = bench.make()
    bench.run(pairing.ask(ask("amina", TWO)))
    bench.run(pairing.ask(ask("amina", TWO)))  # twice for the same game: still one request
    assert bench.run(pairing.ask(ask("amina", THREE))) is None  # changed her mind: now she waits for three only
    assert bench.run(pairing.ask(ask("brahim", TWO))) is None  # so Brahim is not paired with her
    waiting = bench.run(pairing.waiting("amina"))
    assert waiting is not None and waiting.ask.game == THREE


def test_cancelling_leaves_the_queue_and_a_second_cancel_finds_nothing(bench: Bench) -> None:
    pairing = bench.make()
    bench.run(pairing.ask(ask("amina", TWO)))
    assert bench.run(pairing.cancel("amina")) is True
    assert bench.run(pairing.cancel("amina")) is False
    assert bench.run(pairing.ask(ask("brahim", TWO))) is None  # Amina is gone: Brahim waits


def test_a_wait_that_ends_brings_bots_of_the_chosen_level_and_takes_the_others_who_accept_bots(bench: Bench) -> None:
    pairing = bench.make()
    bench.run(pairing.ask(ask("amina", FOUR, bots_after=30, level="hard")))
    bench.looking(pairing, 5, "amina")
    bench.run(pairing.ask(ask("brahim", FOUR)))  # people only
    bench.run(pairing.ask(ask("chama", FOUR, bots_after=300, level="easy")))
    bench.looking(pairing, 29.9, "amina", "brahim", "chama")
    assert bench.run(pairing.due()) == []
    waiting = bench.run(pairing.waiting("amina"))
    assert waiting is not None and waiting.bots_in == pytest.approx(0.1) and waiting.others == 2
    bench.looking(pairing, 30, "amina", "brahim", "chama")
    (match,) = bench.run(pairing.due())
    assert names(match) == ["amina", "chama"] and match.bots == 2 and match.level == "hard"
    assert bench.run(pairing.waiting("brahim")) is not None  # who refused bots never gets them
    assert bench.run(pairing.due()) == []


def test_a_wait_of_zero_is_due_at_once_and_waits_without_bots_never_are(bench: Bench) -> None:
    pairing = bench.make()
    bench.run(pairing.ask(ask("amina", TWO)))
    bench.looking(pairing, 1_000, "amina")
    assert bench.run(pairing.due()) == [] and bench.run(pairing.waiting("amina")) is not None
    bench.run(pairing.ask(ask("brahim", THREE, bots_after=0)))
    (match,) = bench.run(pairing.due())
    assert names(match) == ["brahim"] and match.bots == 2


def test_one_address_may_keep_only_so_many_requests_waiting(bench: Bench) -> None:
    pairing = bench.make(per_client=2)
    bench.run(pairing.ask(ask("a", FOUR, client="6.6.6.6")))
    bench.run(pairing.ask(ask("b", FOUR, client="6.6.6.6")))
    bench.run(pairing.ask(ask("b", THREE, client="6.6.6.6")))  # replacing one's own request is not one more
    with pytest.raises(TooManyWaiting):
        bench.run(pairing.ask(ask("c", FOUR, client="6.6.6.6")))
    assert bench.run(pairing.waiting("c")) is None
    assert bench.run(pairing.ask(ask("d", FOUR, client="7.7.7.7"))) is None  # another address still may


def test_a_seated_ticket_never_waits_again(bench: Bench) -> None:
    pairing = bench.make()
    bench.run(pairing.ask(ask("amina", TWO)))
    bench.run(pairing.ask(ask("brahim", TWO)))
    bench.run(pairing.seat("amina", Seating("t1", 0, "secret")))
    assert bench.run(pairing.seating("amina")) == Seating("t1", 0, "secret")
    with pytest.raises(ValueError):
        bench.run(pairing.ask(ask("amina", TWO)))


def test_a_matched_ticket_is_pending_from_the_very_step_that_matched_it(bench: Bench) -> None:
    """A look while the table is being made finds the ticket matched, not lost (nor waiting, to be matched again)."""
    pairing = bench.make()
    bench.run(pairing.ask(ask("amina", TWO)))
    bench.run(pairing.ask(ask("brahim", TWO)))
    for ticket in ("amina", "brahim"):
        seating = bench.run(pairing.seating(ticket))
        assert seating is not None and seating.pending and bench.run(pairing.waiting(ticket)) is None
    assert bench.run(pairing.cancel("amina")) is False


def test_a_players_second_ask_replaces_the_first_so_they_are_never_seated_against_themselves(bench: Bench) -> None:
    """Two tabs of one browser: two tickets, one player (a kept name). The audit saw "Solo" and "Solo 2" seated."""
    pairing = bench.make()
    assert bench.run(pairing.ask(ask("tab1", TWO, client="1.1.1.1", player="solo"))) is None
    assert bench.run(pairing.ask(ask("tab2", TWO, client="1.1.1.1", player="solo"))) is None  # not a group of one
    assert bench.run(pairing.waiting("tab1")) is None  # replaced: its page is told the request is gone
    waiting = bench.run(pairing.waiting("tab2"))
    assert waiting is not None and waiting.others == 0
    # Replaced, not lost: a page on another device is told so, and does not ask again (the two looped).
    assert bench.run(pairing.replaced("tab1")) is True and bench.run(pairing.replaced("tab2")) is False
    # Another game replaces it too (a person waits for one game at a time), and a stranger is then not paired.
    assert bench.run(pairing.ask(ask("tab3", THREE, client="1.1.1.1", player="solo"))) is None
    assert bench.run(pairing.ask(ask("brahim", TWO, player="brahim"))) is None
    assert bench.run(pairing.waiting("tab2")) is None
    # With a stranger asking for the same game, the player's one request is seated, once.
    assert bench.run(pairing.ask(ask("tab4", TWO, client="1.1.1.1", player="solo"))) is not None
    assert bench.run(pairing.waiting("tab3")) is None
    assert bench.run(pairing.cancel("tab4")) is False  # matched with Brahim: pending


def test_a_player_whose_request_was_seated_or_cancelled_asks_afresh_and_others_are_not_touched(bench: Bench) -> None:
    pairing = bench.make()
    bench.run(pairing.ask(ask("amina", TWO, player="amina")))
    bench.run(pairing.ask(ask("brahim", TWO, player="brahim")))  # seated together: Amina's index is gone with it
    assert bench.run(pairing.ask(ask("amina2", TWO, player="amina"))) is None  # a new game: she waits
    assert bench.run(pairing.seating("amina")) == Seating()  # and her seated ticket is still matched
    assert bench.run(pairing.cancel("amina2")) is True
    assert bench.run(pairing.ask(ask("amina3", THREE, player="amina"))) is None
    assert bench.run(pairing.ask(ask("chama", THREE, player="chama"))) is None
    assert bench.run(pairing.waiting("amina3")) is not None  # Chama's ask dropped nobody else's


def test_people_without_a_kept_name_behind_one_address_are_two_people(bench: Bench) -> None:
    """Two people behind one NAT, neither keeping a name: nothing says they are one, so they may be seated together."""
    pairing = bench.make()
    assert bench.run(pairing.ask(ask("amina", TWO, client="9.9.9.9"))) is None
    assert names(bench.run(pairing.ask(ask("brahim", TWO, client="9.9.9.9")))) == ["amina", "brahim"]


def test_requests_nobody_looks_at_are_dropped_before_a_real_person_is_seated_with_them(bench: Bench) -> None:
    """The audit's ghosts: two asks that never look again, then a real person asking for the same game."""
    clock, pairing = bench.clock, bench.make(per_client=2)
    bench.run(pairing.ask(ask("ghost1", THREE, client="6.6.6.6")))
    bench.run(pairing.ask(ask("ghost2", THREE, client="6.6.6.6")))
    clock.now = STALE
    assert bench.run(pairing.ask(ask("amina", THREE))) is None  # not seated with the ghosts: she waits
    waiting = bench.run(pairing.waiting("amina"))
    assert waiting is not None and waiting.others == 0  # and her page does not count them
    assert bench.run(pairing.waiting("ghost1")) is None and bench.run(pairing.cancel("ghost2")) is False
    # Nor do the ghosts hold their address's allowance any more.
    assert bench.run(pairing.ask(ask("again1", FOUR, client="6.6.6.6"))) is None
    assert bench.run(pairing.ask(ask("again2", TWO, client="6.6.6.6"))) is None


def test_a_person_whose_page_looks_every_second_waits_as_long_as_it_takes(bench: Bench) -> None:
    clock, pairing = bench.clock, bench.make()
    bench.run(pairing.ask(ask("amina", THREE)))
    bench.looking(pairing, 10 * STALE, "amina")
    bench.run(pairing.ask(ask("brahim", THREE)))
    clock.now += STALE - 1  # a last look just under STALE seconds ago (a slow network, a busy tab) is still alive
    assert names(bench.run(pairing.ask(ask("chama", THREE)))) == ["amina", "brahim", "chama"]


def test_a_request_not_looked_at_is_never_taken_along_with_bots(bench: Bench) -> None:
    """Bots for one who chose them take along others who accept bots: only the ones still looking."""
    pairing = bench.make()
    bench.run(pairing.ask(ask("ghost", FOUR, bots_after=600)))  # accepts bots, then goes away
    bench.run(pairing.ask(ask("amina", FOUR, bots_after=30, level="easy")))
    bench.run(pairing.ask(ask("brahim", FOUR, bots_after=300)))
    bench.looking(pairing, 30, "amina", "brahim")
    (match,) = bench.run(pairing.due())
    assert names(match) == ["amina", "brahim"] and match.bots == 2
    assert bench.run(pairing.waiting("ghost")) is None


def test_a_look_says_how_long_the_ticket_has_waited_for_its_game_even_after_asking_again(bench: Bench) -> None:
    """A page opened again (a reload) learns the wait from the server: it used to count from 0 itself. Asking again
    for the same game (the bots' wait changed) keeps the count; another game starts it afresh."""
    pairing = bench.make()
    bench.run(pairing.ask(ask("amina", TWO)))
    bench.looking(pairing, 12, "amina")
    waiting = bench.run(pairing.waiting("amina"))
    assert waiting is not None and waiting.waited == pytest.approx(12)
    bench.run(pairing.ask(ask("amina", TWO, bots_after=30)))  # bots ticked: the bots' wait counts from now
    bench.looking(pairing, 15, "amina")
    waiting = bench.run(pairing.waiting("amina"))
    assert waiting is not None and waiting.waited == pytest.approx(15) and waiting.bots_in == pytest.approx(27)
    bench.run(pairing.ask(ask("amina", THREE)))  # another game: a new wait
    bench.looking(pairing, 17, "amina")
    waiting = bench.run(pairing.waiting("amina"))
    assert waiting is not None and waiting.waited == pytest.approx(2)
