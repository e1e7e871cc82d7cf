"""Train a 2-player Ronda policy: imitate a search bot, then MaskablePPO; save it for numpy play (``policy:PATH``).

    pip install -e '.[train]'          # torch (a CPU build is enough), stable-baselines3, sb3-contrib
    nice -n 10 python examples/research/train_policy.py --imitation-decisions 80000 --steps 0 \
        --features play-v2 --final-prior 60 --out ronda-2p.npz
    ronda arena policy:ronda-2p.npz medium --units 100

That is the recipe of the shipped ``policy:ronda-2p`` (its ``meta`` holds the
arguments, steps and minutes; docs/research.md, "A baseline to beat", has
its table). It takes about 3 minutes on two free cores, 4.8 CPU-minutes in
all (measured on 28 November 2026; ``cpu_minutes`` in the ``meta`` counts the
collecting workers too). The shipped file itself was made by that command
with ``--imitation-data im80k.npz --workers 1 --final-rounds 0``: it read the
80,000 decisions from a file an earlier run had collected (docs/research.md
says what that means for its times and weights). It runs in two phases, each
printing progress:

1. **Imitation.** ``--teacher`` (default ``hard:16``, the ``hard`` level with
   16 guesses a decision) plays seat 0 of ``Ronda-v0`` against
   ``--opponents`` for ``--imitation-decisions`` decisions, in numbered
   chunks of ``--imitation-chunk`` shared by ``--workers`` processes (kept in
   ``--imitation-data`` if given); the network learns its choices
   (cross-entropy over the legal actions only) and, as the value head, the
   round's result. By default it reads the play features
   (:mod:`ronda.adapters.play_features`) beside the observation, and its
   logits add ``--prior`` times ``medium``'s judgement of each card, a weight
   it learns; ``--final-prior`` sets that weight afterwards. With
   ``--features play-v2`` the features add the last deal's exact worth of
   each card, and on that deal the prior ranks the cards by it.

   *DAgger*, optional: ``--dagger-decisions`` more decisions where a policy
   file (``--dagger-behaviour``) plays the seat against
   ``--dagger-opponents`` and ``--dagger-teacher`` (default ``--teacher``)
   only labels them (kept in ``--dagger-data``), so the network also learns
   on the positions it reaches itself; there the teacher's values of the
   cards (``hard``: the chance to win, per card, from its guesses) are kept
   too, and ``--soft-temperature T`` learns softmax(value / T) over them
   instead of the bare choice.
2. **Reinforcement.** sb3-contrib's MaskablePPO goes on from those weights,
   with a small step size and clip so that it refines the imitation rather
   than forgets it, for the rest of ``--minutes`` (or ``--steps``). Every
   ``--eval-every`` steps the numpy export plays ``--eval-rounds`` fixed
   rounds against ``medium``; the best export so far, the imitation included,
   is the one saved, to ``--out`` as soon as it is found: a run stopped
   (Ctrl-C) or killed keeps the best policy it had, never half a file.

What it trains: one seat of ``Ronda-v0`` (:mod:`ronda.adapters.gymnasium`)
with the flat observation and ``action_masks()``, ``reward="round"`` (a
round's points margin; a game lost inside the round, as by a failed
challenge, R8.8, is the worst return there is), against a mix of opponents
(``--opponents``: one per parallel environment, in turn). The first dealer
is drawn every episode, so the seat plays first and second alike. In seat 0
the observation's seats and the engine's agree, so the teacher's choices are
already in the network's frame, and the network plays any seat afterwards.

Why this recipe. MaskablePPO alone, 2 million steps from scratch (38 min),
learned to beat ``random`` but lost to ``easy`` (58/200 games): Ronda's
rewards come at the end of a round, after some forty decisions, and most of
a round's points turn on a few of them, so policy gradients find the basics
slowly. A search bot's choices are a dense signal instead: every decision is
labelled. ``hard`` is the strongest level fast enough to label hundreds of
thousands of decisions in minutes with a reduced budget. Masking matters in
both phases (48 actions, 1 to 7 legal): the imitation loss and MaskablePPO
both put no probability on illegal actions. sb3-contrib's MaskablePPO is
the maintained, documented implementation of masked PPO; it runs on the
Gymnasium environment as it is (it calls ``action_masks()``). A small
multilayer perceptron exports to plain arrays: the saved ``.npz`` is played
by :class:`ronda.adapters.policy.Policy` with numpy alone, so the arena and
players never need torch.

What it gave. The first shipped file (``--minutes 55``, no features, no
prior): imitation alone reached 87.7% agreement with the teacher and lost
1.20 points a round to ``medium``; PPO brought the best export to -0.46 there
after 2.75 million steps; against ``easy`` it won 140 of 200 games (the
first baseline, PPO alone: 58), against ``medium`` 83 (16), against ``hard``
48. Without the best-export rule the last export was worse than the best
(-0.79 against ``medium``): PPO from a good start drifts as much as it climbs.
The file before (``--features play-v1``, the prior, no PPO) won 162 of 200
against ``easy`` and 97 against ``medium`` (-0.20 a round): ``medium``'s
card play with some of ``hard``'s habits, level with it. DAgger (40,000
decisions of that file against ``medium`` labelled by ``hard:16``, then
40,000 of the next labelled by ``hard:32``, with and without soft targets)
left it level (48.5% to 49.0% of 400 games). The present file (the command
above: ``play-v2``) wins 624 of 1,000 games against ``medium`` on a fresh
seed (62.4% [59.4, 65.3], +0.64 a round): the last deal, searched exactly,
is where ``hard`` gained most over ``medium`` (docs/research.md).

Reproducible: ``--seed`` seeds torch, the environments, the teacher and the
opponents (search bots get a fixed budget); torch runs on one thread. The
wall-clock budget (``--minutes``) is what can make two runs differ: with
``--steps`` alone they do not.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import multiprocessing
import resource
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import Logger
from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

from ronda.adapters.encoding import NUM_ACTIONS, OBSERVATION_SIZE, OFFSETS, action_id
from ronda.adapters.gymnasium import RondaEnv
from ronda.adapters.opponents import make_level
from ronda.adapters.play_features import PLAY_FEATURES, PLAY_FEATURES_SIZE, PLAY_FEATURES_V2_SIZE
from ronda.adapters.policy import FEATURES, Policy
from ronda.bots import Bot
from ronda.bots.declarations import challenge, declaration_models, gamble_targets
from ronda.bots.determinize import Determinizer
from ronda.bots.pimc import PimcBot
from ronda.bots.search import distinct_plays
from ronda.engine.actions import Action
from ronda.engine.game import DECLARE
from ronda.engine.view import SeatView


def level_settings(text: str) -> tuple[str, dict[str, int]]:
    """``medium`` or ``hard:8`` (a search level with that many guesses a decision): the level and its settings."""
    level, _, samples = text.partition(":")
    return level, ({"samples": int(samples)} if samples else {})


def opponent_spec(text: str) -> Any:
    """``medium`` or ``hard:8`` as a Ronda-v0 opponent."""
    level, settings = level_settings(text)
    return (level, settings) if settings else level


class WithPlayFeatures(gymnasium.ObservationWrapper[Any, Any, Any]):
    """The observation with the policy-only play features appended (:mod:`ronda.adapters.play_features`).

    What the network reads in training is what :class:`Policy` gives it at play
    time: the same function of the same observation.
    """

    def __init__(self, env: gymnasium.Env[Any, Any], features: str = PLAY_FEATURES) -> None:
        super().__init__(env)
        size, self.features = FEATURES[features]
        self.observation_space = gymnasium.spaces.Box(
            low=-np.inf, high=np.inf, shape=(OBSERVATION_SIZE + size,), dtype=np.float32
        )

    def observation(self, observation: np.ndarray) -> np.ndarray:
        return np.concatenate([observation, self.features(observation)]).astype(np.float32)


def make_env(opponent: str, reward: str, scale: float, features: str) -> Any:
    def build() -> gymnasium.Env[Any, Any]:
        env: gymnasium.Env[Any, Any] = RondaEnv(
            players=2, seat=0, opponents=opponent_spec(opponent), reward=reward, observation="flat"
        )
        if features in FEATURES:
            env = WithPlayFeatures(env, features)
        return gymnasium.wrappers.TransformReward(env, lambda r: r / scale)

    return build


# ---- phase 1: imitation


Job = tuple[int, int, str, list[str], int, str | None]
"""A collecting job: chunk number, decisions, teacher, opponents, seed, and the behaviour policy's file (or None)."""


