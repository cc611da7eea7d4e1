"""An external vault solver off by a constant: the exact optimum plus OFFSET, everywhere.

Solved exactly, then OFFSET added to every optimum (``infeasible`` stays so): with
OFFSET 0 it is right; with any other it is consistently wrong, so every relation that
keeps the optimum (a symmetry, a renaming) holds between its answers, and only the
index's known optimum shows it wrong.  Usage: python planted/externals/keys_off_by.py
OFFSET INSTANCE; prints a bare number (no plan) or ``infeasible``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from crosscheck.models.keys.model import parse  # noqa: E402
from crosscheck.solvers.base import Status  # noqa: E402
from crosscheck.solvers.keys.grid import KeysGrid  # noqa: E402

from planted.externals import print_claim  # noqa: E402


def main(offset: int, path: str) -> None:
    result = KeysGrid().solve(parse(Path(path).read_text(encoding="utf-8"), path))
    if result.status is Status.OPTIMAL and result.cost is not None:
        print(result.cost + offset)
    else:
        print_claim(result)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
