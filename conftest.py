"""Test-suite plumbing shared by ``tests/`` and the doctests of ``src/ronda``.

- ``tests/`` is importable (helpers such as ``decks.py`` and ``extras.py``).
- A module of ``src/ronda`` whose optional extra is not installed is not
  imported for its doctests: it is reported as one skipped item naming the
  extra to install.
- In CI (``RONDA_CI``, set by ``.ci/run``, which installs every extra and
  Debian's chromium and PostgreSQL) nothing may skip: a skip is a failure.
- In CI, hypothesis runs the same examples every time (``derandomize``), so a
  run's verdict depends only on the code; elsewhere it explores new random
  examples on each run and keeps the failures it finds in ``.hypothesis/``.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tests"))

from extras import EXTRA_OF_MODULE, install_hint  # noqa: E402

SRC = ROOT / "src"

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("RONDA_CI"):
    settings.load_profile("ci")
PACKAGE_EXTRA = {
    "ronda.interfaces.terminal": "tui",
    "ronda.interfaces.web": "web",
    "ronda.adapters": "research",
}
"""The extra each package of an optional interface belongs to (``rich``, say, comes with more than one)."""


def _missing_extra(path: Path) -> tuple[str, str] | None:
    """For a module of ``src/ronda``: the extra and module it lacks, if importing it fails for that."""
    module = ".".join(path.relative_to(SRC).with_suffix("").parts)
    if module.endswith(".__init__"):
        module = module.removesuffix(".__init__")
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as error:
        top = (error.name or "").split(".")[0]
        if top not in EXTRA_OF_MODULE:
            raise
        extra = next((e for package, e in PACKAGE_EXTRA.items() if module.startswith(package)), EXTRA_OF_MODULE[top])
        return extra, top
    return None


class _SkippedModule(pytest.File):
    """Stands for a module whose doctests need a missing extra: one item that skips and says which."""

    reason: str = ""

    def collect(self) -> Iterator[pytest.Item]:
        yield _SkipItem.from_parent(self, name="doctests", reason=self.reason)


class _SkipItem(pytest.Item):
    def __init__(self, *, reason: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reason = reason

    def runtest(self) -> None:
        pytest.skip(self.reason)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"doctests of {self.path.name}"


@pytest.hookimpl(hookwrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Iterator[None]:
    outcome = yield
    if file_path.suffix != ".py" or file_path.name == "__main__.py" or SRC not in file_path.parents:
        return
    missing = _missing_extra(file_path)
    if missing is not None:
        skipped = _SkippedModule.from_parent(parent, path=file_path)
        skipped.reason = install_hint(*missing)
        outcome.force_result([skipped])


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("RONDA_CI") and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.longrepr = f"skipped in CI, where everything is installed and nothing may skip: {reason}"


HEAVY_FILES = (
    "tests/terminal/test_app.py",
    "tests/web/test_browser.py",
    "tests/web/test_browser_endings.py",
    "tests/terminal/test_screen.py",
    "tests/web/test_browser_pages.py",
    "tests/web/test_web_cluster.py",
    "tests/web/test_browser_pairing.py",
    "tests/web/test_browser_clock.py",
    "tests/web/test_browser_ratings.py",
    "tests/web/test_web_serve.py",
    "tests/web/test_browser_reading.py",
    "tests/web/test_browser_coaching.py",
    "tests/web/test_web_who_played.py",
    "tests/web/test_browser_page_states.py",
    "tests/terminal/test_audit_screen.py",
    "tests/web/test_browser_network.py",
    "tests/web/test_browser_away.py",
    "tests/web/test_web_seats.py",
    "tests/web/test_web_caps.py",
    "tests/web/test_browser_words.py",
    "tests/engine/test_properties.py",
)
"""The files that take longest (30 s to 160 s of one worker on a loaded two-core machine: ``pytest --durations=0``
summed by file), heaviest first. The workers take whole files (``--dist loadfile``) in collection order
(``--no-loadscope-reorder``; xdist's own order, most tests first, put these last): started first, they leave the
small files to even out the end, where one of them started last kept the other worker idle for up to a minute."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {name: place for place, name in enumerate(HEAVY_FILES)}

    def place(item: pytest.Item) -> int:
        return rank.get(item.path.relative_to(ROOT).as_posix(), len(HEAVY_FILES))

    items.sort(key=place)  # stable: a file's tests stay together and in their order