def collect(job: Job) -> dict[str, np.ndarray]:
    """One worker's share of the teacher's decisions: observation, mask, choice and the round's result.

    The teacher reads its seat's view only (R11), like every bot; the
    observation is what the network will read at the same moment. With a
    behaviour policy (``--dagger-behaviour``) that policy plays the seat and
    the teacher only labels what it would have played (DAgger): the network
    then learns on the positions it reaches itself, not only on the
    teacher's. Forced decisions (one legal action) are labelled without
    asking the teacher there, which is where the search's time goes.
    """
    worker, decisions, teacher_text, opponents, seed, behaviour_file = job
    teacher = make_level(*level_settings(teacher_text), seed + worker)
    behaviour = Policy.load(behaviour_file) if behaviour_file is not None else None
    observations = np.zeros((decisions, OBSERVATION_SIZE), dtype=np.float32)
    masks = np.zeros((decisions, NUM_ACTIONS), dtype=np.int8)
    actions = np.zeros(decisions, dtype=np.int16)
    results = np.zeros(decisions, dtype=np.float32)
    values = np.full((decisions, NUM_ACTIONS), np.nan, dtype=np.float32)
    envs = [
        RondaEnv(players=2, seat=0, opponents=opponent_spec(opponent), reward="round", observation="flat")
        for opponent in opponents
    ]
    count, episode = 0, 0
    while count < decisions:
        env = envs[episode % len(envs)]
        observation, _ = env.reset(seed=seed * 1_000_003 + worker * 100_003 + episode)
        episode += 1
        first, done, reward = count, False, 0.0
        while not done and count < decisions:
            game = env.game
            assert game is not None
            mask = env.action_masks()
            if behaviour is not None and mask.sum() == 1:
                choice = int(np.argmax(mask))
            elif behaviour is not None:
                label, card_values = searched_values(teacher, game.view(env.seat), game.legal_actions())
                choice = action_id(label)
                for number, value in card_values.items():
                    values[count, number] = value
            else:
                choice = action_id(teacher.choose(game.view(env.seat), game.legal_actions()))
            observations[count], masks[count], actions[count] = observation, mask, choice
            count += 1
            played = behaviour.act(observation, mask) if behaviour is not None else choice
            observation, reward, done, _, _ = env.step(played)
        results[first:count] = reward
    data = {"observations": observations, "masks": masks, "actions": actions, "results": results}
    return {**data, "values": values} if behaviour is not None else data


