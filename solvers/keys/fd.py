"""``keys-fd``: the keys puzzle's PDDL encoding (`crosscheck.solvers.keys.pddl`) solved by
Fast Downward (`crosscheck.solvers.engines.fd`)."""

from crosscheck.solvers.engines.fd import FastDownward


class KeysFd(FastDownward):
    name = "keys-fd"
    puzzle = "keys"
    summary = "PDDL cell-by-cell encoding, Fast Downward A* (optional extra 'planners')"
    encoder = "crosscheck.solvers.keys.pddl"
    # The largest one-robot vault docs/results.md shows it solving in a default run's limit is a
    # 25x25 one of 291 open cells; a 41x41 one (803) it does not (four robots: fewer cells).
    reach = {"cells": 300}
