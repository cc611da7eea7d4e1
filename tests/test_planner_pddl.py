"""The PDDL encodings without a planner: their text, and (for the ground encodings) their
semantics, replayed by a tiny STRIPS interpreter against the puzzles' own plan checkers.

The replay walks random paths through an encoded task and asserts that in every state
the moves of the applicable ground actions are exactly the moves the checker accepts
next, and that each action's cost is the checker's cost of its move.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.models.amphipods import model as amphipods
from crosscheck.models.base import InvalidPlan
from crosscheck.models.elevator import model as elevator
from crosscheck.models.keys.model import KeyMove
from crosscheck.models.keys.model import parse as parse_vault
from crosscheck.models.registry import built_in_puzzles
from crosscheck.solvers.amphipods.fd import AmphipodsFd
from crosscheck.solvers.base import Status
from crosscheck.solvers.elevator.fd import ElevatorFd
from crosscheck.solvers.engines import downward
from crosscheck.solvers.engines.fd import FastDownward
from crosscheck.solvers.engines.pddl import Encoding
from crosscheck.solvers.keys.fd import KeysFd

from tests.fixtures.cli import VAULT

Sexp = str | list["Sexp"]  # an s-expression: a word or a parenthesised list of them
Atom = tuple[str, ...]  # a ground atom's words, e.g. ("door", "c-1-3", "k-a")
Literals = tuple[set[Atom], set[Atom], int]  # (positive atoms, negative atoms, cost) of a conjunction
Instance = TypeVar("Instance")
Move = TypeVar("Move", bound=tuple[object, ...])  # a puzzle's move (a named tuple)


def test_keys_encoding_is_plain_strips_with_costs() -> None:
    encoding = KeysFd().encode(parse_vault(VAULT, "small.txt"))
    text = encoding.domain + encoding.problem
    assert ":action-costs" in encoding.domain and "(:metric minimize (total-cost))" in encoding.problem
    for construct in ("forall", "exists", "(or ", ":derived", "when"):
        assert construct not in text
    assert "(door c-1-3 k-a)" in encoding.problem and "(goal" not in encoding.problem
    assert encoding.decode(("step-key", "r0", "c-1-6", "c-1-7", "e", "k-a")) == KeyMove(0, "E")


def test_a_door_without_its_key_never_opens() -> None:
    encoding = KeysFd().encode(parse_vault("#####\n#@Ab#\n#####\n", "locked.txt"))
    assert "(door" not in encoding.problem and "(floor c-1-2)" not in encoding.problem


def test_export_writes_domain_and_problem(tmp_path: Path) -> None:
    source = tmp_path / "small.txt"
    source.write_text(VAULT)
    result = CliRunner().invoke(main, ["export", str(source), "--pddl", str(tmp_path / "pddl")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "pddl" / "small-domain.pddl").read_text().startswith("; Key vault")
    assert "(held k-b)" in (tmp_path / "pddl" / "small-problem.pddl").read_text()


OTHER_VAULT = "#######\n#a.@.A#\n#b....#\n#######\n"


def test_export_of_a_folder_keeps_each_subfolder_so_same_named_instances_keep_their_files(tmp_path: Path) -> None:
    for below, text in (("a", VAULT), ("b", OTHER_VAULT)):
        (tmp_path / "dup" / below).mkdir(parents=True)
        (tmp_path / "dup" / below / "x.txt").write_text(text)
    result = CliRunner().invoke(main, ["export", str(tmp_path / "dup"), "--pddl", str(tmp_path / "pddl")])
    assert result.exit_code == 0, result.output
    written = result.output.split()
    assert written == [str(tmp_path / "pddl" / below / f"x-{kind}.pddl")
                       for below in "ab" for kind in ("domain", "problem")]
    problems = [(tmp_path / "pddl" / below / "x-problem.pddl").read_text() for below in "ab"]
    assert problems[0] != problems[1]  # each its own instance


def test_export_writes_nothing_over_an_earlier_export_without_force(tmp_path: Path) -> None:
    """A second export into the same folder names the first file it would replace, exits 2
    and writes nothing, not even the files that do not exist yet; --force overwrites."""
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "small.txt").write_text(VAULT)
    pddl = tmp_path / "pddl"
    pddl.mkdir()
    (pddl / "small-problem.pddl").write_text("kept")
    (tmp_path / "in" / "other.txt").write_text(OTHER_VAULT)
    refused = CliRunner().invoke(main, ["export", str(tmp_path / "in"), "--pddl", str(pddl)])
    assert refused.exit_code == 2
    assert f"{pddl / 'small-problem.pddl'} already exists; nothing was written: add --force" in refused.output
    assert sorted(p.name for p in pddl.iterdir()) == ["small-problem.pddl"]
    assert (pddl / "small-problem.pddl").read_text() == "kept"
    forced = CliRunner().invoke(main, ["export", str(tmp_path / "in"), "--pddl", str(pddl), "--force"])
    assert forced.exit_code == 0, forced.output
    assert "(held k-b)" in (pddl / "small-problem.pddl").read_text()
    assert len(list(pddl.iterdir())) == 4


def test_export_refuses_files_that_would_write_the_same_output_and_exports_the_rest(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    for name in ("x.txt", "x.TXT", "y.txt"):
        (tmp_path / "in" / name).write_text(VAULT)
    result = CliRunner().invoke(main, ["export", str(tmp_path / "in"), "--pddl", str(tmp_path / "pddl")])
    assert result.exit_code == 2
    for name in ("x.txt", "x.TXT"):
        assert f"Error: {tmp_path / 'in' / name}: not exported: another instance file there would write" \
            in result.output
    assert sorted(p.name for p in (tmp_path / "pddl").iterdir()) == ["y-domain.pddl", "y-problem.pddl"]


def test_without_the_planner_the_solver_is_unsupported(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> Path:
        raise downward.PlannerMissing("Fast Downward is not installed")

    monkeypatch.setattr(downward, "binaries", missing)
    result = KeysFd().solve(parse_vault(VAULT, "small.txt"), 5)
    assert result.status is Status.UNSUPPORTED and "not installed" in result.message


# --- replaying ground encodings --------------------------------------------------------

def _sexp(text: str) -> list[Sexp]:
    tokens = text.replace("(", " ( ").replace(")", " ) ").split()
    stack: list[list[Sexp]] = [[]]
    for token in tokens:
        if token == "(":
            stack.append([])
        elif token == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token)
    return stack[0]


def _lines(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(";"))


def _word(sexp: Sexp) -> str:
    assert isinstance(sexp, str), f"expected a word, found {sexp}"
    return sexp


def _nested(sexp: Sexp) -> list[Sexp]:
    assert isinstance(sexp, list), f"expected a parenthesised list, found {sexp}"
    return sexp


def _atom(sexp: Sexp) -> Atom:
    """The words of a ground atom such as ``(door c-1-3 k-a)``."""
    return tuple(_word(word) for word in _nested(sexp))


def _literals(conjunction: Sexp) -> Literals:
    """(positive atoms, negative atoms, cost) of an ``(and ...)``."""
    positive, negative, cost = set[Atom](), set[Atom](), 0
    for literal in _nested(conjunction)[1:]:
        if literal[0] == "not":
            negative.add(_atom(_nested(literal)[1]))
        elif literal[0] == "increase":
            cost += int(_word(_nested(literal)[2]))
        else:
            positive.add(_atom(literal))
    return positive, negative, cost


def _ground_task(encoding: Encoding[Move]) -> tuple[list[tuple[str, tuple[set[Atom], set[Atom]],
                                                         tuple[set[Atom], set[Atom]], int]], set[Atom]]:
    """The ground actions (name, precondition, effect, cost) and the initial atoms."""
    actions: list[tuple[str, Literals, Literals]] = []
    for part in _nested(_sexp(_lines(encoding.domain))[0]):
        if isinstance(part, list) and part[0] == ":action":
            fields = dict(zip(map(_word, part[2::2]), part[3::2], strict=True))
            actions.append((_word(part[1]), _literals(fields[":precondition"]), _literals(fields[":effect"])))
    init = next(part for part in _nested(_sexp(encoding.problem)[0]) if isinstance(part, list) and part[0] == ":init")
    state = {_atom(atom) for atom in init[1:] if atom[0] != "="}
    return [(name, pre[:2], eff[:2], eff[2]) for name, pre, eff in actions], state


def _accepted(check_plan: Callable[[Instance, Sequence[Sequence[object]]], int], instance: Instance,
              plan: list[Move]) -> bool:
    """True when the checker accepts `plan` as a prefix (all moves legal)."""
    try:
        check_plan(instance, plan)
    except InvalidPlan as error:
        return error.step == len(plan)
    return True


def _replay(instance: Instance, encoding: Encoding[Move], check_plan: Callable[[Instance, Sequence[Sequence[object]]], int],
            candidates: list[Move], cost_of: Callable[[list[Move], Move], int],
            walks: int, length: int, seed: int) -> None:
    """Random walks through the encoded task, compared with the checker at every state;
    `cost_of(plan, move)` is the rules' cost of `move` after the legal prefix `plan`."""
    actions, start = _ground_task(encoding)
    rng = random.Random(seed)
    for _ in range(walks):
        state, plan = set(start), list[Move]()
        for _ in range(length):
            applicable = [(name, eff, cost) for name, (pos, neg), eff, cost in actions
                          if pos <= state and not (neg & state)]
            moves = {encoding.decode((name,)) for name, _, _ in applicable}
            legal = {move for move in candidates if _accepted(check_plan, instance, plan + [move])}
            assert moves == legal, f"after {plan}: encoded {moves ^ legal} differ"
            if not applicable:
                break
            name, (add, delete), cost = rng.choice(applicable)
            move = encoding.decode((name,))
            assert cost == cost_of(plan, move), f"{name} costs {cost}, the move {move} {cost_of(plan, move)}"
            plan.append(move)
            state = (state - delete) | add


