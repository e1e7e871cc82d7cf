"""`ronda serve` as a command: its help, its errors, its database choice, and a real server under a little load."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmark_scripts import run_benchmark
from ronda.cli.main import main
from ronda.cli.serve import WEB_HINT, database_url

SRC = Path(__file__).resolve().parents[2] / "src"


def test_the_help_names_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    text = capsys.readouterr().out
    for option in (
        "--host",
        "--port",
        "--data",
        "--grace",
        "--turn-time",
        "--stand-in",
        "--bot-delay",
        "DATABASE_URL",
        "--bot-workers",
        "--public-url",
        "--allow-origin",
        "--allowed-host",
        "--rude-words",
        "--forwarded",
        "--forwarded-from",
        "--store-timeout",
        "--sync",
        "--max-tables",
        "--close-after",
        "--connections-per-client",
        "--spectators-per-table",
    ):
        assert option in text


def test_without_the_web_extra_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # `import uvicorn` now fails as if it were not installed
    assert main(["serve"]) == 2
    captured = capsys.readouterr()
    assert captured.err == WEB_HINT + "\n" and captured.out == ""
    assert WEB_HINT.endswith(f": {sys.executable} -m pip install 'ronda[web]'")  # this Python's pip, not any pip


def test_redis_without_the_cluster_extra_says_how_to_install_it_into_this_python(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("uvicorn")
    monkeypatch.setenv("DATABASE_URL", "postgresql://ronda@127.0.0.1:9/ronda")
    monkeypatch.setitem(sys.modules, "redis", None)  # `import redis` now fails as if it were not installed
    assert main(["serve", "--redis", "redis://127.0.0.1:9/0"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"ronda serve: --redis needs the cluster extra: {sys.executable} -m pip install 'ronda[cluster]'\n"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["serve", "--stand-in", "grandmaster"], "grandmaster"),
        (["serve", "--grace", "-1"], "--grace is zero or more seconds, not -1"),
        (["serve", "--grace", "-5"], "--grace is zero or more seconds, not -5"),
        (["serve", "--turn-time", "-5"], "--turn-time is zero or more seconds (0: no clock), not -5"),
        (["serve", "--bot-delay", "-0.5"], "--bot-delay is zero or more seconds, not -0.5"),
        (["serve", "--flood-rate", "0"], "--flood-rate is a number of messages a second above zero, not 0"),
        (["serve", "--store-timeout", "0"], "--store-timeout is a number of seconds above zero, not 0"),
        (["serve", "--port", "70000"], "--port must be from 1 to 65535, not 70000"),
        (["serve", "--bot-workers", "0"], "--bot-workers is 1 or more, not 0"),
        (["serve", "--public-url", "ronda.example"], "--public-url"),
        (["serve", "--max-tables", "0"], "--max-tables is 1 or more, not 0"),
        (["serve", "--tables-per-client", "0"], "--tables-per-client is 1 or more, not 0"),
        (["serve", "--connections-per-client", "0"], "--connections-per-client is 1 or more, not 0"),
        (["serve", "--spectators-per-table", "-1"], "--spectators-per-table is 1 or more, not -1"),
        (["serve", "--create-rate", "0"], "--create-rate is a number of tables a minute above zero, not 0"),
        (["serve", "--join-rate", "-2"], "--join-rate is a number of seats a minute above zero, not -2"),
        (["serve", "--close-after", "-1"], "--close-after is zero or more seconds, not -1"),
        (["serve", "--analysis-budget", "0"], "--analysis-budget is 1 or more guesses, not 0"),
        (["serve", "--drain", "-5"], "--drain is zero or more seconds, not -5"),
        (["serve", "--allowed-host", "http://ronda.lan:8000"], "--allowed-host is a host name like ronda.lan"),
        (["serve", "--rude-words", "/nonexistent/words.txt"], "--rude-words /nonexistent/words.txt: no such file"),
    ],
)
def test_bad_options_exit_2_naming_them(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    """One line naming the option at fault and nothing else: a list of five options' ranges hid which one it was."""
    pytest.importorskip("uvicorn")
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and words in err and err.count("\n") == 1
    assert re.findall(r"--[a-z][a-z-]*", err) == [argv[1]]


def test_a_rude_words_line_without_a_word_is_one_line_naming_the_file_and_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("uvicorn")
    words = tmp_path / "words.txt"
    words.write_text("# ours\nmallory\n***\n", encoding="utf-8")
    assert main(["serve", "--rude-words", str(words), "--data", str(tmp_path / "data")]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"ronda serve: {words}, line 3: '***' has no letter to refuse\n")


def _serve(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    env.pop("DATABASE_URL", None)
    command = [sys.executable, "-m", "ronda", "serve", "--data", str(tmp_path / "data"), *options]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60, check=False)


