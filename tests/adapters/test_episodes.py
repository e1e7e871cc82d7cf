"""Episodes that begin anywhere, masks a policy can use at every step of a vector environment, the forfeit's return."""

from __future__ import annotations

from extras import require

require("research")

import json
import random
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from decks import build_deck
from ronda.adapters.encoding import action_id, observation_pieces, observe
from ronda.adapters.gymnasium import RondaEnv
from ronda.adapters.pettingzoo import env
from ronda.adapters.returns import return_bounds
from ronda.bots.winprob import game_win_probability, win_probability
from ronda.engine.actions import Declare
from ronda.engine.events import Score
from ronda.engine.game import OVER, Game
from ronda.engine.record import replay
from ronda.engine.rules import Rules

TRINGA_DECK = build_deck(Rules(players=2), [{0: "5o 5c 5e", 1: "7o 7c 1e"}], table="2b 4o 10o 11c", dealer=1)
"""Seat 0 holds a tringa, seat 1 a ronda; seat 1 deals, seat 0 plays first."""


def _random_step(environment: RondaEnv, rng: random.Random) -> tuple:
    legal = np.flatnonzero(environment.action_masks())
    return environment.step(int(legal[rng.randrange(len(legal))]))


# ---------------------------------------------------------------- given scores


def test_R9_5_a_true_tringa_declared_at_36_is_shown_and_wins_the_round_episode_in_both_libraries() -> None:
    options = {"deck": TRINGA_DECK, "dealer": 1, "scores": [36, 12], "round": 5}
    environment = env(players=2, reward="round")
    environment.reset(options=options)
    assert environment.episode.game.scores == [36, 12] and environment.episode.game.round == 5
    environment.step(action_id(Declare("tringa")))
    environment.step(action_id(Declare("none")))
    assert environment.episode.game.winner == 0 and environment.episode.game.scores == [41, 12]
    assert environment.rewards == {"player_0": 41.0, "player_1": -41.0}
    single = RondaEnv(opponents=("easy", {}), reward="round")
    single.reset(options=options)
    _, reward, done, _, _ = single.step(action_id(Declare("tringa")))
    # easy declares for seat 1 whatever it holds; the tringa's 5 points take seat 0 to the target all the same
    assert done and reward == 41.0 and single.game.winner == 0


@pytest.mark.parametrize("players", [2, 3])
def test_a_round_begun_at_given_scores_pays_what_the_round_scored(players: int) -> None:
    rules = Rules(players=players)
    for seed in range(6):
        environment = RondaEnv(players=players, opponents="random", reward="round")
        environment.reset(seed=seed, options={"scores": [20 - 5 * s for s in range(rules.sides)], "dealer": 0})
        rng, done, reward = random.Random(seed), False, 0.0
        while not done:
            _, reward, done, _, _ = _random_step(environment, rng)
        game = environment.game
        if game.winner is not None:
            assert reward == return_bounds(rules, "round")[game.winner == rules.side_of(0)]
            continue
        others = [s for s in range(rules.sides) if s != 0]
        scores = [e for e in game.events if isinstance(e, Score)]
        scored = [sum(e.points for e in scores if e.side == side) for side in range(rules.sides)]
        assert reward == pytest.approx(scored[0] - sum(scored[s] for s in others) / len(others))


def test_scores_drawn_at_every_reset_autoresets_of_a_vector_environment_included() -> None:
    target = 21
    vector = SyncVectorEnv(
        [lambda: RondaEnv(opponents="random", reward="round", target=target, start={"scores": "uniform"})] * 2
    )
    _, _ = vector.reset(seed=3)
    rng = np.random.default_rng(0)
    starts: set[tuple[int, ...]] = set()
    for _ in range(300):
        starts.update(environment.unwrapped.episode.start for environment in vector.envs)
        masks = vector.call("action_masks")
        vector.step(np.array([rng.choice(np.flatnonzero(mask)) for mask in masks]))
    assert len(starts) >= 8 and all(0 <= points < target for start in starts for points in start)


def test_a_sampler_draws_the_scores_and_bad_scores_are_named() -> None:
    environment = RondaEnv(opponents="random", start={"scores": lambda rules, rng: [rules.target - 1, 0]})
    environment.reset(seed=1)
    assert environment.game.scores == [40, 0]
    with pytest.raises(ValueError, match="side 1's score must be a whole number from 0 to 40"):
        RondaEnv(opponents="random", start={"scores": [3, 41]})
    with pytest.raises(ValueError, match="unknown reset option 'score'"):
        RondaEnv(opponents="random").reset(options={"score": [3, 4]})


