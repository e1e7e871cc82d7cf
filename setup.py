"""An optional compiled build of the engine's hot modules with mypyc, as black and mypy ship theirs.

A wheel (``pip install .``, the README's first command) compiles ``COMPILED``
when mypyc and a C compiler are at hand; where either is missing, or with
``RONDA_PURE=1``, it installs the same modules as pure Python, and writes why
into the wheel (``compiled.NOTE``, which ``ronda --version`` shows). An editable
install (``pip install -e .``, the README's test command) is never compiled: a
compiled module beside its source would hide every later edit of that source.
Both builds play the same games (``tests/engine/test_compiled.py``); the
compiled one about twice as fast (docs/speed.md).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

sys.path.insert(0, str(Path(__file__).parent / "build_support"))
from compiled import MODULES, NOTE, pure_reason

COMPILED = [f"src/ronda/engine/{module}.py" for module in MODULES]
BUILDING = bool({"bdist_wheel", "build_ext"} & set(sys.argv))
"""A wheel, or its extensions, is being built (not an editable install, not the metadata alone)."""

note = "compiled (mypyc)"
"""What the wheel's engine will be: the note written into it, replaced by the reason when it falls back to pure."""


def _compiled_modules() -> list[Any]:
    """mypyc's extensions for ``COMPILED``, or none (pure Python, with the reason noted) when they cannot be built."""
    global note
    if not BUILDING:
        return []
    reason = pure_reason()
    if reason:
        note = reason
        print(f"ronda: {reason}: the engine is pure Python", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        note = "mypyc was not installed at install"
        print(f"ronda: {note}: the engine is pure Python", file=sys.stderr)
        return []
    try:
        return list(mypycify(COMPILED, opt_level="3"))
    except Exception as error:  # mypyc refused: build the same code pure
        note = f"mypyc could not compile the engine at install ({error})"
        print(f"ronda: {note}: it is pure Python", file=sys.stderr)
        return []


def _write_note(build_lib: str) -> None:
    path = Path(build_lib) / NOTE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(note + "\n")


class NotedBuildPy(build_py):
    """setuptools' build_py, adding the note of how the wheel's engine is built (never into the sources)."""

    def run(self) -> None:
        super().run()
        if BUILDING and not self.editable_mode:
            _write_note(self.build_lib)


class OptionalBuildExt(build_ext):
    """Build the compiled modules if the C compiler can; otherwise leave none of them (pure Python).

    All or nothing: the modules share one compiled library, so one that fails leaves the others unusable.
    """

    def run(self) -> None:
        global note
        try:
            super().run()
        except Exception as error:
            for path in self.get_outputs():
                if os.path.exists(path):
                    os.remove(path)
            note = f"the C compiler failed at install ({error})"
            print(f"ronda: {note}: the engine is pure Python", file=sys.stderr)
            if not self.inplace:
                _write_note(self.build_lib)


_extensions = _compiled_modules()
setup(ext_modules=_extensions, cmdclass={"build_py": NotedBuildPy, "build_ext": OptionalBuildExt})