def test_amphipod_actions_are_exactly_the_checkers_moves() -> None:
    for seed, depth in ((1, 1), (2, 2), (3, 3)):
        burrow = amphipods.generate(seed, depth=depth)
        labels = [amphipods.hallway_label(h) for h in range(11)] + [
            amphipods.room_label(r, s) for r in range(4) for s in range(depth)]
        every = [amphipods.AmphipodMove(a, b) for a in labels for b in labels if a != b]

        def cost_of(plan: list[amphipods.AmphipodMove], move: amphipods.AmphipodMove,
                    burrow: amphipods.Burrow = burrow, depth: int = depth) -> int:  # this loop's burrow
            cells = {amphipods.room_label(r, s): kind for r, room in enumerate(burrow.rooms)
                     for s, kind in enumerate(room)}
            for before, after in plan:
                cells[after] = cells.pop(before)
            source, target = (amphipods.parse_label(label, depth) for label in move)
            assert source is not None and target is not None, move
            return len(amphipods.path(source, target)) * amphipods.ENERGY[cells[move[0]]]

        _replay(burrow, AmphipodsFd().encode(burrow), amphipods.check_plan, every, cost_of,
                walks=3, length=12, seed=seed)


def test_elevator_rides_are_exactly_the_checkers_moves() -> None:
    def candidates(facility: elevator.Facility) -> list[elevator.ElevatorMove]:
        names = [elevator.item_name(e, kind) for e in facility.elements for kind in (elevator.GENERATOR,
                                                                                      elevator.MICROCHIP)]
        loads = [(a,) for a in names] + [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
        return [elevator.ElevatorMove(d, load) for d in (elevator.UP, elevator.DOWN) for load in loads]

    for seed, pairs, floors in ((1, 2, 3), (2, 3, 4), (3, 3, 3), (4, 4, 4)):
        facility = elevator.generate(seed, pairs=pairs, floors=floors)
        _replay(facility, ElevatorFd().encode(facility), elevator.check_plan, candidates(facility),
                lambda plan, move: 1, walks=3, length=15, seed=seed)


def test_every_built_in_puzzle_has_a_planner_formulation() -> None:
    from crosscheck.solvers.registry import solvers_for

    for puzzle in built_in_puzzles():  # the puzzle registry, not a copy of the encoders' names
        assert any(isinstance(solver, FastDownward) for solver in solvers_for(puzzle)), puzzle
