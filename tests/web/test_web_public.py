"""A server people can put on the internet: limits, hygiene, same-origin only, private tables, invites that work.

Every refusal here is checked as a player (or an attacker) meets it: a clear
error naming the problem, and nothing changed — no table made, no seat taken,
no connection welcomed.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect
from web_helpers import TEST_HOSTS, Client, new_table, play_out, random_chooser, server

from ronda.interfaces.web.app import create_app

JSON = {"Content-Type": "application/json"}
ME = [{"kind": "human", "name": "Amina"}, {"kind": "bot", "level": "random"}]
FRIEND = [{"kind": "human", "name": "Amina"}, {"kind": "human"}]


def error_of(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"]["code"] == code, body
    return str(body["error"]["message"])


def live_tables(http: Any) -> int:
    return len(http.app.state.lobby.tables)


# --------------------------------------------------------------------- limits


def test_creating_tables_is_rate_limited_per_client(tmp_path: Path) -> None:
    with server(tmp_path, create_rate=3) as http:
        for _ in range(3):
            new_table(http, 2, ME)
        refused = http.post("/api/tables", json={"players": 2, "seats": ME, "keep": False})
        assert "too fast" in error_of(refused, 429, "rate_limited")
        assert int(refused.headers["retry-after"]) >= 1
        assert live_tables(http) == 3
        # Another client is not held back by the first.
        other = http.post(
            "/api/tables", json={"players": 2, "seats": ME, "keep": False}, headers={"X-Forwarded-For": "10.0.0.9"}
        )
        assert other.status_code == 429  # the header is not trusted without --forwarded
    with server(tmp_path, create_rate=1, forwarded=True) as http:
        new_table(http, 2, ME)
        away = http.post(
            "/api/tables", json={"players": 2, "seats": ME, "keep": False}, headers={"X-Forwarded-For": "10.0.0.9"}
        )
        assert away.status_code == 201  # behind a trusted proxy, clients are told apart by the forwarded address


def test_joining_is_rate_limited_per_client(tmp_path: Path) -> None:
    with server(tmp_path, join_rate=2) as http:
        table_id = new_table(http, 3, [*FRIEND, {"kind": "human"}])["table_id"]
        for name in ("X1", "X2"):
            error_of(
                http.post(f"/api/tables/{table_id}/join", json={"name": name, "seat": 9, "keep": False}),
                400,
                "bad_request",
            )
        refused = http.post(f"/api/tables/{table_id}/join", json={"name": "Omar", "keep": False})
        error_of(refused, 429, "rate_limited")
        assert not any(s["taken"] for s in http.get(f"/api/tables/{table_id}").json()["seats"][1:])


def test_caps_on_tables_per_client_and_in_total(tmp_path: Path) -> None:
    with server(tmp_path, tables_per_client=2, max_tables=3) as http:
        new_table(http, 2, ME)
        new_table(http, 2, ME)
        message = error_of(
            http.post("/api/tables", json={"players": 2, "seats": ME, "keep": False}), 429, "too_many_tables"
        )
        assert "2 tables" in message
        far = {"X-Forwarded-For": "10.1.1.1"}
        assert live_tables(http) == 2
    with server(tmp_path, tables_per_client=5, max_tables=2, forwarded=True) as http:
        new_table(http, 2, ME)
        new_table(http, 2, ME)
        full = http.post("/api/tables", json={"players": 2, "seats": ME, "keep": False}, headers=far)
        assert "try again later" in error_of(full, 503, "server_full")


def test_a_table_whose_people_never_came_is_closed(tmp_path: Path) -> None:
    with server(tmp_path, close_after=0.5) as http:
        lonely = new_table(http, 2, FRIEND)  # the creator never connects, the friend never comes
        visited = new_table(http, 2, ME)
        me = Client(http, visited["table_id"], visited["token"])
        me.hello()
        deadline = time.monotonic() + 10
        while http.get(f"/api/tables/{lonely['table_id']}").json()["status"] != "closed":
            assert time.monotonic() < deadline, "the table was never closed"
            time.sleep(0.05)
        assert lonely["table_id"] not in http.app.state.lobby.tables  # out of memory
        join = http.post(f"/api/tables/{lonely['table_id']}/join", json={"name": "Youssef", "keep": False})
        assert "closed" in error_of(join, 410, "closed")
        late = Client(http, lonely["table_id"], lonely["token"])
        assert late.recv()["code"] == "closed" and late.recv()["type"] == "closed"
        assert http.get(f"/api/tables/{visited['table_id']}").json()["status"] == "playing"  # someone is there
        me.close()


def test_finished_tables_leave_memory_and_stay_listed_and_replayable(tmp_path: Path) -> None:
    with server(tmp_path, linger=0.1) as http:
        created = new_table(http, 2, ME, target=3, public=True)
        me = Client(http, created["table_id"], created["token"])
        me.hello()
        play_out([me], random_chooser(random.Random(1)))
        final = me.view
        me.close()
        slow = Client(http, created["table_id"], created["token"])  # connected, but says hello only later
        deadline = time.monotonic() + 10
        while created["table_id"] in http.app.state.lobby.tables:
            assert time.monotonic() < deadline, "the finished table stayed in memory"
            time.sleep(0.05)
        (listed,) = http.get("/api/tables").json()["tables"]
        assert listed["status"] == "finished" and listed["scores"] == final["scores"]
        replayed = http.get(f"/api/tables/{created['table_id']}/replay").json()
        assert replayed["steps"][-1]["state"]["scores"] == final["scores"]
        again = Client(http, created["table_id"], created["token"])  # opened again: rebuilt from the store
        assert again.hello()["view"] == final
        assert slow.hello()["view"] == final  # its table left memory meanwhile: it gets the rebuilt one
        again.send({"type": "rematch"})
        assert slow.expect("state")["table"]["game"] == 1  # and both are at the same, live table


def test_deep_or_huge_input_is_a_clear_error_never_a_crash(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with server(tmp_path) as http:
        created = new_table(http, 2, FRIEND)
        me = Client(http, created["table_id"], created["token"])
        before = me.hello()
        me.send_text("[" * 990 + "]" * 990)  # under 4 KB, but deeper than any message
        error = me.expect("error")
        assert error["code"] == "bad_message" and "deep" in error["message"]
        me.send_text('{"type": "act", "action": ' + "{" * 8 + "}" * 8 + "}")
        assert me.expect("error")["code"] == "bad_message"
        assert me.hello(since=before["version"])["events"] == []  # the connection is kept, nothing changed
        deep = b"[" * 8000 + b"]" * 8000
        message = error_of(http.post("/api/tables", content=deep, headers=JSON), 400, "bad_json")
        assert "deep" in message
        error_of(http.post(f"/api/tables/{created['table_id']}/join", content=deep, headers=JSON), 400, "bad_json")
        curly = b'{"players": ' + b'{"a": ' * 2000 + b"2" + b"}" * 2001  # objects nested inside a field, under 16 KB
        assert "deep" in error_of(http.post("/api/tables", content=curly, headers=JSON), 400, "bad_json")

        def chunks() -> Any:
            yield b'{"players": 2, "pad": "'
            for _ in range(100):
                yield b"x" * 1024
            yield b'"}'

        error_of(http.post("/api/tables", content=chunks(), headers=JSON), 413, "too_large")
        error_of(http.post("/api/tables", content=b"\xff\xfe{}", headers=JSON), 400, "bad_json")
        assert live_tables(http) == 1
    assert "Traceback" not in caplog.text and "RecursionError" not in caplog.text


def test_head_is_served(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        created = new_table(http, 2, ME)
        for path in ("/", f"/t/{created['table_id']}", "/api/meta", f"/api/tables/{created['table_id']}"):
            answer = http.head(path)
            assert answer.status_code == 200 and answer.content == b"", path


# ---------------------------------------------------------------- same origin


def test_another_sites_page_can_neither_create_nor_join_nor_connect(tmp_path: Path) -> None:
    evil = {"Origin": "http://evil.example"}
    with server(tmp_path) as http:
        refused = http.post("/api/tables", json={"players": 2, "seats": ME, "keep": False}, headers=evil)
        assert "another site" in error_of(refused, 403, "bad_origin")
        plain = http.post(
            "/api/tables", content=b'{"players": 2}', headers={"Content-Type": "text/plain", **evil}
        )  # the form-post trick: no preflight for text/plain
        assert plain.status_code == 403
        same_site_plain = http.post("/api/tables", content=b'{"players": 2}', headers={"Content-Type": "text/plain"})
        assert "application/json" in error_of(same_site_plain, 415, "bad_content_type")
        assert live_tables(http) == 0
        created = new_table(http, 2, FRIEND)
        table_id = created["table_id"]
        taken = http.post(f"/api/tables/{table_id}/join", json={"name": "Mallory", "keep": False}, headers=evil)
        error_of(taken, 403, "bad_origin")
        assert http.get(f"/api/tables/{table_id}").json()["seats"][1]["taken"] is False  # the invite still works
        with (
            pytest.raises(WebSocketDisconnect) as refused_socket,
            http.websocket_connect(f"/ws/{table_id}", headers=evil) as ws,
        ):
            ws.send_json({"type": "hello", "token": created["token"], "since": None})
            ws.receive_json()
        assert refused_socket.value.code == 4403
        # The server's own page is welcome, with or without a port in its origin.
        own = http.post(
            "/api/tables", json={"players": 2, "seats": ME, "keep": False}, headers={"Origin": "http://testserver"}
        )
        assert own.status_code == 201
        with http.websocket_connect(f"/ws/{table_id}", headers={"Origin": "http://testserver"}) as ws:
            ws.send_json({"type": "hello", "token": created["token"], "since": None})
            assert ws.receive_json()["type"] == "welcome"


def test_an_allowed_origin_and_the_public_url_are_the_servers_own(tmp_path: Path) -> None:
    with server(tmp_path, allow_origins=("https://proxy.example",), public_url="https://ronda.example") as http:
        for origin in ("https://proxy.example", "https://ronda.example"):
            answer = http.post(
                "/api/tables", json={"players": 2, "seats": ME, "keep": False}, headers={"Origin": origin}
            )
            assert answer.status_code == 201, origin
        error_of(http.post("/api/tables", json={}, headers={"Origin": "https://ronda.example.evil"}), 403, "bad_origin")
        # With a public URL, the Host a page was opened with is no proof of anything: a rebinding page's own.
        rebound = {"Origin": "http://evil.example:8000", "Host": "evil.example:8000"}
        assert "another site" in error_of(http.post("/api/tables", json={}, headers=rebound), 403, "bad_origin")
        error_of(http.post("/api/tables", json={}, headers={"Origin": "http://testserver"}), 403, "bad_origin")
        assert live_tables(http) == 2


def refused_socket(http: Any, table_id: str, headers: dict[str, str]) -> int:
    """The close code of a websocket opened with ``headers`` (4403: another origin's), never a welcome."""
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        http.websocket_connect(f"/ws/{table_id}", headers=headers) as ws,
    ):
        ws.send_json({"type": "hello", "token": None, "since": None})
        ws.receive_json()
    return int(refused.value.code)


