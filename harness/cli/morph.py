"""``crosscheck morph``."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import click
from crosscheck.harness.reports.wording import counted

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    from crosscheck.solvers.base import Clock
from crosscheck.harness.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_WRONG,
    _check_solver_names,
    _discovered,
    _exit_status,
    _note_left_unrun,
    _parse_externals,
    _refuse_runs_on_none,
    _relation_names,
    _warn_changed,
)
from crosscheck.harness.cli.options import (
    clock_option,
    external_option,
    external_source_option,
    jobs_option,
    memory_limit_option,
    progress_option,
    solver_option,
    time_limit_option,
)


@click.command("morph")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@solver_option
@external_option
@external_source_option
@click.option("--relations", "relation_names", metavar="NAME,...",
              help="Apply these relations (comma-separated; each --count times per instance) [default: --count "
                   "relations drawn at random per instance]; `crosscheck list --relations` names each puzzle's.")
@click.option("--count", type=click.IntRange(min=1), default=3, show_default=True,
              help="Related instances per instance (per named relation with --relations).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the relations' draws.")
@time_limit_option
@clock_option
@memory_limit_option
@jobs_option
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for the related instances (related/), the runs (morph.jsonl) and every pair's "
                   "verdict (morph-verdicts.jsonl).")
@progress_option
def morph(paths: tuple[Path, ...], solver_names: tuple[str, ...], external_specs: tuple[str, ...],
          external_sources: tuple[str, ...], relation_names: str | None, count: int, seed: int, time_limit: float, clock: Clock, memory_limit: int,
          jobs: int, out: Path, progress_mode: str) -> None:
    """Test solvers against themselves: run them on each instance in PATHS and on related
    instances (same optimum under a symmetry, a renaming, ...; `crosscheck.models.relations`),
    and report each pair of answers that breaks its relation (morph-mismatch).

    Each instance's own runs are judged as compare judges them: an original's answers
    against its index.toml entry too (wrong-expected; a related instance has no entry).
    With --external and no --solver only the external programs run.  Exit 1 on a
    mismatch or a wrong verdict on an instance (wrong-expected included), 3 when a file
    was unreadable or a run crashed, else 0.
    """
    from crosscheck.harness.judging.verdicts import FAILURES, Verdict
    from crosscheck.harness.reports.tables import crashed, failure_reasons, verdict_count, verdict_line
    from crosscheck.harness.runs.schedule import puzzles_held
    from crosscheck.harness.workflows import morph as morphing

    _check_solver_names(solver_names)
    externals = tuple(_parse_externals(external_specs, external_sources))
    relations = _relation_names(relation_names)
    files = _discovered(paths)
    _refuse_runs_on_none(solver_names, externals, puzzles_held(files), "the paths given hold only {} instances")
    _note_left_unrun(files, solver_names, externals)
    config = morphing.MorphConfig(solver_names, externals, out, relations, count, seed, time_limit, clock,
                                  memory_limit, jobs, progress=progress_mode)
    try:
        outcome = morphing.morph(files, config, on_pair=lambda pair: click.echo(pair.line(out))
                                 if pair.verdict is Verdict.MORPH_MISMATCH else None)
    except KeyboardInterrupt:  # not exit 1, which says a relation broke
        click.echo(f"interrupted: finished runs are saved in {out / 'morph.jsonl'}", err=True)
        sys.exit(EXIT_INTERRUPTED)
    _warn_changed(config.versions)
    runs = outcome.judged_runs()
    verdicts = runs.verdicts
    for verdict in verdicts:  # wrong answers and unreadable files, as compare names them; a pair's line said its own
        if verdict.verdict in FAILURES | {Verdict.ERROR} and verdict.verdict is not Verdict.MORPH_MISMATCH:
            click.echo(verdict_line(verdict))
    if crashed(outcome.records):
        click.echo(crashed(outcome.records))
    for line in failure_reasons(outcome.records):
        click.echo(line)
    for line in outcome.skipped:
        click.echo(f"not applicable: {line}")
    for line in outcome.fewer:
        click.echo(f"fewer related instances than asked: {line}")
    tally = Counter(pair.verdict.value for pair in outcome.pairs)
    tallied = ", ".join(f"{n} {v}" for v, n in sorted(tally.items())) or "none"
    click.echo(f"{counted(len(outcome.pairs), 'pair')} judged: {tallied}; {verdict_count(verdicts)}; "
               f"records: {out / 'morph.jsonl'}")
    status = _exit_status(runs)
    sys.exit(EXIT_WRONG if outcome.mismatches else status)
