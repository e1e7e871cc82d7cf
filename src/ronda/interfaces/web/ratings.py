"""Ratings of people's games: OpenSkill's Plackett-Luce model, one rating per player and per player count.

A rating is a belief about a player's skill: ``mu`` (the estimate) and
``sigma`` (how unsure it is). What a player sees is one conservative number,
:func:`shown`: ``1000 + 20 * (mu - 3*sigma)``, the skill the player is almost
surely above, scaled so that a newcomer shows 1,000 (mu 25, sigma 25/3: the
cautious estimate is 0) and a regular settles some hundreds above it. Being
conservative, the number rises as the player plays and the model grows sure,
so it rewards playing rated games, not only winning them.

Two, three and four players are rated apart (:data:`PLAYER_COUNTS`): a game
of three, each for themself, is not a game of two, and a game of four is
played in partnerships (R2.2), rated as two teams of two (seats 0 and 2
against 1 and 3, the engine's sides), so partners move together.

The first :data:`PROVISIONAL_GAMES` rated games of a player at a player count
are *provisional*: sigma is still large (from 8.3 it falls to about 5 after
ten games of two), so the number moves by tens of points a game and says
little yet. The page marks it, and the leaderboard lists such players apart.

Only the game's outcome counts, as ranks: the winner first; in a game of
three the two others by their scores (ties share a rank). A player who left
and did not come back within the grace period (the stand-in bot played for
them) is ranked last, whatever the stand-in did: a game abandoned counts as
lost. In partnerships, the side of a player who left is ranked last.

>>> after = rate(2, [NEW, NEW], winner=0, scores=[11, 4])
>>> [shown(s) for s in after], [s.games for s in after]
([1069, 963], [1, 1])
>>> [r.result for r in ranks_of(3, winner=1, scores=[5, 11, 7], abandoned=set())]
['lost', 'won', 'lost']
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""OpenSkill's Plackett-Luce model with its defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300)."""

PLAYER_COUNTS = (2, 3, 4)
"""Each player count has its own ratings and leaderboard."""

BASE, SCALE = 1000, 20
"""The number shown is ``BASE + SCALE * (mu - 3*sigma)`` (:func:`shown`)."""

PROVISIONAL_GAMES = 10
"""A rating is provisional until the player has played this many rated games at its player count."""

WON, LOST = "won", "lost"


@dataclass(frozen=True)
class Skill:
    """A player's rating at one player count: the model's belief, and how many rated games it rests on."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


NEW = Skill(MODEL.mu, MODEL.sigma, 0)
"""The rating of a player's first rated game at a player count."""


def shown(skill: Skill) -> int:
    """The number players see: conservative (mu - 3*sigma), scaled so that a newcomer shows :data:`BASE`."""
    return round(BASE + SCALE * (skill.mu - 3 * skill.sigma))


@dataclass(frozen=True)
class Placing:
    """One seat's outcome in a rated game: its rank (0 is first; ties share one) and the result it counts as."""

    rank: int
    result: str
    abandoned: bool


def side_of(players: int, seat: int) -> int:
    """The seat's side: partners (seats 0 and 2, 1 and 3) share one with four players (R2.2), else its own."""
    return seat % 2 if players == 4 else seat


def contested(players: int, abandoned: set[int]) -> bool:
    """Whether a finished game is a contest to rate: some side has no seat whose player left it.

    When every side has a leaver, every side would be placed last and lose (:func:`ranks_of`) while the model
    still moved the ratings apart: the stored results and ratings contradicted each other (an audit). Such a
    game is not rated.

    >>> contested(2, {1}), contested(2, {0, 1}), contested(4, {0, 2}), contested(4, {0, 3})
    (True, False, True, False)
    """
    sides = 2 if players == 4 else players
    return len({side_of(players, seat) for seat in abandoned}) < sides


BOT, GUEST, SAME_PLAYER, UNPLAYED, ALL_LEFT = "bot", "guest", "same_player", "unplayed", "all_left"
"""Why a finished game is not rated (:func:`unrated`): a bot's seat; a person's seat taken without a kept name
(docs/server.md, "Identity and accounts"); one player in two seats; a person who never made a decision of their
own; every side has a player who left."""