def test_a_rebinding_page_cannot_play_on_a_server_listening_on_this_computer(tmp_path: Path) -> None:
    """DNS rebinding: evil.example made to resolve to 127.0.0.1 sends Origin and Host alike, evil.example:8000.

    A server listening on loopback only is reached by a loopback name alone: such a page is another site's."""
    body = {"players": 2, "seats": FRIEND, "keep": False}
    with server(tmp_path, listen_host="127.0.0.1") as http:
        created = new_table(http, 2, FRIEND)
        table_id = created["table_id"]
        for name in ("evil.example:8000", "192.168.1.20:8000", "127.0.0.1.evil.example:8000"):
            rebound = {"Origin": f"http://{name}", "Host": name}
            assert "another site" in error_of(http.post("/api/tables", json=body, headers=rebound), 403, "bad_origin")
            join = http.post(f"/api/tables/{table_id}/join", json={"name": "Mallory", "keep": False}, headers=rebound)
            error_of(join, 403, "bad_origin")
            assert refused_socket(http, table_id, rebound) == 4403
        assert live_tables(http) == 1
        assert http.get(f"/api/tables/{table_id}").json()["seats"][1]["taken"] is False
        for name in ("localhost:8000", "127.0.0.1:8000", "127.0.0.2:8000", "[::1]:8000"):
            own = http.post("/api/tables", json=body, headers={"Origin": f"http://{name}", "Host": name})
            assert own.status_code == 201, name
        own_page = {"Origin": "http://localhost:8000", "Host": "localhost:8000"}
        with http.websocket_connect(f"/ws/{table_id}", headers=own_page) as ws:
            ws.send_json({"type": "hello", "token": created["token"], "since": None})
            assert ws.receive_json()["type"] == "welcome"


