"""What the ``crosscheck`` command costs before and around its solves.

Run as ``python -m benchmarks.bench_startup [--repeat N] [--runs K]``.  Each command runs as its
own process ``--repeat`` times (after one discarded warm-up); per command it prints the median wall
seconds and the median CPU seconds (user + system of the command and of every process it started,
the forkserver and the runs included: this process is made their subreaper and waits for each).

- ``--help``: ``crosscheck --help``;
- ``solve``: ``crosscheck solve VAULT --solver keys-grid`` of a 3-cell vault (one trivial run);
- ``solve-default``: the same with every default solver of the vault (no target: CP-SAT and Fast
  Downward start their own machinery);
- ``list-shares``: ``crosscheck list --shares`` (footprints and fingerprints compared for every
  pair of formulations of each puzzle; the built-in ones' are stored);
- ``compare`` and ``hunt`` per run: the extra seconds one more run costs, from a comparison of
  ``--runs`` trivial vaults against one of a single vault (``--jobs 1``, ``--solver keys-grid``),
  and a hunt judging ``--runs`` vaults against one judging one (``--examples``); their fixed part
  is the one-run command.  A keys-grid solve of such a vault takes well under a millisecond, so
  what is measured is the harness's own work per run;
- ``solve-keys``, ``solve-amphipods``, ``solve-elevator``: ``crosscheck solve FILE --solver NAME`` of a
  real-size input of each puzzle by its fastest formulation (`REAL_SIZE`: made by ``crosscheck
  generate`` as ``generate keys -p size=81 -p keys=26``, ``amphipods -p depth=4 -p style=real``,
  ``elevator -p pairs=7``), end to end: start-up, the one run and its record, the verdict;
- ``keys-cpsat run``: the seconds the record of ``solve VAULT --solver keys-cpsat --clock cpu``
  gives its run (the run's own CPU clock, after the formulation's warm-up): what a CP-SAT run
  costs beyond its search, OR-Tools' import included if a warm-up stops doing it.

Targets: ``--help``, the trivial ``solve`` and the real-size solves in median wall seconds (0.3 s,
0.6 s and 0.4 s), the
keys-cpsat run in median recorded seconds (0.1 s; 0.35 s when each run imported OR-Tools).  Wall
seconds on a loaded machine stretch with the load (the output's header says it); the CPU column
is the steadier figure.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from crosscheck.harness.reports.numbers import significant

from benchmarks.targets import report

VAULT = "#####\n#@.a#\n#####\n"
#: Per puzzle: its fastest formulation, and the ``crosscheck generate`` arguments of a real-size input.
REAL_SIZE = {
    "keys": ("keys-graph", ["-p", "size=81", "-p", "keys=26", "--seed", "1"]),
    "amphipods": ("amphipods-search", ["-p", "depth=4", "-p", "style=real", "--seed", "2"]),
    "elevator": ("elevator-quotient", ["-p", "pairs=7", "--seed", "1"]),
}
#: prctl option making this process the reaper of its orphaned descendants (Linux).
PR_SET_CHILD_SUBREAPER = 36


def _command() -> list[str]:
    """The installed ``crosscheck`` script beside this interpreter, else ``python -m crosscheck``."""
    script = Path(sys.executable).with_name("crosscheck")
    return [str(script)] if script.exists() else [sys.executable, "-m", "crosscheck"]


def _reap_all() -> None:
    """Wait for every descendant left to this process (the forkserver outlives its command)."""
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def once(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``crosscheck ARGS`` (its output discarded)."""
    cpu, start = _children_cpu(), time.perf_counter()
    done = subprocess.run(_command() + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    _reap_all()
    if done.returncode != 0:
        raise SystemExit(f"crosscheck {' '.join(args)}: exit {done.returncode}\n{done.stderr}")
    return wall, _children_cpu() - cpu


def recorded_seconds(vault: Path, repeat: int) -> list[float]:
    """The seconds the record of a keys-cpsat solve of `vault` on a CPU clock gives its run,
    for `repeat` commands after one warm-up."""
    args = ["solve", str(vault), "--solver", "keys-cpsat", "--clock", "cpu", "--format", "json"]
    values = []
    for _ in range(repeat + 1):
        done = subprocess.run(_command() + args, capture_output=True, text=True)
        _reap_all()
        if done.returncode != 0:
            raise SystemExit(f"crosscheck {' '.join(args)}: exit {done.returncode}\n{done.stderr}")
        [record] = json.loads(done.stdout)
        values.append(float(record["seconds"]))
    return values[1:]


def medians(args: Callable[[], list[str]], repeat: int) -> tuple[float, float, list[float]]:
    """Median wall and CPU seconds over `repeat` runs after one warm-up, and every wall value."""
    once(args())
    timed = [once(args()) for _ in range(repeat)]
    walls = [wall for wall, _ in timed]
    return statistics.median(walls), statistics.median(cpu for _, cpu in timed), walls


def _solve_args(path: Path, solver: str) -> list[str]:
    return ["solve", str(path), "--solver", solver]


def real_size_inputs(folder: Path) -> dict[str, Path]:
    """Per puzzle of `REAL_SIZE`, its real-size input, generated into `folder`."""
    inputs = {}
    for puzzle, (_, arguments) in REAL_SIZE.items():
        subprocess.run(_command() + ["generate", puzzle, "--count", "1", *arguments, "-o", str(folder / puzzle)],
                       check=True, stdout=subprocess.DEVNULL)
        [inputs[puzzle]] = sorted((folder / puzzle).glob("*.txt"))
    return inputs


def _vaults(folder: Path, count: int) -> Path:
    """A folder of `count` copies of the 3-cell vault."""
    folder.mkdir(parents=True, exist_ok=True)
    for number in range(count):
        (folder / f"vault-{number}.txt").write_text(VAULT, encoding="utf-8")
    return folder


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9, help="timed runs of each command")
    parser.add_argument("--runs", type=int, default=20, help="runs of the larger compare and hunt")
    parser.add_argument("--only", action="append", metavar="COMMAND",
                        help="time only this command (repeatable: solve-keys, compare-1, ...; the keys-cpsat run "
                             "only without it)")
    args = parser.parse_args(argv)
    if ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise SystemExit("cannot become the subreaper of the commands' processes (Linux only)")
    with tempfile.TemporaryDirectory(prefix="crosscheck-startup-") as temporary:
        root = Path(temporary)
        vault = _vaults(root / "one", 1) / "vault-0.txt"
        many = _vaults(root / "many", args.runs)
        outs = iter(range(10**6))

        def out() -> str:
            return str(root / "out" / f"{next(outs)}")

        compare = ["compare", "--solver", "keys-grid", "--jobs", "1"]
        hunt = ["hunt", "keys", "--solver", "keys-grid", "--jobs", "1", "--seed", "0", "-p", "height=1-2",
                "-p", "width=2-5", "-p", "keys=1-2", "-p", "robots=1"]
        commands: dict[str, Callable[[], list[str]]] = {
            "--help": lambda: ["--help"],
            "solve": lambda: ["solve", str(vault), "--solver", "keys-grid"],
            "solve-default": lambda: ["solve", str(vault)],
            "list-shares": lambda: ["list", "--shares"],
            "compare-1": lambda: [*compare, str(vault), "--out", out() + ".jsonl"],
            f"compare-{args.runs}": lambda: [*compare, str(many), "--out", out() + ".jsonl"],
            "hunt-1": lambda: [*hunt, "--examples", "1", "--out", out()],
            f"hunt-{args.runs}": lambda: [*hunt, "--examples", str(args.runs), "--out", out()],
        }
        for puzzle, path in real_size_inputs(root / "real").items():
            commands[f"solve-{puzzle}"] = functools.partial(_solve_args, path, REAL_SIZE[puzzle][0])
        chosen = {name: command for name, command in commands.items() if not args.only or name in args.only}
        figures = {name: medians(command, args.repeat) for name, command in chosen.items()}
        cpsat_run = [] if args.only else recorded_seconds(vault, args.repeat)
    _print(figures, args.runs, args.repeat)
    if cpsat_run:
        print(f"keys-cpsat run (recorded seconds, cpu clock): median {significant(statistics.median(cpsat_run))} s")
        report("startup keys-cpsat trivial run", cpsat_run, median_limit=0.1)