def test_a_port_in_use_is_one_line_and_exit_2_before_anything_says_it_is_served(tmp_path: Path) -> None:
    """Not "Ronda is served at …" followed by uvicorn's log and its "[Errno 98]": the address is never served."""
    pytest.importorskip("uvicorn")
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        done = _serve(tmp_path, "--port", str(port))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"ronda serve: cannot listen on 127.0.0.1:{port}: address already in use\n"


def test_a_host_that_cannot_be_resolved_is_one_line_and_exit_2(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    done = _serve(tmp_path, "--host", "nosuchhost.invalid", "--port", "8768")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "ronda serve: cannot listen on nosuchhost.invalid:8768: the host cannot be resolved\n"


def test_the_database_is_sqlite_in_the_data_folder_unless_database_url_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    url = database_url(str(tmp_path / "data"))
    assert url == f"sqlite:///{(tmp_path / 'data' / 'ronda.sqlite3').resolve()}"
    assert (tmp_path / "data").is_dir()
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://ronda@db/ronda")
    assert database_url(str(tmp_path / "elsewhere")) == "postgresql+psycopg://ronda@db/ronda"
    assert not (tmp_path / "elsewhere").exists()


def test_a_database_left_readable_by_others_is_closed_to_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "ronda.sqlite3").write_bytes(b"")
    (folder / "ronda.sqlite3").chmod(0o644)
    database_url(str(folder))
    assert (folder / "ronda.sqlite3").stat().st_mode & 0o777 == 0o600
    fresh = tmp_path / "fresh"
    database_url(str(fresh))
    assert fresh.stat().st_mode & 0o077 == 0


