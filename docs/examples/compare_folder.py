"""Compare the formulations on a folder of instances from Python, and count the verdicts.

    .venv/bin/python docs/examples/compare_folder.py instances/elevator --time-limit 10

It calls `crosscheck.compare` on the folder (every formulation of each puzzle, or only
those named with --solver), which saves one record per run in --out (default: a new
results/compare-DATE-TIME.jsonl), then prints how many instances got each verdict and
where the records are, and exits with the status `crosscheck compare` would exit with.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import crosscheck


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("folder", help="a folder of instance files, searched recursively")
    parser.add_argument("--solver", action="append", default=[], help="run only this formulation (repeatable)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per run")
    parser.add_argument("--out", help="the JSON Lines file the records are appended to")
    args = parser.parse_args(argv)

    outcome = crosscheck.compare(args.folder, solvers=args.solver, time_limit=args.time_limit, out=args.out)
    counts = Counter(verdict.verdict.value for verdict in outcome.runs.verdicts)
    for verdict, count in sorted(counts.items()):
        print(f"{verdict}: {count}")
    print(f"records: {outcome.out}")
    return outcome.exit_status


if __name__ == "__main__":
    sys.exit(main())
