"""The codebase stays as the project promises: ruff clean everywhere, mypy --strict clean on the whole package."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_leaves_every_file_as_it_is() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, "run 'ruff format': " + result.stdout + result.stderr


def test_the_whole_package_is_mypy_strict_clean() -> None:
    """Every part, the interfaces and adapters included: mypy reads their libraries' types, so it needs every extra."""
    from extras import EXTRAS, require

    require(*(extra for extra in EXTRAS if extra not in ("browser", "train")))
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "src/ronda"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_engine_bots_arena_and_analysis_are_mypy_strict_clean_with_no_extra() -> None:
    """What ``pip install -e '.[dev]'`` checks: the parts that need nothing beyond the standard library."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "src/ronda/engine",
            "src/ronda/bots",
            "src/ronda/arena",
            "src/ronda/analysis",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_engine_imports_nothing_outside_the_standard_library() -> None:
    """The engine has no runtime dependencies: every import in it is stdlib or the engine itself."""
    import ast

    allowed = set(sys.stdlib_module_names) | {"ronda"}
    for path in (ROOT / "src" / "ronda" / "engine").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                modules = [node.module or ""]
            else:
                continue
            for module in modules:
                assert module.split(".")[0] in allowed, f"{path.name}:{node.lineno} imports {module}"


LAYERS: dict[str, set[str]] = {
    "engine": set(),
    "bots": {"engine"},
    "arena": {"engine", "bots"},
    "analysis": {"engine", "bots"},
    "presentation": {"engine", "analysis"},
    "interfaces.terminal": {"engine", "bots", "analysis", "presentation"},
    "interfaces.web": {"engine", "bots", "analysis", "presentation"},
    "adapters": {"engine", "bots", "arena", "presentation"},  # arena: evaluate() plays its duplicate games
    "cli": {
        "engine",
        "bots",
        "arena",
        "analysis",
        "presentation",
        "interfaces.terminal",
        "interfaces.web",
        "adapters",
    },
}
"""What each part of ``src/ronda`` may import besides itself: the layout is the architecture.

The engine knows nothing else; bots see the engine; the arena runs bots; the
analysis searches with the bots' tools; presentation (narration, rules text,
the analysis in words) stands on the engine and the analysis; interfaces and
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


_PART_WORDS = {
    "engine": "the engine",
    "bots": "the bots",
    "arena": "the arena",
    "analysis": "the analysis",
    "presentation": "presentation",
}


def test_the_readme_says_what_each_part_may_import() -> None:
    """The README's Layout said "each part imports only the parts above it in this list", looser than ``LAYERS``:
    the analysis may not import the arena, nor presentation the bots, nor an interface the adapters."""
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = text[text.index("## Layout") :].split("\n## ")[0]
    said: dict[str, set[str]] = {}
    for part in LAYERS:
        folder = part.split(".")[0]
        line = next(line for line in layout.splitlines() if line.startswith(f"- `src/ronda/{folder}/`"))
        clause = re.search(r"\bimports? (.*?)(?:\. |$)", line)
        words = clause.group(1) if clause else ""
        if words == "any part":
            said[part] = set(LAYERS) - {part}
        else:
            said[part] = {name for name, spoken in _PART_WORDS.items() if spoken in words}
    assert said == LAYERS


