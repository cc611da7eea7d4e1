"""``amphipods-fd``: the amphipods puzzle's PDDL encoding (`crosscheck.solvers.amphipods.pddl`) solved by
Fast Downward (`crosscheck.solvers.engines.fd`)."""

from crosscheck.solvers.engines.fd import FastDownward


class AmphipodsFd(FastDownward):
    name = "amphipods-fd"
    puzzle = "amphipods"
    summary = "PDDL stop-to-stop moves with energy costs, Fast Downward A* (optional extra 'planners')"
    encoder = "crosscheck.solvers.amphipods.pddl"
    # docs/results.md shows it solving burrows of depth 2 in a default run's limit, none of depth 3.
    reach = {"depth": 2}
