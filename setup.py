"""An optional compiled build of the engine's hot modules with mypyc, as black and mypy ship theirs.

A wheel (``pip install .``) compiles ``COMPILED`` when mypyc and a C compiler
are at hand; where either is missing, or with ``RONDA_PURE=1``, it installs the
same modules as pure Python. An editable install (``pip install -e .``, the
README's commands) is never compiled: a compiled module beside its source would
hide every later edit of that source. Both builds play the same games
(``tests/engine/test_compiled.py``); the compiled one about twice as fast
(docs/speed.md).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

sys.path.insert(0, str(Path(__file__).parent / "build_support"))
from compiled import MODULES

COMPILED = [f"src/ronda/engine/{module}.py" for module in MODULES]


def _compiled_modules() -> list[Any]:
    """mypyc's extensions for ``COMPILED``, or none (pure Python) when not building a wheel or without mypyc."""
    if os.environ.get("RONDA_PURE") == "1" or not {"bdist_wheel", "build_ext"} & set(sys.argv):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("ronda: mypyc is not installed: the engine is pure Python", file=sys.stderr)
        return []
    try:
        return list(mypycify(COMPILED, opt_level="3"))
    except Exception as error:  # mypyc refused: build the same code pure
        print(f"ronda: mypyc could not compile the engine ({error}): it is pure Python", file=sys.stderr)
        return []


class OptionalBuildExt(build_ext):
    """Build the compiled modules if a C compiler can; otherwise leave none of them (pure Python).

    All or nothing: the modules share one compiled library, so one that fails leaves the others unusable.
    """

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:
            for path in self.get_outputs():
                if os.path.exists(path):
                    os.remove(path)
            print(f"ronda: no C compiler could build the engine ({error}): it is pure Python", file=sys.stderr)


setup(ext_modules=_compiled_modules(), cmdclass={"build_ext": OptionalBuildExt})
