"""The README's two set-up commands are the ones CI runs and they name real things."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```sh\n(.+?)\n```", text)


def test_ci_runs_exactly_the_readme_test_command() -> None:
    install_and_test = _commands()[1]
    assert f'TEST_COMMAND="{install_and_test}"' in (ROOT / ".ci" / "run").read_text()


def test_readme_main_command_uses_files_that_exist() -> None:
    main = _commands()[0]
    for word in main.split():
        if word.startswith("examples/"):
            assert (ROOT / word).is_file(), word


def test_every_link_of_the_readme_and_the_docs_to_a_file_of_the_project_leads_to_one() -> None:
    """A newcomer follows the README's links to the docs, and the docs' links to each other."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = []
    for page in pages:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)} -> {target}")
    assert broken == []


def test_the_readme_starts_with_its_two_commands_and_keeps_measurements_in_the_docs() -> None:
    """The top of the README is for a newcomer: the two commands come first, and no table of figures is there."""
    text = (ROOT / "README.md").read_text()
    first_command = text.index("```sh")
    assert first_command < 1500
    assert "p99" not in text and "decisions/s" not in text


def test_readme_main_command_installs_the_engine_compiled_where_it_can() -> None:
    """A player's install is a wheel, compiled with mypyc where a C compiler is (docs/speed.md); the tests' editable."""
    main, install_and_test = _commands()[:2]
    assert "pip install '.[tui]'" in main.split("&&")[1]
    assert "pip install -e '.[test]'" in install_and_test


def test_the_readme_engine_example_runs_and_shows_the_real_reprs() -> None:
    """A newcomer pastes the engine example and compares what it prints with its comments."""
    text = (ROOT / "README.md").read_text()
    example = text.split("## The engine in Python", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    names: dict[str, object] = {}
    exec(compile(example, "README.md", "exec"), names)
    shown = re.search(r"game\.legal_actions\(\)  # \[(.+), \.\.\.\]", example)
    assert shown is not None
    from ronda import Game, Rules

    assert repr(Game(Rules(players=2), seed=42).legal_actions()).startswith("[" + shown.group(1) + ", ")


def test_the_readme_commands_after_the_set_up_run_without_activating_the_venv() -> None:
    """The first command installs into ``.venv`` without activating it: a bare ``ronda`` after it is "command not
    found", and a bare ``python``/``pip`` is another Python's (or none, on Debian)."""
    text = (ROOT / "README.md").read_text()
    for block in _commands()[2:]:
        for line in block.splitlines():
            assert line.startswith(".venv/bin/"), line
    inline = re.findall(r"`(?:PYTHONPATH=\S+ )?((?:ronda|python3?|pip) [^`]*)`", text)
    # prose may name `ronda play` as a command, or say that `python …` alone works once activated
    commands = [code for code in inline if code.split()[0] != "ronda" and not code.endswith("…")]
    assert commands == []
