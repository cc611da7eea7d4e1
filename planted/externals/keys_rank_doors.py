"""A planted wrong external vault solver: it pairs doors with keys by alphabetical rank.

The door letters present, sorted, are matched to the key letters present, sorted: the
i-th door opens with the i-th key, and a door ranked past the last key has none.  Right
whenever every door has its key and every key its door, wrong otherwise (a door whose
key is absent takes another's).  The vault is then solved exactly.  A renaming of the
letters that changes their alphabetical order exposes it; one that keeps the order
(``a``, ``b`` to ``c``, ``x``) and every symmetry of the grid do not.  Usage:
python planted/externals/keys_rank_doors.py INSTANCE; prints a bare number (no plan) or
``infeasible``.
"""

from __future__ import annotations

import string
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from crosscheck.models.keys.model import Vault, door_key, parse  # noqa: E402
from crosscheck.solvers.keys.grid import KeysGrid  # noqa: E402

from planted.externals import print_claim  # noqa: E402


def doors_by_rank(vault: Vault) -> Vault:
    """`vault` with its i-th door letter (sorted) opened by its i-th key letter (sorted);
    doors past the last key get letters no key has."""
    keys = sorted(vault.keys)
    doors = sorted({door for row in vault.rows for char in row if (door := door_key(char))})
    keyless = (letter for letter in reversed(string.ascii_lowercase) if letter not in keys)
    targets = [(keys[rank] if rank < len(keys) else next(keyless)).upper() for rank in range(len(doors))]
    table = str.maketrans("".join(doors).upper(), "".join(targets))
    return Vault(vault.name, tuple(row.translate(table) for row in vault.rows))


def main(path: str) -> None:
    print_claim(KeysGrid().solve(doors_by_rank(parse(Path(path).read_text(encoding="utf-8"), path))))


if __name__ == "__main__":
    main(sys.argv[1])
