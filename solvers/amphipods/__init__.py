"""Amphipod burrow formulations, each imported when first asked for.

`FORMULATIONS` names each formulation's module and class, in the order the registry lists
them (`crosscheck.solvers.registry` imports one alone when a command names one).
"""

#: Each formulation by name: its module in this package and its class there.
FORMULATIONS = {
    "amphipods-search": ("search", "AmphipodsSearch"),
    "amphipods-steps": ("steps", "AmphipodsSteps"),
    "amphipods-stops": ("stops", "AmphipodsStops"),
    "amphipods-cpsat": ("cpsat", "AmphipodsCpsat"),
    "amphipods-fd": ("fd", "AmphipodsFd"),
    "amphipods-sat": ("sat", "AmphipodsSat"),
}
