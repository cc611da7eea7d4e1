"""Planted faults and small seeded instances, used by the tests and by the benchmarks that
measure how they are caught.

- `hunt_solvers`: wrong formulations, each an honest search but for one popular shortcut
  that breaks a rule (registered through ``CROSSCHECK_SOLVERS=planted.hunt_solvers``);
- ``externals/``: programs run as external solvers (``--external``), most of them planted
  wrong, each misreading the text or a rule in one way;
- `instances`: small seeded vaults, facilities and burrows, edge cases among them;
- `cluster`: a local Dask cluster (a scheduler and workers on 127.0.0.1), torn down on exit.

None of it is part of crosscheck: it is what crosscheck is tested and measured against.
Both ``tests/`` and ``benchmarks/`` import it; neither imports the other.
"""
