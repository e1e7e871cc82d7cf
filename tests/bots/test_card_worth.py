"""The learned reading of issue 28 (``benchmarks/card_worth.py``): each card choice after the other seat has played,
valued told and as the expert guesses it, replays to the same position, and the network's effect on the card chosen
is judged by the told worths."""

from __future__ import annotations

import gzip
import json
import pickle
import sys
from pathlib import Path

import numpy as np

from benchmark_scripts import ROOT, run_benchmark
from ronda.bots.search import distinct_plays
from ronda.engine.game import OVER, WAITING

sys.path.insert(0, str(ROOT / "benchmarks"))
from card_worth import choice_report, play_round, replayed


def test_every_choice_replays_to_a_seat_that_has_seen_the_other_play_and_both_worths_cover_its_ranks() -> None:
    found = play_round((5, 0, 4))
    assert found[:2] == (5, 0) and found[4]
    seen = 0
    for game, told, honest in replayed(found):
        view = game.view(game.turn)
        assert view.played_this_deal(1 - game.turn)
        ranks = {play.card >> 2 for play in distinct_plays(game.legal_actions())}
        assert set(told) == set(honest) == ranks and len(ranks) > 1
        seen += 1
    assert seen == len(found[4])
    assert game.phase in (OVER, WAITING)  # the recorded actions are the whole round


def test_in_the_last_deal_where_nothing_is_hidden_the_told_and_honest_worths_agree() -> None:
    """Two players, the stock empty: every guess of the expert is the truth, and the last deal is searched exactly."""
    checked = 0
    for unit in range(4):
        for game, told, honest in replayed(play_round((7, unit, 3))):
            if not game.stock:
                assert told == honest
                checked += 1
    assert checked >= 3


def test_the_report_judges_the_card_chosen_by_the_told_worths() -> None:
    told = np.array([[1.0, 3.0, 0.0], [2.0, 0.0, 5.0]], dtype=np.float32)
    honest = np.array([[2.0, 1.0, 0.0], [1.0, 0.0, 2.0]], dtype=np.float32)
    masks = np.array([[1.0, 1.0, 0.0], [1.0, 0.0, 1.0]], dtype=np.float32)
    perfect = told - honest  # a network that knows what the guesses miss picks the told best everywhere
    report = choice_report(told, honest, masks, perfect, residual=True)
    assert report["changed"] == 1  # the second choice was already right
    assert report["regret_honest"][0] == 1.0  # (2 + 0) / 2
    assert report["regret_with_network"][0] == 0.0
    assert report["gain"][0] == 1.0
    blind = choice_report(told, honest, masks, np.zeros_like(told), residual=True)
    assert blind["changed"] == 0 and blind["gain"][0] == 0.0


def test_gen_then_train_writes_a_network_with_its_measure(tmp_path: Path) -> None:
    data = tmp_path / "worths.pkl.gz"
    done = run_benchmark("card_worth", "gen", "--units", "3", "--seed", "9", "--reference", "3", "--out", str(data))
    assert done.returncode == 0, done.stdout + done.stderr
    with gzip.open(data, "rb") as file:
        rounds = pickle.load(file)["rounds"]
    assert len(rounds) == 3
    out = tmp_path / "net.npz"
    done = run_benchmark("card_worth", "train", str(data), "--out", str(out), "--epochs", "2", "--hidden", "8")
    assert done.returncode == 0, done.stdout + done.stderr
    with np.load(out) as net:
        meta = json.loads(str(net["meta"]))
        assert net["w0"].shape == (855, 8) and net["w1"].shape == (8, 10)
    assert meta["kind"] == "card-worth-v1" and meta["target"] == "residual"
    assert meta["choices"] == sum(len(r[4]) for r in rounds)
    assert meta["held_out_choices"]["choices"] == max(1, meta["choices"] // 20)


def test_train_refuses_a_file_gen_did_not_write_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "notes.pkl.gz"
    bad.write_text("not a data file")
    done = run_benchmark("card_worth", "train", str(bad), "--out", str(tmp_path / "net.npz"))
    assert done.returncode == 2
    assert "notes.pkl.gz is not a data file written by `card_worth.py gen`" in done.stderr
    assert not (tmp_path / "net.npz").exists()
