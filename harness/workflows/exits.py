"""The exit status a workflow's outcome implies (the README's table of exit statuses).

- `EXIT_OK`: nothing is wrong (every verdict ``agree`` or ``unverified``);
- `EXIT_WRONG`: some answer is wrong (a verdict in
  `crosscheck.harness.judging.verdicts.FAILURES`, a morph-mismatch, a hunt's counterexample);
- `EXIT_USAGE`: bad usage or input a command cannot use (nothing ran);
- `EXIT_FAILED_RUNS`: nothing contradicts, but a file was unreadable or a run crashed or
  ran out of memory;
- `EXIT_INTERRUPTED`: interrupted (Ctrl-C), the shell's code for a process ended by SIGINT.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from crosscheck.harness.judging.verdicts import JudgedRuns

EXIT_OK, EXIT_WRONG, EXIT_USAGE, EXIT_FAILED_RUNS = 0, 1, 2, 3
EXIT_INTERRUPTED = 130


def runs_status(runs: JudgedRuns) -> int:
    """`EXIT_WRONG` when a verdict is a failure, else `EXIT_FAILED_RUNS` when a run failed
    (an unreadable file's record included), else `EXIT_OK`."""
    from crosscheck.harness.judging.verdicts import FAILURES
    from crosscheck.solvers.base import FAILED_STATUSES

    if any(v.verdict in FAILURES for v in runs.verdicts):
        return EXIT_WRONG
    if any(r.status in FAILED_STATUSES for r in runs.records):
        return EXIT_FAILED_RUNS
    return EXIT_OK
