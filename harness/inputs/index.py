"""Instance folders and their index of known optima.

An index is a TOML file named ``index.toml`` with one table per instance, keyed by
the instance's path relative to the index's folder::

    ["keys/one-robot-1.txt"]
    optimum = 8
    origin = "published example"

An instance without solution has ``infeasible = true`` instead of ``optimum``; the
optimum of its variant (four robots, deep burrow, extended elevator) may be given as
``variant_optimum``.  Every other file below the folder (``*.txt``) is an instance.
Each instance file is judged by the index of its own folder, the nearest one above it
(`Indexes`): an ``index.toml`` in a subfolder holds the answers of the files below it.
An entry may also say what its answer rests on (``crosscheck record-optima``): the
``provers`` whose exact answers agreed, how many of them are ``independent``, and the
components two of them both run (``shared``, qualified names; see
`crosscheck.harness.independence.sharing`).  ``independent = 1`` marks an answer resting on one line.
``certified = true`` says a prover's certificate of the answer was checked (its lower bound or
infeasibility refuted by proofs the harness checked: `crosscheck.harness.runs.certify`).
No other key is allowed (`ENTRY_FIELDS`): `load_index` refuses a misspelt one with `BadIndex`.
"""

from __future__ import annotations

import posixpath
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w
from crosscheck.harness.reports.wording import counted
from crosscheck.models.answers import NO_SOLUTION, ExactAnswer, Optimum

INDEX_NAME = "index.toml"
INSTANCE_SUFFIX = ".txt"


@dataclass(frozen=True)
class InstanceFile:
    """An instance file found in a folder, with what its index says of it and of its
    variant (None: nothing, the answer is unknown)."""

    path: Path
    name: str  # path relative to the index folder (or to the searched folder)
    expected: ExactAnswer | None
    variant_expected: ExactAnswer | None
    clashed_name: str | None = None  # the name it shared with another file, when named by its path instead


class BadIndex(ValueError):
    """An index file that cannot be used; the message reads ``FILE:LINE[:COLUMN]: what is
    wrong (what was expected)``."""


#: The fields an index entry may hold: each value's type, and that type in words.
ENTRY_FIELDS: dict[str, tuple[type, str]] = {
    "optimum": (int, "an integer"), "variant_optimum": (int, "an integer"), "infeasible": (bool, "true or false"),
    "origin": (str, "a string"), "provers": (list, "a list of solver names"), "independent": (int, "an integer"),
    "shared": (list, "a list of component names"), "certified": (bool, "true or false"),
}
_TOML_POSITION = re.compile(r"^(?P<what>.*) \(at line (?P<line>\d+), column (?P<column>\d+)\)$")


def load_index(path: Path) -> dict[str, dict[str, Any]]:
    """The index's tables by relative instance path.

    `BadIndex` names the file, line and column of what is not TOML, of an entry that is
    not a table, of an entry whose name is not written plainly (``./a.txt``, ``a.txt/``:
    `plain_name`), of a key no entry may hold (with the known ones) and of a value of the
    wrong type or that contradicts another (the column where the value starts): a misspelt
    ``optimun`` must not pass for "no optimum known", nor ``["./a.txt"]`` for an answer
    to ``a.txt``.
    """
    try:
        text = path.read_text(encoding="utf-8")
        index = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = _TOML_POSITION.match(str(error))
        where = f"{path}:{found['line']}:{found['column']}: {found['what']}" if found else f"{path}: {error}"
        raise BadIndex(f"{where} (not TOML; expected tables [\"INSTANCE.txt\"] of KEY = VALUE lines)") from None
    except (OSError, UnicodeDecodeError) as error:
        raise BadIndex(f"{path}: cannot be read: {error}") from None
    for name, entry in index.items():
        _check_entry(path, text, name, entry)
    return index


