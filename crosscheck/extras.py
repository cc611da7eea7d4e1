"""The one wording of every hint to install an optional extra (beside the layers: the
harness, the solvers and the benchmarks all ask for extras).

An extra (``analysis``, ``cluster``, ``planners``) is installed into the clone's venv as the
README does it, so every message that asks for one names that same command.
"""

from __future__ import annotations


def install_command(extra: str) -> str:
    """The command that installs `extra` into a clone's ``.venv`` (the README's form)."""
    return f".venv/bin/pip install -e '.[{extra}]'"


def missing_extra(what: str, extra: str, why: str) -> str:
    """The one line saying that `what` needs `extra`, `why` it is missing (e.g. ``pyarrow not
    installed``), and the command that installs it, run in the clone."""
    return f"{what} needs the {extra} extra ({why}): {install_command(extra)} (in the clone)"
