"""PettingZoo and Gymnasium: their libraries' checks, episodes that end where they should, opponents, masks, state()."""

from __future__ import annotations

from extras import require

require("research")

import copy
import gc
import pickle
import random
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from decks import build_deck
from ronda.adapters.encoding import OFFSETS, STATE_SIZE, action_id, id_action
from ronda.adapters.gymnasium import RondaEnv
from ronda.adapters.pettingzoo import env, raw_env
from ronda.adapters.returns import seat_returns
from ronda.engine.actions import Action, Challenge, Declare, Play
from ronda.engine.cards import CardSet
from ronda.engine.errors import IllegalActionError
from ronda.engine.events import ChallengeMade
from ronda.engine.game import OVER, WAITING
from ronda.engine.rules import Rules
from ronda.engine.view import SeatView

FAILED_CHALLENGE_DECK = build_deck(Rules(players=2), [{0: "5o 5c 5e", 1: "7o 7c 1e"}], table="2b 4o 10o 11c", dealer=1)
"""Seat 0 holds a tringa, seat 1 a ronda; seat 0 plays first."""


def _play_out(environment: raw_env, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        legal = np.flatnonzero(observation["action_mask"])
        environment.step(None if terminated or truncated else int(legal[rng.randrange(len(legal))]))
    return totals


# ---------------------------------------------------------------- PettingZoo


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test(players: int) -> None:
    api_test(env(players=players), num_cycles=200)


def test_pettingzoo_api_test_with_flat_observations_round_rewards_and_variants_and_seed_test() -> None:
    api_test(env(players=3, reward="round", observation="flat", dealer_duty=True, chain_points=(1, 6, 15)), 200)
    seed_test(lambda: env(players=2), num_cycles=200)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_a_round_episode_ends_with_its_round_and_pays_its_points(players: int) -> None:
    environment = env(players=players, reward="round")
    for seed in range(3):
        environment.reset(seed=seed)
        totals = _play_out(environment, seed)
        game = environment.episode.game
        assert game.round == 0 and game.phase in (WAITING, OVER)  # not a card of a second round dealt
        expected = seat_returns(game.rules, "round", game.scores, game.winner)
        assert [totals[f"player_{seat}"] for seat in range(players)] == list(expected)
        assert sum(totals.values()) == pytest.approx(0.0)


def test_pettingzoo_R8_8_a_game_lost_inside_the_round_pays_the_least_a_round_can() -> None:
    environment = env(players=2, reward="round")
    environment.reset(options={"deck": FAILED_CHALLENGE_DECK, "dealer": 1})
    for action in (Declare("tringa"), Declare("ronda")):
        environment.step(action_id(action))
    assert environment.episode.game.scores == [6, 0]
    environment.step(45)  # seat 0 challenges seat 1's true ronda
    assert environment.terminations == {"player_0": True, "player_1": True}
    assert environment.rewards == {"player_0": -41.0, "player_1": 41.0}


def test_pettingzoo_outcome_is_zero_sum_with_three_players() -> None:
    environment = env(players=3, reward="outcome", target=11)
    environment.reset(seed=5)
    totals = _play_out(environment, 5)
    winner = environment.episode.game.winner
    assert totals == {f"player_{s}": (1.0 if s == winner else -0.5) for s in range(3)}


def test_pettingzoo_state_holds_every_hand_and_the_stock() -> None:
    environment = env(players=3)
    environment.reset(seed=2)
    state = environment.state()
    game = environment.episode.game
    assert state.shape == (STATE_SIZE,) and environment.state_space.contains(state)
    for seat in range(3):
        assert CardSet(sum(1 << int(c) for c in np.flatnonzero(state[40 * seat : 40 * seat + 40]))) == game.hand(seat)
    stock = CardSet(sum(1 << int(c) for c in np.flatnonzero(state[160:200])))
    assert len(stock) == game.view(0).stock
    assert not stock.mask & (game.hand(0).mask | game.hand(1).mask | game.hand(2).mask)


def test_pettingzoo_refuses_calls_before_reset_and_illegal_actions_change_nothing() -> None:
    environment = env()
    with pytest.raises(Exception, match="reset"):
        environment.step(0)
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before last\(\)"):
        environment.last()
    environment.reset(seed=1)
    before = environment.episode.game.to_record()
    with pytest.raises(IllegalActionError, match="actions are integers from 0 to 47"):
        environment.step(48)
    with pytest.raises(IllegalActionError):
        environment.step(0 if environment.episode.game.phase == "play" else 47)
    assert environment.episode.game.to_record() == before


def test_pettingzoo_an_ended_episode_gives_every_agent_an_empty_mask_as_docs_research_md_says() -> None:
    """Unlike Gymnasium's all-allowed last mask: a masked policy must not sample from it, and docs/research.md warns."""
    environment = env(players=3)
    environment.reset(seed=2)
    rng, ended = random.Random(2), []
    for agent in environment.agent_iter():
        observation, _, terminated, truncated, info = environment.last()
        if terminated or truncated:
            ended.append((agent, int(observation["action_mask"].sum()), int(info["action_mask"].sum())))
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        environment.step(int(legal[rng.randrange(len(legal))]))
    assert sorted(ended) == [("player_0", 0, 0), ("player_1", 0, 0), ("player_2", 0, 0)]
    page = (Path(__file__).parents[2] / "docs" / "research.md").read_text()
    assert "In PettingZoo an agent's\n  mask is all zeros" in page


def test_pettingzoo_takes_a_0d_integer_array_as_an_action_as_sb3_predict_returns() -> None:
    environment = env()
    environment.reset(seed=1)
    observation, *_ = environment.last()
    chosen = int(np.flatnonzero(observation["action_mask"])[0])
    environment.step(np.array(chosen))
    assert environment.episode is not None and environment.episode.game.actions_taken == 1


def test_pettingzoo_an_environment_dropped_is_collected_and_each_agent_keeps_one_space() -> None:
    environment = env(players=3)
    environment.reset(seed=1)
    assert environment.observation_space("player_1") is environment.observation_space("player_1")
    assert environment.action_space("player_2") is environment.action_space("player_2")
    assert environment.observation_space("player_0") is not env().observation_space("player_0")
    dropped = weakref.ref(environment)
    del environment
    gc.collect()
    assert dropped() is None


# ----------------------------------------------------------------- Gymnasium


def test_gymnasium_check_env_and_make() -> None:
    check_env(RondaEnv(opponents="random"), skip_render_check=True)
    check_env(RondaEnv(opponents="random", observation="flat", reward="outcome"), skip_render_check=True)
    check_env(RondaEnv(players=4, seat=2, opponents=["random", "easy", "random"]), skip_render_check=True)
    for name in ("Ronda-v0", "ronda.adapters.gymnasium:Ronda-v0"):
        made = gymnasium.make(name, opponents="easy", observation="flat")
        observation, info = made.reset(seed=1)
        assert made.observation_space.contains(observation)
        assert np.array_equal(made.unwrapped.action_masks(), info["action_mask"].astype(bool))


def test_gymnasium_a_round_episode_ends_with_its_round() -> None:
    environment = RondaEnv(opponents="random", reward="round")
    rng = random.Random(0)
    for seed in range(3):
        environment.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            legal = np.flatnonzero(environment.action_masks())
            _, reward, done, _, _ = environment.step(int(legal[rng.randrange(len(legal))]))
        game = environment.game
        assert game is not None and game.round == 0 and game.phase in (WAITING, OVER)
        assert reward == seat_returns(game.rules, "round", game.scores, game.winner)[0]
        with pytest.raises(gymnasium.error.ResetNeeded):
            environment.step(0)


class Declarer:
    """A bot that declares what it is told and plays its first card: a scripted opponent."""

    name = "declarer"

    def __init__(self, declaration: str) -> None:
        self.declaration = declaration

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        if view.phase == "declare":
            return Declare(self.declaration)  # type: ignore[arg-type]
        return next(a for a in legal if isinstance(a, Play))


def test_gymnasium_R8_8_a_failed_challenge_ends_the_episode_with_the_worst_return_against_a_bot_object() -> None:
    environment = RondaEnv(opponents=Declarer("ronda"), reward="round")
    environment.reset(options={"deck": FAILED_CHALLENGE_DECK, "dealer": 1})
    _, reward, done, _, _ = environment.step(action_id(Declare("tringa")))
    assert (reward, done) == (0.0, False) and environment.game.scores == [6, 0]
    assert environment.action_masks()[45]  # challenging seat 1 is legal
    _, reward, done, _, _ = environment.step(45)
    assert done and reward == -41.0 and environment.game.winner == 1


def test_gymnasium_illegal_actions_end_refuse_or_raise_and_change_nothing() -> None:
    for illegal, ends in (("end", True), ("refuse", False)):
        environment = RondaEnv(opponents="random", illegal=illegal, reward="outcome")
        observation, _ = environment.reset(seed=3)
        wrong = int(np.flatnonzero(observation["action_mask"] == 0)[0])
        before = environment.game.to_record()
        _, reward, done, _, info = environment.step(wrong)
        assert (reward, done) == (-1.0, ends) and "illegal" in info
        assert environment.game.to_record() == before
    environment = RondaEnv(opponents="random", illegal="raise")
    environment.reset(seed=3)
    with pytest.raises(IllegalActionError):
        environment.step(47)


def test_gymnasium_opponents_as_levels_with_settings_bots_and_policy_functions() -> None:
    environment = RondaEnv(opponents=("hard", {"samples": 4}))
    environment.reset(seed=1)
    chooser = environment._choosers[1]
    assert chooser.__self__.time_limit is None and chooser.__self__.budget == 4  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="the medium level has no setting 'samples'"):
        RondaEnv(opponents=("medium", {"samples": 4}))
    with pytest.raises(ValueError, match="unknown bot level 'grandmaster'"):
        RondaEnv(opponents="grandmaster")

    def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
        assert observation.shape == (855,)
        return int(np.flatnonzero(mask)[0])

    environment = RondaEnv(opponents=first_legal, reward="round")
    environment.reset(seed=2)
    assert environment.game.turn == 0

    def predicted(observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.array(np.flatnonzero(mask)[0])  # a 0-d array, as an sb3 model's predict() gives

    environment = RondaEnv(opponents=predicted, reward="round", dealer=0)
    environment.reset(seed=2)
    assert environment.game.turn == 0 and environment.game.actions_taken == 1

    environment = RondaEnv(opponents=lambda observation, mask: 47, reward="round", dealer=0)
    with pytest.raises(IllegalActionError, match=r"the policy at seat 1 \(<lambda>\) chose action 47, not legal now"):
        environment.reset(seed=2)


@pytest.mark.parametrize("opponent", ["medium", ("hard", {"samples": 3}), ("expert", {"samples": 3})])
def test_gymnasium_equal_seeds_give_equal_episodes_for_every_level(opponent: object) -> None:
    def episode() -> list[np.ndarray]:
        environment = RondaEnv(opponents=opponent, reward="round", observation="flat")
        observation, _ = environment.reset(seed=11)
        seen, done = [observation], False
        while not done:
            observation, _, done, _, _ = environment.step(int(np.flatnonzero(environment.action_masks())[-1]))
            seen.append(observation)
        return seen

    first, second = episode(), episode()
    assert len(first) == len(second) and all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))