def _check_entry(path: Path, text: str, name: str, entry: object) -> None:
    """`BadIndex` unless `entry` is a table, named plainly, of known keys with values of their types."""
    if not isinstance(entry, dict):
        raise BadIndex(f"{_place(path, text, None, name)}: {name!r} is not a table (expected a "
                       f'["{name}"] header followed by KEY = VALUE lines)')
    if plain_name(name) != name:
        raise BadIndex(f'{_header_place(path, text, name)}: ["{name}"] is not the instance\'s path as the index '
                       f'names it (expected ["{plain_name(name)}"]: its path from the index\'s folder, with no "." '
                       'or ".." part, no doubled or trailing "/")')
    for key, value in entry.items():
        if key not in ENTRY_FIELDS:
            nested = (": a table nested in it (expected one table per instance, named by its whole path in one pair "
                      'of quotes, such as ["folder/name.txt"]: a dot outside quotes nests one table in another)'
                      if isinstance(value, dict) else f" (expected one of: {', '.join(ENTRY_FIELDS)})")
            raise BadIndex(f"{_place(path, text, name, key)}: unknown key {key!r} in [\"{name}\"]{nested}")
        wanted, in_words = ENTRY_FIELDS[key]
        if not isinstance(value, wanted) or (wanted is int and isinstance(value, bool)):
            raise BadIndex(f"{_place(path, text, name, key, at_value=True)}: {key} = {_toml(value)} in "
                           f"[\"{name}\"] (expected {in_words})")
    problem = _contradiction(entry)
    if problem:
        key, beside, expected = problem
        where = _place(path, text, name, key, at_value=True)
        raise BadIndex(f"{where}: {key} = {_toml(entry[key])} in [\"{name}\"]{beside} (expected {expected})")


def _contradiction(entry: Mapping[str, Any]) -> tuple[str, str, str] | None:
    """The key of a well-typed entry whose value is impossible or contradicts another, what
    it contradicts, and what was expected; None when the entry holds together.  An optimum
    beside ``infeasible = true`` would be silently ignored, and evidence (``provers``,
    ``independent``, ``shared``) for no answer vouches for nothing."""
    for key in ("optimum", "variant_optimum"):
        if entry.get(key, 0) < 0:
            return key, "", "a cost: an integer, 0 or more"
    if "optimum" in entry and entry.get("infeasible"):
        return ("optimum", " beside infeasible = true",
                "one of them: an optimum for an instance with a solution, infeasible = true for one without")
    has_answer = "optimum" in entry or entry.get("infeasible") is True
    for key in EVIDENCE_FIELDS:
        if key in entry and not has_answer:
            return key, " with no answer", "optimum = N or infeasible = true in the same entry, the answer it is evidence for"
    provers, independent = entry.get("provers"), entry.get("independent")
    if independent is not None and not 1 <= independent <= (independent if provers is None else len(provers)):
        most = "" if provers is None else f" and at most the {counted(len(provers), 'prover')} listed"
        return "independent", "", f"at least 1{most}"
    return None


def plain_name(name: str) -> str:
    """`name`, an instance's path in an index, written plainly: no ``.`` or ``..`` part, no
    doubled or trailing ``/`` (``./a.txt``, ``sub/../a.txt`` and ``a.txt/`` are ``a.txt``).
    Only a plain name can be the name a run gives the file (`Indexes.instance_file`)."""
    return posixpath.normpath(name)


