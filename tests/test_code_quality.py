"""The codebase stays as the project promises: ruff clean everywhere, mypy --strict clean on the engine."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "src", "tests", "benchmarks", "examples", "conftest.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_leaves_every_file_as_it_is() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "src", "tests", "benchmarks", "examples", "conftest.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, "run 'ruff format': " + result.stdout + result.stderr


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


LAYERS: dict[str, set[str]] = {
    "engine": set(),
    "bots": {"engine"},
    "arena": {"engine", "bots"},
    "presentation": {"engine"},
    "interfaces.terminal": {"engine", "bots", "presentation"},
    "interfaces.web": {"engine", "bots", "presentation"},
    "adapters": {"engine", "bots", "presentation"},
    "cli": {"engine", "bots", "arena", "presentation", "interfaces.terminal", "interfaces.web", "adapters"},
}
"""What each part of ``src/ronda`` may import besides itself: the layout is the architecture.

The engine knows nothing else; bots see the engine; the arena runs bots;
presentation (narration, rules text) stands on the engine; interfaces and
adapters stand on those and never on each other; the commands are the top.
"""


def _part_of(module: str) -> str | None:
    """The part of ``ronda`` a module belongs to, by its dotted name (``ronda.bots.pimc`` is ``bots``)."""
    name = module.removeprefix("ronda.")
    return max((part for part in LAYERS if name == part or name.startswith(part + ".")), key=len, default=None)


def _imports(path: Path) -> list[str]:
    """The ``ronda`` modules a source file imports, relative imports resolved."""
    import ast

    package = ".".join(path.relative_to(ROOT / "src").with_suffix("").parts[:-1])
    if path.name == "__init__.py":
        package = ".".join(path.relative_to(ROOT / "src").parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found += [f"{target}.{alias.name}" if not node.module else target for alias in node.names]
    return [name for name in found if name == "ronda" or name.startswith("ronda.")]


def test_no_part_of_the_package_imports_sideways_or_upwards() -> None:
    wrong = []
    for path in sorted((ROOT / "src" / "ronda").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT / "src").with_suffix("").parts)
        part = _part_of(module)
        if part is None:
            continue
        for target in _imports(path):
            other = _part_of(target)
            if other is not None and other != part and other not in LAYERS[part]:
                wrong.append(f"{module} imports {target} ({part} may use only {sorted(LAYERS[part]) or 'itself'})")
    assert not wrong, "\n".join(wrong)
