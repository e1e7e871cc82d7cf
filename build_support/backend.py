"""The build backend: setuptools', asking for mypyc (mypy) only to build a wheel, never for an editable install.

``pip install .`` (a wheel) compiles the engine's hot modules with mypyc when it
can (see ``setup.py``); ``pip install -e .`` never does, so it needs nothing
beyond setuptools. ``RONDA_PURE=1`` builds a pure-Python wheel.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 (the PEP 517 hooks, unchanged but one)

MYPYC = "mypy>=1.10"


def get_requires_for_build_wheel(config_settings: dict[str, str] | None = None) -> list[str]:
    """setuptools' requirements, and mypy (which ships mypyc) unless ``RONDA_PURE=1``."""
    wanted = _setuptools.get_requires_for_build_wheel(config_settings)
    return wanted if os.environ.get("RONDA_PURE") == "1" else [*wanted, MYPYC]