def _toml(value: object) -> str:
    """`value` as TOML writes it (``true``, not Python's ``True``; lists and tables too)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return f"[{', '.join(_toml(item) for item in value)}]"
    if isinstance(value, dict):
        return f"{{{', '.join(f'{key} = {_toml(item)}' for key, item in value.items())}}}"
    return repr(value)


def _place(path: Path, text: str, table: str | None, key: str, *, at_value: bool = False) -> str:
    """``PATH:LINE:COLUMN`` of the line of `text` assigning `key` (in the table named `table`,
    a top-level key when None), the column where the key starts, or its value with
    `at_value`; else of the header of a table `key` nested in `table` (``[table.key]``,
    `_header_place`); ``PATH`` alone when the layout hides it (dotted or inline keys)."""
    in_table = table is None
    assignment = re.compile(rf"""^\s*(?P<key>"{re.escape(key)}"|'{re.escape(key)}'|{re.escape(key)})\s*=\s*""")
    for number, line in enumerate(text.splitlines(), start=1):
        header = _header_keys(line)
        if header is not None:
            in_table = table is not None and header == (table,)
        elif in_table and (found := assignment.match(line)):
            return f"{path}:{number}:{(found.end() if at_value else found.start('key')) + 1}"
    return str(path) if table is None else _header_place(path, text, table, key)


def _header_place(path: Path, text: str, *table: str) -> str:
    """``PATH:LINE:COLUMN`` of the first header in `text` of the table named by the keys
    `table` or of one nested in it, the column where its name starts (inside its quotes);
    ``PATH`` alone when the layout hides it (an inline table).  To place many tables of one
    file, look them up in one `_header_places` instead."""
    return _header_places(path, text).get(table, str(path))


def _header_places(path: Path, text: str) -> dict[tuple[str, ...], str]:
    """`_header_place` of every table `text` has a header of (or of one nested in it), by its
    keys; reads each line once."""
    places: dict[tuple[str, ...], str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        header = _header_keys(line)
        if header is not None:
            name = line.lstrip()[1:].lstrip()  # the header from its name on, an opening quote first
            column = len(line) - len(name) + (1 if name[:1] in ("'", '"') else 0) + 1
            for end in range(1, len(header) + 1):
                places.setdefault(header[:end], f"{path}:{number}:{column}")
    return places


def _header_keys(line: str) -> tuple[str, ...] | None:
    """The keys of the table a header line declares (``[a."b.txt"]``: ``("a", "b.txt")``);
    None for any other line (an assignment, a line of a multi-line value, ``[[...]]``)."""
    if not line.lstrip().startswith("[") or line.lstrip().startswith("[["):
        return None
    try:
        table: object = tomllib.loads(line)
    except tomllib.TOMLDecodeError:
        return None
    keys: list[str] = []
    while isinstance(table, dict) and len(table) == 1:
        key, table = next(iter(table.items()))
        keys.append(key)
    return tuple(keys)


def expectation(entry: Mapping[str, Any] | None, *, variant: bool = False) -> ExactAnswer | None:
    """What an index entry says about the instance (or its variant); None when it says nothing."""
    if not entry:
        return None
    if variant:
        return _optimum(entry.get("variant_optimum"))
    if entry.get("infeasible"):
        return NO_SOLUTION
    return _optimum(entry.get("optimum"))


def _optimum(cost: int | None) -> Optimum | None:
    return None if cost is None else Optimum(cost)


class Indexes:
    """The index that applies to each folder, each index file found and loaded once.

    The index of a folder is the ``index.toml`` in it, else the one in its nearest
    ancestor folder; `BadIndex` when that file cannot be used (`load_index`).
    """

    def __init__(self) -> None:
        self._nearest: dict[Path, Path | None] = {}
        self._loaded: dict[Path, dict[str, dict[str, Any]]] = {}

    def nearest(self, folder: Path) -> Path | None:
        """The index file of `folder` (a resolved path), if any."""
        if folder not in self._nearest:
            here = folder / INDEX_NAME
            self._nearest[folder] = here if here.is_file() else (
                None if folder.parent == folder else self.nearest(folder.parent))
        return self._nearest[folder]

    def entries(self, index_path: Path) -> dict[str, dict[str, Any]]:
        """The tables of the index file at `index_path`."""
        if index_path not in self._loaded:
            self._loaded[index_path] = load_index(index_path)
        return self._loaded[index_path]

    def unmatched(self) -> list[str]:
        """A warning, ``PATH:LINE:COLUMN: ...``, for each entry of the indexes loaded so far that no
        instance file answers to (`judged_by` is false): a misspelt or stale name, or a
        link's, whose answer would otherwise be checked against nothing, unnoticed."""
        warnings = []
        for index_path, entries in self._loaded.items():
            places = _header_places(index_path, index_path.read_text(encoding="utf-8"))
            for name in entries:
                own = judged_name(index_path, name)
                if own == name:
                    continue
                why = (f"names {own} through a link, and this index judges a file by its own path" if own else
                       f"names no instance file this index judges (no such file below {index_path.parent}, or an "
                       "index.toml nearer to it holds its answer)")
                expected = f' (expected ["{own}"])' if own else ""
                warnings.append(f'{places.get((name,), str(index_path))}: ["{name}"] {why}: its answer is checked '
                                f"against nothing{expected}")
        return warnings

    def instance_file(self, path: Path, searched: Path) -> InstanceFile:
        """`path` with what the index of its own folder says of it, named relative to
        that index's folder (to the resolved `searched` folder when no index applies; by
        `path` itself when it resolves outside that folder, a link to elsewhere)."""
        resolved = path.resolve()
        index_path = self.nearest(resolved.parent)
        try:
            name = resolved.relative_to(index_path.parent if index_path else searched).as_posix()
        except ValueError:
            name = path.as_posix()
        entry = self.entries(index_path).get(name) if index_path else None
        return InstanceFile(path, name, expectation(entry), expectation(entry, variant=True))