def searched_values(teacher: Bot, view: SeatView, legal: list[Action]) -> tuple[Action, dict[int, float]]:
    """The teacher's choice and, where it searched among cards, each searched card's value (by action id).

    The steps of :meth:`ronda.bots.search.SearchBot.choose`, in its order (so
    the same random numbers, and the same choice), for ``hard``
    (:class:`~ronda.bots.pimc.PimcBot`): where it picks among two or more
    ranks, the mean over its guesses of each card's value (its chance to win
    the game, plus a little margin: :meth:`~ronda.bots.search.SearchBot.leaf`),
    one card of each rank; otherwise (another teacher, a declaration, a
    challenge) no values, the choice alone. The view is the seat's (R11).
    """
    if not isinstance(teacher, PimcBot) or view.phase == DECLARE or challenge(view, legal) is not None:
        return teacher.choose(view, legal), {}
    sampler = Determinizer(
        view, play_model=teacher.play_model, candidates=teacher.candidates, models=declaration_models(view)
    )
    plays = distinct_plays(legal)
    if (teacher.gamble and gamble_targets(view, legal, sampler)) or len(plays) == 1:
        return teacher.choose(view, legal), {}
    totals = teacher.evaluate(view, plays, sampler)
    exact = view.stock == 0 and sum(view.hand_sizes) <= teacher.exact_plays and len(sampler.unknown_seats()) <= 1
    guesses = 1 if exact else teacher.budget  # PimcBot._evaluate: one guess where nothing is left to guess
    best = max(range(len(plays)), key=lambda i: totals[i])
    return plays[best], {action_id(play): total / guesses for play, total in zip(plays, totals, strict=True)}


DAGGER_CHUNKS = 1000
"""The DAgger chunks are numbered from a multiple of this (1 + the behaviour file's hash, 12 bits): their deals
and the teacher's seeds are not the imitation's, nor another behaviour's."""