def _engine_privates() -> set[str]:
    """Every private name of the engine: its modules' ``_names``, and its classes' ``_slots`` and ``_methods``."""
    import ast

    names: set[str] = set()
    for path in (ROOT / "src" / "ronda" / "engine").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            found: list[str] = []
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                found.append(node.name)
            elif isinstance(node, ast.Assign):
                found += [t.id for t in node.targets if isinstance(t, ast.Name)]
                if any(isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets):
                    found += [e.value for e in getattr(node.value, "elts", []) if isinstance(e, ast.Constant)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                found.append(node.target.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
                found.append(node.attr)
            names |= {n for n in found if isinstance(n, str) and n.startswith("_") and not n.startswith("__")}
    return names


def test_nothing_outside_the_engine_touches_an_engine_private() -> None:
    """The engine's public methods, properties and views are the whole API: no module outside it, bots and
    tests included, reads a private field or imports a private name. Only the engine's own tests (tests/engine)
    may look inside, to check that a refused action changes no field at all."""
    import ast

    privates = _engine_privates()
    assert {"_hands", "_truth", "_play", "_settle", "_rng"} <= privates
    places = [ROOT / "src" / "ronda", ROOT / "tests", ROOT / "benchmarks", ROOT / "examples"]
    wrong = []
    for place in places:
        for path in sorted(place.rglob("*.py")):
            relative = path.relative_to(ROOT)
            if relative.parts[:3] == ("src", "ronda", "engine") or relative.parts[:2] == ("tests", "engine"):
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Attribute) and node.attr in privates:
                    receiver = node.value
                    if not (isinstance(receiver, ast.Name) and receiver.id in ("self", "cls")):
                        wrong.append(f"{relative}:{node.lineno} reads .{node.attr}")
                elif isinstance(node, ast.ImportFrom) and "engine" in (node.module or ""):
                    names = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
                    wrong += [f"{relative}:{node.lineno} imports {name}" for name in names]
    assert not wrong, "engine privates used outside the engine:\n" + "\n".join(wrong)


def test_every_name_the_engine_exports_is_documented() -> None:
    """The engine's ``__init__`` exports are its API: each has a docstring (a class or function), or a string
    right after its assignment (a constant or a type alias), as Sphinx reads them."""
    import ast
    import inspect
    import itertools

    import ronda.engine as engine

    documented_assignments: set[str] = set()
    for path in (ROOT / "src" / "ronda" / "engine").glob("*.py"):
        body = ast.parse(path.read_text()).body
        for node, following in itertools.pairwise(body):
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AnnAssign)
                else []
            )
            if isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant):
                documented_assignments |= {t.id for t in targets if isinstance(t, ast.Name)}
    undocumented = []
    for name in engine.__all__:
        value = getattr(engine, name)
        if inspect.isclass(value) or inspect.isroutine(value) or hasattr(value, "__wrapped__"):
            if not (value.__doc__ or "").strip():
                undocumented.append(name)
        elif name not in documented_assignments:
            undocumented.append(name)
    assert not undocumented, f"exported without documentation: {undocumented}"


def _module_graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Every ``ronda`` module's imports of other ``ronda`` modules: at its top level, and inside functions.

    An imported name is resolved to the module that defines it (``from .game import Game`` is ``ronda.engine.game``).
    """
    import ast

    files = {
        ".".join(path.relative_to(ROOT / "src").with_suffix("").parts).removesuffix(".__init__"): path
        for path in (ROOT / "src" / "ronda").rglob("*.py")
    }

    def module_of(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    top: dict[str, set[str]] = {}
    inner: dict[str, set[str]] = {}
    for module, path in files.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        tree = ast.parse(path.read_text())
        top_nodes = {id(node) for node in tree.body}
        for graph in (top, inner):
            graph[module] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
                names = [f"{base}.{alias.name}" for alias in node.names]
            else:
                continue
            targets = {module_of(name) for name in names if name.startswith("ronda")} - {None, module}
            (top if id(node) in top_nodes else inner)[module] |= {t for t in targets if t is not None}
    return top, inner


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        module = todo.pop()
        if module == goal:
            return True
        if module not in seen:
            seen.add(module)
            todo += graph.get(module, ())
    return False


def test_no_import_inside_a_function_hides_an_import_loop() -> None:
    """A module may import another inside a function (an optional extra, a slow command), never to dodge a loop.

    ``a`` importing ``b`` in a function while ``b`` imports ``a`` at its top (through any chain of modules)
    is a loop: the two are one module in fact, and each can be read only with the other.
    """
    top, inner = _module_graph()
    loops = [
        f"{module} imports {target} inside a function, and {target} imports {module}"
        for module, targets in sorted(inner.items())
        for target in sorted(targets)
        if _reaches(top, target, module)
    ]
    assert not loops, "\n".join(loops)
