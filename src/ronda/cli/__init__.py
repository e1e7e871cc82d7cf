"""The ``ronda`` command: :mod:`.main` is the entry point, one module per sub-command.

Commands are the top of the package: they may use every layer below (engine,
bots, arena, presentation, interfaces, adapters), and nothing imports them.
A command of an optional extra imports that extra only when it runs, and says
which extra to install when it is missing, so ``ronda --help`` always works.
"""
