"""The fast rollout policies and the utility the search bots optimise.

Rollouts run inside a *guessed* game (a determinization built by
:mod:`ronda.bots.determinize`), never the real one: the engine plays them on
(:meth:`~ronda.engine.game.Game.playout`) to the end of the round (the guessed
game waits there), or to the end of the game if that comes first, asking a
policy for each card. Declarations in rollouts are truthful and nobody challenges.

A policy reads the engine's :class:`~ronda.engine.game.SearchState` — the
guessed hands, the table's ranks, the open chain — and judges each card by
what it takes at once (cards, caida, missa, a raise on the open chain:
:mod:`ronda.bots.tactics`) minus the best the next seat can take right after;
a little noise breaks ties and keeps rollouts varied, and ``explore`` of the
time a random card is played. Two policies:

- :func:`greedy_policy`: the next seat's reply is read from its hand in the
  guess — every simulated seat plays as if it saw the next hand;
- :func:`lookahead_policy`: each seat looks ``depth`` plays ahead in the guess;
- :func:`blind_policy`: each seat reads only its own hand and the cards played, and
  judges the next seat's reply by the chance that it holds each rank, as a
  player would: the rollouts play the way the seats can, not as if every
  hand of the guess were face up (PIMC's *strategy fusion*).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..engine.cards import ALL_CARDS
from ..engine.game import DECLARE, PLAY, Game, Policy, SearchState
from ..engine.rules import Rules
from ..engine.table import RankMask, chain_points, last_turn
from .tactics import CARD_VALUE, no_card_chance, priced_step, take

GREEDY_RAISE_POINTS = float(chain_points(Rules(), 3))
"""What :func:`greedy_policy` prices every raise at, its own or the next seat's: the chain's 3rd card under the
default ``chain_points`` (5). A heuristic of the cheapest rollout, not the rule: it reads no rules, so a 4th card
and ``chain_points`` 1,6,15 are priced alike (:func:`lookahead_policy` and :func:`blind_policy` price the rule's
points); ``hard``'s measured strength is this policy's as it is."""


def _random_card(hand: int, rand: Callable[[], float]) -> int:
    pick = int(rand() * hand.bit_count())
    while pick:
        hand &= hand - 1
        pick -= 1
    return (hand & -hand).bit_length() - 1


def greedy_policy(card_value: float = CARD_VALUE, explore: float = 0.1) -> Policy:
    """Two-ply greedy: a card's worth now minus the best reply of the next seat, read from its guessed hand.

    >>> from ronda import Game, Rules
    >>> game = Game(Rules(players=2, auto_declare=True), seed=1)
    >>> greedy_policy(explore=0.0)(game.search_state(), random.Random(0).random) in game.hand(0)
    True
    """

    def policy(state: SearchState, rand: Callable[[], float]) -> int:
        seat, hands, table_ranks, drop_rank, chain_rank, chain_count, left, last_deal, _, _ = state
        hand = hands[seat]
        if rand() < explore:
            return _random_card(hand, rand)
        following = hands[(seat + 1) % len(hands)]
        missa_now = not last_turn(left, last_deal)  # R6.2
        missa_next = not last_turn(left - 1, last_deal)
        multi = len(hands) > 2
        raise_reply = GREEDY_RAISE_POINTS + card_value * 3
        best_card = -1
        best = -1e9
        done = 0
        m = hand
        while m:
            low = m & -m
            card = low.bit_length() - 1
            m ^= low
            rank = card >> 2
            if done >> rank & 1:
                continue  # two cards of one rank play alike
            done |= 1 << rank
            open_chain = -1
            if rank == chain_rank:
                value = GREEDY_RAISE_POINTS + card_value * (chain_count + 1)
                after = table_ranks
                next_drop = -1
                open_chain = rank
            else:
                value, after = take(table_ranks, drop_rank, rank, missa_now, card_value)
                next_drop = -1 if after != table_ranks | 1 << rank else rank
                if multi and next_drop < 0 and rank == drop_rank:
                    open_chain = rank
            threat = 0.0
            for r in range(10):
                if not (after >> r & 1 or r == open_chain) or not following >> (4 * r) & 0xF:
                    continue
                reply = raise_reply if r == open_chain else take(after, next_drop, r, missa_next, card_value)[0]
                if reply > threat:
                    threat = reply
            score = value - threat + 0.2 * rand()
            if score > best:
                best = score
                best_card = card
        return best_card

    return policy


def _lookahead(
    table_ranks: RankMask,
    drop_rank: int,
    chain_rank: int,
    chain_count: int,
    hands: list[int],
    seat: int,
    left: int,
    last_deal: bool,
    depth: int,
    chain_points: tuple[int, int, int],
    card_value: float,
) -> float:
    """The best the seat to play can make of the next ``depth`` plays, each seat taking its best in turn."""
    hand = hands[seat]
    if not hand:
        return 0.0
    n = len(hands)
    missa = not last_turn(left, last_deal)  # R6.2
    best = -1e9
    for r in range(10):
        cards = hand >> (4 * r) & 0xF
        if not cards:
            continue
        value, table_after, drop_after, chain_after, count_after = priced_step(
            table_ranks, drop_rank, chain_rank, chain_count, r, missa, chain_points, n > 2, card_value
        )
        if depth > 1 and left > 1:
            rest = hands[:]
            rest[seat] = hand & ~((cards & -cards) << (4 * r))
            value -= _lookahead(
                table_after,
                drop_after,
                chain_after,
                count_after,
                rest,
                (seat + 1) % n,
                left - 1,
                last_deal,
                depth - 1,
                chain_points,
                card_value,
            )
        if value > best:
            best = value
    return best


def lookahead_policy(depth: int, card_value: float = CARD_VALUE, explore: float = 0.1) -> Policy:
    """Each seat takes what is best for it over the next ``depth`` plays of the deal, reading the guess.

    ``depth`` 2 is :func:`greedy_policy`'s judgement; deeper is stronger and slower.
    """

    def policy(state: SearchState, rand: Callable[[], float]) -> int:
        seat, hands_now, table_ranks, drop_rank, chain_rank, chain_count, left, last_deal, rules, _ = state
        hand = hands_now[seat]
        if rand() < explore:
            return _random_card(hand, rand)
        hands = list(hands_now)
        n = len(hands)
        missa = not last_turn(left, last_deal)  # R6.2
        chain_points = rules.chain_points
        best_card = -1
        best = -1e9
        for r in range(10):
            cards = hand >> (4 * r) & 0xF
            if not cards:
                continue
            value, table_after, drop_after, chain_after, count_after = priced_step(
                table_ranks, drop_rank, chain_rank, chain_count, r, missa, chain_points, n > 2, card_value
            )
            if depth > 1 and left > 1:
                rest = hands[:]
                low = (cards & -cards) << (4 * r)
                rest[seat] = hand & ~low
                value -= _lookahead(
                    table_after,
                    drop_after,
                    chain_after,
                    count_after,
                    rest,
                    (seat + 1) % n,
                    left - 1,
                    last_deal,
                    depth - 1,
                    chain_points,
                    card_value,
                )
            value += 0.2 * rand()
            if value > best:
                best = value
                best_card = ((cards & -cards) << (4 * r)).bit_length() - 1
        return best_card

    return policy


def _none_chances() -> tuple[float, ...]:
    """The chance that a hand of ``size`` cards dealt from ``unseen`` cards holds none of the ``of_rank`` cards of
    a rank, at ``unseen * 45 + size * 5 + of_rank`` (unseen up to 40, size up to 8, of_rank up to 4)."""
    return tuple(
        no_card_chance(unseen, of_rank, size) for unseen in range(41) for size in range(9) for of_rank in range(5)
    )


_NONE = _none_chances()


def _expected_best(options: list[tuple[float, float]]) -> float:
    """The expected best of ``options`` (value, chance it is open), taken as independent, given that one is.

    The next seat plays its best card among the ranks it holds: sorted best first, a rank counts where the seat
    holds it and none better."""
    options.sort(reverse=True)
    expected = 0.0
    none = 1.0
    for value, chance in options:
        expected += none * chance * value
        none *= 1.0 - chance
    return expected / (1.0 - none) if none < 1.0 else 0.0


def blind_policy(depth: int = 3, card_value: float = CARD_VALUE, explore: float = 0.1) -> Policy:
    """Each seat looks ``depth`` (2 or 3) plays ahead reading only what it can see: its own hand and the cards played.

    The next seat's reply is judged by the chance that it holds each rank, from
    the cards this seat has not seen (the other hands and the stock, as
    ``medium`` counts them): its expected best reply, not the one the guessed
    hand holds. At ``depth`` 3 the seat's own best answer to each reply is
    taken off it (two players; with more the third play is another's, unseen,
    and the look stops at the reply). Why: with :func:`lookahead_policy` every
    seat of a rollout plays as if the guess's hands were face up, so a card
    that only a seat seeing through the cards could punish is valued as if it
    always would be.
    """
    if depth not in (2, 3):
        raise ValueError(f"a blind rollout looks 2 or 3 plays ahead, not {depth}")

    def policy(state: SearchState, rand: Callable[[], float]) -> int:
        seat, hands, table_ranks, drop_rank, chain_rank, chain_count, left, last_deal, rules, out = state
        hand = hands[seat]
        if rand() < explore:
            return _random_card(hand, rand)
        n = len(hands)
        multi = n > 2
        following = hands[(seat + 1) % n]
        size = following.bit_count()
        missa = not last_turn(left, last_deal)  # R6.2
        missa_next = not last_turn(left - 1, last_deal)
        missa_mine = not last_turn(left - 2, last_deal)
        chain_points = rules.chain_points
        unseen = ALL_CARDS & ~(hand | out)
        base = unseen.bit_count() * 45 + min(size, 8) * 5
        chances = [1.0 - _NONE[base + (unseen >> (4 * r) & 0xF).bit_count()] for r in range(10)]
        deeper = depth == 3 and not multi and left > 2
        replies_open = [t for t in range(10) if chances[t]] if size and left > 1 else []
        best_card = -1
        best = -1e9
        for r in range(10):
            cards = hand >> (4 * r) & 0xF
            if not cards:
                continue
            if multi:
                value, table_after, drop_after, chain_after, count_after = priced_step(
                    table_ranks, drop_rank, chain_rank, chain_count, r, missa, chain_points, multi, card_value
                )
                after = (table_after, drop_after, chain_after, count_after)
                replies = [
                    (priced_step(*after, t, missa_next, chain_points, multi, card_value)[0], chances[t])
                    for t in replies_open
                ]
            else:  # two players: no chain (R5.3), so the step is a capture, a caida or a drop
                value, table_after = take(table_ranks, drop_rank, r, missa, card_value)
                drop_after = r if table_after == table_ranks | 1 << r else -1
                rest = hand & ~((cards & -cards) << (4 * r))
                mine = [u for u in range(10) if rest >> (4 * u) & 0xF] if deeper else []
                replies = []
                for t in replies_open:
                    reply, table_2 = take(table_after, drop_after, t, missa_next, card_value)
                    if mine:
                        drop_2 = t if table_2 == table_after | 1 << t else -1
                        answer = -1e9
                        for u in mine:
                            worth = take(table_2, drop_2, u, missa_mine, card_value)[0]
                            if worth > answer:
                                answer = worth
                        reply -= answer
                    replies.append((reply, chances[t]))
            if replies:
                value -= _expected_best(replies)
            value += 0.2 * rand()
            if value > best:
                best = value
                best_card = ((cards & -cards) << (4 * r)).bit_length() - 1
        return best_card

    return policy


rollout_card: Policy = greedy_policy()
"""The default rollout policy."""


def rollout(game: Game, rng: random.Random, policy: Policy = rollout_card, deals: int = 0) -> None:
    """Play ``game`` on with ``policy`` and truthful declarations until the round ends or the game is won.

    ``deals`` > 0 stops sooner, once that many deals have ended (the current one first).
    """
    game.playout(rng, deals=deals, policy=policy, truthful=True)


def utility(
    game: Game, start: Sequence[int], side: int, win_value: float, piles: tuple[int, Sequence[int]] | None = None
) -> float:
    """What a rollout is worth to ``side``: its points gained minus its opponents' (on average).

    A won or lost game adds or takes ``win_value``: near the target, winning
    matters more than the margin. Given ``piles`` — the round and the pile sizes
    at the start — a rollout stopped inside that round also counts the cards
    captured since, each worth
    half a point of margin: with two sides the card count pays the side with
    more than half the pack one point a card (R7.2), so a card taken instead of
    left to the other side moves the margin by one point over two cards.
    """
    scores = game.scores
    sides = len(scores)
    mine = scores[side] - start[side]
    others = sum(scores[s] - start[s] for s in range(sides) if s != side) / (sides - 1)
    value = mine - others
    winner = game.winner
    if winner is not None:
        return value + (win_value if winner == side else -win_value)
    if piles is not None and game.round == piles[0] and game.phase in (PLAY, DECLARE):
        sizes = game.pile_sizes
        gained = [sizes[s] - piles[1][s] for s in range(sides)]
        theirs = sum(gained[s] for s in range(sides) if s != side) / (sides - 1)
        value += 0.5 * (gained[side] - theirs)
    return value


__all__ = ["blind_policy", "greedy_policy", "lookahead_policy", "rollout", "rollout_card", "utility"]
