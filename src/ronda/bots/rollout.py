"""The fast rollout policies and the utility the search bots optimise.

Rollouts run inside a *guessed* game (a determinization built by
:mod:`ronda.bots.determinize`), never the real one. They play to the end of
the round (the guessed game waits there), or to the end of the game if that
comes first. Declarations in rollouts are truthful and nobody challenges.

A policy judges each card by what it takes at once (cards, caida, missa, a
raise on the open chain: :mod:`ronda.bots.tactics`) minus the best the next
seat can take right after; a little noise breaks ties and keeps rollouts
varied, and ``explore`` of the time a random card is played. Variants:

- :func:`greedy_policy` (``honest=False``): the next seat's reply is read from
  its hand in the guess — every simulated seat plays as if it saw the next hand;
- :func:`greedy_policy` (``honest=True``): the reply is weighed by the chance
  the next seat holds each rank, counted from what the seat to play has seen —
  nobody in the rollout uses cards it could not know;
- :func:`lookahead_policy`: each seat looks ``depth`` plays ahead in the guess.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.actions import PLAYS
from ..engine.combinations import NONE, hand_combination
from ..engine.game import DECLARE, PLAY, Game
from .declarations import declare
from .tactics import CARD_VALUE, play_step, take

Policy = Callable[[Game, Callable[[], float], float], int]
"""A rollout policy: the card to play for the seat to act, given a random source and an exploration rate."""


def _random_card(hand: int, rand: Callable[[], float]) -> int:
    pick = int(rand() * hand.bit_count())
    while pick:
        hand &= hand - 1
        pick -= 1
    return (hand & -hand).bit_length() - 1


def _hold_chances(unseen: int, size: int) -> tuple[float, ...]:
    """Chance that ``size`` cards drawn from ``unseen`` include one of ``k`` given cards, for k = 0..4."""
    out = []
    for k in range(5):
        none = 1.0
        for i in range(size):
            none *= max(unseen - k - i, 0) / (unseen - i) if unseen > i else 0.0
        out.append(1.0 - none)
    return tuple(out)


_HOLD_CHANCES = {(unseen, size): _hold_chances(unseen, size) for unseen in range(41) for size in range(5)}


def greedy_policy(card_value: float = CARD_VALUE, honest: bool = False) -> Policy:
    """Two-ply greedy: a card's worth now minus the next seat's best reply (read, or counted if ``honest``)."""

    def policy(game: Game, rand: Callable[[], float], explore: float = 0.1) -> int:
        seat = game.turn
        hand = game.hands[seat]
        if rand() < explore:
            return _random_card(hand, rand)
        table_ranks = game.table_ranks
        chain_rank = game.chain_rank
        drop_rank = game.last_drop >> 2 if game.last_drop >= 0 else -1
        following = game.hands[(seat + 1) % game.n]
        left = game.cards_in_hands
        missa_now = not (left == 1 and game.stock_pos == 40)
        missa_next = not (left == 2 and game.stock_pos == 40)
        multi = game.n > 2
        raise_reply = 5.0 + card_value * 3
        if honest:
            seen = hand
            for pile in game.piles:
                seen |= pile
            chances = _HOLD_CHANCES[(40 - seen.bit_count() - table_ranks.bit_count(), following.bit_count())]
            # chance the next seat holds each rank, from the cards of it this seat has not seen
            holds = [
                chances[max(4 - (seen >> (4 * r) & 0xF).bit_count() - (table_ranks >> r & 1), 0)] for r in range(10)
            ]
        else:
            holds = [1.0 if following >> (4 * r) & 0xF else 0.0 for r in range(10)]
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
                value = 5.0 + card_value * (game.chain_count + 1)
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
                chance = holds[r]
                if not chance or not (after >> r & 1 or r == open_chain):
                    continue
                reply = raise_reply if r == open_chain else take(after, next_drop, r, missa_next, card_value)[0]
                reply *= chance
                if reply > threat:
                    threat = reply
            score = value - threat + 0.2 * rand()
            if score > best:
                best = score
                best_card = card
        return best_card

    return policy


def _lookahead(
    table_ranks: int,
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
    missa = not (last_deal and left == 1)
    best = -1e9
    for r in range(10):
        cards = hand >> (4 * r) & 0xF
        if not cards:
            continue
        value, table_after, drop_after, chain_after, count_after = play_step(
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


def lookahead_policy(depth: int, card_value: float = CARD_VALUE) -> Policy:
    """Each seat takes what is best for it over the next ``depth`` plays of the deal, reading the guess.

    ``depth`` 2 is :func:`greedy_policy`'s judgement; deeper is stronger and slower.
    """

    def policy(game: Game, rand: Callable[[], float], explore: float = 0.1) -> int:
        seat = game.turn
        hand = game.hands[seat]
        if rand() < explore:
            return _random_card(hand, rand)
        drop_rank = game.last_drop >> 2 if game.last_drop >= 0 else -1
        hands = game.hands
        n = len(hands)
        left = game.cards_in_hands
        last_deal = game.stock_pos == 40
        missa = not (last_deal and left == 1)
        chain_points = game.rules.chain_points
        best_card = -1
        best = -1e9
        for r in range(10):
            cards = hand >> (4 * r) & 0xF
            if not cards:
                continue
            value, table_after, drop_after, chain_after, count_after = play_step(
                game.table_ranks,
                drop_rank,
                game.chain_rank,
                game.chain_count,
                r,
                missa,
                chain_points,
                n > 2,
                card_value,
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


rollout_card: Policy = greedy_policy()
"""The default rollout policy."""


def rollout(
    game: Game, rand: Callable[[], float], explore: float = 0.1, policy: Policy = rollout_card, deals: int = 0
) -> None:
    """Play ``game`` on with ``policy`` until the round ends or the game is won.

    ``deals`` > 0 stops sooner, once that many deals have ended (the current one first).
    """
    ace_high = game.rules.ace_high
    apply = game.apply
    this_round = game.round
    stop_deal = game.deal + deals if deals else 99
    while game.round == this_round and game.deal < stop_deal:
        phase = game.phase
        if phase == PLAY:
            apply(PLAYS[policy(game, rand, explore)])
        elif phase == DECLARE:
            combo = hand_combination(game.hands[game.turn], ace_high)
            apply(declare(NONE if combo is None else combo[0]))
        else:
            return


def utility(
    game: Game, start: list[int], side: int, win_value: float, piles: tuple[int, list[int]] | None = None
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
        gained = [game.piles[s].bit_count() - piles[1][s] for s in range(sides)]
        theirs = sum(gained[s] for s in range(sides) if s != side) / (sides - 1)
        value += 0.5 * (gained[side] - theirs)
    return value


__all__ = ["Policy", "greedy_policy", "lookahead_policy", "rollout", "rollout_card", "utility"]
