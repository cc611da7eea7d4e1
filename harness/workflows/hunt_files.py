"""What a hunt keeps on disk: every instance judged, the counterexample, the hunt database.

Every instance judged is written to ``OUT/judged/hunt-N.txt`` before its runs start, and
their records are appended to ``OUT/judged.jsonl`` (`judged_paths`; numbers continue
after those already there, `free_numbers`).  The first counterexample is written as found
(``OUT/counterexample-PUZZLE-as-found.txt``, ``OUT/runs-as-found.jsonl``) and the smallest
so far beside it (``OUT/counterexample-PUZZLE.txt``, ``OUT/runs.jsonl``;
`counterexample_paths`), each file written whole under another name, then renamed
(`write_whole`).  The hunt database (``DB/<key>/``, `database_folder`) keeps each
shrunk counterexample, named by the hash of its draw, for later hunts with the same key
to try first (`saved_draws`, `save_draw`).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from itertools import count
from pathlib import Path
from typing import TYPE_CHECKING

from crosscheck.harness.workflows.morph import numbered_files
from crosscheck.models.base import Instance, InvalidInstance

if TYPE_CHECKING:
    from crosscheck.harness.workflows.hunt import HuntOutcome, HuntSettings, JudgedDraw


def cache_key(instance: Instance, relation: str | None, seed: int) -> str:
    """What identifies a judged draw: the instance's text, and in a morph hunt the relation and its seed."""
    return instance.to_text() if relation is None else f"{instance.to_text()}\0{relation}\0{seed}"


def judged_paths(settings: HuntSettings) -> tuple[Path, Path]:
    """The folder of every instance a hunt judged, and the JSON Lines file of their runs."""
    return settings.out / "judged", settings.out / "judged.jsonl"


def free_numbers(folder: Path) -> Iterator[int]:
    """Instance numbers after the highest ``hunt-N.txt`` already in `folder`."""
    return count(max(numbered_files(folder, "hunt-"), default=0) + 1)


def database_folder(settings: HuntSettings) -> Path:
    """The hunt database's folder for hunts with the key of `settings` (`HuntSettings.key`)."""
    return (settings.database or settings.out / "hunt-db") / settings.key().hex()[:16]


#: A saved draw: the instance, and in a morph hunt the relation and seed drawn with it.
Draw = tuple[Instance, str | None, int]


def saved_draws(settings: HuntSettings) -> list[Draw]:
    """The counterexamples earlier hunts with the same key saved (unreadable ones skipped;
    in a morph hunt, also those without a readable draw beside them, ``HASH.draw``)."""
    found: list[Draw] = []
    for path in sorted(database_folder(settings).glob("*.txt")):
        try:
            instance = settings.puzzle.parse(path.read_text(encoding="utf-8"), str(path))
        except InvalidInstance:
            continue
        if settings.morph is None:
            found.append((instance, None, 0))
            continue
        draw = path.with_suffix(".draw")
        words = draw.read_text(encoding="utf-8").split() if draw.exists() else []
        if len(words) == 2 and words[1].isdigit():
            found.append((instance, words[0], int(words[1])))
    return found


def save_draw(settings: HuntSettings, judged: JudgedDraw, replacing: JudgedDraw | None) -> None:
    """Put `judged`'s instance (and its relation and seed, in a morph hunt) in the hunt
    database in place of `replacing`'s (the smaller one of the same find)."""
    folder = database_folder(settings)
    folder.mkdir(parents=True, exist_ok=True)
    path = _database_path(folder, judged)
    if judged.relation is not None:  # the draw first: an instance without its draw is never replayed
        write_whole(path.with_suffix(".draw"), f"{judged.relation} {judged.seed}\n")
    write_whole(path, judged.instance.to_text())
    if replacing is not None and _database_path(folder, replacing) != path:
        _database_path(folder, replacing).unlink(missing_ok=True)
        _database_path(folder, replacing).with_suffix(".draw").unlink(missing_ok=True)


def _database_path(folder: Path, judged: JudgedDraw) -> Path:
    """Where `judged` is kept: named by the hash of its instance's text (and draw, in a morph hunt)."""
    key = cache_key(judged.instance, judged.relation, judged.seed)
    return folder / f"{hashlib.sha256(key.encode()).hexdigest()[:16]}.txt"


def written(outcome: HuntOutcome) -> list[Path]:
    """The files holding the outcome's counterexamples (none without one)."""
    if outcome.shrunk is None:
        return []
    return [*counterexample_paths(outcome.settings, as_found=False),
            *counterexample_paths(outcome.settings, as_found=True)]


def counterexample_paths(settings: HuntSettings, as_found: bool) -> tuple[Path, Path]:
    """Where a hunt writes its counterexample (the smallest so far, or the first as found) and its records."""
    name = settings.puzzle.name
    if as_found:
        return settings.out / f"counterexample-{name}-as-found.txt", settings.out / "runs-as-found.jsonl"
    return settings.out / f"counterexample-{name}.txt", settings.out / "runs.jsonl"


def write_counterexample(judged: JudgedDraw, settings: HuntSettings, as_found: bool) -> None:
    """Write a counterexample and its records (naming it) to OUT."""
    text_path, records_path = counterexample_paths(settings, as_found)
    write_whole(text_path, judged.instance.to_text())
    own = judged.records[0].instance  # a morph hunt's related instances keep their names in judged/
    lines = (r.model_copy(update={"instance": text_path.name} if r.instance == own else {}).model_dump_json() + "\n"
             for r in judged.records)
    write_whole(records_path, "".join(lines))


def write_whole(path: Path, text: str) -> None:
    """Write `path` so that it is never seen half-written: a temporary file forced to disk, then renamed."""
    temporary = path.with_name(path.name + ".partial")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
