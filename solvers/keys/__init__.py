"""Key vault formulations, each imported when first asked for.

`FORMULATIONS` names each formulation's module and class, in the order the registry lists
them (`crosscheck.solvers.registry` imports one alone when a command names one).
"""

#: Each formulation by name: its module in this package and its class there.
FORMULATIONS = {
    "keys-grid": ("grid", "KeysGrid"),
    "keys-graph": ("graph", "KeysGraph"),
    "keys-cpsat": ("cpsat", "KeysCpsat"),
    "keys-fd": ("fd", "KeysFd"),
    "keys-sat": ("sat", "KeysSat"),
}
