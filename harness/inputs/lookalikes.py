"""Files below a folder that look like instances but are not named ``*.txt``.

Only ``*.txt`` files (in any case: ``LOOP.TXT`` too) are instances (`crosscheck.harness.inputs.index.discover`);
a ``loop.in`` in a puzzle's format would be skipped without a word.  `lookalikes` finds such
files, cheaply (small regular files only; hidden files and folders, ``__pycache__`` and
``index.toml`` left alone), so that `compare` and `morph` can name them.
"""

from __future__ import annotations

from pathlib import Path

from crosscheck.harness.inputs.index import INDEX_NAME, INSTANCE_SUFFIX, is_instance_name
from crosscheck.harness.records.record import visible_files
from crosscheck.harness.reports.wording import counted, some_named
from crosscheck.models.base import InvalidInstance
from crosscheck.models.registry import load_instance

#: Files larger than this are never read to sniff their format (instances are a few KB).
SNIFF_BYTES = 256 * 1024
#: How many of them a note names.
NAMED = 3


def lookalikes(folder: Path) -> list[Path]:
    """The files below `folder` (searched recursively, sorted) that parse as some puzzle's
    instance but are not named ``*.txt``: `visible_files` of at most `SNIFF_BYTES`, not an
    ``index.toml``.  A file that
    cannot be read or is not UTF-8 is none."""
    return [path for path in visible_files(folder)
            if not (path.name == INDEX_NAME or is_instance_name(path)) and _is_an_instance(path)]


def _is_an_instance(path: Path) -> bool:
    """Whether `path` is a small regular file that parses as some puzzle's instance (a FIFO
    or device is never opened).  Parsed, not only sniffed: a format's first-line check
    alone (a vault's ``#`` and ``@``) also claims Markdown and Python files."""
    try:
        if not path.is_file() or path.stat().st_size > SNIFF_BYTES:
            return False
        load_instance(str(path))
    except (OSError, InvalidInstance):
        return False
    return True


def lookalikes_note(folder: Path, found: list[Path]) -> str:
    """One line naming up to `NAMED` of the `found` files below `folder` that were not read."""
    named = some_named([str(path) for path in found], NAMED)
    return (f"{folder}: {counted(len(found), 'file')} in a puzzle's format not read, not being named "
            f"*{INSTANCE_SUFFIX}: {named} (rename to NAME{INSTANCE_SUFFIX} to include)")
