"""Trained policies: the shipped one plays with numpy alone, a tiny run exports what torch plays, the arena entrant."""

from __future__ import annotations

from extras import require

require("research")

import importlib.util
import itertools
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from ronda.adapters.encoding import action_id, observe
from ronda.adapters.gymnasium import RondaEnv
from ronda.adapters.opponents import make_level
from ronda.adapters.play_features import judgement_logits, play_features_v2
from ronda.adapters.policy import SHIPPED, Policy, PolicyBot, PolicyError, encoding_signature, load_bot
from ronda.bots import make_bot
from ronda.bots.search import distinct_plays
from ronda.cli.main import main as ronda_main
from ronda.engine.actions import Challenge
from ronda.engine.game import OVER, PLAY, Game
from ronda.engine.rules import Rules

ROOT = Path(__file__).resolve().parents[2]
SHIPPED_POLICY = SHIPPED / "ronda-2p.npz"


def test_the_shipped_policy_is_small_says_how_it_was_made_and_plays_legal_actions_with_numpy_alone() -> None:
    assert SHIPPED_POLICY.stat().st_size < 3_000_000
    policy = Policy.load(SHIPPED_POLICY)
    assert policy.meta["encoding"] == encoding_signature()
    assert policy.meta["trainer"] == "imitation of a ronda bot, then sb3-contrib MaskablePPO"
    assert policy.meta["imitation"]["decisions"] > 0 and policy.meta["reinforcement_steps_run"] >= 0
    assert policy.meta["arguments"]["out"] == SHIPPED_POLICY.name  # how it was made, never where
    shipped = make_bot("policy:ronda-2p")
    assert isinstance(shipped, PolicyBot) and shipped.players == 2  # its own count only (another is refused)
    unsaid = PolicyBot(_random_policy())  # a policy whose meta names no player count plays any
    for players, bot in ((2, shipped), (3, unsaid), (4, unsaid)):
        rng = random.Random(players)
        game = Game(Rules(players=players), seed=players)
        for _ in range(120):
            if game.phase == OVER:
                break
            legal = game.legal_actions()
            chosen = bot.choose(game.view(game.turn), legal) if game.turn == 0 else rng.choice(legal)
            assert chosen in legal
            game.apply(chosen)


def test_a_wrong_missing_or_foreign_policy_file_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(PolicyError, match="no policy file"):
        load_bot(str(tmp_path / "missing.npz"))
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"not a policy")
    with pytest.raises(PolicyError, match="is not a policy file"):
        Policy.load(garbage)
    policy = _random_policy()
    policy.save(tmp_path / "copy.npz")
    with np.load(tmp_path / "copy.npz") as data:
        arrays = dict(data)
    meta = json.loads(str(arrays["meta"]))
    meta["encoding"] = "0123456789abcdef"
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(tmp_path / "foreign.npz", **arrays)
    with pytest.raises(PolicyError, match="trained on another observation encoding"):
        Policy.load(tmp_path / "foreign.npz")
    with pytest.raises(PolicyError, match="maps 855 observation values to 48 action logits"):
        Policy([(np.zeros((10, 48)), np.zeros(48))], {})


def _random_policy(seed: int = 0) -> Policy:
    rng = np.random.default_rng(seed)
    widths = [855, 32, 48]
    layers = [
        (rng.normal(size=(a, b)).astype(np.float32), rng.normal(size=b).astype(np.float32))
        for a, b in itertools.pairwise(widths)
    ]
    return Policy(layers, {"activation": "relu"})


def test_a_policy_never_chooses_an_illegal_action_even_when_its_best_logit_is_one() -> None:
    """The mask decides: a network whose favourite is 'challenge 3' still plays only legal actions."""
    weights = np.zeros((855, 48), dtype=np.float32)
    bias = np.zeros(48, dtype=np.float32)
    bias[47] = 100.0
    policy = Policy([(weights, bias)], {"activation": "relu"})
    game = Game(Rules(players=2), seed=1)
    legal = game.legal_actions()
    assert PolicyBot(policy).choose(game.view(game.turn), legal) in legal and Challenge(3) not in legal


