"""The build backend: setuptools', asking for mypyc (mypy) only for a wheel that a C compiler can build.

``pip install .`` (a wheel) compiles the engine's hot modules with mypyc when it
can (see ``setup.py``); where no C compiler or no Python headers are at hand, or
with ``RONDA_PURE=1``, it does not even download mypy. ``pip install -e .``
never compiles, so it needs nothing beyond setuptools.
"""

from __future__ import annotations

from compiled import pure_reason
from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 (the PEP 517 hooks, unchanged but one)

MYPYC = "mypy>=1.10"


def get_requires_for_build_wheel(config_settings: dict[str, str] | None = None) -> list[str]:
    """setuptools' requirements, and mypy (which ships mypyc) where the engine can be compiled."""
    wanted = _setuptools.get_requires_for_build_wheel(config_settings)
    return wanted if pure_reason() else [*wanted, MYPYC]
