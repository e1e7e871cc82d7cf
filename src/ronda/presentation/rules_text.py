"""The rules in plain words, written from a :class:`Rules` value.

One generator serves ``ronda rules NAME`` and the help screens of the
interfaces, so what a player reads is always what the engine plays: every
sentence that depends on a variant is chosen by that variant's value.

>>> text = rules_text(Rules(players=3, dealer_duty=True))
>>> "Dealer's duty" in text and "each for themselves" in text
True
"""

from __future__ import annotations

import textwrap
from dataclasses import fields

from ..engine.presets import PRESETS, preset_of, variant_value_text
from ..engine.rules import Rules


def _deal_words(rules: Rules) -> str:
    sizes = rules.deal_sizes()
    n = rules.players
    if rules.four_card_hands:
        if n == 4:
            first = (
                "The first deal gives four cards to each player and no cards go to the table; later deals give three."
            )
        else:
            first = "Every deal gives four cards to each player, and no cards go to the table."
    else:
        first = (
            "The dealer gives three cards to each player, starting with the player after the dealer, "
            "then turns four cards face up on the table. The four must be of four different ranks and must "
            "not be four in a row (like 6 7 10 11): a card that breaks this goes back into the stock, which "
            "is shuffled, and another is turned up."
        )
    return (
        f"{first} When every hand is empty the dealer deals again from the stock, nothing to the table, "
        f"until the stock is used up: {len(sizes)} deals a round with {n} players. The dealer warns when the "
        "last deal comes. After the round the deal passes to the next player."
    )


def _announcement_words(rules: Rules) -> str:
    order = "1s are highest, then 12, 11, 10, 7 down to 2" if rules.ace_high else "12s are highest and 1s lowest"
    combos = "a pair is a ronda (1 point); three of a rank is a tringa (5 points)"
    if rules.four_card_hands:
        combos += (
            "; in a four-card hand two pairs, or four of one rank, are a double ronda (2 points), "
            "and three of a rank with another card is a tringa"
        )
    declare = (
        "Every player's combination is announced automatically and truthfully at the start of each deal."
        if rules.auto_declare
        else (
            "At the start of every deal, before anyone plays, each player in turn says none, ronda or tringa"
            + (" (or double ronda)" if rules.four_card_hands else "")
            + ", never the rank. Bluffing is allowed."
        )
    )
    hidden = rules.undeclared_ronda_penalty
    beats = (
        "A tringa beats a double ronda, which beats a ronda;" if rules.four_card_hands else "A tringa beats a ronda;"
    )
    return (
        f"Announcements. In the hand as dealt, {combos}. {declare} {beats} between two of a kind the higher "
        f"rank wins ({order}). If only one side announced, "
        "it scores its announcements at once. Otherwise the side holding the best true announcement takes "
        "the points of all of them, as soon as the cards played leave no doubt who holds the best; sides "
        "tied for best share, rounding down.\n\n"
        "A false announcement is exposed as soon as the cards its player has played rule it out: each "
        "opposing side scores its value as a penalty, and anything scored for it is taken back. A player "
        "who held a combination and did not announce it exactly pays, once all its cards are played, "
        f"its value to each opposing side ({hidden} for a ronda, 5 for a tringa)."
        + (
            ""
            if rules.auto_declare
            else "\n\nChallenge. On your turn, before playing, you may challenge an opponent's announcement: "
            "its hand is shown to all. If it was false it is exposed at once and you then play; if it was "
            "true, its side wins the game on the spot."
        )
    )


