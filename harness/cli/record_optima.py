"""``crosscheck record-optima``."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import click
from crosscheck.harness.reports.wording import counted

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    from crosscheck.harness.judging.verdicts import Verdict
from crosscheck.harness.cli.common import _read_all


@click.command("record-optima")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--index", "index_path", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The index.toml to extend (instance names in FILES are relative to its folder).")
@click.option("--min-agreeing", type=click.IntRange(min=1), default=2, show_default=True,
              help="How many independent solvers (sharing no contraction or bound) must have proven "
                   "the same exact answer.")
@click.option("--allow-single", is_flag=True,
              help="Also record optima proven by a single independent line of evidence (--min-agreeing 1).")
@click.option("--refresh", is_flag=True,
              help="Also rewrite what the entries the index lists already rest on (provers, independent, shared, certified) "
                   "from these runs, where they agree with the index; their answers never change.")
def record_optima(files: tuple[Path, ...], index_path: Path, min_agreeing: int, allow_single: bool,
                  refresh: bool) -> None:
    """Add to the index the optima that formulations proved and agreed on in results files.

    Only instances the index does not list yet are added (variant runs are skipped);
    an optimum is never typed in by hand, it comes from agreeing runs.  An index names
    the files it judges by their path from its folder: an instance that names no file there
    (a run of another folder), or whose own folder's index.toml judges it, is not recorded,
    and said so on stderr; so is a file the index lists under a link's name (never looked
    up: rename the entry).  An agreement of
    fewer than --min-agreeing independent provers is refused, and said so on stderr, as is
    every instance whose verdict is not agree (with why); a last line on stderr counts
    them.  stdout holds the index tables added, as TOML, exactly as appended to the index
    (nothing when none was).  Exit status 0 unless the input is unusable (2).
    """
    from crosscheck.harness.inputs.index import (
        append_entries,
        judged_by,
        linked_entries,
        load_index,
        refresh_entries,
    )
    from crosscheck.harness.inputs.provenance import agreed_entries, refreshed_evidence
    from crosscheck.harness.judging.verdicts import judged

    required = 1 if allow_single else min_agreeing
    runs = judged(_read_all(files))
    index = load_index(index_path) if index_path.exists() else {}  # an unusable index stops it before any output
    if refresh and index:
        for name in refresh_entries(index_path, refreshed_evidence(runs, index)):
            click.echo(f"{name}: evidence refreshed", err=True)
    entries, refused, skipped = agreed_entries(runs, required)
    elsewhere = [name for name in entries if not judged_by(index_path, name)]
    entries = {name: entry for name, entry in entries.items() if name not in elsewhere}
    for name in elsewhere:
        click.echo(f"{name}: not recorded: no such file under {index_path.parent}, or an index.toml between "
                   "holds its answer (an index names the files it judges by their path from its folder: "
                   "record a run of that folder)", err=True)
    links = linked_entries(index_path, index)
    linked = [name for name in entries if name in links]
    entries = {name: entry for name, entry in entries.items() if name not in links}
    for name in linked:
        click.echo(f'{name}: not recorded: {index_path} lists it as ["{links[name]}"], the name of a link to it, '
                   f'which is never looked up, so its answer is checked against nothing: rename that entry '
                   f'["{name}"]', err=True)
    for verdict in refused:
        click.echo(f"{verdict.instance}: not recorded: {verdict.answer} rests on "
                   f"{counted(verdict.independent, 'independent prover')} ({', '.join(verdict.provers)}), "
                   f"{required} required "
                   f"(--allow-single records it anyway)", err=True)
    for verdict in skipped:
        click.echo(f"{verdict.instance}: not recorded: {verdict.verdict.value}: {verdict.reason}", err=True)
    added, written = append_entries(index_path, entries)
    click.echo(written, nl=False)  # stdout: the index tables added, as written to the index
    click.echo(_recorded_summary(len(added), len(entries) - len(added), len(refused),
                                 Counter(v.verdict for v in skipped), len(elsewhere), len(linked)), err=True)


def _recorded_summary(added: int, listed: int, refused: int, skipped: Counter[Verdict], elsewhere: int,
                      linked: int) -> str:
    """record-optima's last line: how many instances were recorded, and how many were not
    and why (not judged by this index, listed under a link's name, too few provers, the
    verdicts other than `agree` worst first)."""
    from crosscheck.harness.judging.verdicts import SEVERITY

    parts = [f"recorded {added}"]
    parts += [f"{listed} already in the index"] if listed else []
    parts += [f"not recorded {elsewhere}: not judged by this index"] if elsewhere else []
    parts += [f"not recorded {linked}: listed under a link's name"] if linked else []
    parts += [f"refused {refused}: too few independent provers"] if refused else []
    if skipped:
        worst_first = sorted(skipped, key=SEVERITY.__getitem__)
        reasons = ", ".join(f"{verdict.value} ({skipped[verdict]})" for verdict in worst_first)
        parts.append(f"skipped {skipped.total()}: {reasons}")
    return "; ".join(parts)
