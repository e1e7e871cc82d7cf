"""The rating model (docs/server.md, "Ratings"): OpenSkill's Plackett-Luce, one rating per player count.

Games of two and of three rate each player for themself, games of four rate the
two partnerships (seats 0 and 2 against 1 and 3, R2.2); a player who left past
the grace period is ranked last whatever the stand-in did; a rating is
provisional for its first ten games.
"""

from __future__ import annotations

from ronda.interfaces.web import ratings
from ronda.interfaces.web.ratings import NEW, PROVISIONAL_GAMES, Skill, rate, shown


def test_a_game_of_two_raises_the_winner_and_lowers_the_loser() -> None:
    amina, yassine = Skill(25.0, 5.0, 12), Skill(25.0, 5.0, 12)
    after = rate(2, [amina, yassine], winner=1, scores=[7, 21])
    assert shown(after[1]) > shown(yassine) and after[1].mu > yassine.mu
    assert shown(after[0]) < shown(amina) and after[0].mu < amina.mu
    assert [s.games for s in after] == [13, 13]


def test_an_upset_moves_ratings_more_than_the_expected_result() -> None:
    strong, weak = Skill(35.0, 3.0, 40), Skill(20.0, 3.0, 40)
    expected = rate(2, [strong, weak], winner=0, scores=[21, 3])
    upset = rate(2, [strong, weak], winner=1, scores=[3, 21])
    assert upset[1].mu - weak.mu > expected[0].mu - strong.mu > 0


def test_a_game_of_three_ranks_the_losers_by_their_scores() -> None:
    before = [Skill(25.0, 4.0, 20)] * 3
    after = rate(3, before, winner=2, scores=[2, 12, 21])
    assert after[2].mu > after[1].mu > after[0].mu
    assert after[0].mu < before[0].mu and after[2].mu > before[2].mu
    placing = ratings.ranks_of(3, winner=2, scores=[2, 12, 21], abandoned=set())
    assert [p.result for p in placing] == ["lost", "lost", "won"]


def test_partners_move_together_in_a_game_of_four() -> None:
    before = [Skill(25.0, 4.0, 20), Skill(30.0, 4.0, 20), Skill(25.0, 4.0, 20), Skill(20.0, 4.0, 20)]
    after = rate(4, before, winner=0, scores=[21, 9])
    assert after[0] == after[2]  # partners with the same rating before have the same after
    assert after[0].mu > before[0].mu and after[2].mu > before[2].mu
    assert after[1].mu < before[1].mu and after[3].mu < before[3].mu
    assert [p.result for p in ratings.ranks_of(4, 0, [21, 9], set())] == ["won", "lost", "won", "lost"]


def test_a_player_who_left_past_the_grace_period_loses_even_if_the_stand_in_won() -> None:
    before = [Skill(25.0, 4.0, 20), Skill(25.0, 4.0, 20)]
    after = rate(2, before, winner=0, scores=[21, 5], abandoned={0})
    assert after[0].mu < before[0].mu and after[1].mu > before[1].mu
    placing = ratings.ranks_of(2, winner=0, scores=[21, 5], abandoned={0})
    assert [(p.result, p.abandoned) for p in placing] == [("lost", True), ("won", False)]
    # With four, the side of the player who left is last: their partner loses with them.
    assert [p.result for p in ratings.ranks_of(4, 0, [21, 9], {2})] == ["lost", "won", "lost", "won"]


def test_a_rating_is_provisional_for_its_first_ten_games() -> None:
    assert NEW.provisional and shown(NEW) == ratings.BASE
    skill = NEW
    for game in range(PROVISIONAL_GAMES):
        assert skill.provisional, game
        (skill, _) = rate(2, [skill, NEW], winner=game % 2, scores=[21, 0] if game % 2 == 0 else [0, 21])
    assert skill.games == PROVISIONAL_GAMES and not skill.provisional
