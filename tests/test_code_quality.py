"""The codebase stays as the project promises: ruff clean everywhere, mypy --strict clean on the engine."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "src", "tests", "benchmarks", "examples"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_engine_is_mypy_strict_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "src/ronda/engine"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_engine_imports_nothing_outside_the_standard_library() -> None:
    """The engine has no runtime dependencies: every import in it is stdlib or the engine itself."""
    allowed = set(sys.stdlib_module_names) | {"ronda"}
    for path in (ROOT / "src" / "ronda" / "engine").glob("*.py"):
        for line in path.read_text().splitlines():
            words = line.split()
            if len(words) >= 2 and words[0] in ("import", "from") and not words[1].startswith("."):
                assert words[1].split(".")[0] in allowed, f"{path.name}: {line.strip()}"