def test_gymnasium_the_first_dealer_is_drawn_so_one_seat_plays_first_and_second() -> None:
    environment = RondaEnv(opponents="random")
    dealers = set()
    for seed in range(12):
        observation, _ = environment.reset(seed=seed)
        vector = observation["observation"]
        dealers.add(int(np.argmax(vector[OFFSETS["dealer"] : OFFSETS["dealer"] + 4])))
    assert dealers == {0, 1}  # the agent's own slot and the opponent's
    with pytest.raises(ValueError, match="unknown reset option 'decks'"):
        environment.reset(options={"decks": []})


def test_gymnasium_takes_a_0d_integer_array_as_an_action_as_sb3_predict_returns() -> None:
    environment = gymnasium.make("Ronda-v0", opponents="easy")
    environment.reset(seed=0)
    chosen = np.array(int(np.flatnonzero(environment.unwrapped.action_masks())[0]))
    _, _, done, _, info = environment.step(chosen)
    assert not done and "illegal" not in info and environment.unwrapped.game.actions_taken >= 1
    strict = RondaEnv(opponents="easy", illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"not array\(40\.\)"):
        strict.step(np.array(40.0))  # type: ignore[arg-type]


def test_an_action_id_of_the_mask_is_legal_in_the_game() -> None:
    environment = RondaEnv(opponents="random")
    observation, _ = environment.reset(seed=4)
    game = environment.game
    assert {id_action(int(i)) for i in np.flatnonzero(observation["action_mask"])} == set(game.legal_actions())


