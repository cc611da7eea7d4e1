"""``amphipods-fd``: the amphipods puzzle's PDDL encoding (`crosscheck.solvers.amphipods.pddl`) solved by
Fast Downward (`crosscheck.solvers.engines.fd`)."""

from crosscheck.solvers.engines.fd import FastDownward


class AmphipodsFd(FastDownward):
    name = "amphipods-fd"
    puzzle = "amphipods"
    summary = "PDDL stop-to-stop moves with energy costs, Fast Downward A* + LM-cut (optional extra 'planners')"
    encoder = "crosscheck.solvers.amphipods.pddl"
