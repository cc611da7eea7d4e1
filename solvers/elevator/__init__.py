"""Elevator formulations, each imported when first asked for.

`FORMULATIONS` names each formulation's module and class, in the order the registry lists
them (`crosscheck.solvers.registry` imports one alone when a command names one).
"""

#: Each formulation by name: its module in this package and its class there.
FORMULATIONS = {
    "elevator-bfs": ("bfs", "ElevatorBfs"),
    "elevator-quotient": ("quotient", "ElevatorQuotient"),
    "elevator-cpsat": ("cpsat", "ElevatorCpsat"),
    "elevator-fd": ("fd", "ElevatorFd"),
    "elevator-sat": ("sat", "ElevatorSat"),
}
