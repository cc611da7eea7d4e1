"""``crosscheck morph``: options in, `crosscheck.harness.workflows.morph` run, its outcome printed."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import click
from crosscheck.harness.reports.wording import counted

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    from crosscheck.harness.workflows.morph import MorphOutcome
    from crosscheck.solvers.base import Clock
from crosscheck.harness.cli.common import (
    EXIT_INTERRUPTED,
    _tell,
    workflow_errors,
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
from crosscheck.harness.runs.settings import MORPH_COUNT


@click.command("morph")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@solver_option
@external_option
@external_source_option
@click.option("--relations", "relation_text", metavar="NAME,...",
              help="Apply these relations (comma-separated; each --count times per instance) [default: --count "
                   "relations drawn at random per instance]; `crosscheck list --relations` names each puzzle's.")
@click.option("--count", type=click.IntRange(min=1), default=MORPH_COUNT, show_default=True,
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
          external_sources: tuple[str, ...], relation_text: str | None, count: int, seed: int, time_limit: float,
          clock: Clock, memory_limit: int, jobs: int, out: Path, progress_mode: str) -> None:
    """Test solvers against themselves: run them on each instance in PATHS and on related
    instances (same optimum under a symmetry, a renaming, ...; `crosscheck.models.relations`),
    and report each pair of answers that breaks its relation (morph-mismatch).

    Each instance's own runs are judged as compare judges them: an original's answers
    against its index.toml entry too (wrong-expected; a related instance has no entry).
    With --external and no --solver only the external programs run.  Exit 1 on a
    mismatch or a wrong verdict on an instance (wrong-expected included), 3 when a file
    was unreadable or a run crashed, else 0.
    """
    from crosscheck.harness.judging.verdicts import Verdict
    from crosscheck.harness.runs.settings import RunSettings
    from crosscheck.harness.workflows import morph as morphing
    from crosscheck.harness.workflows.choosing import parse_externals, relation_names

    def shown(pair: morphing.PairVerdict) -> None:
        if pair.verdict is Verdict.MORPH_MISMATCH:
            click.echo(pair.line(out))

    with workflow_errors():
        runs = RunSettings(solvers=solver_names, externals=parse_externals(external_specs, external_sources),
                           time_limit=time_limit, clock=clock, memory_limit_mb=memory_limit, jobs=jobs,
                           progress=progress_mode)
        settings = morphing.MorphSettings(paths, out, runs, relation_names(relation_text), count, seed)
        try:
            outcome = morphing.morph(settings, _tell, on_pair=shown)
        except KeyboardInterrupt:  # not exit 1, which says a relation broke
            click.echo(f"interrupted: finished runs are saved in {out / 'morph.jsonl'}", err=True)
            sys.exit(EXIT_INTERRUPTED)
    _summary(outcome, out)
    sys.exit(outcome.exit_status)


def _summary(outcome: MorphOutcome, out: Path) -> None:
    """What a morph run found, after the mismatches it showed as they came: the wrong
    verdicts on instances and the unreadable files, crashes and why, the relations that did
    not apply or gave fewer related instances than asked, and the counts."""
    from crosscheck.harness.judging.verdicts import FAILURES, Verdict
    from crosscheck.harness.reports.tables import crashed, failure_reasons, verdict_count, verdict_line

    for warning in outcome.changed:
        click.echo(warning, err=True)
    verdicts = outcome.judged_runs().verdicts
    for verdict in verdicts:  # wrong answers and unreadable files, as compare names them; a pair's line said its own
        if verdict.verdict in FAILURES | {Verdict.ERROR} and verdict.verdict is not Verdict.MORPH_MISMATCH:
            click.echo(verdict_line(verdict))
    if crashed(list(outcome.records)):
        click.echo(crashed(list(outcome.records)))
    for line in failure_reasons(list(outcome.records)):
        click.echo(line)
    for line in outcome.skipped:
        click.echo(f"not applicable: {line}")
    for line in outcome.fewer:
        click.echo(f"fewer related instances than asked: {line}")
    tally = Counter(pair.verdict.value for pair in outcome.pairs)
    tallied = ", ".join(f"{n} {v}" for v, n in sorted(tally.items())) or "none"
    click.echo(f"{counted(len(outcome.pairs), 'pair')} judged: {tallied}; {verdict_count(verdicts)}; "
               f"records: {out / 'morph.jsonl'}")