def test_gymnasium_builds_a_view_only_for_opponents_that_read_one() -> None:
    """The random level draws among the legal actions alone, so it is given no view; every other opponent is."""
    from ronda.adapters.opponents import make_opponent, reads_view
    from ronda.bots import RandomBot

    class PeekingRandom(RandomBot):
        def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
            seen.append(view.seat)
            return super().choose(view, legal)

    assert not reads_view(make_opponent("random", seed=1))
    assert reads_view(make_opponent("easy", seed=1)) and reads_view(make_opponent(lambda o, m: 0, seed=1))
    seen: list[int] = []
    assert reads_view(make_opponent(PeekingRandom(1), seed=1))  # a subclass may read the view: it gets one
    environment = RondaEnv(opponents=PeekingRandom(5), reward="round")
    environment.reset(seed=4)
    done = False
    while not done:
        _, _, done, _, _ = environment.step(int(np.flatnonzero(environment.action_masks())[0]))
    assert environment.game is not None
    assert len(seen) == sum(a["seat"] == 1 for a in environment.game.to_record()["rounds"][0]["actions"]) > 0


@pytest.mark.parametrize(
    "duplicate", [copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))], ids=["deepcopy", "pickle"]
)
def test_an_environment_copied_mid_episode_goes_on_as_the_original(duplicate: Any) -> None:
    """Vector environments, checkpoints and search copy environments: the copy plays the same episode from there."""

    def rest_of_gymnasium_episode(environment: RondaEnv) -> list[tuple[bytes, float, bool]]:
        seen, done = [], False
        while not done:
            observation, reward, done, _, _ = environment.step(int(np.flatnonzero(environment.action_masks())[-1]))
            seen.append((observation["observation"].tobytes(), reward, done))
        return seen

    gym_env = RondaEnv(opponents="easy", reward="round")
    gym_env.reset(seed=5)
    gym_env.step(int(np.flatnonzero(gym_env.action_masks())[0]))
    gym_copy = duplicate(gym_env)
    assert rest_of_gymnasium_episode(gym_copy) == rest_of_gymnasium_episode(gym_env)

    def rest_of_pettingzoo_episode(environment: raw_env) -> list[tuple[bytes, float, bool]]:
        seen = []
        for _ in environment.agent_iter():
            observation, reward, terminated, truncated, _ = environment.last()
            seen.append((observation["observation"].tobytes(), reward, terminated))
            environment.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
        return seen

    pz_env = env(players=3, reward="round")
    pz_env.reset(seed=5)
    pz_env.step(int(np.flatnonzero(pz_env.last()[0]["action_mask"])[0]))
    pz_copy = duplicate(pz_env)
    assert rest_of_pettingzoo_episode(pz_copy) == rest_of_pettingzoo_episode(pz_env)


