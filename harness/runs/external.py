"""External solvers: a user's own program, judged like the built-in formulations.

``--external NAME=COMMAND`` runs COMMAND on every instance (``PUZZLE:NAME=COMMAND``
only on instances of PUZZLE); ``{path}`` in COMMAND stands for a file holding the instance,
a temporary copy written for the run (`run_external` says why), never the file given.

What the program prints on standard output (exiting with status 0) is read as its claim:

- a line ``unsupported``: it declines the instance (say, a puzzle variant it does not
  handle); the run is recorded as ``unsupported``, like a built-in formulation that does
  not apply, neither a claim nor a crash;
- a line ``infeasible``: it claims the instance has no solution;
- a line starting ``plan:`` followed by a JSON list of moves in the puzzle's move
  vocabulary: a plan, which the harness checks like any solver's plan (only that it is a
  JSON list is read here: its moves, of whatever shape, are the puzzle's checker's to
  judge, the one referee of plugins' plans too);
- otherwise a line ``optimum: N`` (one such line): N is its claimed optimum, whatever
  else it prints; without one, exactly one integer outside the ``plan:`` line (``13``):
  its claimed optimum; a plan without an integer claims its own cost as the optimum.
  Output with two integers or more outside the plan line and no ``optimum:`` line (a log
  line after the answer, ``Part 1: 31``) is ambiguous and refused (an ``error`` run saying
  so), never read by guessing which one is meant; so is output whose explicit claims
  contradict each other (``unsupported`` beside any other, ``infeasible`` beside a plan or
  an ``optimum:`` line).  A claimed optimum must be a cost a record holds: an integer in
  `COST_MIN`..`COST_MAX` (64 bits; a negative one is a claim the verdicts judge); another
  is refused, as is output that is not UTF-8 text.

Whatever it prints is a claim, never a proof: the verdicts flag it when a checked
plan or another solver's proven bound contradicts it, and it never contradicts
anything itself (only its plan, once checked, is a fact).
"""

from __future__ import annotations

import json
import re
import reprlib
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from crosscheck.harness.records.record import COST_MAX, COST_MIN, UNREADABLE
from crosscheck.solvers.base import Deadline, ended_by_cpu_limit, how_ended

INTEGER = re.compile(r"-?[0-9]+")  # ASCII digits only: \d reads '٣' (Arabic-Indic) as 3
#: A labelled claim: names the optimum whatever else the output holds.
OPTIMUM_LINE = re.compile(r"^\s*optimum:\s*(-?[0-9]+)\s*$", re.IGNORECASE)
#: The most digits a cost a record holds has (2**63 - 1 has 19): a longer claim is refused
#: unread, before `int` (which refuses more than 4,300 digits with a bare ValueError).
COST_DIGITS = len(str(COST_MAX))
INFEASIBLE_LINE = "infeasible"
UNSUPPORTED_LINE = "unsupported"
PLAN_PREFIX = "plan:"
#: The start of the name of the temporary folder each run's copy of the instance is written
#: to (`run_external`); reports mask the rest (`crosscheck.harness.reports.tables.failure_reason`).
TEMPORARY_PREFIX = "crosscheck-"
#: What a program may print, in words, for the message that says it printed none of it.
ACCEPTED = ("one of: a line 'infeasible'; a line 'unsupported'; a line 'plan: [JSON list of moves]'; "
            "a line 'optimum: 13'; or exactly one integer outside the plan line, the claimed optimum")


@dataclass(frozen=True)
class External:
    """A parsed ``--external`` specification."""

    name: str
    command: str
    puzzle: str | None = None  # None: every puzzle
    sources: tuple[str, ...] = ()  # files or folders it depends on besides those its command names

    def with_source(self, path: str) -> External:
        """This program depending on `path` too (``--external-source``)."""
        return replace(self, sources=(*self.sources, path))

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
        if name.strip() == UNREADABLE:  # it would be taken for an unreadable file's record
            raise ValueError(f"{UNREADABLE!r} cannot name a program: the records give it to an instance file that "
                             "could not be read")
        return cls(name=name.strip(), command=command.strip(), puzzle=puzzle.strip() if puzzle else None)

    @property
    def spec(self) -> str:
        """The ``[PUZZLE:]NAME=COMMAND`` this was parsed from (spaces around its parts trimmed)."""
        return f"{self.puzzle}:{self.name}={self.command}" if self.puzzle else f"{self.name}={self.command}"

    def applies_to(self, puzzle: str) -> bool:
        """Whether the program runs on instances of `puzzle` (it names that puzzle, or none)."""
        return self.puzzle in (None, puzzle)


@dataclass(frozen=True)
class Claim:
    """What an external program said: a cost, a claim of infeasibility, that it declines
    the instance, or why there is none of these; and the plan it printed, if any (unchecked)."""

    cost: int | None
    timed_out: bool
    message: str
    infeasible: bool = False
    plan: list[Any] | None = None
    unsupported: bool = False


