"""OpenSpiel's Python ISMCTS plays one round of Ronda against a ronda bot.

python examples/research/openspiel_ismcts.py --simulations 30 --bot medium
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import ronda.adapters.openspiel  # noqa: F401 - registers python_ronda
from ronda.adapters.encoding import action_id
from ronda.bots import make_bot


def play_round(simulations: int, bot_level: str, seed: int) -> list[float]:
    game = pyspiel.load_game("python_ronda", {"players": 2})
    rng = np.random.RandomState(seed)
    searcher = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, rng),
        uct_c=2.0,
        max_simulations=simulations,
        random_state=rng,
    )
    bot = make_bot(bot_level, seed=seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        elif state.current_player() == 0:
            state.apply_action(searcher.step(state))
        else:
            engine = state.engine
            choice = bot.choose(engine.view(engine.turn), engine.legal_actions())
            state.apply_action(action_id(choice))
    return state.returns()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--simulations", type=int, default=30)
    parser.add_argument("--bot", default="medium")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    returns = play_round(args.simulations, args.bot, args.seed)
    print(f"ISMCTS ({args.simulations} simulations) vs {args.bot}: returns {returns}")


if __name__ == "__main__":
    main()