def judged_by(index_path: Path, name: str) -> bool:
    """Whether the index at `index_path` (which need not exist yet) is the one that judges
    the instance `name` and by that name (`judged_name`): an entry by any other name of
    the file (``link.txt`` for the ``real.txt`` it leads to) is never looked up."""
    return judged_name(index_path, name) == name


def judged_name(index_path: Path, name: str) -> str | None:
    """The name by which the index at `index_path` (which need not exist yet) judges the
    file at the path `name` from its folder: the path of the file it leads to (links
    resolved) from that folder, as `Indexes.instance_file` names it; None when that is no
    file below the folder, or an ``index.toml`` in a folder between them holds its answer."""
    folder = index_path.parent.resolve()
    path = (folder / name).resolve()
    if not path.is_file() or not path.is_relative_to(folder):
        return None
    between = [parent for parent in path.parents if parent != folder and parent.is_relative_to(folder)]
    return None if any((parent / INDEX_NAME).is_file() for parent in between) else path.relative_to(folder).as_posix()


def linked_entries(index_path: Path, names: Iterable[str]) -> dict[str, str]:
    """The entries among `names` (of the index at `index_path`) that name a file through a
    link, by the name the index judges that file by (`judged_name`): ``{"real.txt":
    "link.txt"}``.  Such an entry is never looked up: its answer is checked against nothing."""
    return {own: name for name in names if (own := judged_name(index_path, name)) not in (None, name)}


def is_instance_name(path: Path) -> bool:
    """Whether `path` is named like an instance file: ``*.txt``, in any case (``LOOP.TXT``)."""
    return path.suffix.lower() == INSTANCE_SUFFIX


def discover(target: Path, indexes: Indexes | None = None) -> list[InstanceFile]:
    """Instance files at `target` (a file, or a folder searched recursively), sorted, each
    with what the index of its own folder says of it (`Indexes`; pass one to share its
    loaded indexes between calls).  The index of `target` itself is loaded too, so that
    an unusable one is reported even when no instance below it uses it.

    Every ``*.txt`` path (any case: ``*.TXT`` too) that is not a folder counts, a FIFO, a device or a dangling link
    too: reading it then fails with an error record, so it is reported, not skipped.
    """
    indexes = indexes or Indexes()
    searched = (target if target.is_dir() else target.parent).resolve()
    own_index = indexes.nearest(searched)
    if own_index:
        indexes.entries(own_index)
    files = sorted(p for p in target.rglob("*") if is_instance_name(p) and not p.is_dir()) if target.is_dir() else [target]
    return [indexes.instance_file(path, searched) for path in files]


def refresh_entries(path: Path, evidence: Mapping[str, Mapping[str, object]]) -> list[str]:
    """Replace the evidence fields (``provers``, ``independent``, ``shared``, ``certified``) of the
    entries named in `evidence` and return their names.  Answers and origins stay as
    they are, and so does the file's leading comment; entries not named keep their
    evidence fields (a run that proved nothing this time does not erase them).
    """
    text = path.read_text(encoding="utf-8")
    index = load_index(path)
    header = "".join(line for line in text.splitlines(keepends=True)[:_first_table(text)])
    for name, fields in evidence.items():
        index[name] = {key: value for key, value in index[name].items() if key not in EVIDENCE_FIELDS} | dict(fields)
    path.write_text(header + tomli_w.dumps(index), encoding="utf-8")
    return [name for name in evidence if name in index]


#: The fields of an index entry that say what its answer rests on.
EVIDENCE_FIELDS = ("provers", "independent", "shared", "certified")


def _first_table(text: str) -> int:
    """The number of lines before the first table header of an index file."""
    for number, line in enumerate(text.splitlines()):
        if line.startswith("["):
            return number
    return len(text.splitlines())


def append_entries(path: Path, entries: Mapping[str, Mapping[str, object]]) -> tuple[list[str], str]:
    """Add index tables for instances the index does not list yet, under any name of their
    file (an entry naming a link to it counts); return their names and the TOML text of
    those tables, as appended to the file ("" when none was).

    Existing entries (and the file's comments) are left exactly as they are: a known
    optimum is never overwritten, only contradicted by a `wrong-expected` verdict, and no
    file gets a second entry.
    """
    index = load_index(path) if path.exists() else {}
    listed = {judged_name(path, name) or name for name in index}
    new = {name: entry for name, entry in sorted(entries.items()) if name not in listed}
    text = tomli_w.dumps(new) if new else ""
    if new:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write("\n" + text)
    return list(new), text
