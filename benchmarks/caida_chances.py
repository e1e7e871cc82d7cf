"""How often each level takes its caida chances, and the caida points it scores and concedes (issue 28).

    PYTHONPATH=src nice python -m ronda arena hard hard:value=points --units 20 --seed 2801 --records games/
    PYTHONPATH=src python benchmarks/caida_chances.py games/

Every record of an arena folder is replayed and each seat's card choices are
credited to the level that sat there (read from the arena's file names, as
``benchmarks/analysis.py`` does). A *caida chance* is a card choice in which
the hand holds a card of the rank dropped on the turn before in the same deal
(R5.1): playing it scores a caida. Printed per level: chances, how many were
taken, the share, the caida points its side scored and conceded (scored by
opposing sides), and its *winning* chances (a caida alone brings its side to the target, R9.3) and how
many of those it passed over.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from analysis import levels_of  # this folder's benchmark of the analysis: one reader of arena record names
from ronda.engine.actions import Action, Play, parse_action
from ronda.engine.cards import parse_card
from ronda.engine.events import Score
from ronda.engine.game import PLAY, Game
from ronda.engine.rules import Rules


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", help="a folder of arena records (ronda arena ... --records FOLDER)")
    args = parser.parse_args()
    chances: dict[str, int] = defaultdict(int)
    taken: dict[str, int] = defaultdict(int)
    scored: dict[str, int] = defaultdict(int)
    conceded: dict[str, int] = defaultdict(int)
    winning: dict[str, int] = defaultdict(int)
    winning_passed: dict[str, int] = defaultdict(int)
    files = sorted(Path(args.folder).glob("*.json"))
    for path in files:
        game, script = _game_of(path)
        rules = game.rules
        levels = levels_of(path, rules.players)
        for seat, action in script:
            if game.phase == PLAY and type(action) is Play:
                view = game.view(seat)
                drop = view.last_drop
                if drop is not None and any(card >> 2 == drop >> 2 for card in view.hand):
                    level = levels[seat]
                    chances[level] += 1
                    took = action.card >> 2 == drop >> 2
                    taken[level] += took
                    if view.scores[rules.side_of(seat)] + 1 >= rules.target:
                        winning[level] += 1
                        winning_passed[level] += not took
            for event in game.apply(action, seat=seat):
                if type(event) is Score and event.reason == "caida":
                    for s in range(rules.players):
                        if rules.side_of(s) == event.side:
                            scored[levels[s]] += event.points
                        else:
                            conceded[levels[s]] += event.points
    print(f"{len(files)} games from {args.folder}")
    print(
        f"{'level':<22}{'chances':>9}{'taken':>8}{'share':>9}{'scored':>9}{'conceded':>10}{'winning':>9}{'passed':>8}"
    )
    for level in sorted(chances):
        share = taken[level] / chances[level] if chances[level] else 0.0
        print(
            f"{level:<22}{chances[level]:>9}{taken[level]:>8}{share:>9.1%}{scored[level]:>9}{conceded[level]:>10}"
            f"{winning[level]:>9}{winning_passed[level]:>8}"
        )
    print("(scored and conceded count each seat: with 4 players both partners are credited with the side's caidas)")
    return 0


def _game_of(path: Path) -> tuple[Game, list[tuple[int, Action]]]:
    """The record's game at its start (every deck given) and its decisions in order."""
    data = json.loads(path.read_text(encoding="utf-8"))
    rules = Rules.from_dict(data["rules"])
    decks = [[parse_card(c) for c in r["deck"]] for r in data["rounds"]]
    game = Game(rules, decks=decks, dealer=data.get("dealer"))
    script = []
    for r in data["rounds"]:
        for step in r["actions"]:
            seat = step["seat"]
            (kind, value), *_ = [(k, v) for k, v in step.items() if k != "seat"]
            script.append((seat, parse_action(f"{kind} {value}")))
    return game, script


if __name__ == "__main__":
    raise SystemExit(main())
