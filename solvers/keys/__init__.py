"""Key vault formulations, each imported when first asked for.

`FORMULATIONS` names each formulation's module and class, in the order the registry lists
them; ``SOLVERS`` imports them all (`crosscheck.solvers.registry` imports one alone when a
command names one).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from crosscheck.solvers.base import Solver

#: Each formulation by name: its module in this package and its class there.
FORMULATIONS = {
    "keys-grid": ("grid", "KeysGrid"),
    "keys-graph": ("graph", "KeysGraph"),
    "keys-cpsat": ("cpsat", "KeysCpsat"),
    "keys-fd": ("fd", "KeysFd"),
    "keys-sat": ("sat", "KeysSat"),
}


def __getattr__(name: str) -> list[type[Solver]]:
    """``SOLVERS``: every formulation's class, each module imported."""
    if name != "SOLVERS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return [getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
            for module, attribute in FORMULATIONS.values()]
