"""Every client message is read in one place, and a bad one gets the protocol's own words (docs/web-protocol.md).

These pin the exact error each kind of bad message gets, so that the way
messages are read (a tagged union of pydantic models) can change without a
client seeing different words; the size and depth bounds are counted before
any parsing.
"""

from __future__ import annotations

import pytest

from ronda.engine.actions import Declare, Play
from ronda.interfaces.web.protocol import Act, Hello, ProtocolError, Settings, read_client_message

KINDS = "hello, act, auto_declare, rematch, ping, settings, hint"

BAD = [
    ("[1, 2]", "bad_message", 'a message must be a JSON object with a "type"'),
    ('{"type": 7}', "bad_message", f'a message needs a "type" ({KINDS})'),
    ("{}", "bad_message", f'a message needs a "type" ({KINDS})'),
    ('{"type": "' + "x" * 60 + '"}', "unknown_type", f"unknown message type '{'x' * 40}…' ({KINDS})"),
    ("not json", "bad_json", "a message must be one JSON object"),
    ('{"type": "ping"} x', "bad_json", "a message must be one JSON object"),
    (
        '{"type": "hello", "since": true}',
        "bad_message",
        'hello\'s "since" is the last version you hold (a whole number), or null',
    ),
    ('{"type": "hello", "token": ""}', "bad_message", 'hello\'s "token" is the string the server gave, or null'),
    ('{"type": "act"}', "bad_message", 'an act message needs an "action", like {"play": "5o"}'),
    ('{"type": "act", "action": {"play": "13x"}}', "bad_message", "not a card: '13x' (write rank then suit: 5o, 12e)"),
    (
        '{"type": "act", "action": {"play": "5o"}, "version": "x", "zzz": 1}',
        "bad_message",
        "a act message has no field 'zzz'",
    ),
    ('{"type": "auto_declare", "on": "yes"}', "bad_message", 'auto_declare needs "on": true or false'),
    (
        '{"type": "settings", "public": null}',
        "bad_message",
        'settings needs "public", "spectators" or "hints": true or false',
    ),
    ('{"type": "settings", "spectators": "no"}', "bad_message", "settings: \"spectators\" is true or false, not 'no'"),
    ("[" * 7 + "]" * 7, "bad_message", "a message nests arrays and objects at most 6 deep"),
    ('{"type": "ping", "pad": "' + "x" * 5000 + '"}', "too_large", "a message may hold at most 4096 bytes"),
]


@pytest.mark.parametrize(("frame", "code", "words"), BAD)
def test_a_bad_message_gets_its_code_and_words(frame: str, code: str, words: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        read_client_message(frame)
    assert (refused.value.code, refused.value.message) == (code, words)


def test_the_depth_bound_is_counted_before_parsing() -> None:
    """Nesting far past any parser's recursion limit gets the depth error, not a crash or a parser's error."""
    with pytest.raises(ProtocolError, match="at most 6 deep"):
        read_client_message("[" * 2000 + "]" * 2000)


def test_good_messages_are_read_into_their_types() -> None:
    assert read_client_message('{"type": "hello", "token": "abc", "since": 3}') == Hello(token="abc", since=3)
    assert read_client_message('{"type": "act", "action": {"play": "5o"}, "version": 12}') == Act(
        action=Play.parse("5o"), version=12
    )
    assert read_client_message('{"type": "act", "action": {"declare": "ronda"}}') == Act(action=Declare("ronda"))
    assert read_client_message('{"type": "settings", "public": true}') == Settings(public=True)
