"""``crosscheck report``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from crosscheck.harness.reports.formats import (
    FORMATS,
    HUMAN_FORMATS,
    LATEX,
    LONG_TABLE_ROWS,
)

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    from crosscheck.harness.judging.verdicts import JudgedRuns
    from crosscheck.harness.records.record import RunRecord
from crosscheck.harness.cli.common import EXIT_OK, EXIT_WRONG, BadInput, _merged, _read_all, _read_files


@click.command("report")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice((*FORMATS, "parquet", "html")), default="table",
              show_default=True,
              help="table or markdown for people (verdict notes follow); html: one self-contained page with "
                   "every table, figure and note (use -o); latex: a booktabs tabular of the --by table, the notes as "
                   "comments; csv, jsonl "
                   "(tidy: one flat row per run), json (full records) or parquet (tidy, needs the analysis "
                   "extra and -o) for programs.")
@click.option("--by", type=click.Choice(["run", "solver", "family"]), default="run", show_default=True,
              help="One row per (instance, solver), a summary per puzzle and solver (exact answers, timeouts, "
                   "times: medians over each instance's repetitions, then over instances), or per family "
                   "(puzzle and instance folder) and solver with times over the instances every solver solved.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write to this file instead of stdout (required for parquet).")
@click.option("--against", "against", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              metavar="NEW.jsonl",
              help="Compare FILES (old) with this newer results file (repeatable, merged): status, verdict, "
                   "provers and time changes per instance and solver (times on CPU seconds when both sides ran "
                   "with --clock cpu, else wall); exit 1 when a verdict got worse, an exact answer changed or was "
                   "lost, a pair run in OLD is missing from NEW, or an instance has fewer independent provers.")
@click.option("--fail-on-slower", is_flag=True,
              help="With --against: exit 1 also when a pair is judged slower (needs --repeat on both sides).")
@click.option("--solver", "kept", multiple=True, metavar="NAME",
              help="Report only this solver's runs (repeatable): verdicts are judged again from them, and the "
                   "report names the solvers left out.")
@click.option("--exclude-solver", "dropped", multiple=True, metavar="NAME",
              help="Leave this solver's runs out (repeatable; a formulation that solved nothing, say): verdicts "
                   "are judged again without them, and the report names them.")
@click.option("--ablation", "ablated", metavar="FORMULATION",
              help="What each design choice of FORMULATION is worth: each of its configurations in the files "
                   "against its default on their common instances (solved and exact counts, geometric-mean "
                   "time and effort ratios with 95% bootstrap intervals, Wilcoxon p-values); table, markdown "
                   "or latex. The HTML report has it for every formulation run in several configurations.")
@click.option("--longtable-rows", "long_rows", type=click.IntRange(min=0), default=None, metavar="N",
              help=f"With --format latex: a table of more than N rows is a longtable, which breaks across pages "
                   f"and cannot go in a table float; fewer stay one tabular [default: {LONG_TABLE_ROWS}, about a "
                   "page; 0: always a longtable].")
def report(files: tuple[Path, ...], fmt: str, by: str, output: Path | None, against: tuple[Path, ...],
           fail_on_slower: bool, kept: tuple[str, ...], dropped: tuple[str, ...], ablated: str | None,
           long_rows: int | None) -> None:
    """Rebuild the comparison table from JSON Lines results files (from --out; several are
    merged into one run each: a run recorded twice keeps its later record, with a
    warning), or with --against, what changed between two comparisons.  A table for
    people is followed by the environment of the runs (when, by which command and
    commit, on which machine, how many at a time), then the verdict notes.  --solver or
    --exclude-solver leave formulations out: every format then names them (above a
    table, in LaTeX comments, under the HTML page's lead, on stderr).

    A line that is not a run record (a last line cut short by a kill aside: a note says
    so), or files without a record (on either side of --against), stop it: exit 2 with
    FILE[:LINE[:COLUMN]]: what is wrong.  Without --against the exit status is
    compare's for the same records: 1 some answer is wrong, 3 a file was unreadable or a
    run crashed, else 0.  With --against: 1 on a regression (see --against and
    --fail-on-slower), else 0."""
    from crosscheck.harness.judging.verdicts import judged
    from crosscheck.harness.reports.tables import notes, render
    from crosscheck.harness.workflows.exits import runs_status

    if long_rows is not None and fmt != LATEX:
        raise click.UsageError("--longtable-rows sets when a LaTeX table breaks across pages: add --format latex")
    if against:
        if kept or dropped:
            raise click.UsageError("--solver and --exclude-solver choose the runs of one report; --against "
                                   "compares every run of both sides")
        if by != "run":
            raise click.UsageError("--by summarises one comparison; --against lists changes per instance and "
                                   "solver: drop --by, or report each file with --by on its own")
        sys.exit(_report_diff(files, against, fmt, output, fail_on_slower))
    if fail_on_slower:
        raise click.UsageError("--fail-on-slower goes with --against")
    if ablated is not None:
        sys.exit(_report_ablation(files, ablated, fmt, by, output, kept, dropped))
    parquet = _parquet_file(by, output) if fmt == "parquet" else None
    if fmt == "html" and by != "run":
        raise click.UsageError("--format html holds every table; --by is for the other formats")
    named, read_notes = _read_files(files)
    records, warnings = _merged(named)
    records, left_out, remarks = _chosen_solvers(records, kept, dropped)
    runs = judged(records, left_out)
    if parquet is not None:
        from crosscheck.harness.records.tidy import write_parquet

        write_parquet(runs, parquet)
    else:
        _write(_html(runs, named, [*read_notes, *warnings, *remarks]) if fmt == "html"
               else render(runs, fmt, by, environment=True, remarks=remarks,
                           long_rows=LONG_TABLE_ROWS if long_rows is None else long_rows), output)
    if fmt not in HUMAN_FORMATS:
        click.echo(notes(runs), err=True, nl=False)
    sys.exit(runs_status(runs))


def _chosen_solvers(records: list[RunRecord], kept: tuple[str, ...],
                    dropped: tuple[str, ...]) -> tuple[list[RunRecord], list[str], list[str]]:
    """`crosscheck.harness.reports.tables.leave_out` for report's --solver and --exclude-solver, its
    remark also on stderr; a usage error for a name that ran nowhere, or both options."""
    from crosscheck.harness.reports.tables import leave_out

    if kept and dropped:
        raise click.UsageError("--solver keeps, --exclude-solver drops: give one of them")
    try:
        chosen, left_out, remarks = leave_out(records, kept, dropped)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--solver" if kept else "--exclude-solver") from None
    for remark in remarks:
        click.echo(f"note: {remark}", err=True)
    return chosen, left_out, remarks


def _report_ablation(files: tuple[Path, ...], formulation: str, fmt: str, by: str, output: Path | None,
                     kept: tuple[str, ...], dropped: tuple[str, ...]) -> int:
    """Print the ablation table of `formulation` (`crosscheck.harness.reports.ablation`); the exit
    status of the records' verdicts, as without --ablation.  A usage error for options it does not
    take; `BadInput` when the files hold no ablation of it."""
    from crosscheck.harness.judging.verdicts import judged
    from crosscheck.harness.reports.ablation import NoAblation, render_ablation
    from crosscheck.harness.workflows.exits import runs_status

    if fmt not in (*HUMAN_FORMATS, LATEX):
        raise click.UsageError(f"--ablation prints a table ({', '.join((*HUMAN_FORMATS, LATEX))}), not {fmt}; "
                               "--format html has it as a section")
    if by != "run" or kept or dropped:
        raise click.UsageError("--ablation compares the configurations of one formulation: drop --by, --solver "
                               "and --exclude-solver")
    records, _ = _merged(_read_files(files)[0])
    try:
        _write(render_ablation(records, formulation, fmt), output)
    except NoAblation as error:
        raise BadInput(f"--ablation {formulation}: {error}") from None
    return runs_status(judged(records))


def _parquet_file(by: str, output: Path | None) -> Path:
    """The file `--format parquet` writes (`output`); a usage error for what it cannot do,
    saying what instead, and `BadInput` without the analysis extra."""
    if by != "run":
        raise click.UsageError(f"--format parquet writes the tidy rows, one per run, not --by {by}: drop --by, "
                               f"or use --by {by} --format csv (or json)")
    if output is None:
        raise click.UsageError("--format parquet writes a file: add -o FILE.parquet")
    _need_analysis_extra("--format parquet")
    return output


def _need_analysis_extra(what: str) -> None:
    """`BadInput` (exit 2, one line) when pandas or pyarrow, the analysis extra `what` needs, is missing."""
    from importlib.util import find_spec

    from crosscheck.extras import missing_extra

    missing = [name for name in ("pandas", "pyarrow") if find_spec(name) is None]
    if missing:
        raise BadInput(missing_extra(what, "analysis", f"{' and '.join(missing)} not installed"))


def _html(runs: JudgedRuns, files: list[tuple[str, list[RunRecord]]], read_notes: list[str]) -> str:
    from crosscheck.harness.reports.html import build  # matplotlib is slow to import; only this format needs it

    return build(runs, files, read_notes)


def _write(text: str, output: Path | None) -> None:
    """`text` to `output`, or to stdout without one."""
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")


def _report_diff(old: tuple[Path, ...], new: tuple[Path, ...], fmt: str, output: Path | None,
                 fail_on_slower: bool) -> int:
    """Print what changed from `old` to `new`: a warning when the sides ran under other
    settings, the timing rule, the changes, the summary and one line per regression; the
    exit status: 1 when there is a regression (`crosscheck.harness.reports.diff.regressions`)."""
    from crosscheck.harness.reports.diff import DIFF_COLUMNS, diff, regressions, rule_line, summary
    from crosscheck.harness.reports.diff_basis import basis, settings_warning
    from crosscheck.harness.reports.tables import render_table

    if fmt not in HUMAN_FORMATS:
        raise click.UsageError(f"--against prints a table ({' or '.join(HUMAN_FORMATS)}), not {fmt}")
    before, after = _read_all(old), _read_all(new)
    chosen = basis(before, after)
    changes = diff(before, after, chosen)
    listed = [change.row() for change in changes if change.listed]
    warning = settings_warning(before, after)
    found = regressions(changes, fail_on_slower)
    text = "".join(line + "\n" for line in (warning, rule_line(chosen, changes)) if line)
    text += (render_table(DIFF_COLUMNS, listed, fmt) if listed else "no changes\n") + summary(changes) + "\n"
    text += "".join(line + "\n" for line in found)
    _write(text, output)
    return EXIT_WRONG if found else EXIT_OK
