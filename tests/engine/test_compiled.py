"""The compiled engine (a wheel built with mypyc, setup.py) plays exactly the games of the pure-Python one.

Two engines from the same sources play the same games — every event, score,
record, view, copy and position built from a view must agree: the installed
engine, and a second one beside it under another name. When the installed one
is compiled (a wheel), the second is its sources as pure Python; when it is pure
Python (an editable install, ``PYTHONPATH=src``), the second is those sources
compiled here with mypyc, as ``setup.py`` compiles them (half a minute). The
engine imports only itself and the standard library, so either loads anywhere.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import ronda.engine
import ronda.engine.build
import ronda.engine.game

ROOT = Path(__file__).resolve().parents[2]
COMPILED_MODULES = ROOT / "build_support" / "compiled.py"
INSTALLED_IS_COMPILED = not ronda.engine.game.__file__.endswith(".py")


def _other_engine(folder: Path) -> ModuleType:
    """The engine's ``.py`` sources copied as ``other_engine``: left pure, or compiled if the installed one is not."""
    package = folder / "other_engine"
    package.mkdir()
    for source in Path(ronda.engine.__file__).parent.glob("*.py"):
        shutil.copy(source, package / source.name)
    if not INSTALLED_IS_COMPILED:
        compiler = shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0])
        headers = (Path(sysconfig.get_paths()["include"]) / "Python.h").exists()
        if importlib.util.find_spec("mypyc") is None or not compiler or not headers:
            pytest.skip("neither engine is compiled, and mypyc, a C compiler or Python's headers are missing")
        names: dict[str, Any] = {}
        exec(COMPILED_MODULES.read_text(), names)
        files = [f"other_engine/{module}.py" for module in names["MODULES"]]
        # The C compiler's optimisation does not change what mypyc made of the sources, and at 0 the build takes a
        # third of the time (9 s against 26 s here).
        quick = {**os.environ, "MYPYC_OPT_LEVEL": "0"}
        subprocess.run([sys.executable, "-m", "mypyc", *files], cwd=folder, check=True, capture_output=True, env=quick)
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module("other_engine")
    finally:
        sys.path.remove(str(folder))


def _play(engine: Any, rules_values: dict[str, Any], seed: int) -> list[Any]:
    """A game of random legal choices (bluffs, challenges), with a copy and a position played on beside it."""
    rules = engine.Rules(**rules_values)
    game = engine.Game(rules, seed=seed)
    rng = random.Random(seed)
    seen: list[Any] = []
    while game.phase in ("declare", "play") and len(seen) < 400:
        legal = game.legal_actions()
        action = legal[rng.randrange(len(legal))]
        seen.append([event.to_json() for event in game.apply(action)])
        if game.phase in ("declare", "play") and rng.random() < 0.05:
            seat = game.turn
            view = game.view(seat)
            seen.append(tuple(game.view_masks(seat))[1:])  # [0] is the Rules, of each engine's own class
            hands = {s: game.hand(s) for s in range(rules.players) if s != seat and view.shown[s] is None}
            guess = engine.Game.from_view(view, hands, game.stock_cards())
            guess.playout(random.Random(seed), truthful=True)
            copy = game.copy(history=False)
            copy.playout(random.Random(seed))
            seen.append((guess.scores, guess.pile_sizes, copy.scores, copy.pile_sizes, copy.phase))
    seen.append((game.scores, game.winner, game.to_record()))
    return seen


VARIANTS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 2, "auto_declare": True},
    {"players": 4, "four_card_hands": True, "dealer_duty": True},
    {"players": 3, "transfer_scoring": True, "chain_points": (1, 6, 15)},
    {"players": 2, "ace_high": True, "undeclared_ronda_penalty": 5, "target": 21},
]


def test_the_compiled_engine_plays_the_same_games_as_the_pure_one(tmp_path: Path) -> None:
    other = _other_engine(tmp_path)
    assert other.game.__file__.endswith(".py") == INSTALLED_IS_COMPILED  # one of the two is compiled
    compiled, pure = (ronda.engine, other) if INSTALLED_IS_COMPILED else (other, ronda.engine)
    build = [importlib.import_module(f"{engine.__name__}.build").engine_build() for engine in (compiled, pure)]
    assert build[0] == "compiled (mypyc)"  # what `ronda --version` and `ronda bench` say
    assert build[1].startswith("pure Python: ")
    for values in VARIANTS:
        for seed in range(20):  # many games end early on a random challenge (R8.8): the build, not play, is slow
            assert _play(ronda.engine, values, seed) == _play(other, values, seed), (values, seed)


def test_an_install_without_a_c_compiler_works_in_pure_python_and_says_why(tmp_path: Path) -> None:
    """The README's first command (``pip install .``) on a machine without gcc: a pure wheel, and the reason shown.

    ``CC`` names a compiler that does not exist; pip builds the wheel as it would for a player (build
    isolation: setuptools from the package index; mypy is not even asked for).
    """
    project = tmp_path / "project"
    project.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md", "build_support", "src"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, project / name, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info"))
        else:
            shutil.copy(source, project / name)
    environ = {**os.environ, "CC": str(tmp_path / "no-such-cc"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    environ.pop("RONDA_PURE", None)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "wheels"), str(project)],
        env=environ,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "wheels").glob("ronda-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        assert [name for name in archive.namelist() if name.endswith(".so") or "mypyc" in name] == []
        archive.extractall(tmp_path / "site")
    environ["PYTHONPATH"] = str(tmp_path / "site")
    shown = subprocess.run(
        [sys.executable, "-m", "ronda", "--version"], env=environ, capture_output=True, text=True, check=True
    )
    assert "engine: pure Python: no C compiler at install" in " ".join(shown.stdout.split())  # argparse wraps it
    played = subprocess.run(
        [sys.executable, "-m", "ronda", "bench", "--players", "2", "--rounds", "5", "--json"],
        env=environ,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(played.stdout)["engine"] == f"pure Python: no C compiler at install ({environ['CC']} not found)"
