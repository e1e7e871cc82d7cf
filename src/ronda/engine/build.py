"""Which engine runs: compiled with mypyc (a wheel built where a C compiler was), or pure Python, and why.

``pip install .`` (the README's first command) compiles the modules of the turn
where it can and otherwise notes why not, in a file beside this module
(``build-note.txt``, written by ``setup.py``); a source tree or an editable
install has no note and is never compiled. ``ronda --version`` and ``ronda bench``
print :func:`engine_build`, so a player who measures speed knows what was measured.
"""

from __future__ import annotations

from pathlib import Path

from . import game

COMPILED = "compiled (mypyc)"


def is_compiled() -> bool:
    """Whether the turn's modules are compiled extensions rather than Python sources."""
    return not str(game.__file__).endswith(".py")


def engine_build() -> str:
    """``compiled (mypyc)``, or ``pure Python: `` and why (no C compiler at install, an editable install...).

    A source tree or an editable install is never compiled, so that an edit of the engine always runs.
    """
    if is_compiled():
        return COMPILED
    note = Path(__file__).with_name("build-note.txt")
    if not note.is_file():
        return "pure Python: an editable install or a source tree"
    reason = note.read_text().strip()
    if reason == COMPILED:
        return "pure Python: the compiled modules of the install are missing"
    return f"pure Python: {reason}"
