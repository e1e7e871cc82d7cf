"""Building explicit decks (RECORD.md order) for rules tests.

Rules tests state the hands and the table they need and let the rest be filled
with cards that make no accidental combination, so every position in a test is
explicit and every point can be checked exactly.
"""

from __future__ import annotations

import random

from ronda.engine.actions import Action, Challenge, parse_action
from ronda.engine.cards import card_name, cards_of, parse_card, rank_of
from ronda.engine.deck import opening_table_problem
from ronda.engine.events import Event, Score
from ronda.engine.game import OVER, Game
from ronda.engine.rules import Rules


def _parse(text: str) -> list[int]:
    return [parse_card(w) for w in text.split()]


def build_deck(
    rules: Rules,
    deals: list[dict[int, str]] | None = None,
    table: str | None = None,
    dealer: int | None = None,
) -> list[str]:
    """A 40-card deck in dealing order.

    ``deals[k][seat]`` gives some or all of that seat's cards in deal k; missing
    cards are filled from the unused ones, suit by suit, so a filled hand holds
    no pair. ``table`` gives the opening table (filled with a valid one if None).
    """
    deals = deals or []
    n = rules.players
    dealer = n - 1 if dealer is None else dealer
    sizes = rules.deal_sizes()
    used: set[int] = set()
    wanted: list[dict[int, list[int]]] = []
    for k in range(len(sizes)):
        spec = deals[k] if k < len(deals) else {}
        hands = {seat: _parse(text) for seat, text in spec.items()}
        for cards in hands.values():
            for c in cards:
                assert c not in used, f"{card_name(c)} given twice"
                used.add(c)
        wanted.append(hands)
    table_cards = _parse(table) if table is not None else None
    if table_cards:
        for c in table_cards:
            assert c not in used, f"{card_name(c)} given twice"
            used.add(c)
    # fill suit by suit, rank by rank: consecutive fill cards never share a rank
    spare = sorted((c for c in range(40) if c not in used), key=lambda c: (c & 3, c >> 2))
    if table_cards is None and rules.opening_table_size:
        table_cards = []
        for c in list(spare):
            if len(table_cards) == 4:
                break
            trial = [*table_cards, c]
            if len({rank_of(x) for x in trial}) == len(trial) and (len(trial) < 4 or not opening_table_problem(trial)):
                table_cards.append(c)
                spare.remove(c)
    deck: list[int] = []
    for k, size in enumerate(sizes):
        for i in range(n):
            seat = (dealer + 1 + i) % n
            hand = list(wanted[k].get(seat, []))
            assert len(hand) <= size, f"seat {seat} gets more than {size} cards in deal {k}"
            while len(hand) < size:
                ranks = {rank_of(c) for c in hand}
                pick = next((c for c in spare if rank_of(c) not in ranks), spare[0])
                spare.remove(pick)
                hand.append(pick)
            deck.extend(hand)
        if k == 0 and rules.opening_table_size:
            assert table_cards is not None and len(table_cards) == 4
            assert opening_table_problem(table_cards) is None, opening_table_problem(table_cards)
            deck.extend(table_cards)
    assert not spare and len(set(deck)) == 40
    return [card_name(c) for c in deck]


def scores(events: list[object]) -> list[tuple[int, int, str, int | None]]:
    """The score events as ``(side, points, reason, seat)`` tuples, for exact assertions."""
    return [(e.side, e.points, e.reason, e.seat) for e in events if isinstance(e, Score)]


def names(mask_or_cards: object) -> str:
    """Card names of a mask or a list of ids, space separated."""
    cards = cards_of(mask_or_cards) if isinstance(mask_or_cards, int) else list(mask_or_cards)  # type: ignore[call-overload]
    return " ".join(card_name(c) for c in cards)


def start(
    rules: Rules,
    deals: list[dict[int, str]] | None = None,
    table: str | None = None,
    dealer: int | None = None,
) -> Game:
    """A game dealt from an explicit deck built by :func:`build_deck`."""
    deck = build_deck(rules, deals, table, dealer)
    return Game(rules, decks=[[parse_card(c) for c in deck]], dealer=dealer)


def run(game: Game, script: str) -> list[Event]:
    """Apply ``"declare none; declare ronda; play 5o; challenge 1"`` in order; return every event."""
    events: list[Event] = []
    for step in script.split(";"):
        if step.strip():
            events.extend(game.apply(parse_action(step)))
    return events


def of(events: list[Event], *types: str) -> list[dict[str, object]]:
    """The JSON of the events of some types, for exact assertions in order."""
    return [e.to_json() for e in events if e.TYPE in types]


def random_position(rules: Rules, seed: int, steps: int, challenge_rate: float = 0.1) -> Game:
    """A seeded game after up to ``steps`` random decisions (bluffs and some challenges), still at a decision.

    Property tests of bots start from such positions: random enough to reach odd corners (a chain open,
    a bluff on the table, a hand shown by a challenge), and never a finished game, where there is
    nothing left to decide.
    """
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    for _ in range(steps):
        legal = game.legal_actions()
        challenges = [a for a in legal if isinstance(a, Challenge)]
        action: Action
        if challenges and rng.random() < challenge_rate:
            action = rng.choice(challenges)
        else:
            action = rng.choice([a for a in legal if not isinstance(a, Challenge)])
        before = game.copy()
        game.apply(action)
        if game.phase == OVER:
            return before
    return game
