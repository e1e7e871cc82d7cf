"""A trained policy network played with numpy alone: a bot, and the ``policy:PATH`` arena entrant.

A policy file is an ``.npz`` of the network's layers (``w0``, ``b0``, ``w1``,
…, the last one giving the 48 action logits) and a ``meta`` JSON string:
the activation, the encoding it reads (:mod:`ronda.adapters.encoding`,
checked by the pieces' names and sizes, so a file made for another encoding
is refused by name), and how it was made; a file may also ask for the
policy-only play features (``"features": "play-v1"``, or ``"play-v2"``
with the last deal's exact worth of each card, appended to the observation,
:mod:`ronda.adapters.play_features`) and a ``prior`` (its logits add that
weight times the features' judgement of each card: ``medium``'s, and on a
2-player round's last deal with ``play-v2`` the exact one). Playing needs
numpy only, not the training stack (``examples/research/train_policy.py``
makes the files).

The policy plays the legal action with the highest logit (deterministic, so
arena results reproduce). It reads its seat's view only (R11), like every bot,
in its own frame: seats relative to it in the observation, and challenges
too (:func:`~ronda.adapters.encoding.relative_mask`), so a network trained
in seat 0 of ``Ronda-v0``, where the two frames agree, plays every seat.

``ronda arena policy:ronda-2p medium`` plays the policy shipped with the
package (``ronda/adapters/policies/ronda-2p.npz``); ``policy:PATH`` plays any
file. Importing this module registers the ``policy`` family with
:func:`ronda.bots.make_bot`: ``make_bot("policy:ronda-2p")``.

>>> from ronda.engine.game import Game
>>> from ronda.engine.rules import Rules
>>> bot = load_bot("ronda-2p")
>>> game = Game(Rules(players=2), seed=4)
>>> bot.choose(game.view(game.turn), game.legal_actions()) in game.legal_actions()
True
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..bots import Bot, register_family
from ..engine.actions import Action
from ..engine.errors import InputError
from ..engine.jsontext import os_error_words, parse_json
from ..engine.record import write_atomically
from ..engine.view import SeatView
from .encoding import (
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    PIECES,
    absolute_action,
    action_mask,
    id_action,
    observe,
    relative_mask,
)
from .play_features import (
    PLAY_FEATURES,
    PLAY_FEATURES_SIZE,
    PLAY_FEATURES_V2,
    PLAY_FEATURES_V2_SIZE,
    judgement_logits,
    play_features,
    play_features_v2,
)

MAX_POLICY_BYTES = 256 * 2**20
"""The largest policy file read: the shipped one is half a megabyte."""

MAX_META_CHARACTERS = 1_000_000
MAX_META_DEPTH = 16
"""Bounds on a policy's meta, checked before it is parsed (:func:`~ronda.engine.jsontext.parse_json`)."""

SHIPPED = Path(__file__).parent / "policies"
"""Where the package's trained policies lie: ``policy:NAME`` finds ``NAME.npz`` here."""

FEATURES: dict[str, tuple[int, Callable[[np.ndarray], np.ndarray]]] = {
    PLAY_FEATURES: (PLAY_FEATURES_SIZE, play_features),
    PLAY_FEATURES_V2: (PLAY_FEATURES_V2_SIZE, play_features_v2),
}
"""Policy-only inputs a file may ask for (meta ``"features"``), appended to the observation
(:mod:`ronda.adapters.play_features`): the published observation stays as it is."""

ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {"relu": lambda x: np.maximum(x, 0.0), "tanh": np.tanh}


def encoding_signature() -> str:
    """A short hash of the observation's pieces (names, sizes): a policy reads only the encoding it learned on."""
    text = ";".join(f"{name}:{size}" for name, size, _ in PIECES)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class PolicyError(ValueError):
    """A policy file that cannot be played: missing, unreadable, or made for another encoding."""