def test_a_policy_challenges_by_seat_relative_to_it_so_a_seat_0_network_plays_every_seat() -> None:
    """Its favourite 'challenge the next seat' (45 in its frame) challenges seat 0 when it sits at seat 1."""
    from decks import run, start

    bias = np.zeros(48, dtype=np.float32)
    bias[45] = 100.0
    bot = PolicyBot(Policy([(np.zeros((855, 48), dtype=np.float32), bias)], {"activation": "relu"}))
    game = start(Rules(players=2), [{0: "5o 5c 1e", 1: "7o 2c 3e"}], table="2b 4o 10o 11c", dealer=0)
    run(game, "declare ronda; declare ronda")  # seat 1 plays first and may challenge seat 0
    assert game.turn == 1 and bot.choose(game.view(1), game.legal_actions()) == Challenge(0)


def _training_script():  # type: ignore[no-untyped-def]
    require("train")
    spec = importlib.util.spec_from_file_location("train_policy", ROOT / "examples" / "research" / "train_policy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_training_run_s_cpu_minutes_count_its_collecting_workers() -> None:
    """The meta's cpu_minutes said 0.1 for a run whose --workers took 48 s: a finished child's CPU counts now."""
    script = _training_script()
    before = script.cpu_minutes()
    burn = "import time\nend = time.process_time() + 1.5\nwhile time.process_time() < end: pass"
    subprocess.run([sys.executable, "-c", burn], check=True)  # a worker: another process, finished and waited for
    assert script.cpu_minutes() - before >= 1.4 / 60


def test_a_tiny_training_run_imitates_reinforces_and_saves_what_the_torch_model_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both phases in seconds: the teacher's decisions are learned, the saved file plays what torch plays, and
    no SB3-<time> folder is left in the temporary folder (SB3's default logger leaves an empty one at every run)."""
    script = _training_script()
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    args = script.parse(
        [
            *("--steps", "256", "--envs", "2", "--n-steps", "64", "--hidden", "16", "--opponents", "random,easy"),
            *("--teacher", "medium", "--imitation-decisions", "400", "--imitation-epochs", "3", "--workers", "1"),
            *("--eval-every", "128", "--eval-rounds", "3", "--out", str(tmp_path / "tiny.npz")),
        ]
    )
    model, policy, _ = script.train(args)
    policy.save(tmp_path / "tiny.npz")
    assert policy.meta["imitation"]["decisions"] == 400 and policy.meta["imitation"]["teacher"] == "medium"
    assert policy.meta["imitation"]["agreement"] > 0.6  # chance, among the legal actions, is about a third
    assert policy.meta["arguments"]["out"] == "tiny.npz"  # a file name, never where it was written
    assert policy.meta["reinforcement_steps"] in (0, 128, 256) and policy.meta["reinforcement_steps_run"] == 256
    same, total = script.agreement(model, Policy.load(tmp_path / "tiny.npz"), decisions=60, opponent="random")
    assert same == total
    assert not list(temporary.glob("SB3-*"))


def test_a_final_prior_is_the_weight_the_saved_policy_and_the_torch_model_both_play_with(tmp_path: Path) -> None:
    """``--final-prior 5``: the learnt weight is noted, the file plays with 5, and still plays what torch plays."""
    script = _training_script()
    args = script.parse(
        [
            *("--steps", "0", "--hidden", "16", "--teacher", "medium", "--imitation-decisions", "400"),
            *("--imitation-epochs", "2", "--workers", "1", "--eval-rounds", "2", "--final-prior", "5"),
            *("--out", str(tmp_path / "tiny.npz")),
        ]
    )
    model, _, _ = script.train(args)
    saved = Policy.load(tmp_path / "tiny.npz")
    assert saved.meta["prior"] == 5.0 and saved.meta["features"] == "play-v1"
    assert saved.meta["imitation"]["learnt_prior"] != 5.0
    same, total = script.agreement(model, saved, decisions=60, opponent="random")
    assert same == total


def test_dagger_data_are_the_positions_the_behaviour_reaches_labelled_by_the_teacher(tmp_path: Path) -> None:
    """``--dagger-behaviour``: the policy plays the seat, the teacher only says what it would have played there."""
    script = _training_script()
    _random_policy().save(tmp_path / "behaviour.npz")
    behaviour = Policy.load(tmp_path / "behaviour.npz")
    args = script.parse(
        [
            *("--teacher", "medium", "--imitation-chunk", "80", "--dagger-decisions", "120", "--workers", "1"),
            *("--dagger-behaviour", str(tmp_path / "behaviour.npz"), "--dagger-opponents", "easy"),
        ]
    )
    data = script.teacher_decisions(args, dagger=True)
    assert len(data["actions"]) == 120
    # Replayed by hand: the behaviour steps the game, the teacher (seeded as its chunk) labels every decision.
    jobs = script.chunks(args, dagger=True)
    at, disagreements = 0, 0
    for worker, decisions, _, _, seed, _ in jobs:
        teacher = make_bot("medium", seed=seed + worker)
        env = RondaEnv(players=2, seat=0, opponents="easy", reward="round", observation="flat")
        episode, done = 0, True
        for _ in range(decisions):
            if done:
                observation, _ = env.reset(seed=seed * 1_000_003 + worker * 100_003 + episode)
                episode += 1
            assert env.game is not None
            mask = env.action_masks()
            label = action_id(teacher.choose(env.game.view(0), env.game.legal_actions()))
            assert np.array_equal(data["observations"][at], observation) and data["actions"][at] == label
            played = behaviour.act(observation, mask)
            disagreements += played != label
            observation, _, done, _, _ = env.step(played)
            at += 1
    assert disagreements > 20  # the random behaviour went its own way, and the positions followed it


def test_the_teachers_card_values_pick_what_it_plays_and_soften_its_near_ties() -> None:
    """``searched_values``: hard's own choice, with each rank's value; ``--soft-temperature`` shares near-ties."""
    script = _training_script()
    game = Game(Rules(players=2), seed=5)
    medium = make_bot("medium", seed=0)
    while game.phase != PLAY or len(distinct_plays(game.legal_actions())) < 3:
        game.apply(medium.choose(game.view(game.turn), game.legal_actions()))
    view, legal = game.view(game.turn), game.legal_actions()
    teacher, twin = (make_level("hard", {"samples": 4}, 3) for _ in range(2))
    label, values = script.searched_values(teacher, view, legal)
    assert label == twin.choose(view, legal)  # the same search, the same random numbers, the same card
    assert sorted(values) == sorted(action_id(play) for play in distinct_plays(legal))
    assert max(values, key=values.__getitem__) == action_id(label) and all(0 < v < 1.1 for v in values.values())
    nan = float("nan")
    data = {"actions": np.array([0]), "values": np.full((1, 48), nan, dtype=np.float32)}
    data["values"][0, [0, 4, 8]] = [0.500, 0.499, 0.300]
    soft = script.choice_targets(data, 0.01)[0]
    assert 0.45 < soft[4] < soft[0] < 0.55 and soft[8] < 1e-6 and soft.sum() == pytest.approx(1.0)
    assert script.choice_targets(data, 0.0)[0].tolist() == [1.0] + [0.0] * 47  # the choice alone


def test_the_training_scripts_judgement_is_the_policys_on_the_last_deal_too() -> None:
    """The torch prior (``JudgementInLatent``) reads play-v2's endgame worth where the numpy policy does."""
    script = _training_script()
    import torch  # the train extra, there once the script loads

    game = Game(Rules(players=2), seed=2)
    medium = make_bot("medium", seed=2)
    checked = 0
    while game.phase != OVER and game.round == 0:
        observation = observe(game.view(game.turn))
        features = play_features_v2(observation)
        both = torch.from_numpy(np.concatenate([observation, features])[None, :])
        expected = judgement_logits(observation, features)
        assert script.JudgementInLatent.judgement(both)[0].numpy() == pytest.approx(expected, abs=1e-6)
        checked += bool(features[-1])
        game.apply(medium.choose(game.view(game.turn), game.legal_actions()))
    assert checked >= 6  # decisions of the last deal, where the endgame worth decides


def test_ronda_arena_plays_a_policy_entrant_in_this_process_and_in_worker_processes(capsys, tmp_path: Path) -> None:
    _random_policy().save(tmp_path / "mine.npz")
    for jobs in ("1", "2"):
        code = ronda_main(
            ["arena", f"policy:{tmp_path / 'mine.npz'}", "random", "--units", "2", "--rounds", "--jobs", jobs]
        )
        out = capsys.readouterr().out
        assert code == 0 and "policy:" in out and "random" in out
    code = ronda_main(["arena", "policy:no-such-file.npz", "random", "--units", "1"])
    assert code == 2 and "no policy file 'no-such-file.npz'" in capsys.readouterr().err


def test_ronda_arena_finds_the_shipped_policy_by_name_in_a_fresh_process() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ronda", "arena", "policy:ronda-2p", "random", "--units", "1", "--rounds", "--json"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["entrants"][0]["name"] == "policy:ronda-2p"


def test_a_training_run_killed_midway_leaves_its_best_policy_so_far_whole(tmp_path: Path) -> None:
    """A real SIGKILL after the first kept policy: the file loads, says how far it got, and plays legal actions."""
    require("train")
    out = tmp_path / "killed.npz"
    arguments = [
        *("--steps", "10000000", "--envs", "2", "--n-steps", "64", "--hidden", "16", "--opponents", "random"),
        *("--teacher", "medium", "--imitation-decisions", "300", "--imitation-epochs", "2", "--workers", "1"),
        *("--eval-every", "128", "--eval-rounds", "2", "--out", str(out)),
    ]
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "examples" / "research" / "train_policy.py"), *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert process.stdout is not None
    said = []
    for line in process.stdout:  # the run prints a kept policy once it is saved
        said.append(line)
        if "(best so far, kept)" in line:
            break
    process.kill()
    process.wait()
    assert process.returncode != 0, "".join(said)  # killed, not finished
    policy = Policy.load(out)
    assert policy.meta["imitation"]["decisions"] == 300 and policy.meta["arguments"]["out"] == "killed.npz"
    assert policy.meta["reinforcement_steps_run"] < 10_000_000
    bot = PolicyBot(policy)
    game = Game(Rules(players=2), seed=1)
    while game.phase != OVER and game.round == 0:
        legal = game.legal_actions()
        chosen = bot.choose(game.view(0), legal) if game.turn == 0 else legal[0]
        assert chosen in legal
        game.apply(chosen)


def _policy_with_meta(path: Path, meta: str) -> Path:
    """A policy file whose layers are fine and whose ``meta`` string is ``meta``, as another program could write it."""
    policy = _random_policy()
    arrays: dict[str, np.ndarray] = {"meta": np.array(meta)}
    for i, (w, b) in enumerate(policy.layers):
        arrays[f"w{i}"], arrays[f"b{i}"] = w, b
    np.savez(path, **arrays)
    return path


_DEEP = 100_000
_SIGNED = f'"encoding": "{encoding_signature()}"'

BAD_POLICIES = {
    "[ nesting": ("[" * _DEEP + "]" * _DEEP, "a policy's meta nests arrays and objects at most 16 deep"),
    "{ nesting": ('{"a": ' * _DEEP + "0" + "}" * _DEEP, "a policy's meta nests arrays and objects at most 16 deep"),
    "nesting inside the meta": (
        "{" + _SIGNED + ', "trainer": ' + "[" * _DEEP + "]" * _DEEP + "}",
        "a policy's meta nests arrays and objects at most 16 deep",
    ),
    "a huge meta": ("{" + _SIGNED + ', "notes": "' + "x" * 2_000_000 + '"}', "a policy's meta is at most 1000000"),
}


@pytest.mark.parametrize("case", BAD_POLICIES)
def test_a_deep_or_huge_policy_meta_is_refused_with_one_line(tmp_path: Path, case: str) -> None:
    meta, words = BAD_POLICIES[case]
    path = _policy_with_meta(tmp_path / "bad.npz", meta)
    result = _arena_in_a_fresh_process(f"policy:{path}")
    assert result.returncode == 2 and result.stdout == "", result.stderr[-2000:]
    assert result.stderr.count("\n") == 1 and result.stderr.count(str(path)) == 1, result.stderr[-2000:]
    assert result.stderr.startswith(f"ronda arena: {path}: {words}")


def test_a_terabyte_policy_file_is_refused_by_its_size_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.npz"
    with path.open("wb") as file:
        file.truncate(2**40)  # sparse: no room taken on disk
    result = _arena_in_a_fresh_process(f"policy:{path}")
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr[-2000:]
    assert result.stderr == f"ronda arena: {path} is not a policy file: a policy is at most 256 MiB\n"


def _arena_in_a_fresh_process(entrant: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ronda", "arena", entrant, "random", "--units", "1", "--no-progress"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        timeout=120,
    )


def test_a_folder_or_an_empty_file_given_as_a_policy_is_named_once(tmp_path: Path) -> None:
    with pytest.raises(PolicyError) as raised:
        Policy.load(tmp_path)
    assert str(raised.value) == f"{tmp_path}: cannot read it: is a directory"
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    with pytest.raises(PolicyError) as raised:
        Policy.load(empty)
    assert str(raised.value) == f"{empty} is not a policy file (an .npz of a network's layers and its meta)"


@pytest.mark.parametrize("players", [3, 4])
def test_the_two_player_policy_is_refused_at_another_player_count_naming_why(
    players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """An audit: it played 3- and 4-player games without a word and lost every one by challenging true
    declarations (20 challenges, 20 games lost). The arena, evaluate() and the environment refuse it before any
    game, and the bot itself at its first decision."""
    from ronda.adapters.evaluation import evaluate

    words = f"policy:ronda-2p was trained for 2-player games, not {players}"
    bots = ["policy:ronda-2p", "medium"] + (["medium"] if players == 3 else [])
    assert ronda_main(["arena", *bots, "--players", str(players), "--units", "1", "--no-progress"]) == 2
    assert capsys.readouterr().err == f"ronda arena: {words}\n"
    with pytest.raises(PolicyError, match=words):
        evaluate("policy:ronda-2p", "medium", units=1, players=players)
    with pytest.raises(PolicyError, match="Policy was trained for 2-player games"):
        evaluate(Policy.load(SHIPPED / "ronda-2p.npz"), "medium", units=1, players=players)
    with pytest.raises(PolicyError, match=words):
        RondaEnv(players=players, opponents="policy:ronda-2p")
    game = Game(Rules(players=players), seed=1)
    with pytest.raises(PolicyError, match=words):
        load_bot("ronda-2p").choose(game.view(game.turn), game.legal_actions())
    assert evaluate("policy:ronda-2p", "easy", units=1, players=2).rows[0].games == 2  # its own count plays


def test_a_tuple_of_opponents_is_one_opponent_a_seat_as_a_list_is() -> None:
    environment = RondaEnv(players=3, opponents=("easy", "medium"))
    assert environment.opponents == {1: "easy", 2: "medium"}
    environment = RondaEnv(players=2, opponents=("hard", {"samples": 8}))  # a level with its settings stays one
    assert environment.opponents == {1: ("hard", {"samples": 8})}


def test_a_policy_that_chooses_an_illegal_action_is_named_with_its_seat() -> None:
    """An audit: the evaluated policy was called "the opponent policy"."""
    from ronda.adapters.evaluation import evaluate
    from ronda.engine.errors import IllegalActionError

    def always_the_first(observation: np.ndarray, mask: np.ndarray) -> int:
        return 0

    with pytest.raises(IllegalActionError, match=r"the policy at seat \d \(always_the_first\) chose action 0"):
        evaluate(always_the_first, "random", units=1)


def test_the_evaluation_table_says_rounds_when_it_counts_rounds_and_no_interval_from_one_unit() -> None:
    from ronda.adapters.evaluation import evaluate

    one = evaluate("easy", "random", units=1, rounds_only=True)
    assert one.rows[0].margin_interval is None
    table = one.table().splitlines()
    assert table[0].split()[:3] == ["opponent", "rounds", "won/decided"]
    assert table[1].endswith("[no interval]")
    table = evaluate("easy", "random", units=3, seed=2).table().splitlines()
    assert table[0].split()[:3] == ["opponent", "games", "won/decided"]
    assert re.search(r"\[[+-]\d+\.\d\d, [+-]\d+\.\d\d\]$", table[1]), table[1]
