"""Play now over HTTP (docs/web-protocol.md, "Play now"): strangers seated together, bots after a wait, bad asks."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from web_helpers import Client, server

from ronda.interfaces.web.pairing import STALE, Ask, Game


def play(http: Any, **body: Any) -> Any:
    """Ask to play now; one test client asks for several strangers, so it keeps no name (``"keep": false``)."""
    return http.post("/api/play", json={"keep": False, **body})


def test_three_strangers_are_seated_at_one_table_each_with_a_seat_token_of_their_own(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        amina = play(http, players=3, name="Amina")
        assert amina.status_code == 202 and amina.json()["status"] == "waiting"
        brahim = play(http, players=3, name="Brahim")
        assert brahim.json()["others"] == 1
        other = play(http, players=2, name="Driss")  # another game: not part of this table
        chama = play(http, players=3, name="Chama")
        assert chama.status_code == 200, chama.text
        seated = chama.json()
        assert seated["status"] == "seated" and seated["seat"] == 2
        looks = [http.get(f"/api/play/{r.json()['ticket']}").json() for r in (amina, brahim)]
        assert {look["table_id"] for look in looks} == {seated["table_id"]}
        assert [look["seat"] for look in looks] == [0, 1]
        table = http.get(f"/api/tables/{seated['table_id']}").json()
        assert [s["name"] for s in table["seats"]] == ["Amina", "Brahim", "Chama"]
        assert table["status"] == "playing" and table["public"] is True
        assert http.get(f"/api/play/{other.json()['ticket']}").json()["status"] == "waiting"
        # Each token is that person's seat, as a joiner's is.
        for look, seat in ((looks[0], 0), (looks[1], 1), (seated, 2)):
            client = Client(http, seated["table_id"], look["token"])
            client.hello()
            assert client.seat == seat
            client.close()
        # Asking again with a seated ticket while the game goes on: the same seat, never a second one.
        again = play(http, players=3, name="Amina", ticket=amina.json()["ticket"])
        assert again.json()["table_id"] == seated["table_id"] and again.json()["seat"] == 0
        assert play(http, players=3, name="Amina").json()["others"] == 0  # nobody from that table is left waiting


def test_a_lone_person_gets_bots_of_the_level_chosen_once_the_wait_ends(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        waiting = play(http, players=4, preset="short", name="Amina", bots_after=0.2, level="hard")
        assert waiting.status_code == 202 and waiting.json()["level"] == "hard"
        ticket = waiting.json()["ticket"]
        while (look := http.get(f"/api/play/{ticket}")).status_code == 202:
            pass
        seated = look.json()
        table = http.get(f"/api/tables/{seated['table_id']}").json()
        assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot", "bot"]
        assert {s["level"] for s in table["seats"][1:]} == {"hard"} and table["preset"] == "short"


def test_cancelling_takes_the_request_out_and_cancelling_twice_says_so(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        ticket = play(http, players=2, name="Amina").json()["ticket"]
        assert http.delete(f"/api/play/{ticket}").json()["status"] == "cancelled"
        again = http.delete(f"/api/play/{ticket}")
        assert again.status_code == 404 and again.json()["error"]["code"] == "not_waiting"
        assert play(http, players=2, name="Brahim").status_code == 202  # Amina is not there to pair with


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"players": 5}, "players must be 2, 3 or 4, not 5"),
        ({"preset": "tunisian"}, "unknown preset 'tunisian'"),
        ({"players": 3, "preset": "four-card"}, "3"),
        ({"bots_after": -1}, "bots_after is the seconds to wait before bots fill the seats (0 to 600), not -1"),
        ({"bots_after": 601}, "(0 to 600), not 601"),
        ({"bots_after": "soon"}, "bots_after is the seconds"),
        ({"level": "godlike"}, "unknown bot level 'godlike'"),
        ({"name": "Bot 2"}, "Bot"),
        ({"colour": "red"}, "unknown field 'colour'"),
    ],
)
def test_a_bad_ask_is_refused_naming_the_problem_and_nobody_waits(
    tmp_path: Path, body: dict[str, Any], words: str
) -> None:
    with server(tmp_path) as http:
        answer = play(http, **body)
        assert answer.status_code in (400, 409), answer.text
        assert words in answer.json()["error"]["message"]
        assert (
            play(http, players=body.get("players", 2) if body.get("players") in (2, 3, 4) else 2).json()["others"] == 0
        )


def test_a_flood_of_asks_is_rate_limited_like_creating_tables(tmp_path: Path) -> None:
    with server(tmp_path, create_rate=5) as http:
        answers = [play(http, players=4, name=f"P{i}").status_code for i in range(8)]
        assert answers[:5] == [202, 202, 202, 200, 202] and answers[5:] == [429, 429, 429]
        refused = play(http, players=2)
        assert refused.json()["error"]["code"] == "rate_limited" and int(refused.headers["retry-after"]) >= 1


def test_one_address_may_keep_only_eight_requests_waiting(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        games = [(n, p) for n in (3, 4) for p in ("classic", "advanced", "cards", "short", "heavy")]
        answers = [play(http, players=n, preset=p) for n, p in games[:9]]
        assert [a.status_code for a in answers] == [202] * 8 + [429]
        assert answers[8].json()["error"]["code"] == "too_many_waiting"
        http.delete(f"/api/play/{answers[0].json()['ticket']}")
        assert play(http, players=4, preset="short").status_code == 202  # cancelling one makes room


def test_strangers_of_the_same_name_are_told_apart_by_their_seat(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        first = play(http, name="Amina").json()
        seated = play(http, name="Amina").json()
        table = http.get(f"/api/tables/{seated['table_id']}").json()
        assert [s["name"] for s in table["seats"]] == ["Amina", "Amina 2"]
        assert http.get(f"/api/play/{first['ticket']}").json()["seat"] == 0
        assert http.delete(f"/api/play/{first['ticket']}").json()["error"]["code"] == "already_seated"


def test_a_name_play_now_makes_is_read_for_rude_words_as_a_typed_one(tmp_path: Path) -> None:
    """A second "Amina" sits as "Amina 2": a name nobody typed, which the server's list may refuse (an audit: the
    shipped list refused a typed "Nigg 2", Arabizi for "nigga", and play now made it). Made names are checked too,
    and one refused gives way to "Guest N"."""
    words = tmp_path / "words.txt"
    words.write_text("amina 2\n", encoding="utf-8")
    with server(tmp_path, rude_words=words) as http:
        assert http.post("/api/me", json={"name": "Amina 2"}).json()["error"]["reason"] == "name_rude"
        play(http, name="Amina")
        seated = play(http, name="Amina").json()
        table = http.get(f"/api/tables/{seated['table_id']}").json()
        assert [s["name"] for s in table["seats"]] == ["Amina", "Guest 2"]


def test_the_names_the_server_gives_pass_its_own_check_of_rude_words() -> None:
    """Play now's "Guest N" and "NAME N", and the pages' labels of bots, are names a person may type too: "Nigg 2"
    was refused typed (the whole name run together, 2 read as a) and made by play now; its digit is now read as an
    initial, as "Chin K"'s letter is."""
    from ronda.bots import levels
    from ronda.interfaces.web.rude import RudeWords

    words = RudeWords.load()
    made = [f"Guest {n}" for n in range(1, 5)] + [f"Bot {n}" for n in range(1, 5)] + [*levels()]
    made += [f"Nigg {n}" for n in range(2, 5)] + [f"Shi {n}" for n in range(2, 5)]
    assert [name for name in made if words.holds(name)] == []