def chunks(args: argparse.Namespace, dagger: bool = False) -> list[Job]:
    """The collection's jobs: ``--imitation-chunk`` decisions each (the last one less), numbered for their seeds.

    Numbered chunks rather than one share per worker: the data depend on the
    count alone, not on how many processes collect them. The DAgger jobs
    (``dagger``) are numbered from a multiple of :data:`DAGGER_CHUNKS`: other deals.
    """
    if dagger:
        opponents, total = args.dagger_opponents.split(","), args.dagger_decisions
        first = DAGGER_CHUNKS * (1 + int(file_digest(args.dagger_behaviour)[:3], 16))
        behaviour: str | None = args.dagger_behaviour
        teacher = args.dagger_teacher or args.teacher
    else:
        opponents, total, first, behaviour = args.opponents.split(","), args.imitation_decisions, 0, None
        teacher = args.teacher
    size = args.imitation_chunk
    return [
        (first + i, min(size, total - begin), teacher, opponents, args.seed, behaviour)
        for i, begin in enumerate(range(0, total, size))
    ]


def cpu_minutes() -> float:
    """CPU minutes of this process and of its finished children: the collecting workers (``--workers``) are
    where most of a run's CPU goes, and ``time.process_time`` alone leaves them out."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (time.process_time() + children.ru_utime + children.ru_stime) / 60


def file_digest(path: str) -> str:
    """A short hash of a file's bytes: what a data file's key names a behaviour policy by (never its path)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def teacher_decisions(args: argparse.Namespace, dagger: bool = False) -> dict[str, np.ndarray]:
    """The teacher's labelled decisions: collected in ``--workers`` processes, or read from ``--imitation-data``.

    Labelling is the slow part (minutes of search): ``--imitation-data FILE``
    keeps them, so a second run with the same teacher, opponents, seed and
    count (checked) reuses them instead of searching again. With ``dagger``,
    the decisions of ``--dagger-behaviour`` labelled by the teacher, kept in
    ``--dagger-data``; the key names the behaviour by its bytes' hash.
    """
    key: dict[str, Any] = {"teacher": args.teacher, "seed": args.seed, "chunk": args.imitation_chunk}
    if dagger:
        key.update(
            teacher=args.dagger_teacher or args.teacher,
            opponents=args.dagger_opponents,
            decisions=args.dagger_decisions,
            behaviour=file_digest(args.dagger_behaviour),
        )
        stored_as = args.dagger_data
    else:
        key.update(opponents=args.opponents, decisions=args.imitation_decisions)
        stored_as = args.imitation_data
    cache = Path(stored_as) if stored_as else None
    if cache is not None and cache.exists():
        with np.load(cache, allow_pickle=False) as stored:
            if json.loads(str(stored["key"])) != key:
                raise SystemExit(f"{cache} holds other decisions ({stored['key']}), not {key}")
            return {name: stored[name] for name in stored.files if name != "key"}
    jobs = chunks(args, dagger)
    if args.workers > 1:
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            parts = pool.map(collect, jobs)
    else:
        parts = [collect(job) for job in jobs]
    data = {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}
    if cache is not None:
        stored: dict[str, Any] = {"key": np.array(json.dumps(key)), **data}
        np.savez_compressed(cache, **stored)
    return data


def choice_targets(data: dict[str, np.ndarray], temperature: float) -> np.ndarray:
    """What the network's choice learns, per decision: the teacher's choice (one-hot), or its values softened.

    With ``temperature`` > 0, a decision with the teacher's card values
    (``--dagger-data``, :func:`searched_values`) learns softmax(value /
    ``temperature``) over the searched cards: near-equal cards share the
    target, so the network is not taught a coin toss of the search as a
    certainty, and a card far behind gets almost nothing. Without values, or
    at 0, the teacher's choice.
    """
    targets = np.zeros((len(data["actions"]), NUM_ACTIONS), dtype=np.float32)
    targets[np.arange(len(targets)), data["actions"]] = 1.0
    if temperature <= 0 or "values" not in data:
        return targets
    values = data["values"]
    rows = np.flatnonzero(np.isfinite(values).any(axis=1))
    scaled = np.where(np.isfinite(values[rows]), values[rows], -np.inf) / temperature
    weights = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    targets[rows] = weights / weights.sum(axis=1, keepdims=True)
    return targets