def test_gymnasium_challenge_ids_are_relative_to_the_agent_s_seat_like_its_observation() -> None:
    """Seat 1 challenges seat 0, one place after it with 2 players, by 45: the id a seat-0 network gives it."""
    environment = RondaEnv(seat=1, opponents=Declarer("tringa"), reward="round")
    environment.reset(options={"deck": FAILED_CHALLENGE_DECK, "dealer": 1})
    environment.step(action_id(Declare("ronda")))  # seat 0 then plays its first card
    mask = environment.action_masks()
    assert mask[45] and not mask[44] and not mask[46:].any()
    _, reward, done, _, info = RondaEnv.step(copy.deepcopy(environment), 47)
    assert done and "action 47 challenges the seat 3 places after yours; there are 2 players" in info["illegal"]
    _, reward, done, _, info = environment.step(45)  # seat 0 holds its tringa: the challenge fails (R8.8)
    assert "illegal" not in info and done and reward == -41.0 and environment.game.winner == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_challenge_ids_are_relative_to_the_acting_agent(players: int) -> None:
    """Every acting agent's mask holds 44 + k for the legal challenge of the seat k places after it."""
    environment = env(players=players, reward="round")
    challenges = 0
    for seed in range(6):
        environment.reset(seed=seed)
        rng = random.Random(seed)
        for agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            seat = int(agent.split("_")[1])
            game = environment.episode.game
            targets = {a.target for a in game.legal_actions() if isinstance(a, Challenge)}
            mask = observation["action_mask"]
            assert set(np.flatnonzero(mask[44:])) == {(target - seat) % players for target in targets}
            legal = np.flatnonzero(mask)
            chosen = int(legal[rng.randrange(len(legal))])
            environment.step(chosen)
            if chosen >= 44:
                challenges += 1
                made = [e for e in environment.episode.events if isinstance(e, ChallengeMade)]
                assert (made[0].seat, made[0].target) == (seat, (seat + chosen - 44) % players)
    assert challenges