def _serve_on_a_port_in_use(tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``ronda serve`` on a port already taken: what it says before it listens, then exit 2, never a server."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        return _serve(tmp_path, "--port", str(held.getsockname()[1]))


@pytest.mark.parametrize("mode", [0o777, 0o775, 0o757, 0o720])
def test_a_data_folder_others_can_write_to_is_refused_in_one_line(tmp_path: Path, mode: int) -> None:
    """Another user could put a database of theirs (or a link) where the server opens its own: exit 2, not served."""
    pytest.importorskip("uvicorn")
    folder = tmp_path / "data"
    folder.mkdir()
    folder.chmod(mode)
    done = _serve_on_a_port_in_use(tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"ronda serve: the data folder {folder} can be written by other users of this machine, who could put a "
        f"database of theirs in it: chmod 700 {folder}\n"
    )
    assert not (folder / "ronda.sqlite3").exists()


def test_a_shared_folder_with_the_sticky_bit_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Like /tmp: others may write there, but not replace or remove the server's files."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    folder = tmp_path / "data"
    folder.mkdir()
    folder.chmod(0o1777)
    assert database_url(str(folder)) == f"sqlite:///{(folder / 'ronda.sqlite3').resolve()}"


@pytest.mark.parametrize("name", ["ronda.sqlite3", "ronda.sqlite3-wal", "ronda.sqlite3-shm"])
def test_a_database_that_is_a_symbolic_link_is_refused_in_one_line(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "data"
    folder.mkdir(mode=0o700)
    elsewhere = tmp_path / "someone-elses.sqlite3"
    elsewhere.write_bytes(b"")
    elsewhere.chmod(0o644)
    (folder / name).symlink_to(elsewhere)
    done = _serve_on_a_port_in_use(tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"ronda serve: the database file {folder / name} is a symbolic link, which could point at any file: "
        "put the database itself there, readable by the server's user alone\n"
    )
    assert elsewhere.stat().st_mode & 0o777 == 0o644  # not touched through the link
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{folder / 'ronda.sqlite3'}")
    with pytest.raises(ValueError, match="is a symbolic link"):
        database_url(str(tmp_path / "unused"))


def test_an_sqlite_database_url_is_closed_to_other_users_as_the_data_folders_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "ronda.sqlite3"
    for path in (database, tmp_path / "ronda.sqlite3-wal", tmp_path / "ronda.sqlite3-shm"):
        path.write_bytes(b"")
        path.chmod(0o644)
    url = f"sqlite:///{database}"
    monkeypatch.setenv("DATABASE_URL", url)
    assert database_url(str(tmp_path / "unused")) == url
    for path in (database, tmp_path / "ronda.sqlite3-wal", tmp_path / "ronda.sqlite3-shm"):
        assert path.stat().st_mode & 0o777 == 0o600, path.name
    assert not (tmp_path / "unused").exists()


def test_another_user_of_the_machine_cannot_read_the_decks_of_games_in_play(tmp_path: Path) -> None:
    """The database holds every round's deck (every hand, the stock's order): a real server keeps it its own."""
    pytest.importorskip("websockets")
    from real_server import RealServer

    folder = tmp_path / "data"
    with RealServer(folder) as server:
        server.two_people()
        files = sorted(folder.iterdir())
        assert folder / "ronda.sqlite3" in files
        assert folder.stat().st_mode & 0o077 == 0
        for path in files:
            assert path.stat().st_mode & 0o077 == 0, path.name


def _load_benchmark(command: list[str]) -> dict[str, Any]:
    """``benchmarks/load.py`` run as its users run it, its one JSON line read; it must exit 0."""
    done = run_benchmark("load", *command, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_a_real_server_plays_two_games_over_real_websockets() -> None:
    """The load benchmark in miniature: `python -m ronda serve` (uvicorn), two games to game over, one with a bot."""
    pytest.importorskip("websockets")
    command = ["--games", "2", "--target", "5", "--pace", "0", "--hard-bots", "0.5", "--duration", "40", "--json"]
    result = _load_benchmark(command)
    assert result["games_over"] == 2 and result["moves"] > 0 and result["errors"] == 0
    assert result["decisions_lost"] == 0 and result["tables_checked"] == 2 and result["bot_decisions_per_second"] > 0


def test_the_load_benchmark_lets_people_arrive_over_a_ramp_and_times_the_bots_turns() -> None:
    """At a person's pace the clock starts once everyone has arrived; the bot's wait for a worker is reported."""
    pytest.importorskip("websockets")
    # Six seconds measured: enough for a hard bot's turns to end inside the window on a busy machine (at three,
    # two test workers and other work on two cores left some runs with no bot turn measured at all).
    command = ["--games", "2", "--pace", "0.05", "--ramp", "0.5", "--hard-bots", "0.5", "--duration", "6", "--json"]
    result = _load_benchmark(command)
    assert result["ramp_s"] == 0.5 and "--ramp 0.5" in result["command"]
    assert result["moves"] > 0 and result["latency_ms_p99"] >= result["latency_ms_p50"] > 0
    assert result["bot_wait_s_p99"] >= result["bot_wait_s_p50"] > 0
    assert result["errors"] == 0 and result["decisions_lost"] == 0


def test_a_real_server_refuses_a_page_whose_name_was_rebound_to_it_over_http_and_websockets(tmp_path: Path) -> None:
    """DNS rebinding against `ronda serve` as the README starts it (127.0.0.1, no --public-url): a page of
    evil.example whose name now resolves to 127.0.0.1 reaches the real server naming ``Host: evil.example``. It read
    the lobby, a table's summary, and /metrics (its peer is this computer's own address), and opened websockets;
    now each answer is a 421 naming the host and --allowed-host, while localhost, 127.0.0.1 and an allowed name
    still play."""
    pytest.importorskip("websockets")
    import httpx
    from real_server import RealServer
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    with RealServer(tmp_path / "data", "--allowed-host", "ronda.test") as real:
        table_id, tokens = real.two_people()
        evil = {"Host": f"evil.example:{real.port}"}
        for path in ("/", "/api/tables", f"/api/tables/{table_id}", "/metrics"):
            answer = httpx.get(real.base + path, headers=evil)
            assert answer.status_code == 421, (path, answer.text)
            assert "'evil.example'" in answer.text and "--allowed-host evil.example" in answer.text, path
        rebound = socket.create_connection(("127.0.0.1", real.port))  # evil.example resolved to 127.0.0.1
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://evil.example:{real.port}/ws/{table_id}", sock=rebound, open_timeout=10)
        assert refused.value.response.status_code == 421
        assert b"--allowed-host evil.example" in refused.value.response.body
        assert httpx.get(f"{real.base}/healthz", headers=evil).status_code == 200  # a load balancer's check
        for name in ("localhost", "127.0.0.1", "ronda.test"):
            own = {"Host": f"{name}:{real.port}", "Origin": f"http://{name}:{real.port}"}
            assert httpx.get(f"{real.base}/api/tables/{table_id}", headers=own).status_code == 200, name
            made = httpx.post(f"{real.base}/api/tables", json={"players": 2, "keep": False}, headers=own)
            assert made.status_code == 201, (name, made.text)
        with connect(f"ws://127.0.0.1:{real.port}/ws/{table_id}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": tokens[0], "since": None}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"


def raw_answer(port: int, head: str, body: str = "") -> tuple[int, str]:
    """The status and the whole answer of a request written by hand (``head``: its lines, CRLF-ended), for what no
    HTTP client sends: two ``Host`` headers, a ``Host`` that is no host."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall((head + "Connection: close\r\n\r\n" + body).encode("latin-1"))
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    text = answer.decode("latin-1")
    return int(text.split(" ", 2)[1]), text


def test_a_real_server_reads_one_host_and_never_writes_a_host_that_is_no_host_into_its_headers(tmp_path: Path) -> None:
    """An audit: with ``Host: evil.example`` then the server's own name, the check read the last and the invite link
    the first (201, inviting to evil.example); and ``Host: localhost:PORT; report-uri https://evil.example/r`` went
    into the Content-Security-Policy as a directive of the sender's. Both are refused with 400 ``bad_host``."""
    from real_server import RealServer

    with RealServer(tmp_path / "data", "--allowed-host", "mypc.local") as real:
        port = real.port
        own = f"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        status, answer = raw_answer(port, own)
        assert status == 200 and f"connect-src 'self' ws://127.0.0.1:{port} wss://127.0.0.1:{port};" in answer
        body = '{"players": 2, "keep": false}'
        twice = (
            f"POST /api/tables HTTP/1.1\r\nHost: evil.example:{port}\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        )
        status, answer = raw_answer(port, twice, body)
        assert status == 400 and "2 Host headers" in answer and "evil.example" not in answer.split("\r\n\r\n")[1]
        for host in (
            f"localhost:{port}; report-uri https://evil.example/r",
            "localhost:1 'unsafe-eval' *",
            f"evil.example@127.0.0.1:{port}",
            "localhost:abc",
            "localhost:99999",
        ):
            status, answer = raw_answer(port, f"GET /api/meta HTTP/1.1\r\nHost: {host}\r\n")
            assert status == 400 and '"bad_host"' in answer, (host, answer)
            assert "report-uri" not in answer.split("\r\n\r\n")[0] and "unsafe-eval" not in answer.split("\r\n\r\n")[0]
            status, _ = raw_answer(port, f"GET / HTTP/1.1\r\nHost: {host}\r\n")  # the page: a sentence, not a page
            assert status == 400, host


def lan_address() -> str | None:
    """This machine's address on its network (not loopback), or ``None`` where it has none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the way out
        except OSError:
            return None
        address = str(probe.getsockname()[0])
    return None if address.startswith("127.") else address


def test_a_replica_reached_directly_does_not_believe_forwarded_headers_from_a_peer_that_is_not_its_proxy(
    tmp_path: Path,
) -> None:
    """An audit: a replica as the container recipe ran it (``--host 0.0.0.0 --forwarded``), reached on its own
    address, believed ``X-Forwarded-For: 127.0.0.1`` from anyone: /metrics was served as to this machine, and each
    request could claim a new address and a fresh share of the limits. The headers are now believed from the
    ``--forwarded-from`` proxies only (default: this machine), and the peer's own address counts otherwise."""
    import httpx
    from real_server import RealServer

    address = lan_address()
    if address is None:
        pytest.skip("this machine has no address but loopback to reach the server from")
    options = ("--host", "0.0.0.0", "--forwarded", "--create-rate", "1")
    with RealServer(tmp_path / "data", *options) as real:
        direct = f"http://{address}:{real.port}"
        assert httpx.get(f"{direct}/metrics").status_code == 403
        claimed = httpx.get(f"{direct}/metrics", headers={"X-Forwarded-For": "127.0.0.1"})
        assert claimed.status_code == 403, claimed.text
        body = {"players": 2, "keep": False}
        first = httpx.post(f"{direct}/api/tables", json=body, headers={"X-Forwarded-For": "198.51.100.1"})
        assert first.status_code == 201, first.text
        again = httpx.post(f"{direct}/api/tables", json=body, headers={"X-Forwarded-For": "198.51.100.2"})
        assert again.status_code == 429, again.text  # the same peer, whatever it claims
        # The proxy on this machine (loopback, trusted by default) is believed: its client is another address.
        proxied = httpx.post(f"{real.base}/api/tables", json=body, headers={"X-Forwarded-For": "198.51.100.3"})
        assert proxied.status_code == 201, proxied.text
        assert httpx.get(f"{real.base}/metrics", headers={"X-Forwarded-For": "198.51.100.3"}).status_code == 403
    with RealServer(tmp_path / "data", "--host", "0.0.0.0", "--forwarded-from", address, "--create-rate", "1") as real:
        direct = f"http://{address}:{real.port}"  # now this peer is the proxy named: its headers are believed
        assert httpx.get(f"{direct}/metrics", headers={"X-Forwarded-For": "127.0.0.1"}).status_code == 200
        for n in (1, 2):
            made = httpx.post(f"{direct}/api/tables", json=body, headers={"X-Forwarded-For": f"198.51.100.{n}"})
            assert made.status_code == 201, made.text
