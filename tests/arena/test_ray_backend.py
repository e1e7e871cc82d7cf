"""The Ray backend plays the same units as the local one (Ray started on this machine only)."""

from extras import require

require("ray")

from ronda.arena import MatchSpec, run_match, summary
from ronda.engine.rules import Rules


def test_ray_gives_the_local_results() -> None:
    spec = MatchSpec(("random", "random"), Rules(players=2), seed=11)
    local = summary(spec, run_match(spec, units=3))
    remote = summary(spec, run_match(spec, units=3, jobs=1, backend="ray"))
    for result in (local, remote):
        result["seconds"] = None
        for entrant in result["entrants"]:
            for timing in [key for key in entrant if "seconds" in key]:
                entrant.pop(timing)
    assert local == remote
