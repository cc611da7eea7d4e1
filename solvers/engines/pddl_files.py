"""Writing an instance's PDDL encoding to files (``crosscheck export PATH --pddl DIR``)."""

from __future__ import annotations

from pathlib import Path

from crosscheck.models.base import Instance
from crosscheck.solvers.engines.fd import FastDownward


def pddl_paths(instance: Instance, folder: Path) -> tuple[Path, Path]:
    """Where `export` writes `instance`'s domain and problem in `folder`."""
    return folder / f"{instance.name}-domain.pddl", folder / f"{instance.name}-problem.pddl"


def export(puzzle: str, instance: Instance, folder: Path) -> tuple[Path, Path]:
    """Write ``<name>-domain.pddl`` and ``<name>-problem.pddl`` for `instance` into `folder`, encoded by
    the puzzle's Fast Downward formulation; `KeyError` when the puzzle has none."""
    from crosscheck.solvers.registry import solvers_for

    planner = next((solver for solver in solvers_for(puzzle) if isinstance(solver, FastDownward)), None)
    if planner is None:
        raise KeyError(f"no PDDL encoding of {puzzle!r}: none of its formulations runs Fast Downward")
    encoding = planner.encode(instance)
    folder.mkdir(parents=True, exist_ok=True)
    domain, problem = pddl_paths(instance, folder)
    domain.write_text(encoding.domain, encoding="utf-8")
    problem.write_text(encoding.problem, encoding="utf-8")
    return domain, problem
