"""External solvers: a user's own program, judged like the built-in formulations.

``--external NAME=COMMAND`` runs COMMAND on every instance (``PUZZLE:NAME=COMMAND``
only on instances of PUZZLE); ``{path}`` in COMMAND stands for the instance file.
The last integer the program prints on standard output is its claimed optimum.  It
has no plan, so it is never an exact answer itself: the verdicts flag it when a
checked plan beats it or when it falls below another solver's proven lower bound.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from solvers.base import Deadline

LAST_INTEGER = re.compile(r"-?\d+")


@dataclass(frozen=True)
class External:
    """A parsed ``--external`` specification."""

    name: str
    command: str
    puzzle: str | None = None  # None: every puzzle

    @classmethod
    def parse(cls, spec: str) -> External:
        """Parse ``[PUZZLE:]NAME=COMMAND``; `ValueError` says what is wrong."""
        label, separator, command = spec.partition("=")
        if not separator or not label.strip() or not command.strip():
            raise ValueError(f"expected [PUZZLE:]NAME=COMMAND, got {spec!r}")
        puzzle: str | None
        puzzle, colon, name = label.partition(":")
        if not colon:
            puzzle, name = None, label
        if "{path}" not in command:
            raise ValueError(f"the command of {name!r} must contain {{path}}, got {command!r}")
        return cls(name=name.strip(), command=command.strip(), puzzle=puzzle.strip() if puzzle else None)


@dataclass(frozen=True)
class Claim:
    """What an external program said: a cost, or why there is none."""

    cost: int | None
    timed_out: bool
    message: str


def run_external(command: str, instance_text: str, deadline: Deadline) -> Claim:
    """Run `command` on a file holding `instance_text` and read its claimed optimum."""
    with tempfile.TemporaryDirectory(prefix="crosscheck-") as folder:
        path = Path(folder) / "instance.txt"
        path.write_text(instance_text, encoding="utf-8")
        argv = [part.replace("{path}", str(path)) for part in shlex.split(command)]
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=deadline.remaining(), check=False)
        except subprocess.TimeoutExpired:
            return Claim(None, True, f"{argv[0]} ran past the time limit")
        except OSError as error:
            return Claim(None, False, f"cannot run {argv[0]}: {error}")
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or [""]
        return Claim(None, False, f"{argv[0]} exited with status {done.returncode}: {tail[0]}")
    numbers = LAST_INTEGER.findall(done.stdout)
    if not numbers:
        return Claim(None, False, f"{argv[0]} printed no integer")
    return Claim(int(numbers[-1]), False, "claimed optimum (external program, no plan)")
