"""External programs, most planted wrong, run as scripts (each puts the repository on its path):
``python planted/externals/NAME.py INSTANCE`` prints what a program given to ``--external``
prints."""

from __future__ import annotations

import sys
from pathlib import Path

from crosscheck.solvers.base import Result, Status

#: The folder of the programs.
EXTERNALS = Path(__file__).resolve().parent


def print_claim(result: Result) -> None:
    """Print `result` as an external program's claim (a bare optimum, no plan, or
    ``infeasible``); exit with its status and message when it has neither."""
    if result.status is Status.INFEASIBLE:
        print("infeasible")
    elif result.status is Status.OPTIMAL:
        print(result.cost)
    else:
        sys.exit(f"{result.status}: {result.message}")
