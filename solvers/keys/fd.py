"""``keys-fd``: the keys puzzle's PDDL encoding (`crosscheck.solvers.keys.pddl`) solved by
Fast Downward (`crosscheck.solvers.engines.fd`)."""

from crosscheck.solvers.engines.fd import FastDownward


class KeysFd(FastDownward):
    name = "keys-fd"
    puzzle = "keys"
    summary = "PDDL cell-by-cell encoding, Fast Downward A* + LM-cut (optional extra 'planners')"
    encoder = "crosscheck.solvers.keys.pddl"
