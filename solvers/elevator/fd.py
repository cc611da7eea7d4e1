"""``elevator-fd``: the elevator puzzle's PDDL encoding (`crosscheck.solvers.elevator.pddl`) solved by
Fast Downward (`crosscheck.solvers.engines.fd`)."""

from crosscheck.solvers.engines.fd import FastDownward


class ElevatorFd(FastDownward):
    name = "elevator-fd"
    puzzle = "elevator"
    summary = "PDDL rides with safety preconditions, Fast Downward A* + LM-cut (optional extra 'planners')"
    encoder = "crosscheck.solvers.elevator.pddl"
