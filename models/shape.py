"""The shape of the published inputs, which the fastest public solutions assume.

Hunting within it (``hunt --published-shape``, `crosscheck.models.strategies.instances`)
finds faults a program has on inputs like the published ones, rather than the first
instance outside what it assumes (two floors, a door whose key is absent).  The shape:

- vault: every door's key is in the vault;
- burrow: depth 2 or 4, an empty hallway;
- elevator: four floors, a safe start.
"""

from __future__ import annotations

from crosscheck.models import amphipods, elevator, keys
from crosscheck.models.base import Instance

def outside_published_shape(instance: Instance) -> str:
    """Why `instance` is not of the published inputs' shape; '' when it is."""
    if isinstance(instance, keys.Vault):
        absent = sorted({c for row in instance.rows for c in row if keys.door_key(c) and c.lower() not in instance.keys})
        return f"doors whose key is absent: {', '.join(absent)}" if absent else ""
    if isinstance(instance, amphipods.Burrow):
        if instance.depth not in (2, 4):
            return f"depth {instance.depth} (published: 2 or 4)"
        return "" if set(instance.hallway) == {amphipods.EMPTY} else "amphipods in the hallway"
    if isinstance(instance, elevator.Facility):
        if instance.floors != 4:
            return f"{instance.floors} floors (published: 4)"
        return "" if elevator.all_safe(instance.chips, instance.generators) else "an unsafe start"
    raise TypeError(f"not an instance of a known puzzle: {type(instance).__name__}")


def doors_with_keys(vault: keys.Vault) -> keys.Vault:
    """`vault` with every door whose key is absent turned into floor."""
    rows = tuple("".join(keys.FLOOR if keys.door_key(c) and c.lower() not in vault.keys else c for c in row)
                 for row in vault.rows)
    return keys.Vault(name=vault.name, rows=rows)
