"""``keys-fd``: the keys puzzle's PDDL encoding (`crosscheck.solvers.keys.pddl`) solved by
Fast Downward (`crosscheck.solvers.engines.fd`)."""

from collections.abc import Mapping

from crosscheck.solvers.engines.fd import FastDownward

#: Open cells of the largest vaults it solves within a minute, by robots: one robot 41x41
#: (803 cells) but not 81x81; four robots 17x17 with 10 keys (126) but not 21x21 (198).
REACHED_CELLS = {1: 1000, 4: 150}


class KeysFd(FastDownward):
    name = "keys-fd"
    puzzle = "keys"
    summary = "PDDL cell-by-cell encoding, Fast Downward A* (optional extra 'planners')"
    encoder = "crosscheck.solvers.keys.pddl"

    def reaches(self, features: Mapping[str, int]) -> str | None:
        """Beyond its reach when the vault has more open cells than `REACHED_CELLS` allows its
        robots: the largest vaults docs/results.md shows it solving in a default run's limit."""
        robots, cells = features.get("robots", 1), features.get("cells", 0)
        most = REACHED_CELLS.get(robots, min(REACHED_CELLS.values()))
        return None if cells <= most else f"{robots} robot(s), cells {cells} > {most}"