def imitate(model: MaskablePPO, args: argparse.Namespace, scale: float) -> dict[str, Any]:
    """Fit the model's policy to the teacher's choices and its value to the rounds' results."""
    start = time.perf_counter()
    data = teacher_decisions(args)
    if args.dagger_decisions > 0:
        more = teacher_decisions(args, dagger=True)
        data["values"] = np.full((len(data["actions"]), NUM_ACTIONS), np.nan, dtype=np.float32)
        data = {name: np.concatenate([data[name], more[name]]) for name in data}
    collected = time.perf_counter() - start
    print(f"imitation: {len(data['actions'])} decisions of {args.teacher} in {collected / 60:.1f} min", flush=True)
    if args.features in FEATURES:
        compute = FEATURES[args.features][1]
        extra = np.stack([compute(observation) for observation in data["observations"]])
        data["observations"] = np.concatenate([data["observations"], extra], axis=1)

    policy = model.policy
    parameters = [
        *policy.mlp_extractor.parameters(),
        *policy.action_net.parameters(),
        *policy.value_net.parameters(),
    ]
    optimizer = torch.optim.Adam(parameters, lr=args.imitation_learning_rate)
    generator = torch.Generator().manual_seed(args.seed)
    observations = torch.from_numpy(data["observations"])
    masks = torch.from_numpy(data["masks"]).bool()
    actions = torch.from_numpy(data["actions"]).long()
    targets = torch.from_numpy(choice_targets(data, args.soft_temperature))
    results = torch.from_numpy(data["results"]) / scale
    total = len(actions)
    for epoch in range(args.imitation_epochs):
        order = torch.randperm(total, generator=generator)
        agree = 0
        for begin in range(0, total, 1024):
            batch = order[begin : begin + 1024]
            x = observations[batch].float()
            policy_latent, value_latent = policy.mlp_extractor(x)
            logits = policy.action_net(policy_latent).masked_fill(~masks[batch], -1e9)
            values = policy.value_net(value_latent).squeeze(-1)
            chosen = -(targets[batch] * torch.log_softmax(logits, dim=-1)).sum(-1).mean()
            loss = chosen + 0.5 * torch.nn.functional.mse_loss(values, results[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            agree += int((logits.argmax(-1) == actions[batch]).sum())
        print(f"imitation epoch {epoch + 1}: the network picks the teacher's choice {agree / total:.1%}", flush=True)
    return {
        "teacher": args.teacher,
        "decisions": total,
        "minutes": round((time.perf_counter() - start) / 60, 1),
        "agreement": round(agree / total, 3),
    }


# ---- phase 2: reinforcement


class Budget(BaseCallback):  # type: ignore[misc]
    """Stops at the wall-clock deadline; every ``eval_every`` steps keeps the export if it beats the best so far."""

    def __init__(
        self,
        deadline: float,
        eval_every: int,
        eval_rounds: int,
        meta: dict[str, Any],
        on_best: Callable[[Policy, int], None],
    ) -> None:
        super().__init__()
        self.deadline = deadline
        self.eval_every = eval_every
        self.eval_rounds = eval_rounds
        self.meta = meta
        self.on_best = on_best
        self.next_check = eval_every
        self.best: tuple[float, Policy, int] | None = None
        self.best_weights: dict[str, Any] = {}
        self.checked = -1

    def check(self, steps: int) -> None:
        if steps == self.checked:
            return
        self.checked = steps
        policy = export(self.model, self.meta)
        margin = evaluate(policy, "medium", self.eval_rounds, seed=50_000)
        episodes = self.model.ep_info_buffer
        recent = f"{np.mean([e['r'] for e in episodes]):+.3f}" if episodes else "none yet"
        kept = self.best is None or margin > self.best[0]
        if kept:
            self.best = (margin, policy, steps)
            self.best_weights = copy.deepcopy(self.model.policy.state_dict())
            self.on_best(policy, steps)
        print(
            f"{steps} steps: recent training reward {recent}, against medium {margin:+.2f} a round"
            + (" (best so far, kept)" if kept else ""),
            flush=True,
        )

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_check:
            self.next_check += self.eval_every
            self.check(self.num_timesteps)
        return time.perf_counter() < self.deadline


HAND_RANKS = OFFSETS["hand_ranks"]


class JudgementInLatent(torch.nn.Module):
    """The MLP extractor, its actor latent followed by each action's judgement (the play features' value - danger).

    With :class:`PriorHead` it is :class:`Policy`'s ``prior``: the logits are the
    layers' plus ``prior`` times medium's judgement of each card, so imitation
    and PPO start from ``medium``'s card play and learn where to depart from it.
    """

    def __init__(self, extractor: Any) -> None:
        super().__init__()
        self.extractor = extractor
        self.policy_net = extractor.policy_net
        self.value_net = extractor.value_net
        self.latent_dim_pi = extractor.latent_dim_pi + NUM_ACTIONS
        self.latent_dim_vf = extractor.latent_dim_vf

    @staticmethod
    def judgement(features: torch.Tensor) -> torch.Tensor:
        """Torch's :func:`~ronda.adapters.play_features.judgement_logits` of the observation and its features."""
        held = features[:, HAND_RANKS : HAND_RANKS + 10] > 0
        extra = features[:, OBSERVATION_SIZE:]
        judged = extra[:, :10] - extra[:, 10:20]
        if extra.shape[1] == PLAY_FEATURES_V2_SIZE:  # the last deal's exact worth, where it holds
            judged = torch.where(extra[:, -1:] > 0.5, extra[:, PLAY_FEATURES_SIZE : PLAY_FEATURES_SIZE + 10], judged)
        best = judged.masked_fill(~held, -torch.inf).max(dim=1, keepdim=True).values
        cards = torch.where(held, judged - best, torch.zeros_like(judged)).repeat_interleave(4, dim=1)
        return torch.nn.functional.pad(cards, (0, NUM_ACTIONS - 40))

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        return torch.cat([self.extractor.forward_actor(features), self.judgement(features)], dim=1)

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        critic: torch.Tensor = self.extractor.forward_critic(features)
        return critic


class PriorHead(torch.nn.Module):
    """The action head over :class:`JudgementInLatent`: a linear layer of the latent plus ``prior`` x judgement."""

    def __init__(self, linear: Any, prior: float) -> None:
        super().__init__()
        self.linear = linear
        self.prior = torch.nn.Parameter(torch.tensor(float(prior)))

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        width = self.linear.in_features
        logits: torch.Tensor = self.linear(latent[:, :width]) + self.prior * latent[:, width:]
        return logits


def add_prior(model: MaskablePPO, prior: float) -> None:
    """Give the model's actor the judgement skip connection (a learnt ``prior``, from this start)."""
    policy: Any = model.policy
    policy.mlp_extractor = JudgementInLatent(policy.mlp_extractor)
    policy.action_net = PriorHead(policy.action_net, prior)
    policy.optimizer = policy.optimizer_class(policy.parameters(), lr=model.lr_schedule(1), **policy.optimizer_kwargs)


def export(model: MaskablePPO, meta: dict[str, Any]) -> Policy:
    """The actor of a MaskablePPO MLP policy as plain arrays: the policy network, then the action head."""
    linears = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    head = model.policy.action_net
    meta = dict(meta)
    if isinstance(head, PriorHead):
        meta["prior"] = round(float(head.prior.detach()), 4)
        head = head.linear
    linears.append(head)
    layers = [(m.weight.detach().cpu().numpy().T.copy(), m.bias.detach().cpu().numpy().copy()) for m in linears]
    return Policy(layers, meta)


def evaluate(policy: Policy, opponent: str, episodes: int, seed: int) -> float:
    """Mean round margin of the exported numpy policy against ``opponent`` (fixed seeds)."""
    env = RondaEnv(players=2, opponents=opponent_spec(opponent), reward="round", observation="flat")
    total = 0.0
    for episode in range(episodes):
        observation, _ = env.reset(seed=seed + episode)
        done, reward = False, 0.0
        while not done:
            observation, reward, done, _, _ = env.step(policy.act(observation, env.action_masks()))
        total += float(reward)
    return total / episodes


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=10_000_000, help="reinforcement steps, at most")
    parser.add_argument("--minutes", type=float, default=None, help="wall-clock budget of both phases together")
    parser.add_argument(
        "--opponents",
        default="medium,medium,easy,hard:8",
        help="levels (hard:8 = hard with 8 guesses), one per environment, in turn",
    )
    parser.add_argument("--teacher", default="hard:16", help="the level imitated (level or level:guesses)")
    parser.add_argument("--imitation-decisions", type=int, default=300_000, help="teacher decisions (0: no imitation)")
    parser.add_argument("--imitation-chunk", type=int, default=10_000, help="teacher decisions per collecting job")
    parser.add_argument(
        "--imitation-data",
        default=None,
        help="an .npz keeping the teacher's decisions: read if it exists, else written",
    )
    parser.add_argument(
        "--dagger-decisions",
        type=int,
        default=0,
        help="decisions of --dagger-behaviour labelled by the teacher, learnt beside the imitation's (DAgger)",
    )
    parser.add_argument(
        "--dagger-behaviour",
        default=None,
        help="the policy file (.npz) playing the labelled seat",
    )
    parser.add_argument("--dagger-teacher", default=None, help="the level labelling them (default: --teacher)")
    parser.add_argument("--dagger-opponents", default="medium", help="the behaviour's opponents, in turn")
    parser.add_argument("--dagger-data", default=None, help="an .npz keeping the DAgger decisions: read if it exists")
    parser.add_argument(
        "--soft-temperature",
        type=float,
        default=0.0,
        help="learn softmax(value / this) of the DAgger teacher's card values instead of its choice (0: its choice)",
    )
    parser.add_argument(
        "--features",
        default=PLAY_FEATURES,
        choices=[*FEATURES, "none"],
        help="policy-only inputs appended to the observation (ronda.adapters.play_features), or none",
    )
    parser.add_argument(
        "--prior",
        type=float,
        default=20.0,
        help="starting weight of medium's judgement of each card in the logits, learnt from there (0: none)",
    )
    parser.add_argument(
        "--final-prior",
        type=float,
        default=None,
        help="the prior set after imitation (the learnt one is noted), that reinforcement and the saved policy use",
    )
    parser.add_argument("--imitation-epochs", type=int, default=12)
    parser.add_argument("--imitation-learning-rate", type=float, default=1e-3)
    parser.add_argument("--workers", type=int, default=2, help="processes collecting the teacher's decisions")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together")
    parser.add_argument("--reward", default="round", choices=["round", "game", "outcome"])
    parser.add_argument("--hidden", default="128,128", help="widths of the hidden layers")
    parser.add_argument("--n-steps", type=int, default=1024, help="steps per environment between updates")
    parser.add_argument("--learning-rate", type=float, default=5e-5, help="MaskablePPO's step size")
    parser.add_argument("--clip", type=float, default=0.1, help="MaskablePPO's clip range")
    parser.add_argument("--eval-every", type=int, default=250_000, help="steps between checks against medium")
    parser.add_argument("--eval-rounds", type=int, default=400, help="fixed rounds of each check")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="ronda-2p.npz", help="where to save the policy (.npz)")
    parser.add_argument("--final-rounds", type=int, default=400, help="rounds per opponent in the final check")
    return parser.parse_args(argv)


