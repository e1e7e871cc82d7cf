"""``ronda serve``: play Ronda in the browser, against bots and with friends, from one command.

Registering the command imports nothing of the web extra, so ``ronda --help``
works without it; running it without the extra says which one to install.
"""

from __future__ import annotations

import argparse
import logging
import logging.config
import os
import shlex
import signal
import socket
import stat
import sys
import threading
from pathlib import Path
from typing import Any

from ..engine.errors import install_hint

EXIT_BAD_INPUT = 2
WEB_HINT = f"ronda serve: the web extra is missing: {install_hint('web')}"
WS_MAX_BYTES = 64 * 1024
"""Frames above this close the connection at once; frames above 4096 bytes are answered with an error."""
# Websocket compression (permessage-deflate) is off: game messages are a few hundred bytes to 2 KB, and
# compressing each one for each seat cost a third of the server's time in benchmarks/load.py.


def register(commands: Any) -> None:
    """Add the ``serve`` sub-command to the ``ronda`` parser."""
    p = commands.add_parser(
        "serve",
        help="play in the browser: against bots, and with friends over the network",
        description="Serve Ronda in the browser. Open the address it prints, create a table (2, 3 or 4 "
        "players, any seat a bot), and send the invite link to friends. Games are stored as they are played "
        "and survive a restart.",
        epilog="Examples: ronda serve · ronda serve --host 0.0.0.0 --port 8080 (friends on your network) · "
        "ronda serve --host 0.0.0.0 --public-url https://ronda.example --forwarded-from 10.0.0.2 (behind a proxy "
        "at 10.0.0.2) · "
        "DATABASE_URL=postgresql://user:pw@host/ronda ronda serve · ronda serve --bot-delay 0 (fast bots)",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this computer only)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument(
        "--data",
        metavar="DIR",
        default="ronda-data",
        help="folder of the SQLite database ronda.sqlite3 (default ./ronda-data); "
        "the DATABASE_URL environment variable (an SQLAlchemy URL, e.g. PostgreSQL) takes its place",
    )
    p.add_argument(
        "--grace",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="how long a disconnected player keeps the seat before the stand-in bot plays for it (default 60)",
    )
    p.add_argument(
        "--ping",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="how often each page's connection is checked: a page that does not answer a check within as long "
        "counts as gone, and its person as away (the grace period starts), as when a laptop is closed or a "
        "network drops without a word (default 10: noticed within 10 to 20 seconds)",
    )
    p.add_argument(
        "--turn-time",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="how long a connected player has for each decision before the stand-in bot makes it for them; "
        "three in a row count as leaving the game (default 120; 0: no clock)",
    )
    p.add_argument(
        "--stand-in",
        default="medium",
        metavar="LEVEL",
        help="bot level that plays for an absent player: random, easy, medium, hard, expert (default medium)",
    )
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="pause before each bot move so people can follow the game (default 0.6)",
    )
    p.add_argument(
        "--flood-rate",
        type=float,
        default=20.0,
        metavar="N",
        help="messages a second one connection may send on average, bursts of twice that; "
        "more are answered by one 'flood' error and ignored (default 20)",
    )
    p.add_argument(
        "--public-url",
        metavar="URL",
        help="the address friends open, e.g. http://192.168.1.20:8000 or https://ronda.example: invite links use it "
        "(default: the address the page was opened with)",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another origin whose pages may play here (a proxy set up so); may be repeated. Pages of other sites "
        "are refused",
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the server answers to besides localhost and IP addresses, e.g. mypc.local or "
        "ronda.lan; may be repeated. Without --public-url, a request for any other name is refused (421): a page "
        "of another site whose name was made to resolve to this computer (DNS rebinding) could otherwise play here",
    )
    p.add_argument(
        "--rude-words",
        metavar="FILE",
        help="a file of more words no player's name may hold, one a line (# comments; 'word*' also refuses what "
        "begins so; '!word' takes back a word of the shipped list of English, French and Arabic insults and "
        "slurs); matched as whole words after folding case, accents, look-alike letters and leetspeak "
        '(docs/server.md, "Names")',
    )
    p.add_argument(
        "--forwarded",
        action="store_true",
        help="behind a reverse proxy: trust its X-Forwarded-For, -Proto and -Host headers, from the addresses of "
        "--forwarded-from only",
    )
    p.add_argument(
        "--forwarded-from",
        action="append",
        default=[],
        metavar="ADDR",
        help="the reverse proxy's address or network (10.0.0.2, 10.0.0.0/24) whose X-Forwarded-* headers are "
        "believed; may be repeated; implies --forwarded (default: this machine only, 127.0.0.1 and ::1). From any "
        "other peer the headers are ignored and its own address counts: a replica reached directly cannot claim "
        "another address for /metrics or the per-address limits",
    )
    p.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        metavar="N",
        help=f"processes that think for the bots, shared fairly by every table (default: one per core, {cores()})",
    )
    p.add_argument(
        "--store-timeout",
        type=float,
        default=3.0,
        metavar="SECONDS",
        help="how long a move may wait for the database; past it the move is refused and the player asked to "
        "send it again (default 3)",
    )
    p.add_argument(
        "--sync",
        choices=("full", "normal"),
        default="full",
        help="SQLite only: 'full' syncs the file at every commit, so a move the players saw survives a crash of "
        "the machine; 'normal' survives a crash of the server but not a power cut, and answers moves faster on "
        "a slow disk (default full; PostgreSQL always commits in full)",
    )
    p.add_argument(
        "--max-tables", type=int, default=1000, metavar="N", help="games going at once on the server (default 1000)"
    )
    p.add_argument(
        "--tables-per-client",
        type=int,
        default=10,
        metavar="N",
        help="games going at once that one address may have created (default 10)",
    )
    p.add_argument(
        "--connections-per-client",
        type=int,
        default=32,
        metavar="N",
        help="websocket connections without a seat (spectators, and those yet to say hello) one address may hold "
        "across the server; a player's connection to their own seat is always let in (default 32)",
    )
    p.add_argument(
        "--spectators-per-table",
        type=int,
        default=64,
        metavar="N",
        help="spectators' connections one table takes at once; its players always get in (default 64)",
    )
    p.add_argument(
        "--create-rate",
        type=float,
        default=20.0,
        metavar="N",
        help="tables one address may create a minute (default 20)",
    )
    p.add_argument(
        "--join-rate",
        type=float,
        default=30.0,
        metavar="N",
        help="seats one address may try to take a minute (default 30)",
    )
    p.add_argument(
        "--close-after",
        type=float,
        default=900.0,
        metavar="SECONDS",
        help="a table nobody has been connected to for this long leaves memory (still stored); one whose people "
        "never came is closed (default 900)",
    )
    p.add_argument(
        "--analysis-budget",
        type=int,
        default=200,
        metavar="B",
        help="guesses of the hidden cards per decision for hints and the analysis of finished games "
        "(default 200, as ronda analyse); searched in the bot workers",
    )
    p.add_argument(
        "--redis",
        metavar="URL",
        help="run as one of several processes behind a load balancer, over one PostgreSQL database "
        "(DATABASE_URL=postgresql://…) and this Redis, e.g. redis://127.0.0.1:6379/0: each table is played where "
        "its owner is, and taken over by another process when that one stops; the rate limits, the caps on "
        "connections and play-now pairing hold across the processes (docs/server.md, docs/deploy.md)",
    )
    p.add_argument("--log-level", default="info", choices=("critical", "error", "warning", "info", "debug"))
    p.add_argument(
        "--log-format",
        default="text",
        choices=("text", "json"),
        help="json: every log line (uvicorn's access and error logs too) is one JSON object, for a log collector "
        "(default text)",
    )
    p.add_argument(
        "--metrics-from",
        action="append",
        default=[],
        metavar="ADDR",
        help="an address or network (10.0.0.0/8) that may read /metrics, Prometheus' text format; may be repeated "
        "(default: this machine only). /healthz and /readyz are open to all",
    )
    p.add_argument(
        "--drain",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="on SIGTERM, first say 'not ready' at /readyz for this long, so the load balancer sends new players "
        "elsewhere, then stop (default 0: stop at once; docs/deploy.md's rolling restart uses it)",
    )
    p.set_defaults(run=run)


