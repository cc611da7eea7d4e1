"""One run of every benchmark behind the README's speed table, one after another.

Run as ``python -m benchmarks.speed [--out FOLDER] [--only NAME ...] [--list]``.  Each
benchmark runs as its own process (``python -m benchmarks.NAME ...``, the arguments in
`BENCHMARKS`), its output shown as it comes and kept in ``FOLDER/NAME.txt`` under a
header with the commit, the date and the machine's load average before it started, so
a table built from the files says what it was measured on.  A benchmark that fails is
reported and the others still run; the exit status is 1 if any failed.

Timings are only comparable on a quiet machine: the load average in each header shows
whether it was.
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
import time
from pathlib import Path

from crosscheck.harness.records import environment

#: The README's speed table, row group by row group: a name and the benchmark's command line.
BENCHMARKS: dict[str, list[str]] = {
    "keys-graph": ["bench_keys", "--seeds", "5", "--loops", "0", "20", "--clock", "cpu", "--warmups", "1",
                   "--repeat", "3"],
    "keys-grid": ["bench_keys_grid", "--repeat", "1"],
    "keys-cpsat": ["bench_keys_cpsat", "--warmups", "0", "--repeat", "1"],
    "amphipods-search": ["bench_amphipods", "--cpsat", "0", "--stops", "0", "--clock", "cpu", "--warmups", "1",
                         "--repeat", "3"],
    "amphipods-stops": ["bench_amphipods", "--search", "1", "--cpsat", "0", "--stops", "10", "--warmups", "0",
                        "--repeat", "1"],
    "amphipods-cpsat": ["bench_amphipods", "--stops", "0", "--cpsat", "5", "--warmups", "0", "--repeat", "1"],
    "elevator-quotient": ["bench_elevator", "--cpsat", "0", "--clock", "cpu", "--warmups", "1", "--repeat", "3"],
    # every feasible facility of the 30 seeds (19 with five pairs, 16 with seven)
    "elevator-cpsat": ["bench_elevator", "--cpsat", "30", "--cpsat-seven", "30", "--warmups", "0", "--repeat", "1"],
    "elevator-bfs": ["bench_elevator_bfs", "--warmups", "0", "--repeat", "1"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("speed-runs") / time.strftime("%Y%m%d-%H%M%S"))
    parser.add_argument("--only", nargs="+", choices=sorted(BENCHMARKS), help="run only these")
    parser.add_argument("--list", action="store_true", help="print the commands and stop")
    args = parser.parse_args()
    chosen = args.only or list(BENCHMARKS)
    if args.list:
        for name in chosen:
            print(f"{name}: {_command_text(name)}")
        return
    args.out.mkdir(parents=True, exist_ok=True)
    failed = [name for name in chosen if not _run(name, args.out / f"{name}.txt")]
    print(f"outputs in {args.out}" + (f"; failed: {', '.join(failed)}" if failed else ""))
    sys.exit(1 if failed else 0)


def _command_text(name: str) -> str:
    return "python -m benchmarks." + " ".join(BENCHMARKS[name])


def _run(name: str, path: Path) -> bool:
    """Run one benchmark, echoing its output and keeping it in `path`; whether it succeeded."""
    facts = environment()
    header = (f"# {_command_text(name)}\n# commit {facts['commit']} (source {facts['source']}), "
              f"{datetime.datetime.now().isoformat(timespec='seconds')}, host {facts['host']}, "
              f"{facts['cpus']} cpus, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print(header, end="", flush=True)
    start = time.perf_counter()
    with open(path, "w", encoding="utf-8") as kept:
        kept.write(header)
        process = subprocess.Popen([sys.executable, "-m", f"benchmarks.{BENCHMARKS[name][0]}", *BENCHMARKS[name][1:]],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert process.stdout is not None
        for line in process.stdout:
            print(line, end="", flush=True)
            kept.write(line)
        code = process.wait()
        footer = f"# exit status {code}, {time.perf_counter() - start:.0f} s wall\n"
        kept.write(footer)
    print(footer, end="", flush=True)
    return code == 0


if __name__ == "__main__":
    main()
