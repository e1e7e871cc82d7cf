"""What checking a name for rude words costs, with the shipped list and with a large operator's list.

    python benchmarks/rude_names.py

``RudeWords.check`` runs on the event loop for every name typed (``POST /api/me``, create, join, play now), so
its cost must not grow with the list an operator loads (``ronda serve --rude-words FILE``). This times
``RudeWords.holds`` on ordinary names and on the costliest names found (24 characters, the most a name may have,
chosen to fold into many readings and words), with the shipped list and with a made-up operator's file of
20,000 seven-letter words, a quarter of them stems (``word*``); the mean of ``--repeat`` checks each.
"""

from __future__ import annotations

import argparse
import random
import string
import tempfile
import time
from pathlib import Path

from ronda.interfaces.web.rude import RudeWords

NAMES = {
    "ordinary": "Amina Benali",
    "arabic": "\u0645\u062d\u0645\u062f \u0627\u0644\u0639\u0644\u0648\u064a",
    "24 single letters": "a " * 12,
    "24 digits": ("0123456789" * 3)[:24],
    "24 symbols": "@$!\u20ac+\u00a1" * 4,
    "24 times \ufdfa": "\ufdfa" * 24,  # four words each, once folded
    "24 times \ufdfb": "\ufdfb" * 24,
}


def operator_file(lines: int) -> Path:
    """A made-up ``--rude-words`` file of ``lines`` random seven-letter words, every fourth one a stem."""
    rnd = random.Random(1)
    words = ("".join(rnd.choices(string.ascii_lowercase, k=7)) + ("*" if i % 4 == 0 else "") for i in range(lines))
    path = Path(tempfile.mkdtemp()) / "rude-words.txt"
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    return path


def per_check(words: RudeWords, name: str, repeat: int) -> float:
    """The mean milliseconds of ``repeat`` checks of ``name``."""
    start = time.perf_counter()
    for _ in range(repeat):
        words.holds(name)
    return (time.perf_counter() - start) / repeat * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="checks of each name (default 200)")
    parser.add_argument("--lines", type=int, default=20_000, help="words of the operator's file (default 20000)")
    args = parser.parse_args()
    shipped = RudeWords.load()
    start = time.perf_counter()
    large = RudeWords.load(operator_file(args.lines))
    print(f"loading {args.lines} more words: {time.perf_counter() - start:.2f} s (once, as the server starts)")
    for label, name in NAMES.items():
        small, big = per_check(shipped, name, args.repeat), per_check(large, name, args.repeat)
        print(f"{label:>18}: {small:6.3f} ms with the shipped list, {big:6.3f} ms with {args.lines} more words")


if __name__ == "__main__":
    main()
