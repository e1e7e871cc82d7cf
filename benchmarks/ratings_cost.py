"""What rating a game costs the store: the time to store a game's end, rated and not, on SQLite.

    python benchmarks/ratings_cost.py --games 300

A game among people is rated in the transaction that stores its end
(``Store.finish_game``, docs/server.md "Ratings"): that transaction then reads
both players' ratings, works out the new ones (OpenSkill) and writes them with
one row per seat. This times ``finish_game`` alone, in its own transaction, for
a table of two players (rated) and a table of a player and a bot (not rated),
on a fresh SQLite file with ``sync="normal"`` (the disk's sync left out: it
costs every commit the same), the two alternating twice; the median of each.
It happens once a game, on the store's thread, against dozens of decisions.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from ronda.interfaces.web.store import Store, StoredPlayer, StoredSeat, StoredSession, StoredTable

WHEN = "2026-01-01T00:00:00+00:00"


def game_ends(rated: bool, games: int) -> float:
    """The median milliseconds of storing ``games`` game ends at one table (rated: two players; else a bot)."""
    store = Store(f"sqlite:///{tempfile.mkdtemp()}/ratings-cost.sqlite3", sync="normal")
    for i, name in enumerate(("Amina", "Brahim")):
        player = StoredPlayer(f"p{i}", WHEN, name)
        store.write(
            store.add_player,
            player,
            frozenset({name.lower()}),
            StoredSession(f"s{i}", player.id, str(i) * 64, WHEN, WHEN, "", ""),
        )
    other = (
        StoredSeat(1, "human", "Brahim", None, "b" * 64, player_id="p1")
        if rated
        else StoredSeat(1, "bot", "bot", "easy", None)
    )
    seats = [StoredSeat(0, "human", "Amina", None, "a" * 64, player_id="p0"), other]
    store.write(store.add_table, StoredTable("t", WHEN, {"players": 2}, "classic", "playing", seats))
    times = []
    for game in range(games):
        start = time.perf_counter()
        store.write(store.finish_game, "t", game, game % 2, [21, 5] if game % 2 == 0 else [5, 21])
        times.append(time.perf_counter() - start)
    store.close()
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="game ends stored per run (default 300)")
    games = parser.parse_args().games
    for rated in (False, True, False, True):
        print(
            f"{'rated' if rated else 'not rated':>9}: {game_ends(rated, games):.2f} ms per game end (median of {games})"
        )


if __name__ == "__main__":
    main()
