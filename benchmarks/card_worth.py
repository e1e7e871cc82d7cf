"""A seat's worth of each card, learned from the other hand's truth: data and training (issue 28, item 4).

    PYTHONPATH=src python benchmarks/card_worth.py gen --units 4000 --reference 24 --jobs 2 --out worths.pkl.gz
    PYTHONPATH=src python benchmarks/card_worth.py train worths.pkl.gz --out card-worth.npz --epochs 8

Why: the expert's guesses of the other hand are where it loses (``hidden_information.py``: told the other hand
the same search is +2.46 a round over ``hard``, honest +0.38). Its reading of plays is a model of the other seat's
choices, fitted; here the reading is learned instead. At every card choice of ``hard`` against ``hard`` (single
two-player rounds on the arena's decks of ``--seed``, the seeds this file uses are used nowhere else), each card's
worth is estimated *told* — the other hand known, the stock's order guessed, ``--reference`` rollouts a card with
the expert's three-ply rollouts, as ``reading_regret.py`` does — and a network fitted by least squares predicts it
from the seat's view alone (:func:`ronda.adapters.encoding.observe`). The least-squares fit of a told worth from
the view is the worth averaged over the hands the other seat can hold *as often as ``hard`` holds them there*:
what a perfect reading of ``hard`` would give a search, without modelling its choices. What the network sees is
the view (R11): the truth is only ever in its training targets.

``gen`` writes the rounds (deck and actions) and, for each choice, the seat's told and honest worth of each rank
(the honest one on the expert's own guesses: its reading of plays and declarations); ``train`` replays them, encodes
each view and fits the network to the difference (``--target residual``, what the guesses miss) or to the told worth
itself (``--target told``), needing the ``train`` extra for torch, and prints what the network would change on the
held-out choices, judged by their told worths. Measured (docs/bots.md, "A reading learned from the truth"): over
199,248 choices the network finds 0.7% of what the guesses miss, and the cards it changes gain nothing; no bot is
built on it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import pickle
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from reading_regret import RULES, card_choices, worths

from ronda.arena.match import unit_deck
from ronda.cli.progress import progress_bar
from ronda.engine.actions import Action
from ronda.engine.game import Game

Worths = dict[int, float]
Round = tuple[int, int, list[int], list[Action], list[tuple[int, Worths, Worths]]]
"""seed, unit, deck, every action of the round, and for each card choice after the other seat has played a card of
the deal: its step, each rank's told worth and its honest worth (the expert's own guesses)."""


def play_round(args: tuple[int, int, int]) -> Round:
    """One ``hard`` against ``hard`` round on the arena's deck ``unit`` of ``seed``, each card choice made after the
    other seat has played in the deal valued told and honest."""
    seed, unit, reference = args
    actions: list[Action] = []
    choices: list[tuple[int, Worths, Worths]] = []
    for game, after in card_choices(seed, unit, actions):
        if after:
            key = seed * 7919 + unit * 101 + len(actions)
            told = worths(game.copy(), reference, key)
            choices.append((len(actions), told, worths(game.copy(), reference, key, honest=True)))
    return seed, unit, unit_deck(RULES, seed, unit, 0), actions, choices


def gen(args: argparse.Namespace) -> int:
    work = [(args.seed, unit, args.reference) for unit in range(args.start, args.start + args.units)]
    rounds: list[Round] = []
    update, stop = progress_bar("rounds", len(work), "rounds", sys.stderr.isatty())
    began = time.monotonic()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for done, found in enumerate(pool.map(play_round, work, chunksize=4), start=1):
            rounds.append(found)
            update(done)
            if args.seconds and time.monotonic() - began > args.seconds:
                pool.shutdown(cancel_futures=True)
                break
    stop()
    with gzip.open(args.out, "wb") as out:
        pickle.dump({"reference": args.reference, "rounds": rounds}, out)
    choices = sum(len(r[4]) for r in rounds)
    print(f"{len(rounds)} rounds, {choices} card choices, {time.monotonic() - began:.0f} s -> {args.out}")
    return 0


def encode(paths: list[str]) -> tuple[Any, Any, Any, Any]:
    """Each choice's encoded view, its told and honest worth of each rank (0 elsewhere) and which ranks it could
    play."""
    import numpy as np

    from ronda.adapters.encoding import OBSERVATION_SIZE, observe

    rounds: list[Round] = []
    for path in paths:
        with gzip.open(path, "rb") as data:
            rounds.extend(pickle.load(data)["rounds"])
    count = sum(len(r[4]) for r in rounds)
    views = np.zeros((count, OBSERVATION_SIZE), dtype=np.float32)
    told_worths = np.zeros((count, 10), dtype=np.float32)
    honest_worths = np.zeros((count, 10), dtype=np.float32)
    masks = np.zeros((count, 10), dtype=np.float32)
    row = 0
    for found in rounds:
        for game, told, honest in replayed(found):
            observe(game.view(game.turn), views[row])
            for rank, value in told.items():
                told_worths[row, rank] = value
                honest_worths[row, rank] = honest[rank]
                masks[row, rank] = 1.0
            row += 1
    return views, told_worths, honest_worths, masks


def replayed(found: Round) -> Iterator[tuple[Game, Worths, Worths]]:
    """The round replayed from its deck, stopping at each valued choice: the game there (the seat to play is
    :attr:`Game.turn`; the same object, moved on after), its told and its honest worths."""
    _seed, _unit, deck, actions, choices = found
    game = Game(RULES, decks=[deck])
    at = 0
    for step, told, honest in choices:
        while at < step:
            game.apply(actions[at])
            at += 1
        yield game, told, honest
    for action in actions[at:]:
        game.apply(action)


def train(args: argparse.Namespace) -> int:
    import numpy as np
    import torch

    views, told, honest, masks = encode(args.data)
    targets = told - honest if args.target == "residual" else told
    count = len(views)
    torch.manual_seed(args.seed)
    order = np.random.default_rng(args.seed).permutation(count)
    held = order[: max(1, count // 20)]  # a random twentieth of the choices, held out
    fit = order[len(held) :]
    device = "cuda" if torch.cuda.is_available() else "cpu"
    x = torch.from_numpy(views).to(device)
    y = torch.from_numpy(targets).to(device)
    m = torch.from_numpy(masks).to(device)
    sizes = [views.shape[1], *args.hidden, 10]
    layers: list[torch.nn.Module] = []
    for i in range(len(sizes) - 1):
        layers.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*layers).to(device)
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=args.decay)

    def loss_of(rows: Any) -> Any:
        # Only differences between the cards decide: both sides centred over the ranks the seat could play.
        pred, target, mask = net(x[rows]), y[rows], m[rows]
        n = mask.sum(1, keepdim=True)
        pred = (pred - (pred * mask).sum(1, keepdim=True) / n) * mask
        target = (target - (target * mask).sum(1, keepdim=True) / n) * mask
        return ((pred - target) ** 2).sum() / mask.sum()

    held_t = torch.from_numpy(held).to(device)
    with torch.no_grad():
        zero = torch.zeros_like(y[held_t])
        mask_h = m[held_t]
        n_h = mask_h.sum(1, keepdim=True)
        tgt = (y[held_t] - (y[held_t] * mask_h).sum(1, keepdim=True) / n_h) * mask_h
        baseline = float(((zero - tgt) ** 2).sum() / mask_h.sum())
    best = (float("inf"), 0)
    state: dict[str, Any] = {}
    for epoch in range(args.epochs):
        net.train()
        perm = torch.from_numpy(np.random.default_rng(args.seed + epoch).permutation(fit)).to(device)
        for start in range(0, len(perm), args.batch):
            optimiser.zero_grad()
            loss = loss_of(perm[start : start + args.batch])
            loss.backward()
            optimiser.step()
        net.eval()
        with torch.no_grad():
            held_loss = float(loss_of(held_t))
        print(f"epoch {epoch + 1}: held-out error {held_loss:.4f} (predicting no difference: {baseline:.4f})")
        if held_loss < best[0]:
            best = (held_loss, epoch + 1)
            state = {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}
    net.load_state_dict(state)
    with torch.no_grad():
        predicted = net(x[held_t]).cpu().numpy()
    report = choice_report(told[held], honest[held], masks[held], predicted, args.target == "residual")
    print(report)
    arrays: dict[str, Any] = {}
    linear = [i for i, layer in enumerate(layers) if isinstance(layer, torch.nn.Linear)]
    for n, i in enumerate(linear):
        arrays[f"w{n}"] = state[f"{i}.weight"].numpy().T.astype(np.float32)
        arrays[f"b{n}"] = state[f"{i}.bias"].numpy().astype(np.float32)
    meta = {
        "kind": "card-worth-v1",
        "target": args.target,
        "made_by": "PYTHONPATH=src python benchmarks/card_worth.py train " + " ".join(Path(p).name for p in args.data),
        "choices": count,
        "held_out_error": round(best[0], 4),
        "no_difference_error": round(baseline, 4),
        "epoch": best[1],
        "hidden": args.hidden,
        "held_out_choices": report,
    }
    np.savez_compressed(args.out, meta=np.array(json.dumps(meta)), **arrays)
    print(f"best epoch {best[1]}: held-out error {best[0]:.4f} against {baseline:.4f} -> {args.out}")
    return 0


def choice_report(told: Any, honest: Any, masks: Any, predicted: Any, residual: bool) -> dict[str, Any]:
    """On held-out choices, what the network's worths would change in the card chosen, judged by the told worths:
    the card the honest worths pick against the card they pick corrected by the network (``residual``), or against
    the network's own pick; the told worth of each card chosen is an unbiased judge, its noise independent of both."""
    import numpy as np

    from ronda.arena.stats import mean_interval

    low = -1e9 * (1 - masks)
    rows = np.arange(len(told))
    best = (told + low).max(1)
    base = (honest + low).argmax(1)
    other = (honest + predicted + low).argmax(1) if residual else (predicted + low).argmax(1)
    changed = base != other
    gain = told[rows, other] - told[rows, base]
    return {
        "choices": len(told),
        "changed": int(changed.sum()),
        "regret_honest": mean_interval((best - told[rows, base]).astype(float).tolist()),
        "regret_with_network": mean_interval((best - told[rows, other]).astype(float).tolist()),
        "gain": mean_interval(gain.astype(float).tolist()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("gen", help="play hard against hard and value every card choice told")
    g.add_argument("--units", type=int, default=200, help="rounds to play (default 200)")
    g.add_argument("--start", type=int, default=0, help="the first unit (to split the work)")
    g.add_argument("--seed", type=int, default=510000, help="the arena's decks (default 510000, used nowhere else)")
    g.add_argument("--reference", type=int, default=16, help="told rollouts a card (default 16)")
    g.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    g.add_argument("--seconds", type=float, default=0.0, help="stop after this long, keeping the rounds done in order")
    g.add_argument("--out", required=True, help="the data file to write (.pkl.gz)")
    t = sub.add_parser("train", help="fit the network to generated worths (needs the train extra)")
    t.add_argument("data", nargs="+", help="data files written by gen")
    t.add_argument("--out", required=True, help="the network to write (.npz)")
    t.add_argument("--hidden", type=int, nargs="+", default=[256, 128], help="hidden layer sizes (default 256 128)")
    t.add_argument("--epochs", type=int, default=30, help="passes over the data; the best held-out one is kept")
    t.add_argument("--batch", type=int, default=512)
    t.add_argument("--lr", type=float, default=1e-3)
    t.add_argument("--decay", type=float, default=1e-4, help="AdamW weight decay")
    t.add_argument("--seed", type=int, default=0, help="the held-out draw, the order of passes and the start")
    t.add_argument(
        "--target",
        choices=("residual", "told"),
        default="residual",
        help="what to fit: told minus honest worths (default), or the told worths",
    )
    args = parser.parse_args()
    if args.command == "gen":
        if args.units < 1 or args.jobs < 1 or args.reference < 1 or args.start < 0:
            parser.error("--units, --jobs and --reference are whole numbers from 1, --start from 0")
        return gen(args)
    if args.epochs < 1 or args.batch < 1 or min(args.hidden) < 1:
        parser.error("--epochs, --batch and each --hidden size are whole numbers from 1")
    for path in args.data:
        try:
            with gzip.open(path, "rb") as data:
                found = pickle.load(data)  # a file gen wrote: pickle reads only such files, never one from elsewhere
            if not isinstance(found, dict) or not isinstance(found.get("rounds"), list):
                raise ValueError("no rounds in it")
        except (OSError, EOFError, ValueError, pickle.UnpicklingError) as error:
            parser.error(f"{path} is not a data file written by `card_worth.py gen`: {error}")
    return train(args)


if __name__ == "__main__":
    sys.exit(main())
