"""``elevator-fd``: the elevator puzzle's PDDL encoding (`crosscheck.solvers.elevator.pddl`) solved by
Fast Downward (`crosscheck.solvers.engines.fd`)."""

from collections.abc import Mapping

from crosscheck.solvers.engines.fd import FastDownward

#: The labelled states of six pairs on four floors (see `ElevatorFd.reaches`).
REACHED_STATES = 4 ** 13


class ElevatorFd(FastDownward):
    name = "elevator-fd"
    puzzle = "elevator"
    summary = "PDDL rides with safety preconditions, Fast Downward A* (optional extra 'planners')"
    encoder = "crosscheck.solvers.elevator.pddl"

    def reaches(self, features: Mapping[str, int]) -> str | None:
        """Beyond its reach when its labelled states (the elevator's floor and each item's:
        ``floors ** (items + 1)``) outnumber those of six pairs on four floors, the largest
        facilities docs/results.md shows it solving in a default run's limit (not seven)."""
        floors, items = features.get("floors", 0), features.get("items", 0)
        states = floors ** (items + 1)
        if states <= REACHED_STATES:
            return None
        return f"{floors} floors, {items} items: {states} states > {REACHED_STATES}"