# ---------------------------------------------------------------- a record's position


def _record(seed: int, decisions: int) -> tuple[dict, list[Game]]:
    """A real game's record, and a copy of the game at each decision."""
    game = Game(Rules(players=2), seed=seed)
    rng = random.Random(seed)
    positions = []
    while len(positions) < decisions and game.phase != OVER:
        positions.append(game.copy())
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game.to_record(), positions


def test_an_episode_begins_at_a_record_s_decision_in_both_libraries(tmp_path: Path) -> None:
    record, positions = _record(seed=8, decisions=90)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    for decision in (0, 33, 89):
        position = positions[decision]
        seat = position.turn
        aec = env(players=2, reward="game")
        aec.reset(options={"record": str(path), "decision": decision})
        assert aec.agent_selection == f"player_{seat}"
        assert np.array_equal(aec.observe(f"player_{seat}")["observation"], observe(position.view(seat)))
        single = RondaEnv(seat=seat, opponents="random", reward="game")
        observation, _ = single.reset(options={"record": record, "decision": decision})
        assert np.array_equal(observation["observation"], observe(position.view(seat)))
        assert single.game.scores == position.scores and single.game.round == position.round


def test_a_record_s_round_episode_ends_with_that_round_and_later_rounds_are_dealt_by_the_environment() -> None:
    record, positions = _record(seed=8, decisions=90)
    round_of_89 = positions[89].round
    aec = env(players=2, reward="round")
    aec.reset(seed=1, options={"record": record, "decision": 89})
    rng = random.Random(1)
    for _ in aec.agent_iter():
        observation, _, terminated, _, _ = aec.last()
        aec.step(None if terminated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert aec.episode.game.round == round_of_89 and aec.episode.over
    whole = env(players=2, reward="game")
    whole.reset(seed=1, options={"record": record, "decision": 89})
    for _ in whole.agent_iter():
        observation, _, terminated, _, _ = whole.last()
        whole.step(None if terminated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert whole.episode.game.phase == OVER and whole.episode.game.round >= round_of_89


@pytest.mark.parametrize(
    ("with_record", "options", "problem"),
    [
        (False, {"decision": 3}, "'decision' needs a 'record'"),
        (True, {"decision": 5000}, "the record holds 90 decisions: there is no decision 5000"),
        (True, {"decision": 3, "scores": [1, 2]}, "'scores' cannot go with 'record'"),
        (True, {"decision": -1}, "'decision' is a whole number from 0"),
    ],
)
def test_a_bad_record_option_is_named(with_record: bool, options: dict, problem: str) -> None:
    record, _ = _record(seed=8, decisions=90)
    given = {"record": record, **options} if with_record else options
    environment = RondaEnv(opponents="random")
    with pytest.raises(ValueError, match=problem):
        environment.reset(options=given)
    assert environment.episode is None  # nothing began


def test_a_record_of_other_rules_is_named() -> None:
    record, _ = _record(seed=8, decisions=10)
    with pytest.raises(ValueError, match="the record is played under"):
        RondaEnv(players=3, opponents="random").reset(options={"record": record, "decision": 2})
    assert replay(record).rules == Rules(players=2)


# ---------------------------------------------------------------- vector environments


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize("observation", ["dict", "flat"])
def test_a_vector_environment_gives_a_usable_mask_at_every_step(mode: AutoresetMode, observation: str) -> None:
    """A masked policy samples from the mask it is given: every step, terminal steps included, has one to sample."""
    vector = SyncVectorEnv(
        [lambda: RondaEnv(opponents="random", reward="round", observation=observation)] * 3, autoreset_mode=mode
    )
    observations, infos = vector.reset(seed=2)
    rng = np.random.default_rng(1)
    endings = illegal = 0
    for _ in range(400):
        masks = observations["action_mask"] if observation == "dict" else infos["action_mask"]
        assert all(mask.any() for mask in masks)
        assert np.array_equal(np.array(vector.call("action_masks")), masks.astype(bool))
        observations, _, terminated, _, infos = vector.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        endings += int(terminated.sum())
        illegal += int(np.sum(infos.get("_illegal", 0)))
    assert endings >= 10 and illegal == 0


def test_observation_pieces_are_reachable_from_every_environment() -> None:
    import pyspiel

    import ronda.adapters.openspiel  # noqa: F401

    pieces = observation_pieces()
    assert gymnasium.make("Ronda-v0", opponents="random").unwrapped.observation_pieces() == pieces
    assert env().observation_pieces() == pieces
    assert pyspiel.load_game("python_ronda").observation_pieces() == pieces


# ---------------------------------------------------------------- the forfeit


@pytest.mark.parametrize("players", [2, 4])
def test_R8_8_a_game_thrown_away_by_a_failed_challenge_returns_the_least_there_is(players: int) -> None:
    """Ahead 6-0, seat 0 challenges a true ronda and loses the game: the lowest `game` return, not -76."""
    rules = Rules(players=players)
    deck = build_deck(rules, [{0: "5o 5c 5e", 1: "7o 7c 1e"}], table="2b 4o 10o 11c", dealer=players - 1)
    environment = env(players=players, reward="game")
    environment.reset(options={"deck": deck, "dealer": players - 1})
    environment.step(action_id(Declare("tringa")))
    for _ in range(players - 1):
        environment.step(action_id(Declare("ronda" if environment.agent_selection == "player_1" else "none")))
    assert environment.episode.game.scores == [6, 0]
    environment.step(45)  # seat 0 challenges seat 1's true ronda
    low, high = return_bounds(rules, "game")
    assert environment.episode.game.winner == 1
    assert environment.rewards == {f"player_{s}": (low if s % 2 == 0 else high) for s in range(players)}
    assert (low, high) == (-123.0, 123.0)


# ---------------------------------------------------------------- a round paid in winning chances


def test_chances_a_tringa_that_wins_at_36_pays_all_the_chance_seat_0_did_not_have_yet() -> None:
    rules = Rules(players=2)
    environment = env(players=2, reward="chances")
    environment.reset(options={"deck": TRINGA_DECK, "dealer": 1, "scores": [36, 12]})
    environment.step(action_id(Declare("tringa")))
    environment.step(action_id(Declare("none")))
    before = win_probability(rules, [36, 12], dealer=1)
    assert 0.5 < before[0] < 1.0
    assert environment.rewards == pytest.approx({"player_0": 1.0 - before[0], "player_1": -before[1]})


@pytest.mark.parametrize("players", [2, 3])
def test_chances_an_undecided_round_pays_the_change_to_the_next_round_s_chances(players: int) -> None:
    rules = Rules(players=players)
    start = [14, 11, 5][: rules.sides]
    paid = 0
    for seed in range(10):
        environment = RondaEnv(players=players, opponents="random", reward="chances")
        environment.reset(seed=seed, options={"scores": start, "dealer": 0})
        rng, done, reward = random.Random(seed), False, 0.0
        while not done:
            _, reward, done, _, _ = _random_step(environment, rng)
        game = environment.game
        if game.winner is None:
            assert game.dealer == 1  # the deal has passed on: the next round is valued with its dealer
            change = win_probability(rules, game.scores, 1)[0] - win_probability(rules, start, 0)[0]
            assert reward == pytest.approx(change)
            paid += 1
    assert paid >= 3


def test_chances_from_a_records_decision_inside_a_round_pay_the_change_from_there() -> None:
    """An audit: an episode begun at decision 75 of the sample record (round 1, deal 3) was valued from the chance at
    the round's start at the scores reached (0.300), not from where it stood (0.258). From inside a round the start
    is valued as a search values it; from a round's first decision as before."""
    rules = Rules(players=2)
    record = json.loads(Path("examples/sample-2p.json").read_text())
    for decision, inside in ((75, True), (0, False)):
        environment = RondaEnv(players=2, opponents="random", reward="chances")
        environment.reset(seed=1, options={"record": record, "decision": decision})
        start = environment.game.copy()
        rng, done, reward = random.Random(decision), False, 0.0
        while not done:
            _, reward, done, _, _ = _random_step(environment, rng)
        game = environment.game
        after = win_probability(rules, game.scores, game.dealer)[0] if game.winner is None else float(game.winner == 0)
        before = game_win_probability(start, 0) if inside else win_probability(rules, start.scores, start.dealer)[0]
        assert reward == pytest.approx(after - before), decision
        if inside:  # the two starts differ by more than the test's tolerance: it tells them apart
            assert abs(before - win_probability(rules, start.scores, start.dealer)[0]) > 0.02
