"""A planted wrong external vault solver: it never reads the grid's last interior column.

The column just inside the right-hand outer wall is taken as wall (a robot standing
there keeps its cell), as an off-by-one in a loop over columns would; the rest is
solved exactly.  Right whenever that column holds nothing and no way runs through it,
wrong otherwise: a mirror image of the vault moves the column, so the symmetry relation
finds it with no second solver.  Usage: python planted/externals/keys_last_column.py
INSTANCE; prints a bare number (no plan) or ``infeasible``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from crosscheck.models.keys.model import ROBOT, WALL, Vault, parse  # noqa: E402
from crosscheck.solvers.keys.grid import KeysGrid  # noqa: E402

from planted.externals import print_claim  # noqa: E402


def without_last_column(vault: Vault) -> Vault:
    """`vault` with its last interior column walled (robots kept)."""
    rows = []
    for row in vault.rows:
        column = len(row) - 2
        if column >= 1 and row[column] != ROBOT:
            row = row[:column] + WALL + row[column + 1:]
        rows.append(row)
    return Vault(vault.name, tuple(rows))


def main(path: str) -> None:
    vault = without_last_column(parse(Path(path).read_text(encoding="utf-8"), path))
    result = KeysGrid().solve(vault)
    print_claim(result)


if __name__ == "__main__":
    main(sys.argv[1])