def _print(figures: dict[str, tuple[float, float, list[float]]], runs: int, repeat: int) -> None:
    print(f"median of {repeat} runs per command, load average at the end {os.getloadavg()[0]:.2f}")
    print(f"{'command':<16} {'wall s':>8} {'cpu s':>8}")
    for name, (wall, cpu, _) in figures.items():
        print(f"{name:<16} {significant(wall):>8} {significant(cpu):>8}")
    for kind in ("compare", "hunt"):
        if f"{kind}-1" not in figures or f"{kind}-{runs}" not in figures:
            continue
        (wall_1, cpu_1, _), (wall_k, cpu_k, _) = figures[f"{kind}-1"], figures[f"{kind}-{runs}"]
        print(f"{kind} per run (over {runs - 1} more runs): {significant((wall_k - wall_1) / (runs - 1))} s wall, "
              f"{significant((cpu_k - cpu_1) / (runs - 1))} s cpu; "
              f"fixed part {significant(wall_1)} s wall, {significant(cpu_1)} s cpu")
    real = [(f"solve-{puzzle}", f"startup real {puzzle} solve wall", 0.4) for puzzle in REAL_SIZE]
    for name, target, limit in (("--help", "startup --help wall", 0.3), ("solve", "startup trivial solve wall", 0.6),
                                *real):
        if name in figures:
            report(target, figures[name][2], median_limit=limit)


if __name__ == "__main__":
    main()
