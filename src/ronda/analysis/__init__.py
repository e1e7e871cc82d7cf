"""Analysis: the value of every decision of a game, from what the deciding seat could know (issue 16).

- :mod:`.search`: every option of one decision valued, by its chance to win the game, by determinized search
  from the seat's view alone (R11), reproducibly (:func:`evaluate`, :class:`Method`);
- :mod:`.grades`: a decision's class (best, good, inaccuracy, mistake, blunder) from the winning chances it lost;
- :mod:`.review`: every decision of a game record analysed, and each seat's summary;
- :mod:`.hints`: hints given while playing, kept in the record's ``hints`` extension (docs/RECORD.md).

It stands on the engine and the bots (their determinizer, rollouts and exact
endgame), and nothing else; the words for people are in
:mod:`ronda.presentation.coaching`.
"""

from .search import DEFAULT_GUESSES, Evaluation, Method, Option, decision_seed, evaluate

__all__ = ["DEFAULT_GUESSES", "Evaluation", "Method", "Option", "decision_seed", "evaluate"]
