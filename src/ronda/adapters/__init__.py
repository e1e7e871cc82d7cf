"""Research interfaces: thin adapters from the engine to PettingZoo, Gymnasium and OpenSpiel.

They are optional extras (``pip install 'ronda[research]'``) and implement no
rule of their own: every move goes through ``Game.legal_actions``/``apply`` and
every observation is built from ``Game.view(seat)`` only (R11).
"""
