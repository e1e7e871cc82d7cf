"""Words and judgements shared by every way of showing a game to people.

- :mod:`.narration` — the play-by-play of events;
- :mod:`.rules_text` — the rulebook in prose;
- :mod:`.challenge` — which challenges to offer a seat and the warning before one (R8.8);
- :mod:`.summary` — each round's points by group (caida, missa, announcements, …), from the events;
- :mod:`.messages` — engine messages as a player reads them, without rule ids.

It stands on the engine only, below the interfaces (terminal, web), the
research adapters and the commands, so that all of them tell a game the same way.
"""
