"""Ways for people to play: the terminal game (:mod:`.terminal`) and the browser game (:mod:`.web`).

Each interface stands on the engine, the bots and :mod:`ronda.presentation`;
no interface imports another. The ``ronda`` commands that start them are in :mod:`ronda.cli`.
"""