def test_a_server_on_the_network_or_behind_a_proxy_keeps_its_own_pages(tmp_path: Path) -> None:
    body = {"players": 2, "seats": FRIEND, "keep": False}
    lan = (*TEST_HOSTS, "ronda.lan")  # --allowed-host ronda.lan: the machine's name is the operator's to give
    with server(tmp_path, listen_host="0.0.0.0", allowed_hosts=lan) as http:  # friends open it by name or address
        for name in ("ronda.lan:8000", "192.168.1.20:8000"):
            own = http.post("/api/tables", json=body, headers={"Origin": f"http://{name}", "Host": name})
            assert own.status_code == 201, name
    proxy = (*TEST_HOSTS, "ronda.example")
    with server(tmp_path, listen_host="127.0.0.1", forwarded=True, allowed_hosts=proxy) as http:  # a proxy here
        proxied = {"Origin": "https://ronda.example", "X-Forwarded-Host": "ronda.example", "X-Forwarded-Proto": "https"}
        assert http.post("/api/tables", json=body, headers={**proxied, "Host": "127.0.0.1:8000"}).status_code == 201
        error_of(http.post("/api/tables", json=body, headers={"Origin": "https://evil.example"}), 403, "bad_origin")


def test_a_server_on_the_network_answers_no_name_it_was_not_given_so_a_rebound_page_cannot_play(
    tmp_path: Path,
) -> None:
    """DNS rebinding against ``--host 0.0.0.0`` without ``--public-url``: evil.example rebound to this computer sends
    ``Origin`` and ``Host`` both evil.example, and the ``Host`` was the server's own origin. A name is answered only
    when it is loopback, an IP address or an ``--allowed-host``; the refusal names the host and the option."""
    body = {"players": 2, "seats": FRIEND, "keep": False}
    rebound = {"Origin": "http://evil.example:8000", "Host": "evil.example:8000"}
    with server(tmp_path, listen_host="0.0.0.0", allowed_hosts=(*TEST_HOSTS, "ronda.lan")) as http:
        table_id = new_table(http, 2, FRIEND)["table_id"]
        refused = http.post("/api/tables", json=body, headers=rebound)
        message = error_of(refused, 421, "bad_host")
        assert "'evil.example'" in message and "--allowed-host evil.example" in message
        assert refused.json()["error"]["host"] == "evil.example"
        error_of(http.post(f"/api/tables/{table_id}/join", json={"name": "Mallory"}, headers=rebound), 421, "bad_host")
        with (
            pytest.raises(WebSocketDenialResponse) as socket_refused,
            http.websocket_connect(f"/ws/{table_id}", headers=rebound),
        ):
            pass
        assert socket_refused.value.status_code == 421 and "--allowed-host evil.example" in socket_refused.value.text
        page = http.get("/", headers={"Host": "evil.example:8000"})  # the page itself: a sentence for the person
        assert page.status_code == 421 and page.headers["content-type"].startswith("text/plain")
        assert "--allowed-host evil.example" in page.text
        assert http.get("/healthz", headers={"Host": "ronda-2:8000"}).status_code == 200  # a load balancer's check
        assert live_tables(http) == 1
        for name in ("ronda.lan:8000", "RONDA.LAN.:8000", "192.168.1.20:8000", "[fe80::1]:8000", "localhost:8000"):
            own = http.post("/api/tables", json=body, headers={"Origin": f"http://{name.lower()}", "Host": name})
            assert own.status_code == 201, name
    with server(tmp_path, listen_host="127.0.0.1", forwarded=True) as http:  # a proxy passing on any name
        proxied = {"Origin": "https://evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https"}
        answer = http.post("/api/tables", json=body, headers={**proxied, "Host": "127.0.0.1:8000"})
        assert "--allowed-host evil.example" in error_of(answer, 421, "bad_host")
    with server(tmp_path, public_url="https://ronda.example", allowed_hosts=()) as http:
        assert http.get("/api/meta", headers={"Host": "ronda-3:8000"}).status_code == 200  # the origin is the URL's


