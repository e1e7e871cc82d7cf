"""``ronda play``: Ronda in the terminal against bots.

- :mod:`.session` — the game apart from any screen: the human's seat, the bots, turns, words, save and resume;
- :mod:`.app` and :mod:`.widgets` — the full-screen interface (the ``tui`` extra, Textual);
- :mod:`.cards` — cards drawn with suit symbols and colours;
- :mod:`.plain` — the plain line mode for pipes, scripts and screen readers.

Both interfaces drive a :class:`~.session.Session` and show only the human seat's view (R11).
"""
