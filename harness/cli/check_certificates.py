"""``crosscheck check-certificates``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:  # what each command needs is imported when it runs, so that --help starts fast
    from crosscheck.harness.records.record import RunRecord
    from crosscheck.solvers.certificate import Certificate


@click.command("check-certificates")
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--certificates", "root", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="The folder the certificates were kept in (compare --certificates), if it moved [default: the "
                   "folder each record names, else that path beside the results file].")
@click.option("--instances", type=click.Path(file_okay=False, path_type=Path), default=Path("instances"),
              show_default=True,
              help="Where the instance files are, named as the records name them: each CNF is also rebuilt from "
                   "its instance by the formulation's encoder and compared with the kept one.")
def check_certificates(results: tuple[Path, ...], root: Path | None, instances: Path) -> None:
    """Check again every certificate kept beside the records in RESULTS (compare --certificates DIR):
    each kept CNF against the digest of the CNF the run refuted and against the CNF rebuilt from the
    instance file (when found under --instances), each proof by the proof checkers.  No search is
    run.  One line per certificate; exit 1 naming each instance whose certificate fails, 0 when every
    one passes, 2 when the records keep none."""
    from crosscheck.harness.cli.common import EXIT_WRONG, BadInput, _read
    from crosscheck.harness.runs.certify import missing

    unavailable = missing()
    if unavailable is not None:
        raise BadInput(unavailable)
    kept = [(path, record) for path in results for record in _read(path).records
            if record.certificate is not None and record.certificate.kept]
    if not kept:
        raise BadInput(f"no kept certificate in {', '.join(map(str, results))} (compare --certificates DIR keeps them)")
    failed = []
    for path, record in kept:
        certificate = _rechecked(record, _folder(record, path, root), instances)
        click.echo(_line(record, certificate))
        if not certificate.checked:
            failed.append(record.instance)
    click.echo(f"{len(kept) - len(failed)} of {len(kept)} certificates pass" +
               (f"; failed: {', '.join(dict.fromkeys(failed))}" if failed else ""), err=True)
    sys.exit(EXIT_WRONG if failed else 0)


def _folder(record: RunRecord, results: Path, root: Path | None) -> Path:
    """Where `record`'s certificate is kept: under `root` when given, else where the record says
    (as given to compare), else that path taken from the results file's folder."""
    from crosscheck.harness.runs.certify import kept_folder

    assert record.certificate is not None
    if root is not None:
        return kept_folder(root, record)
    named = Path(record.certificate.kept)
    return named if named.is_dir() or named.is_absolute() else results.parent / named


def _rechecked(record: RunRecord, folder: Path, instances: Path) -> Certificate:
    """`record`'s certificate checked again from `folder`, rebuilt from its instance when found."""
    from crosscheck.harness.runs.certify import recheck

    assert record.certificate is not None
    encoding, instance = _encoder_and_instance(record, instances)
    return recheck(record.certificate, folder, encoding, instance)


def _encoder_and_instance(record: RunRecord, instances: Path) -> tuple[Any, Any]:
    """The encoding of `record`'s formulation and its instance (variant applied) found under
    `instances`; (None, None) when either is missing, said on stderr."""
    from crosscheck.models.base import InvalidInstance
    from crosscheck.models.registry import load_instance
    from crosscheck.solvers.registry import get_solver

    path = instances / record.instance
    try:
        encoding = get_solver(record.solver).encoding
        puzzle, instance = load_instance(str(path))
    except (KeyError, OSError, InvalidInstance) as error:
        click.echo(f"note: {record.instance} ({record.solver}): kept CNF checked, not rebuilt ({error})", err=True)
        return None, None
    return encoding, puzzle.variant(instance) if record.variant else instance


def _line(record: RunRecord, certificate: Certificate) -> str:
    """One line on a certificate checked again."""
    claim = ("infeasible" if certificate.claim == "infeasible" else f"lower bound {certificate.bound}")
    run = f"{record.instance}{' (variant)' if record.variant else ''} {record.solver}: {claim}"
    if certificate.checked:
        return (f"ok      {run} ({len(certificate.queries)} refuted CNF, {certificate.checker}, "
                f"{certificate.check_seconds} s)")
    return f"FAILED  {run}: {certificate.error}"