def cores() -> int:
    from ..interfaces.web.workers import default_workers

    return default_workers()


def database_url(data: str) -> str:
    """``DATABASE_URL`` when set, else the SQLite file in the data folder (created if needed).

    The folder and the database are the server's alone (0700 and 0600): the database holds the deck of every
    round in play — every hand and the stock's order — and other users of the machine must not read it (R11).
    A database left readable by an earlier version is closed again here, an SQLite file named by
    ``DATABASE_URL`` too. A data folder others may write to (group or world writable, not sticky) is refused:
    they could put a database of their own, or a link to one, where the server opens it; so is a database that
    is a symbolic link, which points wherever its maker chose. Raises :class:`ValueError` in one sentence
    naming the path and what to do, :class:`OSError` when the folder cannot be made.
    """
    url = os.environ.get("DATABASE_URL", "").strip()
    if url:
        database = sqlite_file(url)
        if database is not None:
            try:
                close_database(database)
            except OSError as error:
                raise ValueError(f"cannot close the database {database} to other users: {error.strerror}") from None
        return url
    folder = Path(data).expanduser()
    if folder.is_dir():
        mode = folder.stat().st_mode
        if mode & 0o022 and not mode & stat.S_ISVTX:
            raise ValueError(
                f"the data folder {folder} can be written by other users of this machine, who could put a database "
                f"of theirs in it: chmod 700 {shlex.quote(str(folder))}"
            )
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    database = folder / "ronda.sqlite3"
    close_database(database)
    return f"sqlite:///{database.resolve()}"


