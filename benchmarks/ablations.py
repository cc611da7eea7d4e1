"""Ablation studies of the built-in formulations' design choices, through ``crosscheck compare``.

Run as ``python -m benchmarks.ablations [--out FOLDER] [--write docs/results.md] [--only PUZZLE ...]
[--time-limit S] [--jobs N] [--list]``.  For each puzzle, `STUDIES` names seeded generated families
(``crosscheck generate``) and the configurations to run on each (``--solver`` specs); each family
is one ``crosscheck compare`` with those configurations, its records kept in
``FOLDER/PUZZLE/FAMILY.jsonl``, and the ablation of each formulation it runs
(`crosscheck.harness.reports.ablation`: every configuration against the default on their common
instances: solved and exact counts, time and effort ratios with bootstrap intervals and Wilcoxon
tests) printed per family as one Markdown table per puzzle.  With ``--write FILE`` the table
becomes the puzzle's section of that file (``ablations-PUZZLE``, `benchmarks.results_file`)
under the command, the commit, the date and the load average, as the speed tables are.

Runs are on the CPU clock (``--clock cpu``): a run's time limit counts its CPU seconds, so a busy
machine stops the same runs; the ratios are of the solvers' own seconds, as every report's are, and
of their effort (states expanded, CP-SAT's conflicts), which no load changes.  CP-SAT runs get one
worker (``--cpsat-workers 1``), so two runs share the two cores; keys-cpsat's ``lb_tree_search``
needs two and is not studied here.  The default run takes about ten minutes on a 2-core machine.
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from crosscheck.harness.records.record import RunRecord, environment, read_records
from crosscheck.harness.reports.ablation import ABLATION_COLUMNS, NoAblation, ablation, ablation_notes
from crosscheck.harness.reports.aggregate import family
from crosscheck.harness.reports.numbers import significant
from crosscheck.harness.reports.tables import render_table

from benchmarks.results_file import Provenance, current_text, section, update


@dataclass(frozen=True)
class Family:
    """Seeded generated instances (``crosscheck generate PUZZLE --count COUNT --seed SEED -p ...``,
    written to the study's folder under `name`) and the configurations run on them (``--solver``
    specs)."""

    name: str
    count: int
    seed: int
    params: tuple[str, ...]
    solvers: tuple[str, ...]


@dataclass(frozen=True)
class Study:
    """The families of one puzzle, and the question its table answers."""

    puzzle: str
    families: tuple[Family, ...]
    question: str


KEYS_GRAPH = ("keys-graph[bound=door-free|none|default]", "keys-graph[cycle-tours=off]", "keys-graph[dominance=off]")
KEYS_CPSAT = ("keys-cpsat[level-cuts=off|default]",)
SEARCH = ("amphipods-search[heuristic=off|default]", "amphipods-search[dead-states=kept]",
          "amphipods-search[weight=2]")
QUOTIENT = ("elevator-quotient[states=labelled|default]", "elevator-quotient[bound=none]")

STUDIES: dict[str, Study] = {
    "keys": Study("keys", (
        Family("tree", 8, 4100, ("size=41", "keys=16", "loops=0"), KEYS_GRAPH + KEYS_CPSAT),
        Family("loopy", 8, 4200, ("size=41", "keys=16", "loops=16"), KEYS_GRAPH + KEYS_CPSAT),
        Family("loopy-81", 5, 8100, ("size=81", "keys=26", "loops=71"), KEYS_GRAPH)),
        "what keys-graph's walk bound, its cycle tours and its dominance rule buy on tree-like and loopy "
        "vaults, and what keys-cpsat's level cuts buy"),
    "amphipods": Study("amphipods", (
        Family("depth2", 8, 2200, ("depth=2",), SEARCH + ("amphipods-cpsat[stop-intervals=off|default]",)),
        Family("depth4-real", 8, 4400, ("depth=4", "style=real"), SEARCH)),
        "whether amphipods-search is fast because of its estimate or because of its dead-state pruning, on "
        "deep burrows; what weighting the estimate gives up; and amphipods-cpsat's redundant stop intervals"),
    "elevator": Study("elevator", (
        Family("p3", 6, 300, ("pairs=3",), QUOTIENT + ("elevator-cpsat[top-floor-cuts=off|default]",)),
        Family("p4", 6, 400, ("pairs=4",), QUOTIENT + ("elevator-cpsat[top-floor-cuts=off|default]",)),
        Family("p5", 6, 500, ("pairs=5",), QUOTIENT)),
        "what searching up to renaming of elements buys against labelled states as pairs grow, what the "
        "crossing bound buys, and elevator-cpsat's top floors cuts"),
}


def crosscheck(*args: str) -> subprocess.CompletedProcess[str]:
    """``crosscheck ARGS`` with this interpreter, output captured."""
    return subprocess.run([sys.executable, "-m", "crosscheck.harness.cli", *args], capture_output=True, text=True,
                          check=False)


def generated(study: Study, folder: Path, count: int | None = None) -> Path:
    """The study's instances (`count` per family instead of its own, when given), generated into
    `folder` (kept when already there)."""
    for made in study.families:
        target = folder / made.name
        if target.exists():
            continue
        params = [word for param in made.params for word in ("-p", param)]
        done = crosscheck("generate", study.puzzle, "--count", str(count or made.count), "--seed", str(made.seed),
                          *params, "-o", str(target))
        if done.returncode != 0:
            raise SystemExit(f"generate {study.puzzle} {made.name} failed: {done.stderr.strip()}")
    return folder


def compared(study: Study, folder: Path, time_limit: float, jobs: int) -> list[RunRecord]:
    """The records of the study: one ``crosscheck compare`` per family, each resumed from its
    ``FAMILY.jsonl`` when there."""
    records = []
    for made in study.families:
        out = folder / f"{made.name}.jsonl"
        solvers = [word for spec in made.solvers for word in ("--solver", spec)]
        args = ["compare", str(folder / made.name), *solvers, "--time-limit", str(time_limit), "--clock", "cpu",
                "--jobs", str(jobs), "--cpsat-workers", "1", "--out", str(out), "--progress", "none",
                "--format", "csv", *(["--resume"] if out.exists() else [])]
        done = crosscheck(*args)
        if done.returncode not in (0, 1):  # 1: some verdict failed, which the table still shows
            raise SystemExit(f"compare of {study.puzzle} {made.name} failed ({done.returncode}): "
                             f"{done.stderr.strip()[-2000:]}")
        records += [r.model_copy(update={"instance": f"{made.name}/{r.instance}"}) for r in read_records(out)]
    return records


def study_table(study: Study, records: list[RunRecord]) -> str:
    """The ablation of every formulation the study runs, per family, as one Markdown table, its
    notes after it."""
    body: list[list[str]] = []
    formulations = list(dict.fromkeys(r.formulation for r in records))
    for made in study.families:
        own = [r for r in records if family(r.instance, r.variant) == made.name]
        for formulation in formulations:
            try:
                rows = ablation(own, formulation)
            except NoAblation:
                continue
            body += [[made.name, *row.cells()] for row in rows]
    notes = [line for formulation in formulations for line in ablation_notes(formulation)[:1]]
    notes += ablation_notes(formulations[0])[1:] if formulations else []
    return (f"{study.question}.\n\n" + render_table(("family", *ABLATION_COLUMNS), body, "markdown") + "\n"
            + "".join(f"- {line}\n" for line in notes))


def _provenance(command: str) -> Provenance:
    facts = environment()
    return Provenance(command=command, commit=str(facts["commit"]),
                      date=datetime.datetime.now().isoformat(timespec="seconds"),
                      load=" ".join(f"{x:.2f}" for x in os.getloadavg()),
                      machine=f"host {facts['host']}, {facts['cpus']} cpus")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("ablation-runs"),
                        help="folder of the generated instances and records, one subfolder per puzzle (kept: "
                             "a second run resumes; default: ablation-runs)")
    parser.add_argument("--write", type=Path, metavar="FILE",
                        help="replace each puzzle's ablation section of this results file (docs/results.md)")
    parser.add_argument("--only", nargs="+", choices=sorted(STUDIES), help="run only these puzzles' studies")
    parser.add_argument("--time-limit", type=float, default=20.0, help="CPU seconds per run (default 20)")
    parser.add_argument("--jobs", type=int, default=2, help="runs at a time (default 2)")
    parser.add_argument("--count", type=int, metavar="N", help="N instances per family instead of the studies' own "
                                                               "(a quick look; the tables of results.md use their own)")
    parser.add_argument("--list", action="store_true", help="print the studies and stop")
    args = parser.parse_args(argv)
    chosen = args.only or list(STUDIES)
    if args.list:
        for name in chosen:
            study = STUDIES[name]
            for made in study.families:
                print(f"{name} {made.name}: {made.count} x generate {' '.join(made.params)}, seed {made.seed}: "
                      + " ".join(made.solvers))
        return
    if args.write is not None:
        current_text(args.write)  # an unreadable file is said now, not after the runs
    command = " ".join([".venv/bin/python -m benchmarks.ablations", *(sys.argv[1:] if argv is None else argv)])
    for name in chosen:
        provenance, start = _provenance(command), time.perf_counter()
        folder = generated(STUDIES[name], args.out / name, args.count)
        records = compared(STUDIES[name], folder, args.time_limit, args.jobs)
        text = study_table(STUDIES[name], records)
        print(f"## {name}\n\n{text}", flush=True)
        if args.write is not None:
            ending = f"{len(records)} runs, {significant(time.perf_counter() - start)} s wall"
            update(args.write, f"ablations-{name}", section(f"ablations-{name}", provenance, text, ending))


if __name__ == "__main__":
    main()
