"""OpenSpiel's own Python ISMCTS plays Ronda against a ronda bot, through OpenSpiel's evaluate_bots.

python examples/research/openspiel_ismcts.py --simulations 30 --bot medium --rounds 4

``Stateless`` lets evaluate_bots drive OpenSpiel's ISMCTSBot (which keeps no
state between steps but does not implement ``restart_at``); ``RondaBot``
plays a ronda level as an OpenSpiel bot. An episode is one round
(``reward=round``; ``python_ronda``'s default is a whole game, too long for
random rollouts): returns are the round rewards of :mod:`ronda.adapters.returns`,
in points, seat 0 first.

It shows the plumbing, not strength: ISMCTS with random rollouts and a few
dozen simulations plays Ronda badly. At the defaults it loses most rounds to
``medium``, often by challenging a true declaration, which forfeits the game
(R8.8): -41, the least a round can return (runs of one seed differ).
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

from ronda.adapters.openspiel import RondaBot, Stateless


def play_rounds(simulations: int, bot_level: str, rounds: int, seed: int) -> list[list[float]]:
    game = pyspiel.load_game("python_ronda", {"players": 2, "reward": "round"})
    rng = np.random.RandomState(seed)
    searcher = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, rng),
        uct_c=2.0,
        max_simulations=simulations,
        random_state=rng,
    )
    bots = [Stateless(searcher), RondaBot(1, bot_level, seed=seed)]
    return [evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng) for _ in range(rounds)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simulations", type=int, default=30)
    parser.add_argument("--bot", default="medium")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    results = play_rounds(args.simulations, args.bot, args.rounds, args.seed)
    mean = np.mean([r[0] for r in results])
    print(f"ISMCTS ({args.simulations} simulations) vs {args.bot}: returns {results}, mean for ISMCTS {mean:+.2f}")


if __name__ == "__main__":
    main()
