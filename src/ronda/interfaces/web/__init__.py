"""Ronda in the browser: ``ronda serve`` and the server side of docs/web-protocol.md.

The engine runs on the server; every websocket client receives only what its
seat may know (R11). Modules: :mod:`.protocol` (messages in and out, the VIEW
JSON), :mod:`.store` (SQLAlchemy persistence), :mod:`.tables` (tables, seats,
versions, bots), :mod:`.app` (HTTP and websocket routes); the command is
:mod:`ronda.cli.serve`. The page itself is in ``static/``.

Importing this package needs nothing beyond the standard library; the web
extra (``pip install 'ronda[web]'``) is needed by :mod:`.app` and :mod:`.store`.
"""