def rules_text(rules: Rules, name: str | None = None, width: int | None = 88, heading: str | None = None) -> str:
    """The whole rulebook for these rules, in plain words, section by section.

    Paragraphs are wrapped to ``width`` columns for a terminal's standard output;
    ``width=None`` leaves each paragraph one line, for a screen that wraps text
    itself (wrapping twice breaks lines in the middle). The title names the preset
    ``name`` (``ronda rules advanced``), else ``heading``, a game's own words for its
    rules (:func:`rules_name`), else the preset the rules match, if any.
    """
    n = rules.players
    name = name or (None if heading else preset_of(rules))
    if name:
        title = f"Ronda — {name} rules, {n} players"
    else:  # a heading is a sentence under a short title: long, it wrapped the title's underline on a screen
        title = f"Ronda — the rules of this game, {n} players" if heading else f"Ronda — {n} players"
    sides = (
        "Four players play as two partnerships, partners sitting opposite: seats 0 and 2 against 1 and 3. "
        "Partners pool their captured cards and their score."
        if n == 4
        else "Two players play each for themselves."
        if n == 2
        else "Three players play, each for themselves."
    )
    chain_points = rules.chain_points
    chain = (
        "With two players there is no chain: a third card of the rank is just played."
        if n == 2
        else (
            f"Chain. After a caida the capture stays open: if the next player plays a third card of that "
            f"rank it takes the whole capture and scores {chain_points[1]}; a fourth card by the player after "
            f"scores {chain_points[2]}. Another rank, or the end of the deal, closes the chain."
        )
    )
    count = (
        "each player with 14 or more cards scores a point for each card above 13"
        if n == 3
        else "the side with more than 20 cards scores a point for each card above 20"
    )
    sections = [
        title + "\n" + "=" * len(title),
        *([f"{heading}."] if heading and not name else []),
        "The pack. 40 Spanish cards: oros (coins), copas (cups), espadas (swords) and bastos (clubs), "
        "ranked 1 to 7, Sota (10), Caballo (11) and Rey (12). Suits never matter. In runs 10 follows 7.",
        f"Players. {sides} Play goes round in order; the player after the dealer plays first.",
        f"Dealing. {_deal_words(rules)}",
        "Playing. On your turn you play one card face up. If a table card has the same rank you must take it, "
        "together with every card that follows it in an unbroken run (with 6 7 10 12 on the table a 6 takes "
        "6 7 10 and leaves the 12). Otherwise your card stays on the table.",
        f"Caida. Taking the card the previous player has just dropped, by its rank, scores {chain_points[0]} "
        "(not when it is only taken as part of a run, and not across two deals).",
        chain,
        f"Missa. A capture that leaves the table empty scores {rules.missa_points} more, except with the very last "
        "card of the round.",
        f"End of the round. The cards left on the table go to the side that captured last. Then {count}.",
        _announcement_words(rules),
    ]
    if rules.dealer_duty:
        sections.append(
            "Dealer's duty. The dealer's very last card of the round must capture: capturing with a 12 scores "
            "5 for the dealer's side; with a 2 to 7, 10 or 11 nothing happens; a last card that captures "
            "nothing, or is a 1, gives 5 points to each opposing side."
        )
    if rules.transfer_scoring:
        sections.append(
            "Scoring in cards. Points won during play are paid in captured cards: for each point the payer "
            "hands one card from its pile to the scorer"
            + (
                " (with three players a caida or chain is paid by the player whose card or capture was taken, "
                "a penalty by the offender, anything else by each opponent)"
                if n == 3
                else " (the opposing side pays)"
            )
            + ". A payer without cards owes them and pays when it next captures; debts lapse at the end "
            "of the round. Only the card count adds to the score, so points win the game only at the end of "
            "a round"
            + (
                "."
                if rules.auto_declare
                else "; a wrong challenge still loses it on the spot, in the middle of a deal."
            )
        )
        # RULES.md R10 says "won only at the end of a round" and R8.8 "wins the game at once": the
        # source texts settle it (points are counted only at the end; a wrong challenge loses at once).
        winning = (
            f"Winning. The first side to reach {rules.target} points wins, at the card count that ends a "
            "round (the scores change at no other time). If the count brings several sides there, the "
            "highest wins; if they are equal, play goes on until a later count leaves one side alone on top."
            + ("" if rules.auto_declare else " A wrong challenge ends the game at once, whatever the scores.")
        )
    else:
        winning = (
            f"Winning. The first side to reach {rules.target} points wins at once, even in the middle of a "
            "deal. If one step brings several sides there, the highest wins; if they are equal, play goes on "
            "until one side is alone on top."
        )
    sections.append(winning)
    return "\n\n".join(_wrap(section, width) for section in sections) + "\n"


def _wrap(section: str, width: int | None) -> str:
    return "\n\n".join(
        paragraph if paragraph.startswith("Ronda —") or width is None else textwrap.fill(paragraph, width)
        for paragraph in section.split("\n\n")
    )


def preset_lines() -> list[str]:
    """One line per preset, for ``ronda rules --list``."""
    width = max(len(name) for name in PRESETS)
    return [f"{p.name:<{width}}  {p.summary}" for p in PRESETS.values()]


VARIANT_WORDS = {
    "auto_declare": "auto declare (every hand declares itself)",
    "ace_high": "ace high (1s rank highest)",
    "dealer_duty": "dealer duty (the dealer's last card must capture)",
    "four_card_hands": "four card hands",
    "transfer_scoring": "transfer scoring (points paid in captured cards)",
}
"""A variant that is on, in words: its name on the start screen's box, and what it does where the name alone does
not say it to a newcomer."""


