"""Words and judgements shared by every way of showing a game to people.

- :mod:`.narration` — the play-by-play of events;
- :mod:`.rules_text` — the rulebook in prose;
- :mod:`.challenge` — which challenges to offer a seat and the warning before one (R8.8);
- :mod:`.summary` — each round's points by group (caida, missa, announcements, …), from the events;
- :mod:`.coaching` — the words of the analysis: a hint's options, each decision's verdict, a seat's summary;
- :mod:`.progress` — plain progress lines for a long search off a terminal;
- :mod:`.messages` — engine messages as a player reads them, without rule ids.

It stands on the engine, and on the analysis for the analysis's words (:mod:`.coaching`; ``LAYERS`` in
``tests/test_code_quality.py``), below the interfaces (terminal, web), the research adapters and the
commands, so that they tell a game the same way. The browser page is the exception in words, not in
judgements: the server sends it events and facts (the challenge verdicts are :mod:`.challenge`'s), and the
page says them in English, French or Arabic with its own play-by-play (``static/js/narrate.js``) and its
own help texts (``static/js/i18n.js``).
"""
