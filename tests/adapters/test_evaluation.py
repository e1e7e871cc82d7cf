"""One helper evaluates any policy against a field on duplicate deals, with the arena's figures and trajectories."""

from __future__ import annotations

from extras import require

require("research")

import numpy as np
import pytest

from ronda.adapters.evaluation import evaluate
from ronda.adapters.policy import Policy, resolve
from ronda.arena.match import MatchSpec
from ronda.arena.runner import run_match, summary
from ronda.arena.stats import wilson_interval
from ronda.engine.rules import Rules


def test_a_policy_against_itself_on_duplicate_deals_wins_as_often_as_it_loses() -> None:
    """The same deterministic player on both sides of duplicate deals: each unit's two games mirror each other."""
    shipped = Policy.load(resolve("ronda-2p"))
    result = evaluate(shipped, ["policy:ronda-2p"], units=4, rounds_only=True)
    (row,) = result.rows
    assert row.games == 8 and row.wins == row.losses and row.margin == 0.0


def test_the_figures_are_the_arena_s_for_the_same_match() -> None:
    result = evaluate("easy", ["random", "medium"], units=3, seed=4, rounds_only=True)
    for row, opponent in zip(result.rows, ("random", "medium"), strict=True):
        arena = run_match(MatchSpec(("easy", opponent), Rules(players=2), rounds_only=True, seed=4), 3).tally
        wins, losses = arena.head_to_head(0, 1, rounds_only=True)
        assert (row.opponent, row.games, row.wins, row.losses) == (opponent, len(arena.games), wins, losses)
        assert row.win_interval == wilson_interval(wins, wins + losses)
    assert result.win_rate == sum(r.wins for r in result.rows) / sum(r.wins + r.losses for r in result.rows)


def test_with_the_arena_s_target_a_searching_opponent_s_rounds_are_ronda_arena_rounds_exactly() -> None:
    """``ronda arena --rounds`` plays first rounds at a target of 10,000, which a search bot values; evaluate's
    ``rounds_only`` keeps the rules' target (41) unless told, as its docstring says (a researcher's audit)."""
    from ronda.cli.arena import ROUNDS_TARGET

    def margin(**target: int) -> float:
        return evaluate("hard:4", ["medium"], units=2, seed=5, rounds_only=True, **target).rows[0].margin

    spec = MatchSpec(("hard:4", "medium"), Rules(players=2, target=ROUNDS_TARGET), rounds_only=True, seed=5)
    arena = summary(spec, run_match(spec, 2))["margin_per_round"]["mean"]
    assert margin(target=ROUNDS_TARGET) == arena


def test_trajectories_hold_every_decision_of_the_policy_and_its_return() -> None:
    rng = np.random.default_rng(3)
    decisions = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        decisions.append(mask.copy())
        return int(rng.choice(np.flatnonzero(mask)))

    result = evaluate(policy, "easy", units=2, reward="outcome", trajectories=True, target=11)
    (row,) = result.rows
    assert len(result.trajectories) == row.games == 4
    taken = np.concatenate([t.masks for t in result.trajectories])
    assert np.array_equal(taken, np.stack(decisions))  # every decision, in order, in the policy's frame
    for trajectory in result.trajectories:
        assert len(trajectory.observations) == len(trajectory.actions) == len(trajectory.masks)
        assert all(trajectory.masks[i, a] for i, a in enumerate(trajectory.actions))
    assert sorted(t.reward for t in result.trajectories).count(1.0) == row.wins


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_players_seat_the_opponent_everywhere_else(players: int) -> None:
    result = evaluate("easy", "random", units=1, players=players, trajectories=True, rounds_only=True)
    (row,) = result.rows
    assert row.games == (3 if players == 3 else 2)
    seats = {t.seat for t in result.trajectories}
    assert seats == ({0, 1, 2} if players == 3 else {0, 1, 2, 3})  # partners both play the policy with 4


def test_a_bad_policy_or_opponent_is_named_before_anything_is_played() -> None:
    with pytest.raises(ValueError, match="an opponent is a level name"):
        evaluate(42, "easy", units=1)
    with pytest.raises(ValueError, match="unknown bot level 'grandmaster'"):
        evaluate("easy", ["random", "grandmaster"], units=1)


@pytest.mark.parametrize("nobody", [[], ()])
def test_an_empty_field_of_opponents_is_refused_not_an_empty_table(nobody: list[str]) -> None:
    """An audit: ``evaluate(policy, [])`` returned a table of headings alone, as if measured against no one."""
    with pytest.raises(ValueError, match=r"evaluate\(\) needs at least one opponent"):
        evaluate("easy", nobody, units=1)


def test_an_sb3_model_is_a_checkpoint_evaluate_plays() -> None:
    require("train")
    from sb3_contrib import MaskablePPO

    from ronda.adapters.gymnasium import RondaEnv

    model = MaskablePPO("MultiInputPolicy", RondaEnv(opponents="random"), n_steps=64, seed=0)
    result = evaluate(model, "random", units=1, rounds_only=True, trajectories=True)
    assert result.rows[0].games == 2
    assert all(t.masks[i, a] for t in result.trajectories for i, a in enumerate(t.actions))


def test_an_sb3_model_without_action_masks_is_refused_before_anything_is_played() -> None:
    require("train")
    from stable_baselines3 import PPO

    from ronda.adapters.gymnasium import RondaEnv

    model = PPO("MlpPolicy", RondaEnv(opponents="random", observation="flat"), n_steps=64, seed=0)
    with pytest.raises(ValueError, match=r"PPO\.predict\(\) takes no action_masks.*MaskablePPO"):
        evaluate(model, ["random"], units=5)
    with pytest.raises(ValueError, match="takes no action_masks"):
        evaluate("random", [model], units=5)