def run_external(name: str, command: str, instance_text: str, deadline: Deadline) -> Claim:
    """Run `command` (the external program `name`) on a file holding `instance_text` and read its claim.

    ``{path}`` is a temporary copy holding `instance_text`, the instance as the run reads it
    (a variant's run gets the variant, written in the puzzle's format), so the program sees
    what is judged and can never edit the file given.  Standard error is read leniently
    (bytes that are not UTF-8 become U+FFFD): it is only a log; standard output must be UTF-8.
    """
    program = f"{name} ({command})"  # its messages name it as the user did, never by its interpreter
    with tempfile.TemporaryDirectory(prefix=TEMPORARY_PREFIX) as folder:
        path = Path(folder) / "instance.txt"
        path.write_text(instance_text, encoding="utf-8")
        argv = [part.replace("{path}", str(path)) for part in shlex.split(command)]
        try:
            done = subprocess.run(argv, capture_output=True, timeout=deadline.child_timeout(), check=False,
                                  preexec_fn=deadline.child_limits())
        except subprocess.TimeoutExpired:
            return Claim(None, True, f"{program} ran past the time limit")
        except OSError as error:
            return Claim(None, False, f"cannot run {program}: {error}")
    if ended_by_cpu_limit(done.returncode):
        return Claim(None, True, f"{program} ran past the CPU-time limit")
    if done.returncode != 0:
        tail = done.stderr.decode("utf-8", errors="replace").strip().splitlines()[-1:]
        return Claim(None, False, f"{program} {how_ended(done.returncode)}" + "".join(f": {line}" for line in tail))
    try:
        output = done.stdout.decode("utf-8")
    except UnicodeDecodeError as error:
        where = _where(done.stdout, error.start)
        return Claim(None, False, f"{program} printed output that is not UTF-8 text ({where}: {error.reason}): "
                                  "print its claim in UTF-8")
    return read_claim(output, program)


def _where(output: bytes, offset: int) -> str:
    """Where byte `offset` of `output` is, for people: ``output line 2, column 7`` (columns count bytes)."""
    line = output.count(b"\n", 0, offset) + 1
    column = offset - output.rfind(b"\n", 0, offset)  # rfind is -1 on the first line
    return f"output line {line}, column {column}"


def _conflicting(lines: list[str]) -> str:
    """The explicit claims of `lines` that contradict each other, in words (``'infeasible'
    on line 2, 'optimum: 13' on line 1``), or "" when they do not: a line ``unsupported``
    with any other, or ``infeasible`` with a plan or an ``optimum:`` line.  Plain integers
    are no explicit claim (beside ``infeasible`` they are read as a log's)."""
    kinds: dict[str, list[int]] = {}
    for number, line in enumerate(lines, 1):
        text = line.strip().lower()
        kind = (text if text in (UNSUPPORTED_LINE, INFEASIBLE_LINE) else PLAN_PREFIX if text.startswith(PLAN_PREFIX)
                else "optimum:" if OPTIMUM_LINE.match(line) else None)
        if kind is not None:
            kinds.setdefault(kind, []).append(number)
    clash = len(kinds) > 1 and (UNSUPPORTED_LINE in kinds or INFEASIBLE_LINE in kinds)
    return ", ".join(f"'{kind}' on line {numbers[0]}" for kind, numbers in kinds.items()) if clash else ""


def read_claim(output: str, program: str) -> Claim:
    """The claim in a program's standard output (see the module docstring); `program` names
    it in messages.  Output that does not say one thing is refused with why, never guessed at."""
    lines = output.splitlines()
    conflict = _conflicting(lines)
    if conflict:
        return Claim(None, False, f"{program} printed claims that contradict each other ({conflict}), so its claim "
                                  "is ambiguous: print one of them")
    if any(line.strip().lower() == UNSUPPORTED_LINE for line in lines):
        return Claim(None, False, f"{program} declined the instance (printed '{UNSUPPORTED_LINE}')", unsupported=True)
    if any(line.strip().lower() == INFEASIBLE_LINE for line in lines):
        return Claim(None, False, "claimed infeasible (external program)", infeasible=True)
    plans = [(number, line.strip()[len(PLAN_PREFIX):].strip()) for number, line in enumerate(lines, 1)
             if line.strip().startswith(PLAN_PREFIX)]
    plan = None
    if plans:
        number, text = plans[-1]
        try:
            plan = json.loads(text)
        except json.JSONDecodeError as error:
            return Claim(None, False, f"{program} printed a plan that is not JSON (output line {number}): {error.msg} "
                                      f"at column {error.colno} of the JSON after '{PLAN_PREFIX}'")
        except ValueError:  # JSON, but an integer longer than Python converts (sys.get_int_max_str_digits)
            return Claim(None, False, f"{program} printed a plan holding an integer of more than "
                                      f"{sys.get_int_max_str_digits()} digits (output line {number}): expected a "
                                      "JSON list of moves")
        if not isinstance(plan, list):
            return Claim(None, False, f"{program} printed a plan that is not a JSON list of moves")
    labelled = [(label[1], number) for number, line in enumerate(lines, 1) if (label := OPTIMUM_LINE.match(line))]
    numbers = labelled if len(labelled) == 1 else [
        (value, number) for number, line in enumerate(lines, 1) if not line.strip().startswith(PLAN_PREFIX)
        for value in INTEGER.findall(line)]
    if len(numbers) > 1:
        found = ", ".join(f"{value} on line {number}" for value, number in numbers)
        return Claim(None, False, f"{program} printed {len(numbers)} integers ({found}), so its claim is ambiguous: "
                                  f"print exactly one, or a line 'optimum: N', and write logs to standard error")
    if not numbers and plan is None:
        return Claim(None, False, f"{program} printed no claim (expected {ACCEPTED})")
    cost = None
    if numbers:
        value, number = numbers[0]
        # Digits counted before `int`: a claim of thousands is refused like one just too big.
        cost = int(value) if len(value.lstrip("-")) <= COST_DIGITS else None
        if cost is None or not COST_MIN <= cost <= COST_MAX:
            return Claim(None, False, f"{program} claimed optimum {reprlib.repr(value)[1:-1]} (output line {number}), "
                                      f"which is no cost: expected an integer from {COST_MIN} to {COST_MAX} (64 bits)")
    what = "with a plan" if plan is not None else "no plan"
    return Claim(cost, False, f"claimed optimum (external program, {what})", plan=plan)