def unrated(seats: list[tuple[str, str | None]], unplayed: tuple[int, ...], abandoned: set[int]) -> list[str]:
    """Every reason why a finished game is not rated, in the order above; empty: it is rated.

    ``seats``: each seat's kind and player (``None`` without a kept name), in seat order; ``unplayed``: the people's
    seats that made no decision of their own; ``abandoned``: the seats whose players left it. The store decides
    with it (:meth:`.store.Store.rate_game`) and the table tells the players with it (the summary's ``unrated``),
    so that what the end screen says is what the store did.

    >>> unrated([("human", "a"), ("human", "b")], (), set()), unrated([("human", "a"), ("bot", None)], (), set())
    ([], ['bot'])
    >>> unrated([("human", "a"), ("human", None)], (1,), set()), unrated([("human", "a"), ("human", "a")], (), {0, 1})
    (['guest', 'unplayed'], ['same_player', 'all_left'])
    """
    people = [player for kind, player in seats if kind == "human" and player is not None]
    reasons = []
    if any(kind != "human" for kind, _ in seats):
        reasons.append(BOT)
    if any(kind == "human" and player is None for kind, player in seats):
        reasons.append(GUEST)
    if len(set(people)) != len(people):
        reasons.append(SAME_PLAYER)
    if unplayed:
        reasons.append(UNPLAYED)
    if not contested(len(seats), abandoned):
        reasons.append(ALL_LEFT)
    return reasons


def rateable(seats: list[tuple[str, str | None]]) -> bool:
    """Whether a game at these seats (kind and kept player, as :func:`unrated` takes them) could be rated at all, from
    the seats alone: what a page needs before the game ends to tell a person back after the grace period that the
    game counts as lost for them (the summary's ``rateable``).

    >>> rateable([("human", "a"), ("human", "b")]), rateable([("human", "a"), ("bot", None)])
    (True, False)
    """
    return not unrated(seats, (), set())


def ranks_of(players: int, winner: int, scores: list[int], abandoned: set[int]) -> list[Placing]:
    """Each seat's placing from the game's winning side, the sides' scores and the seats whose players left.

    The winning side is first; the other sides follow by their scores (higher
    first, equal scores tied); a side with a seat in ``abandoned`` is last
    (tied with any other such side), and every seat of it has lost. The side
    placed first has won: the winner, or when the winner's player left, the
    best placed of those who stayed.
    """
    sides = 2 if players == 4 else players
    if not 0 <= winner < sides or len(scores) != sides:
        raise ValueError(f"a game of {players} has sides 0 to {sides - 1} and {sides} scores")
    left = {side_of(players, seat) for seat in abandoned}

    def order(side: int) -> tuple[int, int, int]:
        return (side in left, side != winner, -scores[side])

    distinct = sorted({order(side) for side in range(sides)})
    placing = []
    for seat in range(players):
        side = side_of(players, seat)
        rank = distinct.index(order(side))
        placing.append(Placing(rank, WON if rank == 0 and side not in left else LOST, seat in abandoned))
    return placing


def rate(
    players: int, before: list[Skill], winner: int, scores: list[int], abandoned: set[int] | None = None
) -> list[Skill]:
    """Every seat's rating after a rated game, from their ratings before it (one per seat, in seat order)."""
    if players not in PLAYER_COUNTS or len(before) != players:
        raise ValueError(f"a rated game has 2, 3 or 4 players, one rating each, not {len(before)} of {players}")
    placing = ranks_of(players, winner, scores, abandoned or set())
    sides = 2 if players == 4 else players
    members = [[seat for seat in range(players) if side_of(players, seat) == side] for side in range(sides)]
    teams = [[MODEL.rating(mu=before[seat].mu, sigma=before[seat].sigma) for seat in team] for team in members]
    ranks = [float(placing[team[0]].rank) for team in members]
    rated = MODEL.rate(teams, ranks=ranks)
    after: list[Skill | None] = [None] * players
    for team, new in zip(members, rated, strict=True):
        for seat, rating in zip(team, new, strict=True):
            after[seat] = Skill(rating.mu, rating.sigma, before[seat].games + 1)
    return [skill for skill in after if skill is not None]