def variant_words(rules: Rules) -> list[str]:
    """What these rules change from the classic game, the target aside, one phrase a variant, as the start screen
    names them.

    >>> variant_words(Rules(auto_declare=True, chain_points=(1, 6, 15)))
    ['auto declare (every hand declares itself)', 'chain points 1-6-15']
    """
    classic = Rules(players=rules.players)
    words = []
    for field in fields(Rules):
        name, value = field.name, getattr(rules, field.name)
        if name in ("players", "target") or value == getattr(classic, name):
            continue
        if name in VARIANT_WORDS and value is True:
            words.append(VARIANT_WORDS[name])
        elif name == "chain_points":
            words.append("chain points " + "-".join(map(str, value)))
        elif name == "undeclared_ronda_penalty":
            words.append(f"an undeclared ronda costing {value}")
        else:  # a variant without words of its own yet: its name and value, as --variant takes them
            words.append(f"{name.replace('_', ' ')} {variant_value_text(value)}")
    return words


def rules_name(rules: Rules, preset: str = "classic") -> str:
    """The rules in a few words, for a game's heading: "Classic rules", "Classic rules with dealer duty (…)", or
    the preset chosen, where the rules are that preset's, with what it changes: "Cards rules: classic with
    transfer scoring (…)". The target is said beside it.

    A heading read "Rules with auto_declare=True, ace_high=True" (the code's words), "Advanced rules" for a game
    started from a screen that said "Rules classic" with dealer duty ticked, and "Cards rules", a name a newcomer
    cannot read (an audit). It now says what the start screen said, in its words, and what each variant does.

    >>> rules_name(Rules(ace_high=True, auto_declare=True))
    'Classic rules with auto declare (every hand declares itself) and ace high (1s rank highest)'
    >>> rules_name(Rules(transfer_scoring=True), "cards")
    'Cards rules: classic with transfer scoring (points paid in captured cards)'
    >>> rules_name(Rules(target=25), "short")
    'Classic rules'
    """
    words = variant_words(rules)
    if not words:
        return "Classic rules"
    with_words = " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)
    chosen = PRESETS.get(preset)
    if chosen is not None and preset != "classic":
        untargeted = rules.replace(target=chosen.values.get("target", Rules().target))
        if preset_of(untargeted) == preset:
            return f"{preset.capitalize()} rules: classic with {with_words}"
    return f"Classic rules with {with_words}"


def rules_summary(rules: Rules) -> str:
    """A short reminder of the rules (a few lines), for help screens: every variant in play changes or adds its line
    (a help that left out dealer duty, four-card hands or points paid in cards described another game).

    >>> for line in rules_summary(Rules(dealer_duty=True, transfer_scoring=True)).splitlines()[-2:]:
    ...     print(line)
    Dealer duty: the dealer's last card must capture (a 12: +5 for the dealer); a 1 or no capture: +5 to each opponent.
    Points are paid in cards: each point moves a card from the payer's pile; the target counts at a round's end.
    """
    combos = "Ronda = pair (1), tringa = three of a kind (5)"
    if rules.four_card_hands:
        combos += ", double ronda = two pairs or four of a kind in a four-card hand (2)"
    if rules.ace_high:
        combos += "; 1s rank highest"
    announcing = (
        # With auto_declare every hand declares what it holds by itself (R8.2): no bluff, no penalty, no challenge.
        [f"{combos}: each hand declares itself at the deal; the best takes all."]
        if rules.auto_declare
        else [
            f"{combos}: announce at the deal; the best takes all.",
            "False or hidden announcements pay penalties. A wrong challenge loses the game.",
        ]
    )
    lines = [
        "Play a card: take the table card of its rank and the run above it (10 follows 7), or leave it there.",
        f"Caida: take the card just dropped (+{rules.chain_points[0]}). Missa: empty the table "
        f"(+{rules.missa_points}, not on the last card).",
        *announcing,
        f"Card count: above {13 if rules.players == 3 else 20} cards, a point a card. First to {rules.target} wins.",
    ]
    if rules.players > 2:
        lines.insert(
            2,
            f"Chain: the next players may raise a caida with the same rank ({rules.chain_points[1]}, "
            f"{rules.chain_points[2]}).",
        )
    if rules.dealer_duty:
        lines.append(
            "Dealer duty: the dealer's last card must capture (a 12: +5 for the dealer); "
            "a 1 or no capture: +5 to each opponent."
        )
    if rules.transfer_scoring:
        lines.append(
            "Points are paid in cards: each point moves a card from the payer's pile; "
            "the target counts at a round's end."
        )
    return "\n".join(lines)
