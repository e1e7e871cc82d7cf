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
