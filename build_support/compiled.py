"""The engine modules the optional compiled build compiles with mypyc (``setup.py``, ``tests/engine/test_compiled.py``).

The modules of the turn: the rules' hot path, every play of every rollout. The
others (cards, events, views, records) are called far less and stay Python.
"""

MODULES = ("table", "state", "scoring", "settlement", "game")
