"""The package's extras: one version range for each library, whichever extra installs it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _requirements(extra: str, extras: dict[str, list[str]]) -> dict[str, str]:
    """Each library an extra installs, with its version range, its ``ronda[...]`` extras followed."""
    found: dict[str, str] = {}
    for requirement in extras[extra]:
        inner = re.fullmatch(r"ronda\[(\w+)\]", requirement)
        if inner:
            found.update(_requirements(inner.group(1), extras))
            continue
        name = re.match(r"[A-Za-z0-9_.\-]+", requirement)
        assert name is not None
        found[name.group(0).lower()] = requirement
    return found


def test_torch_has_one_pin_for_training_and_for_the_tests() -> None:
    """``pip install -e '.[test]'`` and ``'.[train]'`` must get the same torch (a newer one is a CUDA download)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert _requirements("test", extras)["torch"] == _requirements("train", extras)["torch"]
    assert "<=" in _requirements("train", extras)["torch"]
