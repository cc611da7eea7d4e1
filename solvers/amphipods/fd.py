"""``amphipods-fd``: the amphipods puzzle's PDDL encoding (`crosscheck.solvers.amphipods.pddl`) solved by
Fast Downward (`crosscheck.solvers.engines.fd`)."""

from crosscheck.solvers.engines.fd import FastDownward


class AmphipodsFd(FastDownward):
    name = "amphipods-fd"
    puzzle = "amphipods"
    summary = "PDDL stop-to-stop moves with energy costs, Fast Downward A* (optional extra 'planners')"
    encoder = "crosscheck.solvers.amphipods.pddl"
    # docs/results.md shows it solving burrows of depth 2 in seconds; those of depth 3 take 35 to
    # 46 s of the 60, which two runs at a time on a busy machine do not leave.
    reach = {"depth": 2}
