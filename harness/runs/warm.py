"""Imported last by the forkserver of isolated runs (`crosscheck.harness.runs.runner._context`).

After the server has imported the built-in formulations the runs need, each formulation the
runs name (`crosscheck.solvers.registry.name_warm_ups`) warms up once here
(`crosscheck.solvers.base.Solver.warm_up`: amphipods-steps compiles or loads its numba
kernel) and has its sharing computed (`crosscheck.solvers.registry.share_named`: a
plugin's footprint), so every run forked from the server starts with that done instead of
redoing it, and concurrent runs never compile the same code side by side.  Formulations no run names
are not warmed up (a compare of amphipods-search alone does not compile amphipods-steps).
"""

from __future__ import annotations

import gc

from crosscheck.solvers.registry import share_named, warm_up_named

warm_up_named()
share_named()

# The server's objects out of the garbage collector's reach: a run's collections then do not
# write to (and so copy) the pages it shares with the server.
gc.freeze()
