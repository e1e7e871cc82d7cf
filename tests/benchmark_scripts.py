"""Running a script of ``benchmarks/`` as its users run it: ``python benchmarks/NAME.py ARGS`` from the project root."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_benchmark(name: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``benchmarks/NAME.py ARGS`` in a new interpreter, its output captured; the exit status is for the caller."""
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / f"{name}.py"), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        cwd=ROOT,
    )