def test_an_origin_or_host_that_does_not_parse_is_refused_not_a_server_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    broken = ("http://testserver.evil.example:x", "http://x:bad", "http://a:99999", "http://[::1")
    with server(tmp_path) as http:
        for origin in broken:
            error_of(http.post("/api/tables", json={}, headers={"Origin": origin}), 403, "bad_origin")
            with (
                pytest.raises(WebSocketDisconnect) as refused,
                http.websocket_connect("/ws/nope", headers={"Origin": origin}) as ws,
            ):
                ws.receive_json()
            assert refused.value.code == 4403, origin
        bad_host = {"Origin": "http://testserver", "Host": "testserver:notaport"}
        error_of(http.post("/api/tables", json={}, headers=bad_host), 403, "bad_origin")
        assert live_tables(http) == 0
    assert "Traceback" not in caplog.text


def test_every_answer_carries_the_security_headers(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        for answer in (http.get("/"), http.get("/api/meta"), http.get("/static/js/main.js"), http.get("/api/x")):
            policy = answer.headers["content-security-policy"]
            assert (
                "script-src 'self'" in policy and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
            )
            assert "frame-ancestors 'none'" in policy
            assert answer.headers["x-content-type-options"] == "nosniff"
            assert answer.headers["referrer-policy"] == "no-referrer"


# ------------------------------------------------------------- private tables


def test_a_new_table_is_private_and_its_creator_may_list_it(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        created = new_table(http, 2, FRIEND)
        table_id = created["table_id"]
        assert len(table_id) >= 16  # 96 random bits: an invite cannot be guessed
        assert http.get("/api/tables").json()["tables"] == []
        assert http.get(f"/api/tables/{table_id}").json()["public"] is False  # reachable with the link
        joined = http.post(f"/api/tables/{table_id}/join", json={"name": "Youssef", "keep": False}).json()
        host, friend = Client(http, table_id, created["token"]), Client(http, table_id, joined["token"])
        host.hello()
        friend.hello()
        host.sync()
        friend.sync()
        friend.send({"type": "settings", "public": True})
        assert "only the person who made the table" in friend.expect("error")["message"]
        assert http.get("/api/tables").json()["tables"] == []
        host.send({"type": "settings", "public": True})
        assert host.expect("seats")["table"]["public"] is True
        assert [t["table_id"] for t in http.get("/api/tables").json()["tables"]] == [table_id]
        host.send({"type": "settings", "public": "yes"})
        assert host.expect("error")["code"] == "bad_message"
        assert http.get(f"/api/tables/{table_id}").json()["public"] is True


def test_the_creator_can_forbid_spectators(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        created = new_table(http, 2, ME, target=2)
        table_id = created["table_id"]
        watcher = Client(http, table_id)
        watcher.hello(token=None)  # with the invite link, anyone may watch by default
        me = Client(http, table_id, created["token"])
        me.hello()
        me.sync()
        me.send({"type": "settings", "spectators": False})
        me.expect("seats")
        assert watcher.expect("error")["code"] == "no_spectators"
        assert watcher.recv()["code"] == 4403
        stranger = Client(http, table_id)
        stranger.send({"type": "hello", "token": None, "since": None})
        assert stranger.recv()["code"] == "no_spectators"
        assert stranger.recv() == {"type": "closed", "code": 4403}
        assert me.hello()["type"] == "state"  # the players still play
        play_out([me], random_chooser(random.Random(5)))
        replay = f"/api/tables/{table_id}/replay"
        error_of(http.get(replay), 403, "no_spectators")
        assert http.get(replay, headers={"Authorization": f"Bearer {created['token']}"}).status_code == 200
    with server(tmp_path) as http:  # and after a restart
        error_of(http.get(replay), 403, "no_spectators")


def test_tables_are_created_private_or_public_and_without_spectators(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        shown = new_table(http, 2, ME, public=True, spectators=False)
        summary = http.get(f"/api/tables/{shown['table_id']}").json()
        assert summary["public"] is True and summary["spectators"] is False
        message = error_of(http.post("/api/tables", json={"players": 2, "seats": ME, "public": 1}), 400, "bad_request")
        assert "public" in message


# ------------------------------------------------------------------ invites


def test_the_invite_names_the_address_friends_use(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        created = new_table(http, 2, FRIEND)
        assert created["invite"] == f"http://testserver/t/{created['table_id']}" and created["invite_note"] is None
        proxied = http.post(
            "/api/tables",
            json={"players": 2, "seats": FRIEND, "keep": False},
            headers={"X-Forwarded-Host": "ronda.example", "X-Forwarded-Proto": "https"},
        ).json()
        assert proxied["invite"].startswith("http://testserver/")  # proxy headers are not trusted unless told
    with server(tmp_path, forwarded=True, allowed_hosts=(*TEST_HOSTS, "ronda.example")) as http:
        proxied = http.post(
            "/api/tables",
            json={"players": 2, "seats": FRIEND, "keep": False},
            headers={"X-Forwarded-Host": "ronda.example", "X-Forwarded-Proto": "https"},
        ).json()
        assert proxied["invite"] == f"https://ronda.example/t/{proxied['table_id']}"
    with server(tmp_path, public_url="http://192.168.1.20:8000/", listen_host="0.0.0.0") as http:
        created = new_table(http, 2, FRIEND)
        assert created["invite"] == f"http://192.168.1.20:8000/t/{created['table_id']}"
        me = Client(http, created["table_id"], created["token"])
        me.send({"type": "hello", "token": created["token"], "since": None})
        welcome = me.expect("welcome")
        assert welcome["invite"] == created["invite"] and welcome["invite_note"] is None


def test_an_invite_from_a_server_on_loopback_says_friends_cannot_use_it(tmp_path: Path) -> None:
    with server(tmp_path, listen_host="127.0.0.1") as http:
        assert new_table(http, 2, FRIEND)["invite_note"] == "loopback_only"
    with server(tmp_path, listen_host="0.0.0.0") as http:
        local = http.post(
            "/api/tables", json={"players": 2, "seats": FRIEND, "keep": False}, headers={"Host": "127.0.0.1:8000"}
        )
        assert local.json()["invite"].startswith("http://127.0.0.1:8000/t/")
        assert local.json()["invite_note"] == "loopback_address"


@pytest.mark.parametrize("name", ["Bot 2", "bot", "medium bot", "Seat 2", "seat2", "Player 1", "You", "Robot 3",
                                  "\uff22\uff2f\uff34 2", "الحاسوب 2", "expert"])  # fmt: skip
def test_names_cannot_pass_for_a_bot_or_a_seat(tmp_path: Path, name: str) -> None:
    with server(tmp_path) as http:
        created = new_table(http, 2, FRIEND)
        table_id = created["table_id"]
        refused = http.post(f"/api/tables/{table_id}/join", json={"name": name})
        assert "could be taken for a bot or a seat" in error_of(refused, 400, "bad_request")
        made = http.post("/api/tables", json={"players": 2, "seats": [{"kind": "human", "name": name}, ME[1]]})
        error_of(made, 400, "bad_request")
        assert http.get(f"/api/tables/{table_id}").json()["seats"][1]["taken"] is False


def test_a_name_already_at_the_table_is_refused(tmp_path: Path) -> None:
    with server(tmp_path) as http:
        table_id = new_table(http, 3, [*FRIEND, {"kind": "human"}])["table_id"]
        assert "already called" in error_of(
            http.post(f"/api/tables/{table_id}/join", json={"name": " amina ", "keep": False}), 409, "name_taken"
        )
        assert http.post(f"/api/tables/{table_id}/join", json={"name": "Robotnik", "keep": False}).status_code == 200


def test_create_app_refuses_bad_settings() -> None:
    for bad in ({"bot_workers": 0}, {"max_tables": 0}, {"store_timeout": 0}, {"public_url": "ronda.example"}):
        with pytest.raises(ValueError):
            create_app("sqlite://", **bad)
