"""Research interfaces: Ronda for PettingZoo, Gymnasium and OpenSpiel, and policies trained on them.

They are optional extras (``pip install 'ronda[research]'``; training needs
``ronda[train]``) and implement no rule of their own: every move goes
through ``Game.legal_actions``/``apply`` and every observation is built from
``Game.view(seat)`` only (R11).

=============================  ===================================================
:mod:`.encoding`               the 48 action ids, the observation (855 values in
                               [0, 1], named pieces, seats relative to the
                               observer) and the full state
:mod:`.returns`                the one returns helper: ``round``, ``game``,
                               ``outcome``; zero-sum, a lost game never worth more
                               than a won one; true bounds
:mod:`.episode`                a round or a whole game as one episode, dealt from
                               the environment's seeded generator, begun anywhere:
                               given or drawn scores, a record's position
:mod:`.pettingzoo`             the AEC environment ``ronda_v0`` (``state()`` too)
:mod:`.gymnasium`              ``Ronda-v0``: one seat against opponents, flat or
                               dict observations, ``action_masks()``
:mod:`.opponents`              opponents: levels with settings, bots, policy functions
:mod:`.openspiel`              the Python game ``python_ronda``, ISMCTS-ready, every
                               observation type; two small bot wrappers for
                               ``evaluate_bots``
:mod:`.policy`                 trained networks played with numpy alone; the
                               ``policy:PATH`` bots (``ronda arena policy:ronda-2p``)
:mod:`.evaluation`             ``evaluate(policy, field)``: any policy against
                               opponents on the arena's duplicate deals, with
                               intervals and, when asked, trajectories
=============================  ===================================================
"""