class Policy:
    """A feed-forward network from an observation to 48 action logits."""

    def __init__(self, layers: Sequence[tuple[np.ndarray, np.ndarray]], meta: dict[str, Any]) -> None:
        activation = meta.get("activation", "relu")
        if activation not in ACTIVATIONS:
            raise PolicyError(f"unknown activation {activation!r} (known: {', '.join(ACTIVATIONS)})")
        features = meta.get("features")
        if features is not None and features not in FEATURES:
            raise PolicyError(f"unknown features {features!r} (known: {', '.join(FEATURES)})")
        extra = 0
        self._features: Callable[[np.ndarray], np.ndarray] | None = None
        if features is not None:
            extra, self._features = FEATURES[features]
        inputs = OBSERVATION_SIZE + extra
        if not layers or layers[0][0].shape[0] != inputs or layers[-1][0].shape[1] != NUM_ACTIONS:
            raise PolicyError(f"a policy maps {inputs} observation values to {NUM_ACTIONS} action logits")
        widths = [layers[0][0].shape[0]]
        for w, b in layers:
            if w.ndim != 2 or w.shape[0] != widths[-1] or b.shape != (w.shape[1],):
                raise PolicyError("the policy's layers do not fit together")
            widths.append(w.shape[1])
        prior = meta.get("prior", 0.0)
        if not isinstance(prior, (int, float)) or isinstance(prior, bool) or (prior and features is None):
            raise PolicyError(f"a policy's prior is a number, over the play features, not {prior!r}")
        self._prior = float(prior)
        self.layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers]
        self.meta = dict(meta)
        self._activation = ACTIVATIONS[activation]
        trained = meta.get("players")
        self.players: int | None = trained if isinstance(trained, int) and not isinstance(trained, bool) else None
        """The player count the policy was trained for (its meta's ``players``); None where the meta does not say."""

    def check_players(self, players: int, name: str = "the policy") -> None:
        """Refuse a game of another player count than the policy was trained for.

        Why: the observation encodes 2, 3 and 4 players alike, so a 2-player network plays a 4-player game without
        a complaint — and loses every one of them by challenging true declarations (an audit: 20 challenges, 20
        games lost), for nothing in its training told it what a challenge costs there.
        """
        if self.players is not None and players != self.players:
            raise PolicyError(
                f"{name} was trained for {self.players}-player games, not {players}: "
                f"train one for {players} players (examples/research/train_policy.py)"
            )

    @classmethod
    def load(cls, path: str | Path) -> Policy:
        """Read a policy file; a :class:`PolicyError` says what is wrong with it."""
        path = Path(path)
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            raise PolicyError(f"no policy file {str(path)!r}") from None
        except OSError as error:
            raise PolicyError(f"{path}: cannot read it: {os_error_words(error)}") from None
        if size > MAX_POLICY_BYTES:
            raise PolicyError(f"{path} is not a policy file: a policy is at most {MAX_POLICY_BYTES // 2**20} MiB")
        try:
            with np.load(path, allow_pickle=False) as data:
                text = str(data["meta"])
                count = sum(1 for key in data.files if key.startswith("w"))
                layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(count)]
        except OSError as error:  # a folder, a file without permission
            raise PolicyError(f"{path}: cannot read it: {os_error_words(error)}") from None
        except (ValueError, EOFError, zipfile.BadZipFile):  # not an .npz at all: empty, text, pickled, broken
            raise PolicyError(f"{path} is not a policy file (an .npz of a network's layers and its meta)") from None
        except KeyError as error:
            raise PolicyError(f"{path} is not a policy file: {error}") from None
        if len(text) > MAX_META_CHARACTERS:
            raise PolicyError(f"{path}: a policy's meta is at most {MAX_META_CHARACTERS} characters")
        try:
            meta = parse_json(text, what="a policy's meta", max_depth=MAX_META_DEPTH)
        except InputError as error:
            raise PolicyError(f"{path}: {error}") from None
        if not isinstance(meta, dict):
            raise PolicyError(f"{path}: a policy's meta is a JSON object, not {type(meta).__name__}")
        if meta.get("encoding") != encoding_signature():
            raise PolicyError(
                f"{path} was trained on another observation encoding ({meta.get('encoding')!r}, "
                f"this ronda reads {encoding_signature()!r}): train it again"
            )
        return cls(layers, meta)

    def save(self, path: str | Path) -> None:
        """Write the policy file (the encoding signature included) at exactly ``path``, whole or not at all.

        A training run saves its best policy so far over the last one: a run
        killed while saving keeps the previous file (:func:`write_atomically`).
        """
        meta = {**self.meta, "encoding": encoding_signature()}
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta))}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        packed = io.BytesIO()
        np.savez_compressed(packed, **arrays)
        write_atomically(path, packed.getvalue())

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """The 48 action logits of one observation.

        A policy that reads the play features gets them appended to its input;
        with a ``prior`` in its meta, its logits also add ``prior`` times each
        card's judgement (:func:`~ronda.adapters.play_features.judgement_logits`,
        ``medium``'s value of the play, from the best play): a fixed skip
        connection, so the layers learn where to play otherwise than
        ``medium`` rather than all of play.
        """
        x: np.ndarray = observation.astype(np.float32, copy=False)
        extra = self._features(observation) if self._features is not None else None
        if extra is not None:
            x = np.concatenate([x, extra])
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < last:
                x = self._activation(x)
        if self._prior and extra is not None:
            x = x + self._prior * judgement_logits(observation, extra)
        return x

    def act(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """The legal action with the highest logit."""
        logits = np.where(mask.astype(bool), self.logits(observation), -np.inf)
        return int(np.argmax(logits))

    __call__ = act
    """A policy is also an opponent function ``policy(observation, mask) -> id`` (:mod:`ronda.adapters.opponents`)."""


class PolicyBot:
    """A :class:`Policy` as a ronda bot: it sees its seat's view only."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name

    @property
    def players(self) -> int | None:
        """The only player count this bot plays (:meth:`Policy.check_players`); None for any."""
        return self.policy.players

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        players = view.rules.players
        self.policy.check_players(players, self.name)
        chosen = self.policy.act(observe(view), relative_mask(action_mask(legal), view.seat, players))
        return id_action(absolute_action(chosen, view.seat, players))


def resolve(path: str) -> Path:
    """A policy's file: ``path`` itself, or the shipped policy of that name (``ronda-2p``)."""
    candidate = Path(path)
    if candidate.suffix != ".npz" and not candidate.exists() and (SHIPPED / f"{path}.npz").exists():
        return SHIPPED / f"{path}.npz"
    return candidate


def load_bot(path: str, seed: int | None = None) -> Bot:
    """The bot of ``policy:PATH``; the seed is unused: the policy is deterministic."""
    return PolicyBot(Policy.load(resolve(path)), name=f"policy:{path}")


register_family("policy", load_bot)
