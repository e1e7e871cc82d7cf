"""Ctrl-C stops ``ronda analyse`` at once, its worker processes too, with one line saying how far it got.

The real test types Ctrl-C into a real terminal (a pseudo-terminal): the
terminal sends SIGINT to the whole foreground process group, the command and
its workers alike, exactly as when a person presses the keys.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from ronda.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "examples" / "sample-2p.json"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _own_terminal() -> None:
    """In the child: lead a new session whose controlling terminal is its stdin, and let Ctrl-C interrupt it.

    A runner started in the background (CI) ignores SIGINT, and a child would inherit that and never see the key.
    """
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _live_processes_in_group(group: int) -> list[int]:
    """Processes of a process group that still run (zombies aside, which a container's init may never reap)."""
    live = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state, _parent, pgrp = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:3]
        except (OSError, ValueError):
            continue
        if int(pgrp) == group and state != "Z":
            live.append(int(entry.name))
    return live


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes left from /proc (Linux)")
def test_ctrl_c_in_a_terminal_stops_a_parallel_analysis_and_its_workers_at_once() -> None:
    master, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    process = subprocess.Popen(
        # A budget so large that one decision takes far longer than the test: the bar must show before any.
        [sys.executable, "-m", "ronda", "analyse", str(SAMPLE), "--jobs", "2", "--budget", "100000000"],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src"), "TERM": "xterm-256color"},
        preexec_fn=_own_terminal,
    )
    os.close(terminal)
    screen = bytearray()

    def read_the_screen() -> None:
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # the terminal is closed: every process that held it is gone
                return
            if not data:
                return
            screen.extend(data)

    reader = threading.Thread(target=read_the_screen, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 60
        while not re.search(rb"\b0/\d+", bytes(screen)):  # the progress bar, at none done
            assert process.poll() is None and time.monotonic() < deadline, bytes(screen)[-2000:]
            time.sleep(0.05)
        os.write(master, b"\x03")  # Ctrl-C, typed
        assert process.wait(timeout=30) == 130
        while _live_processes_in_group(process.pid):  # the workers go with it (the test times out otherwise)
            assert time.monotonic() < deadline + 30, _live_processes_in_group(process.pid)
            time.sleep(0.05)
        reader.join(timeout=10)
    finally:
        if _live_processes_in_group(process.pid):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        os.close(master)
    text = ANSI.sub("", bytes(screen).decode("utf-8", "replace"))
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    lines = [line for line in re.split(r"[\r\n]+", text) if line.strip()]
    decisions = int(re.findall(r"\b0/(\d+)", text)[0])
    message = f"ronda analyse: interrupted before any of the {decisions} decisions was analysed"
    assert lines[-1] == message + " (a smaller --budget is quicker)", bytes(screen)[-600:]  # a line of its own
    assert text.count(message) == 1


def test_ctrl_c_midway_says_how_many_decisions_were_analysed(tmp_path, capsys, monkeypatch) -> None:
    import ronda.analysis.review as review

    evaluate = review._evaluate
    calls = 0

    def interrupted_at_the_third(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt
        return evaluate(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(review, "_evaluate", interrupted_at_the_third)
    assert main(["analyse", str(SAMPLE), "--budget", "2", "--seat", "0", "--no-progress"]) == 130
    out, err = capsys.readouterr()
    total = int(re.findall(r"of the (\d+) decisions", err)[0])
    assert total > 3 and out == ""
    assert (
        err
        == f"ronda analyse: interrupted after analysing 2 of the {total} decisions (a smaller --budget is quicker)\n"
    )
