"""Decisions per second through the bare engine and through each research adapter, in one run.

    python benchmarks/adapters.py --rounds 200 --chunks 10

Every path plays uniformly random legal actions for single rounds of 2-player
Ronda (``reward="round"``: an episode is one round); the adapters' cost is
what they add: views, observations, masks and their libraries' bookkeeping.
A *decision* is one declaration, play or challenge, whoever takes it: the
Gymnasium path counts the random opponent's decisions too (the random level
reads no view, so the environment builds it none; any other opponent gets one).
The random agent of the PettingZoo and Gymnasium paths picks among the
mask's ids as cheaply as the bare engine picks among its legal actions.
RLCard's ``uno`` and ``leduc-holdem`` with random actions are measured in
the same run for reference when RLCard is installed (``pip install
rlcard``); they are skipped, saying so, when it is not.

The paths take turns: each plays ``--rounds / --chunks`` rounds, then the
next path does, ``--chunks`` times over, and a path's rate is all its
decisions over all its time. On a shared machine every path then meets the
same mix of quiet and busy moments.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel

import ronda.adapters.openspiel  # noqa: F401 - registers python_ronda
from ronda.adapters.gymnasium import RondaEnv
from ronda.adapters.pettingzoo import env
from ronda.engine.game import OVER, WAITING, Game
from ronda.engine.rules import Rules


def bare_engine(rounds: int, first: int = 0) -> int:
    rng = random.Random(first)
    rules = Rules(players=2)
    decisions = 0
    for seed in range(first, first + rounds):
        game = Game(rules, seed=seed)
        while game.round == 0 and game.phase not in (WAITING, OVER):
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions


def _pick(mask: np.ndarray, rng: random.Random) -> int:
    """A random legal action id, drawn as cheaply as the bare engine draws its action.

    ``mask.nonzero()`` and a list, not ``np.flatnonzero`` and a numpy scalar:
    those cost a third of an engine step more, which is the random agent's
    time, not the environment's.
    """
    legal: list[int] = mask.nonzero()[0].tolist()
    return legal[rng.randrange(len(legal))]


def pettingzoo(rounds: int, first: int = 0) -> int:
    rng = random.Random(first)
    environment = env(players=2, reward="round")
    decisions = 0
    for seed in range(first, first + rounds):
        environment.reset(seed=seed)
        for _agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
            else:
                environment.step(_pick(observation["action_mask"], rng))
                decisions += 1
    return decisions


def gymnasium(rounds: int, first: int = 0) -> int:
    rng = random.Random(first)
    environment = RondaEnv(players=2, opponents="random", reward="round")
    decisions = 0
    for seed in range(first, first + rounds):
        observation, _ = environment.reset(seed=seed)
        done = False
        while not done:
            observation, _, done, _, _ = environment.step(_pick(observation["action_mask"], rng))
        assert environment.game is not None
        decisions += environment.game.actions_taken  # the round's decisions, both seats
    return decisions


def openspiel(rounds: int, first: int = 0) -> int:
    rng = random.Random(first)
    game = pyspiel.load_game("python_ronda", {"players": 2, "reward": "round"})
    decisions = 0
    for _ in range(rounds):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
    return decisions


def rlcard_game(name: str) -> Callable[[int, int], int]:
    def run(episodes: int, first: int = 0) -> int:
        import rlcard

        environment = rlcard.make(name, config={"seed": first})
        rng = random.Random(first)
        decisions = 0
        for _ in range(episodes):
            state, _player = environment.reset()
            while not environment.is_over():
                legal = list(state["legal_actions"])
                state, _player = environment.step(legal[rng.randrange(len(legal))])
                decisions += 1
        return decisions

    return run


def breakdown(positions: int = 2000) -> None:
    """Microseconds per call of what an environment step adds to the engine's, on positions of random rounds."""
    from ronda.adapters.encoding import Encoder, action_mask, observe
    from ronda.engine.view import SeatView

    rng = random.Random(0)
    games: list[Game] = []
    firsts: set[int] = set()  # where each game's positions begin
    seed = 0
    while len(games) < positions:
        game = Game(Rules(players=2), seed=seed)
        seed += 1
        firsts.add(len(games))
        while game.round == 0 and game.phase not in (WAITING, OVER):
            games.append(game.copy())
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    views = [g.view(g.turn) for g in games]
    masks = [g.view_masks(g.turn) for g in games]
    legals = [g.legal_actions() for g in games]
    fields = [tuple(v) for v in views]
    encoder = Encoder()

    def follow() -> None:
        """What an environment does: one encoder through each game's positions in order, reset between games."""
        for index, position in enumerate(masks):
            if index in firsts:
                encoder.reset()
            encoder.observe(position)

    parts: list[tuple[str, Callable[[], object]]] = [
        ("legal_actions()", lambda: [g.legal_actions() for g in games]),
        ("view(seat)", lambda: [g.view(g.turn) for g in games]),
        ("  of which the SeatView itself", lambda: [tuple.__new__(SeatView, f) for f in fields]),
        ("view_masks(seat)", lambda: [g.view_masks(g.turn) for g in games]),
        ("observe(view)", lambda: [observe(v) for v in views]),
        ("Encoder.observe(view_masks)", follow),
        ("action_mask(legal)", lambda: [action_mask(legal) for legal in legals]),
    ]
    best = dict.fromkeys((name for name, _ in parts), float("inf"))
    for _ in range(5):
        for name, run in parts:
            start = time.perf_counter()
            run()
            best[name] = min(best[name], (time.perf_counter() - start) / len(games) * 1e6)
    for name, _ in parts:
        print(f"{name:<32}{best[name]:>8.1f} us")
    print(f"(python benchmarks/adapters.py --breakdown: {len(games)} positions of random 2-player rounds, best of 5)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=200, help="single rounds (episodes) per path")
    parser.add_argument("--chunks", type=int, default=10, help="turns each path takes (the rounds shared out)")
    parser.add_argument("--breakdown", action="store_true", help="time the parts of a step instead, per call")
    args = parser.parse_args()
    if args.breakdown:
        breakdown()
        return
    paths: list[tuple[str, Callable[[int, int], int]]] = [
        ("bare engine", bare_engine),
        ("PettingZoo", pettingzoo),
        ("Gymnasium", gymnasium),
        ("OpenSpiel", openspiel),
    ]
    if importlib.util.find_spec("rlcard") is not None:
        paths += [("RLCard uno", rlcard_game("uno")), ("RLCard leduc", rlcard_game("leduc-holdem"))]
    else:
        print("RLCard is not installed (pip install rlcard): its games are not measured")
    decisions = dict.fromkeys((name for name, _ in paths), 0)
    seconds = dict.fromkeys(decisions, 0.0)
    chunk = max(1, args.rounds // args.chunks)
    for turn in range(args.chunks):
        for name, run in paths:
            start = time.perf_counter()
            decisions[name] += run(chunk, turn * chunk)
            seconds[name] += time.perf_counter() - start
    rate = {name: decisions[name] / seconds[name] for name in decisions}
    base = rate["bare engine"]
    print(f"{'path':<14}{'decisions/s':>13}{'vs engine':>11}")
    for name, _ in paths:
        print(f"{name:<14}{rate[name]:>13,.0f}{rate[name] / base:>10.2f}x")
    print(
        f"(python benchmarks/adapters.py --rounds {args.rounds} --chunks {args.chunks}: 2 players, "
        "single rounds, random legal actions; RLCard: the same number of its episodes)"
    )


if __name__ == "__main__":
    main()
