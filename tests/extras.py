"""Optional extras in the test suite: a test of an extra skips, naming the extra, when it is not installed.

``pip install -e '.[dev]'`` runs everything the engine, the bots, the arena, the
records and the plain terminal game need; the tests of each optional extra
(terminal full screen, web, research, Ray) need that extra. In CI (``RONDA_CI``
set by ``.ci/run``, which installs everything) a missing extra is a failure, not a skip.
"""

from __future__ import annotations

import importlib.util
import os

import pytest

EXTRAS: dict[str, tuple[str, ...]] = {
    "tui": ("textual",),
    "web": (
        "fastapi",
        "uvicorn",
        "sqlalchemy",
        "alembic",
        "anyio",
        "httpx",
        "websockets",
        "icu",
        "argon2",
        "openskill",
    ),
    "postgres": ("psycopg",),
    "browser": ("playwright",),
    "research": ("numpy", "gymnasium", "pettingzoo", "pyspiel"),
    "train": ("torch", "stable_baselines3", "sb3_contrib"),
    "ray": ("ray",),
    "arena": ("rich",),
}
"""Each extra (``pyproject.toml``) and the modules its tests import; ``browser`` is Playwright, a test-only tool."""

EXTRA_OF_MODULE = {module: extra for extra, modules in EXTRAS.items() for module in modules}


def missing_module(extra: str) -> str | None:
    """The first module of ``extra`` that is not installed, or ``None``."""
    for module in EXTRAS[extra]:
        if importlib.util.find_spec(module) is None:
            return module
    return None


def install_hint(extra: str, module: str) -> str:
    return f"the {extra} extra is not installed ({module} is missing): pip install -e '.[{extra}]'"


def require(*extras: str) -> None:
    """At the top of a test module, before importing an extra: skip the module if one is missing (fail in CI)."""
    for extra in extras:
        module = missing_module(extra)
        if module is not None:
            if os.environ.get("RONDA_CI"):
                pytest.fail(f"RONDA_CI is set but {install_hint(extra, module)}", pytrace=False)
            pytest.skip(install_hint(extra, module), allow_module_level=True)
