"""Writing an instance's PDDL encoding to files (``crosscheck export PATH --pddl DIR``)."""

from __future__ import annotations

from pathlib import Path

from crosscheck.models.base import Instance
from crosscheck.solvers.planner.fd import encoder


def pddl_paths(instance: Instance, folder: Path) -> tuple[Path, Path]:
    """Where `export` writes `instance`'s domain and problem in `folder`."""
    return folder / f"{instance.name}-domain.pddl", folder / f"{instance.name}-problem.pddl"


def export(puzzle: str, instance: Instance, folder: Path) -> tuple[Path, Path]:
    """Write ``<name>-domain.pddl`` and ``<name>-problem.pddl`` for `instance` into `folder`."""
    encoding = encoder(puzzle).encode(instance)
    folder.mkdir(parents=True, exist_ok=True)
    domain, problem = pddl_paths(instance, folder)
    domain.write_text(encoding.domain, encoding="utf-8")
    problem.write_text(encoding.problem, encoding="utf-8")
    return domain, problem