def sqlite_file(url: str) -> Path | None:
    """The file an ``sqlite:///`` URL names, or ``None`` for another database or SQLite in memory.

    >>> sqlite_file("sqlite:////srv/ronda/ronda.sqlite3"), sqlite_file("sqlite+pysqlite:///ronda.db?timeout=5")
    (PosixPath('/srv/ronda/ronda.sqlite3'), PosixPath('ronda.db'))
    >>> sqlite_file("sqlite://"), sqlite_file("sqlite:///:memory:"), sqlite_file("postgresql://db/ronda")
    (None, None, None)
    """
    scheme, _, rest = url.partition(":///")
    if scheme.split("+")[0].lower() != "sqlite" or not rest:
        return None
    path = rest.split("?")[0]
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    return Path(path)


def close_database(database: Path) -> None:
    """Refuse a database (or its journal) that is a symbolic link, and make the files there the server's alone."""
    paths = (database, database.with_name(database.name + "-wal"), database.with_name(database.name + "-shm"))
    for path in paths:
        if path.is_symlink():
            raise ValueError(
                f"the database file {path} is a symbolic link, which could point at any file: "
                "put the database itself there, readable by the server's user alone"
            )
    for path in paths:
        if path.exists():
            path.chmod(0o600)


def out_of_range(args: argparse.Namespace) -> str | None:
    """The first number option outside its range, said alone with its value, or ``None`` if all are fine.

    One option per line, with what was given: "--grace is zero or more seconds, not -5" tells what to change, a
    list of five options' ranges made the user find the one at fault.
    """
    workers = 1 if args.bot_workers is None else args.bot_workers  # None: one per core
    checks: tuple[tuple[str, float, bool, str], ...] = (
        ("--port", args.port, 0 < args.port < 65536, "must be from 1 to 65535"),
        ("--grace", args.grace, args.grace >= 0, "is zero or more seconds"),
        ("--turn-time", args.turn_time, args.turn_time >= 0, "is zero or more seconds (0: no clock)"),
        ("--ping", args.ping, args.ping > 0, "is a number of seconds above zero"),
        ("--bot-delay", args.bot_delay, args.bot_delay >= 0, "is zero or more seconds"),
        ("--flood-rate", args.flood_rate, args.flood_rate > 0, "is a number of messages a second above zero"),
        ("--store-timeout", args.store_timeout, args.store_timeout > 0, "is a number of seconds above zero"),
        ("--bot-workers", workers, workers >= 1, "is 1 or more"),
        ("--max-tables", args.max_tables, args.max_tables >= 1, "is 1 or more"),
        ("--tables-per-client", args.tables_per_client, args.tables_per_client >= 1, "is 1 or more"),
        ("--connections-per-client", args.connections_per_client, args.connections_per_client >= 1, "is 1 or more"),
        ("--spectators-per-table", args.spectators_per_table, args.spectators_per_table >= 1, "is 1 or more"),
        ("--create-rate", args.create_rate, args.create_rate > 0, "is a number of tables a minute above zero"),
        ("--join-rate", args.join_rate, args.join_rate > 0, "is a number of seats a minute above zero"),
        ("--close-after", args.close_after, args.close_after >= 0, "is zero or more seconds"),
        ("--analysis-budget", args.analysis_budget, args.analysis_budget >= 1, "is 1 or more guesses"),
        ("--drain", args.drain, args.drain >= 0, "is zero or more seconds"),
    )
    for option, value, fine, words in checks:
        if not fine:
            given = f"{value:g}" if isinstance(value, float) else str(value)
            return f"{option} {words}, not {given}"
    return None


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..interfaces.web.app import create_app
    except ImportError:
        print(WEB_HINT, file=sys.stderr)
        return EXIT_BAD_INPUT
    from ..bots import levels

    if args.stand_in not in levels():
        print(
            f"ronda serve: unknown --stand-in level {args.stand_in!r} (known: {', '.join(levels())})", file=sys.stderr
        )
        return EXIT_BAD_INPUT
    wrong = out_of_range(args)
    if wrong:
        print(f"ronda serve: {wrong}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.public_url is not None and not args.public_url.startswith(("http://", "https://")):
        print(f"ronda serve: --public-url starts with http:// or https://, not {args.public_url!r}", file=sys.stderr)
        return EXIT_BAD_INPUT
    from ..engine.jsontext import os_error_words
    from ..interfaces.web.guard import allowed_host
    from ..interfaces.web.rude import RudeWords

    try:
        for name in args.allowed_host:
            allowed_host(name)
        RudeWords.load(args.rude_words)
    except OSError as error:
        print(f"ronda serve: cannot read --rude-words {args.rude_words}: {os_error_words(error)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ValueError as error:
        print(f"ronda serve: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    # Whatever the server writes (the SQLite database and its journal, made later by SQLite itself) is
    # readable by its user alone: the database holds the hidden cards of every game in play.
    os.umask(os.umask(0o077) | 0o077)
    try:
        url = database_url(args.data)
    except OSError as error:
        print(f"ronda serve: cannot make the data folder {args.data}: {error.strerror or error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ValueError as error:  # a folder others may write to, a database that is a link
        print(f"ronda serve: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    from ..interfaces.web.guard import LOOPBACK_PROXIES, proxy_networks
    from ..interfaces.web.logs import log_config
    from ..interfaces.web.metrics import LOOPBACK, networks

    try:
        networks(args.metrics_from)
        proxy_networks(tuple(args.forwarded_from))
    except ValueError as error:
        print(f"ronda serve: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.redis is not None:
        if url.startswith("sqlite"):
            print(
                "ronda serve: --redis runs several processes over one database: set DATABASE_URL=postgresql://… "
                "(SQLite is one process's file)",
                file=sys.stderr,
            )
            return EXIT_BAD_INPUT
        if not args.redis.startswith(("redis://", "rediss://", "unix://")):
            print(f"ronda serve: --redis is a redis:// URL, not {args.redis!r}", file=sys.stderr)
            return EXIT_BAD_INPUT
        try:
            import redis  # noqa: F401
        except ImportError:
            print(f"ronda serve: --redis needs the cluster extra: {install_hint('cluster')}", file=sys.stderr)
            return EXIT_BAD_INPUT
    try:
        sock = listening_socket(args.host, args.port)
    except OSError as error:
        print(f"ronda serve: cannot listen on {args.host}:{args.port}: {listen_error_words(error)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    logs = log_config(args.log_format, args.log_level)
    logging.config.dictConfig(logs)
    app = create_app(
        url,
        grace=args.grace,
        turn_time=args.turn_time,
        stand_in=args.stand_in,
        bot_delay=args.bot_delay,
        flood_rate=args.flood_rate,
        bot_workers=args.bot_workers,
        store_timeout=args.store_timeout,
        store_sync=args.sync,
        max_tables=args.max_tables,
        tables_per_client=args.tables_per_client,
        create_rate=args.create_rate,
        join_rate=args.join_rate,
        close_after=args.close_after,
        public_url=args.public_url,
        allow_origins=tuple(args.allow_origin),
        allowed_hosts=tuple(args.allowed_host),
        rude_words=args.rude_words,
        paced_collector=True,
        forwarded=args.forwarded or bool(args.forwarded_from),
        forwarded_from=tuple(args.forwarded_from) or LOOPBACK_PROXIES,
        listen_host=args.host,
        analysis_budget=args.analysis_budget,
        connections_per_client=args.connections_per_client,
        spectators_per_table=args.spectators_per_table,
        metrics_from=tuple(args.metrics_from) or LOOPBACK,
        redis_url=args.redis,
    )
    shown = url if url.startswith("sqlite") else url.split("://")[0] + "://…"  # never print a password
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Ronda is served at http://{host}:{args.port}/  (database {shown}; Ctrl+C stops)", flush=True)
    if args.public_url:
        print(f"Invite links use {args.public_url.rstrip('/')}/", flush=True)
    elif args.host in ("127.0.0.1", "::1", "localhost"):
        print("Only this computer can open it: friends on other machines need --host 0.0.0.0", flush=True)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        log_config=logs,
        ws_max_size=WS_MAX_BYTES,
        ws_per_message_deflate=False,
        # A connection that falls silent (no close: a laptop shut, a network gone) is noticed by the server's
        # pings alone; uvicorn's own 20 s and 20 s left the other people's pages showing the person there for up
        # to 40 s, and the grace period started that much later.
        ws_ping_interval=args.ping,
        ws_ping_timeout=args.ping,
        proxy_headers=False,  # the Guard reads them, from --forwarded-from's proxies only (guard.Guard.forward)
    )
    with sock:
        draining_server(config, app, args.drain).run(sockets=[sock])
    return 0


def listening_socket(host: str, port: int) -> socket.socket:
    """The server's socket, bound to ``host:port`` before anything says the game is served there.

    Left to uvicorn, a port in use showed the "Ronda is served at" line, then its log and an error with a
    traceback's worth of words; bound here, it is one line and exit 2. IPv4 unless the host is an IPv6
    address, as uvicorn binds a host name itself.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restart need not wait out TIME_WAIT
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def listen_error_words(error: OSError) -> str:
    """Why a bind failed, in words: "address already in use", "the host cannot be resolved"."""
    if isinstance(error, socket.gaierror):
        return "the host cannot be resolved"
    from ..engine.jsontext import os_error_words

    return os_error_words(error)


def draining_server(config: Any, app: Any, drain: float) -> Any:
    """A uvicorn server that, on the first SIGTERM, says "not ready" for ``drain`` seconds before it stops.

    The load balancer's readiness checks (``/readyz``) then send new players to
    the other processes while this one still serves its connections; a second
    signal (or Ctrl+C) stops it at once.
    """
    import uvicorn

    from ..interfaces.web.metrics import drain as begin_drain

    class DrainingServer(uvicorn.Server):
        draining = False

        def handle_exit(self, sig: int, frame: Any) -> None:
            if sig == signal.SIGTERM and drain > 0 and not self.draining:
                self.draining = True
                begin_drain(app)
                logging.getLogger("ronda.web").warning("draining: not ready for %.0f s, then stopping", drain)
                stop = threading.Timer(drain, super().handle_exit, (sig, frame))
                stop.daemon = True
                stop.start()
                return
            super().handle_exit(sig, frame)

    return DrainingServer(config)
