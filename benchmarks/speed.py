"""One run of every benchmark behind the speed tables of docs/results.md, one after another.

Run as ``python -m benchmarks.speed [--out FOLDER] [--write FILE] [--only NAME ...] [--list]``.
Each benchmark runs as its own process (``python -m benchmarks.NAME ...``, the arguments in
`BENCHMARKS`), its output shown as it comes and kept in ``FOLDER/NAME.txt`` under a header
with the commit, the date and the machine's load average before it started, so a table built
from the files says what it was measured on.  With ``--write FILE`` (``docs/results.md``) each
benchmark's section of that file is replaced by its output under the same facts, as soon as
it has run successfully (`benchmarks.results_file`; a failed run leaves the last good table).  A benchmark that
fails is reported and the others still run; the exit status is 1 if any failed.

Every target the benchmarks state (`benchmarks.targets`) is gathered into one table printed at the
end, with median, max and their ratios to the limits; with ``--write`` it is kept as the file's
``targets`` section, under the facts of this whole run (only when every benchmark was run).

Timings are only comparable on a quiet machine: the load average in each header shows
whether it was.  The main command is timed with whatever is installed; run the suite with the
Python of an install made by the README's first command (no planner extra) to time it as the
README states it.
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
import time
from pathlib import Path

from crosscheck.harness.records.record import environment
from crosscheck.harness.reports.numbers import significant

from benchmarks.results_file import Provenance, current_text, section, update
from benchmarks.targets import PREFIX, Measured, parse, table

#: The speed tables of docs/results.md, row group by row group: a name and the benchmark's command line.
BENCHMARKS: dict[str, list[str]] = {
    "keys-graph": ["bench_keys", "--seeds", "10", "--loops", "0", "20", "71", "--clock", "cpu", "--warmups", "1",
                   "--repeat", "3"],
    "keys-grid": ["bench_keys_grid", "--clock", "cpu", "--repeat", "1"],
    # the loopy family of issue 27 (seeds 0..4, one and four robots) and one-robot-4, CPU seconds
    "keys-cpsat": ["bench_keys_cpsat", "--clock", "cpu", "--warmups", "0", "--repeat", "1"],
    "amphipods-search": ["bench_amphipods", "--cpsat", "0", "--stops", "0", "--clock", "cpu", "--warmups", "1",
                         "--repeat", "3"],
    "amphipods-stops": ["bench_amphipods", "--search", "1", "--cpsat", "0", "--stops", "10", "--warmups", "0",
                        "--repeat", "1"],
    "amphipods-steps": ["bench_amphipods", "--steps-everywhere", "--clock", "cpu", "--warmups", "0", "--repeat", "1"],
    "amphipods-cpsat": ["bench_amphipods", "--stops", "0", "--cpsat", "5", "--warmups", "0", "--repeat", "1"],
    "elevator-quotient": ["bench_elevator", "--cpsat", "0", "--clock", "cpu", "--warmups", "1", "--repeat", "3"],
    # every facility of the 30 seeds (19 feasible with five pairs, 16 with seven; the others
    # and the published p5-no-solution to be proven infeasible), CPU seconds
    "elevator-cpsat": ["bench_elevator", "--cpsat", "30", "--cpsat-seven", "30", "--cpsat-unsolvable",
                       "--no-quotient-targets", "--clock", "cpu", "--warmups", "0", "--repeat", "1"],
    "elevator-bfs": ["bench_elevator_bfs", "--warmups", "0", "--repeat", "1"],
    "startup": ["bench_startup", "--repeat", "9", "--runs", "20"],
    # last: the README's main command, whole, as installed: run the suite from an install made by
    # the README's first command (no planner) to time it as the README states it
    "main-command": ["bench_main"],
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("speed-runs") / time.strftime("%Y%m%d-%H%M%S"),
                        help="folder keeping each benchmark's output as NAME.txt (default: speed-runs/DATE-TIME)")
    parser.add_argument("--write", type=Path, metavar="FILE",
                        help="replace each benchmark's section of this results file (docs/results.md)")
    parser.add_argument("--only", nargs="+", choices=sorted(BENCHMARKS), help="run only these")
    parser.add_argument("--list", action="store_true", help="print the commands and stop")
    args = parser.parse_args(argv)
    chosen = args.only or list(BENCHMARKS)
    if args.list:
        for name in chosen:
            print(f"{name}: {_command_text(name)}")
        return
    if args.write is not None:
        current_text(args.write)  # an unreadable file is said now, not after the run
    args.out.mkdir(parents=True, exist_ok=True)
    provenance, _ = _provenance("speed", ".venv/bin/python -m benchmarks.speed" + (" --only " + " ".join(chosen) if args.only else ""))
    start = time.perf_counter()
    targets: list[Measured] = []
    failed = [name for name in chosen if not _run(name, args.out / f"{name}.txt", args.write, targets)]
    summary = table(targets)
    print(summary)
    (args.out / "targets.txt").write_text(summary + "\n", encoding="utf-8")
    if args.write is not None and not args.only:
        ending = (f"{len(chosen) - len(failed)} of {len(chosen)} benchmarks ran, "
                  f"{significant(time.perf_counter() - start)} s wall")
        update(args.write, "targets", section("targets", provenance, summary, ending))
    print(f"outputs in {args.out}" + (f"; failed: {', '.join(failed)}" if failed else ""))
    sys.exit(1 if failed else 0)


def _command_text(name: str) -> str:
    return ".venv/bin/python -m benchmarks." + " ".join(BENCHMARKS[name])


def _provenance(name: str, command: str | None = None) -> tuple[Provenance, str]:
    """The facts of a run of benchmark `name` (or of `command`) starting now, and its output file's header line."""
    facts = environment()
    provenance = Provenance(command=command or _command_text(name), commit=str(facts["commit"]),
                            date=datetime.datetime.now().isoformat(timespec="seconds"),
                            load=" ".join(f"{x:.2f}" for x in os.getloadavg()),
                            machine=f"host {facts['host']}, {facts['cpus']} cpus")
    header = (f"# {provenance.command}\n# commit {provenance.commit} (source {facts['source']}), "
              f"{provenance.date}, {provenance.machine}, load average {provenance.load}\n")
    return provenance, header


def _run(name: str, path: Path, results: Path | None, targets: list[Measured]) -> bool:
    """Run one benchmark, echoing its output and keeping it in `path` (and as its section of
    `results`, if given), its targets added to `targets`; whether it succeeded."""
    provenance, header = _provenance(name)
    print(header, end="", flush=True)
    start = time.perf_counter()
    output: list[str] = []
    with open(path, "w", encoding="utf-8") as kept:
        kept.write(header)
        process = subprocess.Popen([sys.executable, "-m", f"benchmarks.{BENCHMARKS[name][0]}", *BENCHMARKS[name][1:]],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert process.stdout is not None
        for line in process.stdout:
            print(line, end="", flush=True)
            kept.write(line)
            output.append(line)
        code = process.wait()
        ending = f"exit status {code}, {significant(time.perf_counter() - start)} s wall"
        kept.write(f"# {ending}\n")
    print(f"# {ending}", flush=True)
    targets.extend(parse(output))
    if results is not None and code == 0:  # a failed run keeps the last good table there
        table_lines = "".join(line for line in output if not line.startswith(PREFIX))  # targets: in their own table
        update(results, name, section(name, provenance, table_lines, ending))
    return code == 0


if __name__ == "__main__":
    main()