def train(args: argparse.Namespace) -> tuple[MaskablePPO, Policy, float]:
    """Both phases; returns the torch model, the best numpy policy and the minutes spent."""
    start = time.perf_counter()
    deadline = start + 60 * args.minutes if args.minutes is not None else float("inf")
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    opponents = args.opponents.split(",")
    scale = 10.0 if args.reward != "outcome" else 1.0
    env = VecMonitor(
        DummyVecEnv(
            [make_env(opponents[i % len(opponents)], args.reward, scale, args.features) for i in range(args.envs)]
        )
    )
    env.seed(args.seed)
    hidden = [int(width) for width in args.hidden.split(",")]
    model = MaskablePPO(
        "MlpPolicy",
        env,
        learning_rate=args.learning_rate,
        n_steps=args.n_steps,
        batch_size=min(1024, args.n_steps * args.envs),
        n_epochs=4,
        gamma=0.995,
        gae_lambda=0.95,
        clip_range=args.clip,
        ent_coef=0.003,
        policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden}, "activation_fn": torch.nn.ReLU},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    # SB3's default logger makes an empty SB3-<time> folder in the system's temporary folder at every run; this
    # script prints its own progress, so the model logs nowhere.
    model.set_logger(Logger(folder=None, output_formats=[]))
    meta: dict[str, Any] = {
        "activation": "relu",
        "players": 2,
        "made_by": "examples/research/train_policy.py",
        "trainer": "imitation of a ronda bot, then sb3-contrib MaskablePPO",
    }
    if args.features != "none":
        meta["features"] = args.features
    if args.prior:
        if args.features not in FEATURES:
            raise SystemExit(f"--prior needs play features: --features {' or '.join(FEATURES)}")
        add_prior(model, args.prior)
    if args.dagger_decisions > 0 and not args.dagger_behaviour:
        raise SystemExit("--dagger-decisions needs --dagger-behaviour, the policy file that plays")
    imitation = imitate(model, args, scale) if args.imitation_decisions > 0 else None
    if args.prior and args.final_prior is not None:  # from here on the model plays with --final-prior
        if imitation is not None:
            imitation["learnt_prior"] = round(float(model.policy.action_net.prior.detach()), 4)
        with torch.no_grad():
            model.policy.action_net.prior.fill_(args.final_prior)
    arguments = {**vars(args), "out": Path(args.out).name}  # file names, never a machine's paths
    for name in ("imitation_data", "dagger_data", "dagger_behaviour"):
        if arguments[name]:
            arguments[name] = Path(arguments[name]).name
    if args.dagger_behaviour:
        arguments["dagger_behaviour_sha256"] = file_digest(args.dagger_behaviour)

    def save(policy: Policy, steps: int) -> None:
        """The best policy so far, saved as it is found: a run stopped or killed keeps it (whole, or the last)."""
        policy.meta.update(
            arguments=arguments,
            imitation=imitation,
            reinforcement_steps=steps,
            reinforcement_steps_run=model.num_timesteps,
            minutes=round((time.perf_counter() - start) / 60, 1),
            cpu_minutes=round(cpu_minutes(), 1),
        )
        policy.save(args.out)

    budget = Budget(deadline, args.eval_every, args.eval_rounds, meta, save)
    budget.init_callback(model)
    if imitation is not None:
        budget.check(0)  # the imitation alone is a candidate too
    if time.perf_counter() < deadline and args.steps > 0:
        model.learn(total_timesteps=args.steps, callback=budget, progress_bar=False)
        budget.check(model.num_timesteps)
    assert budget.best is not None
    _, policy, steps = budget.best
    model.policy.load_state_dict(budget.best_weights)  # the model plays what the saved policy plays
    save(policy, steps)  # again, with the whole run's steps and minutes
    return model, policy, (time.perf_counter() - start) / 60