def test_once_the_game_is_over_the_same_ticket_asks_afresh(tmp_path: Path) -> None:
    """Never seated twice while a game goes on; after it (here: closed, nobody came), asking again is a new request."""
    with server(tmp_path, close_after=0.1) as http:
        ticket = play(http, players=2, name="Amina", bots_after=0).json()["ticket"]
        seated = http.get(f"/api/play/{ticket}").json()
        assert play(http, players=2, ticket=ticket).json()["table_id"] == seated["table_id"]  # going: same seat
        deadline = time.monotonic() + 10
        while http.get(f"/api/tables/{seated['table_id']}").json()["status"] != "closed":
            assert time.monotonic() < deadline, "the table nobody came to was never closed"
            time.sleep(0.05)
        again = play(http, players=2, ticket=ticket)
        assert again.status_code == 202 and again.json()["ticket"] != ticket


def test_people_who_give_no_name_are_seated_as_guests(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        answers = [play(http, players=4) for _ in range(4)]
        assert [a.status_code for a in answers] == [202, 202, 202, 200], answers[-1].text
        table = http.get(f"/api/tables/{answers[-1].json()['table_id']}").json()
        assert [s["name"] for s in table["seats"]] == ["Guest 1", "Guest 2", "Guest 3", "Guest 4"]


def test_one_browser_asking_twice_waits_once_and_is_never_seated_against_itself(tmp_path: Path) -> None:
    """The audit's two tabs: one cookie (a kept name), two asks without a ticket. It was seated as "Solo", "Solo 2"."""
    with server(tmp_path) as http:
        first = http.post("/api/play", json={"players": 2, "name": "Solo"})
        assert first.status_code == 202 and "ronda_player" in http.cookies
        second = http.post("/api/play", json={"players": 2, "name": "Solo"})  # the other tab: the same cookie
        assert second.status_code == 202, second.text
        assert second.json()["status"] == "waiting" and second.json()["others"] == 0
        gone = http.get(f"/api/play/{first.json()['ticket']}")  # the first tab's request was replaced
        # Told apart from a lost request, which a page asks again for: a page on another device asking again
        # would replace the newer request in turn, and the two pages looped (a second audit).
        assert gone.status_code == 409 and gone.json()["error"]["code"] == "replaced"
        assert "another page or device" in gone.json()["error"]["message"]
        http.cookies.clear()  # a stranger, in another browser
        brahim = play(http, players=2, name="Brahim")
        assert brahim.status_code == 200, brahim.text
        table = http.get(f"/api/tables/{brahim.json()['table_id']}").json()
        assert [s["name"] for s in table["seats"]] == ["Solo", "Brahim"]


def test_asks_nobody_looks_at_again_are_dropped_and_never_seat_a_real_person_with_ghosts(tmp_path: Path) -> None:
    """The audit's ghosts: two asks never looked at again, then a real person asking for the same game."""
    with server(tmp_path) as http:
        pairing = http.app.state.site.pairing
        pairing.stale = 0.5  # STALE is 10 s: a test does not wait that long
        ghosts = [play(http, players=3, preset="heavy", name=f"GhostG{n}").json()["ticket"] for n in (1, 2)]
        time.sleep(0.6)
        amina = play(http, players=3, preset="heavy", name="Amina")
        assert amina.status_code == 202 and amina.json()["others"] == 0  # waits: not seated with the ghosts
        pairing.stale = STALE  # from here on, no slow step of the test's own drops Amina
        gone = http.get(f"/api/play/{ghosts[0]}")
        assert gone.status_code == 404 and gone.json()["error"]["code"] == "not_waiting"
        assert "without a look" in gone.json()["error"]["message"] and "ask again" in gone.json()["error"]["message"]
        # A page that comes back asks again (with its old ticket, as the page keeps it): a new request, waiting.
        again = play(http, players=3, preset="heavy", name="GhostG1", ticket=ghosts[0])
        assert again.status_code == 202 and again.json()["ticket"] != ghosts[0] and again.json()["others"] == 1


def test_one_address_pairing_its_own_asks_fills_only_its_own_share_of_the_server(tmp_path: Path) -> None:
    """A second audit filled the server from one address: two nameless asks of its own were seated together at a
    people-only table that counted against nobody's --tables-per-client. A play-now table counts against its first
    person's address."""
    with server(tmp_path, tables_per_client=2) as http:
        for _ in range(2):
            assert [play(http, players=2).status_code for _ in range(2)] == [202, 200]
        assert play(http, players=2).status_code == 202  # the next pair cannot be seated from this address
        refused = play(http, players=2)
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_tables", refused.text


def test_a_ticket_matched_between_the_looks_at_its_seat_and_its_wait_is_told_it_is_being_seated(
    tmp_path: Path,
) -> None:
    """A cluster audit: another process's match took a ticket out of the queue and gave it its seat between this
    process's read of the seat (none yet) and its read of the queue (gone): the person, already seated, was told
    404 ``not_waiting``, asked again, and left their seat to a stand-in bot. Here the other process is played by a
    match made at that very moment: the look says "seating" (202), as any look at a ticket being seated does."""
    with server(tmp_path) as http:
        amina = play(http, players=2, name="Amina").json()["ticket"]
        pairing = http.app.state.site.pairing  # type: ignore[attr-defined]
        looked = pairing.waiting

        async def matched_meanwhile(ticket: str) -> Any:
            if ticket == amina:
                pairing.waiting = looked  # once
                match = await pairing.ask(Ask("another-ticket", Game(2, "classic"), "Brahim", "10.9.9.9"))
                assert match is not None and {a.ticket for a in match.people} == {amina, "another-ticket"}
            return await looked(ticket)

        pairing.waiting = matched_meanwhile
        look = http.get(f"/api/play/{amina}")
        assert look.status_code == 202 and look.json()["status"] == "seating", look.text
