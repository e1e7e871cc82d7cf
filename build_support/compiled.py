"""What the optional compiled build compiles with mypyc, and whether this machine can (``setup.py``, ``backend.py``).

``MODULES`` are the modules of the turn (the rules' hot path, every play of
every rollout) and of the deal (the shuffle, what a dealt hand holds). The
others (cards, actions, events, views, records) stay Python: they are called
far less, and some take a player's input, whose wrong types they answer with
the game's own errors, where a compiled function would raise its own TypeError.

``pure_reason`` says, before anything is downloaded or generated, why an
install must leave them pure; the reason is written into the wheel (``NOTE``)
so that ``ronda --version`` and ``ronda bench`` can tell the player which
engine runs (``ronda.engine.build``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sysconfig
from collections.abc import Mapping
from pathlib import Path

MODULES = ("table", "state", "scoring", "settlement", "game", "combinations", "deck")

NOTE = "ronda/engine/build-note.txt"
"""The wheel's note of how its engine was built: ``compiled (mypyc)``, or why it is pure Python."""


def pure_reason(environ: Mapping[str, str] = os.environ) -> str | None:
    """Why an install on this machine builds the engine as pure Python, or ``None`` when it can compile it.

    The compiler is the one setuptools would call: ``CC`` if set, else the one Python was built with.
    Where neither names one (Windows: setuptools finds MSVC itself), the build tries, and a failure
    leaves the engine pure all the same (``setup.py``'s ``OptionalBuildExt``).
    """
    if environ.get("RONDA_PURE") == "1":
        return "RONDA_PURE=1 at install"
    named = environ.get("CC", sysconfig.get_config_var("CC"))
    compiler = shlex.split(named) if isinstance(named, str) else None
    if compiler == []:
        return "no C compiler at install (CC is empty)"
    if compiler and shutil.which(compiler[0]) is None:
        return f"no C compiler at install ({compiler[0]} not found)"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers at install (Python.h; Debian's python3-dev)"
    return None