def agreement(
    model: MaskablePPO, policy: Policy, decisions: int = 200, seed: int = 0, opponent: str = "medium"
) -> tuple[int, int]:
    """On which of ``decisions`` real decisions the numpy policy picks what the torch model picks (deterministic)."""
    env = RondaEnv(players=2, opponents=opponent_spec(opponent), reward="round", observation="flat")
    observation, _ = env.reset(seed=seed)
    same = 0
    for step in range(decisions):
        mask = env.action_masks()
        assert isinstance(observation, np.ndarray)
        seen = observation
        if policy.meta.get("features") in FEATURES:
            seen = np.concatenate([observation, FEATURES[policy.meta["features"]][1](observation)])
        wanted, _ = model.predict(seen, action_masks=mask, deterministic=True)
        chosen = policy.act(observation, mask)
        same += int(wanted) == chosen
        observation, _, done, _, _ = env.step(chosen)
        if done:
            observation, _ = env.reset(seed=seed + step + 1)
    return same, decisions


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    try:
        _, policy, minutes = train(args)
    except KeyboardInterrupt:
        kept = f"{args.out} holds the best policy so far" if Path(args.out).exists() else "nothing was saved yet"
        raise SystemExit(f"interrupted: {kept}") from None
    print(f"trained in {minutes:.1f} min; saved {args.out} ({Path(args.out).stat().st_size} bytes)")
    for opponent in ("random", "easy", "medium") if args.final_rounds > 0 else ():
        margin = evaluate(Policy.load(args.out), opponent, args.final_rounds, seed=10_000)
        print(f"mean round margin against {opponent} over {args.final_rounds} rounds: {margin:+.2f}")
    print(json.dumps(policy.meta))


if __name__ == "__main__":
    main()
