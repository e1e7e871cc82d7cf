"""The databases the persistence tests run on: the SQLite default, and a real PostgreSQL server.

PostgreSQL is a throwaway cluster started from Debian's binaries for the test
session (``initdb`` in a temporary folder, loopback only, no fsync), so the
tests need no server set up beforehand. Where the binaries are missing the
PostgreSQL cases are skipped, except in CI (``RONDA_CI``, set by ``.ci/run``
after installing them): there a missing server fails.
"""

from __future__ import annotations

from extras import require

require("web")

import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_helpers import database

_databases = itertools.count()


def _postgres_bin() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[-3]))
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_cluster_owner(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: under root the cluster belongs to the ``postgres`` user."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


def _run(command: list[str], log: Path | None = None) -> None:
    done = subprocess.run(_as_cluster_owner(command), capture_output=True, text=True)
    if done.returncode:
        told = log.read_text() if log is not None and log.exists() else ""
        raise RuntimeError(f"{Path(command[0]).name} failed ({done.returncode}): {done.stderr}{done.stdout}{told}")


class Cluster:
    """A throwaway PostgreSQL cluster in a temporary folder, on loopback: started, stopped, started again."""

    def __init__(self) -> None:
        bin_dir = _postgres_bin()
        if bin_dir is None:
            if os.environ.get("RONDA_CI"):
                pytest.fail("RONDA_CI is set but PostgreSQL's pg_ctl is not installed")
            pytest.skip("PostgreSQL's binaries are not installed (Debian: apt-get install postgresql)")
        self.bin = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="ronda-pg-"))
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        self.data, self.log = self.folder / "data", self.folder / "log"
        self.port = _free_port()
        _run([str(bin_dir / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "ronda", "--no-sync"])
        self.start()

    @property
    def url(self) -> str:
        """The base URL (no database name)."""
        return f"postgresql://ronda@127.0.0.1:{self.port}"

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
        command = [str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start"]
        _run(command, self.log)

    def stop(self) -> None:
        """Stop at once, as a crash would (``-m immediate``): open connections are cut."""
        _run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"], self.log)

    def database(self) -> str:
        """The URL of a new, empty database on this cluster."""
        return _fresh_postgres_database(self.url)

    def remove(self) -> None:
        """Stopped at once and not waited for (``-W``): its files are thrown away, and waiting took up to 26 s of a
        loaded run's end."""
        subprocess.run(
            _as_cluster_owner([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-W", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The base URL (no database name) of a PostgreSQL server that lives as long as the test session."""
    cluster = Cluster()
    try:
        yield cluster.url
    finally:
        cluster.remove()


@pytest.fixture
def postgres_cluster() -> Iterator[Cluster]:
    """A PostgreSQL cluster of the test's own, which the test may stop and start again."""
    cluster = Cluster()
    try:
        yield cluster
    finally:
        cluster.remove()


def _fresh_postgres_database(base: str) -> str:
    import sqlalchemy

    from ronda.interfaces.web.store import sqlalchemy_url

    name = f"ronda_test_{next(_databases)}"
    admin = sqlalchemy.create_engine(sqlalchemy_url(f"{base}/postgres"), isolation_level="AUTOCOMMIT")
    with contextlib.closing(admin.connect()) as db:
        db.execute(sqlalchemy.text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return f"{base}/{name}"


@pytest.fixture
def postgres_database(postgres_server: str) -> str:
    """The URL of a fresh, empty database on the session's PostgreSQL server."""
    return _fresh_postgres_database(postgres_server)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database for one test: an SQLite file, or a new database on the PostgreSQL server."""
    if request.param == "sqlite":
        return database(tmp_path)
    return _fresh_postgres_database(request.getfixturevalue("postgres_server"))


class RedisServer:
    """A throwaway ``redis-server`` on a free loopback port, with no persistence: started, killed, started again.

    Skipped where Debian's redis-server is missing, except in CI (``RONDA_CI``, set by ``.ci/run`` after installing
    it): there a missing server fails.
    """

    def __init__(self) -> None:
        found = shutil.which("redis-server") or (
            "/usr/bin/redis-server" if os.path.exists("/usr/bin/redis-server") else None
        )
        if found is None:
            if os.environ.get("RONDA_CI"):
                pytest.fail("RONDA_CI is set but redis-server is not installed")
            pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
        self.binary = found
        self.port = _free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="ronda-redis-"))
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [
            self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", str(self.folder),
        ]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.025)
        raise RuntimeError("redis-server did not answer")

    def kill(self) -> None:
        """SIGKILL: what Redis held (leases, counters, subscriptions) is gone."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def remove(self) -> None:
        self.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A Redis server of the test's own, which the test may kill and start again."""
    server = RedisServer()
    try:
        yield server
    finally:
        server.remove()


_redis_databases = itertools.count()


@pytest.fixture(scope="session")
def shared_redis() -> Iterator[str]:
    """The base URL of one throwaway Redis for the test session, whose 16 databases tests take in turn."""
    server = RedisServer()
    try:
        yield f"redis://127.0.0.1:{server.port}"
    finally:
        server.remove()


@pytest.fixture
def redis_url(shared_redis: str) -> str:
    """A Redis database of the test's own (one of the shared server's 16, emptied first)."""
    import redis

    url = f"{shared_redis}/{next(_redis_databases) % 16}"
    with contextlib.closing(redis.Redis.from_url(url)) as client:
        client.flushdb()
    return url
