"""Words and text shared by every way of showing a game: narration of events, the rulebook in prose.

It stands on the engine only, below the interfaces (terminal, web), the
research adapters and the commands, so that all of them tell a game the same way.
"""
