"""The play-by-play in words: who did what, and whose points they are."""

from __future__ import annotations

import random

from decks import run, start
from ronda.cli import main as cli
from ronda.engine.actions import Challenge
from ronda.engine.events import Capture, Drop, Raise, RoundEnd, Score
from ronda.engine.game import Game
from ronda.engine.rules import Rules
from ronda.presentation.narration import Narrator, narrate, side_name


def test_R8_8_your_own_declaration_exposed_reads_your_never_you_s():
    game = start(Rules(players=2), [{0: "5o 6c 3e", 1: "11o 12c 2b"}], table="7e 10e 4b 1c")
    events = run(game, "declare ronda; declare none; play 3e; challenge 0")
    lines = Narrator(players=2, me=0).feed(events)
    assert "Seat 1 challenges you: hand 3e 5o 6c — the declaration is false" in lines
    assert "Your ronda is exposed as false" in lines
    assert not any("You's" in line or "you's" in line for line in lines)
    assert "seat 0's ronda is exposed as false" in narrate(events, 2)  # a reader at no seat: ronda replay


def test_R8_5_one_side_announcing_is_no_contest_and_two_are():
    game = start(Rules(players=2), [{0: "5o 6c 3e", 1: "12o 12c 2b"}], table="7e 10e 4b 1c")
    lines = Narrator(players=2, me=0).feed(run(game, "declare none; declare ronda"))
    assert lines[-1] == "Seat 1's ronda scores 1: nobody else announced"
    game = start(Rules(players=2), [{0: "5o 5c 3e", 1: "12o 12c 2b"}], table="7e 10e 4b 1c")
    narrator = Narrator(players=2, me=0)
    events = run(game, "declare ronda; declare ronda; play 3e; play 12o; play 5o; play 12c")
    assert narrator.feed(events)[-1] == (
        "Ronda contest decided: seat 1 (pair of 12s) takes 2 (1 for seat 1's ronda, 1 for your ronda)"
    )


def test_R8_5_partners_announcing_alone_is_no_contest_either():
    game = start(Rules(players=4), [{1: "5o 5c 12b", 3: "11o 11c 2b"}], table="7e 10e 4b 1c")
    lines = Narrator(players=4, me=0).feed(run(game, "declare none; declare ronda; declare none; declare ronda"))
    assert lines[-1] == (
        "Side 1 (seats 1 and 3) scores 2 (1 for seat 1's ronda, 1 for seat 3's ronda): the other side announced nothing"
    )


def _round_with_dealer_duty(players: int, seed: int) -> Game:
    """A seeded game with dealer duty, random plays and true declarations, to the end of its first round."""
    rng = random.Random(seed)
    game = Game(Rules(players=players, dealer_duty=True, target=500), seed=seed)
    while not any(isinstance(e, RoundEnd) for e in game.events):
        legal = [a for a in game.legal_actions() if not isinstance(a, Challenge)]
        game.apply(rng.choice(legal))
    return game


def test_dealer_duty_points_are_told_as_the_side_s_that_got_them():
    """R10 dealer_duty: '+5' on the dealer's own line only when the 5 is the dealer's side's; else who got it."""
    told = {"kept": 0, "failed": 0}
    for players in (2, 3, 4):
        for seed in range(25):
            game = _round_with_dealer_duty(players, seed)
            events = list(game.events)
            duty = [e for e in events if isinstance(e, Score) and e.reason == "dealer_duty"]
            if not duty:
                continue
            last = max(i for i, e in enumerate(events) if isinstance(e, (Capture, Drop, Raise)))
            dealer_side = game.rules.side_of(events[last].seat)  # type: ignore[union-attr]
            line = next(text for text in narrate(events, players) if "dealer duty" in text)
            if duty[0].side == dealer_side:
                assert line.endswith("— dealer duty! +5")
                told["kept"] += 1
            else:
                getters = ", ".join(f"{side_name(e.side, players)} +5" for e in duty)
                assert line.endswith(f"— dealer duty failed: {getters}")
                assert dealer_side not in {e.side for e in duty}
                told["failed"] += 1
    assert told["kept"] and told["failed"]


def test_ronda_replay_tells_a_failed_dealer_duty_as_the_opponents_points(tmp_path, capsys):
    game = next(g for seed in range(40) if _failed_duty(g := _round_with_dealer_duty(4, seed)))
    path = tmp_path / "duty.json"
    path.write_text(__import__("json").dumps(game.to_record()))
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "— dealer duty failed: side " in out and "dealer duty! +5" not in out


def _failed_duty(game: Game) -> bool:
    events = list(game.events)
    last = max(i for i, e in enumerate(events) if isinstance(e, (Capture, Drop, Raise)))
    dealer_side = game.rules.side_of(events[last].seat)  # type: ignore[union-attr]
    return any(isinstance(e, Score) and e.reason == "dealer_duty" and e.side != dealer_side for e in events)
