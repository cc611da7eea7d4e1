"""The PDDL encodings without a planner: their text, and (for the ground encodings) their
semantics, replayed by a tiny STRIPS interpreter against the puzzles' own plan checkers.

The replay walks random paths through an encoded task and asserts that in every state
the moves of the applicable ground actions are exactly the moves the checker accepts
next, and that each action's cost is the checker's cost of its move.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from crosscheck.harness.cli import main
from crosscheck.models import amphipods, elevator
from crosscheck.models.base import InvalidPlan
from crosscheck.models.keys import KeyMove
from crosscheck.models.keys import parse as parse_vault
from crosscheck.models.registry import PUZZLES
from crosscheck.solvers.base import Status
from crosscheck.solvers.planner import downward
from crosscheck.solvers.planner.fd import ENCODERS, KeysFastDownward, encoder
from crosscheck.solvers.planner.pddl import Encoding

VAULT = "#########\n#b.A.@.a#\n#########\n"


def test_keys_encoding_is_plain_strips_with_costs() -> None:
    encoding = encoder("keys").encode(parse_vault(VAULT, "small.txt"))
    text = encoding.domain + encoding.problem
    assert ":action-costs" in encoding.domain and "(:metric minimize (total-cost))" in encoding.problem
    for construct in ("forall", "exists", "(or ", ":derived", "when"):
        assert construct not in text
    assert "(door c-1-3 k-a)" in encoding.problem and "(goal" not in encoding.problem
    assert encoding.decode(("step-key", "r0", "c-1-6", "c-1-7", "e", "k-a")) == KeyMove(0, "E")


def test_a_door_without_its_key_never_opens() -> None:
    encoding = encoder("keys").encode(parse_vault("#####\n#@Ab#\n#####\n", "locked.txt"))
    assert "(door" not in encoding.problem and "(floor c-1-2)" not in encoding.problem


def test_export_writes_domain_and_problem(tmp_path: Path) -> None:
    source = tmp_path / "small.txt"
    source.write_text(VAULT)
    result = CliRunner().invoke(main, ["export", str(source), "--pddl", str(tmp_path / "pddl")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "pddl" / "small-domain.pddl").read_text().startswith("; Key vault")
    assert "(held k-b)" in (tmp_path / "pddl" / "small-problem.pddl").read_text()


def test_without_the_planner_the_solver_is_unsupported(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> Path:
        raise downward.PlannerMissing("Fast Downward is not installed")

    monkeypatch.setattr(downward, "binaries", missing)
    result = KeysFastDownward().solve(parse_vault(VAULT, "small.txt"), 5)
    assert result.status is Status.UNSUPPORTED and "not installed" in result.message


# --- replaying ground encodings --------------------------------------------------------

def _sexp(text: str) -> list:
    tokens = text.replace("(", " ( ").replace(")", " ) ").split()
    stack: list[list] = [[]]
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


def _literals(conjunction: list) -> tuple[set, set, int]:
    """(positive atoms, negative atoms, cost) of an ``(and ...)``."""
    positive, negative, cost = set(), set(), 0
    for literal in conjunction[1:]:
        if literal[0] == "not":
            negative.add(tuple(literal[1]))
        elif literal[0] == "increase":
            cost += int(literal[2])
        else:
            positive.add(tuple(literal))
    return positive, negative, cost


def _ground_task(encoding: Encoding) -> tuple[list[tuple[str, tuple, tuple, int]], set]:
    """The ground actions (name, precondition, effect, cost) and the initial atoms."""
    actions = []
    for part in _sexp(_lines(encoding.domain))[0]:
        if part[0] == ":action":
            fields = dict(zip(part[2::2], part[3::2], strict=True))
            actions.append((part[1], _literals(fields[":precondition"]), _literals(fields[":effect"])))
    init = next(part for part in _sexp(encoding.problem)[0] if part[0] == ":init")
    state = {tuple(atom) for atom in init[1:] if atom[0] != "="}
    return [(name, pre[:2], eff[:2], eff[2]) for name, pre, eff in actions], state


def _accepted(check_plan: Callable, instance: Any, plan: list) -> bool:
    """True when the checker accepts `plan` as a prefix (all moves legal)."""
    try:
        check_plan(instance, plan)
    except InvalidPlan as error:
        return error.step == len(plan)
    return True


def _replay(instance: Any, encoding: Encoding, check_plan: Callable, candidates: list, cost_of: Callable,
            walks: int, length: int, seed: int) -> None:
    """Random walks through the encoded task, compared with the checker at every state;
    `cost_of(plan, move)` is the rules' cost of `move` after the legal prefix `plan`."""
    actions, start = _ground_task(encoding)
    rng = random.Random(seed)
    for _ in range(walks):
        state, plan = set(start), []
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

        def cost_of(plan: list, move: Any, burrow: Any = burrow, depth: int = depth) -> int:  # this loop's burrow
            cells = {amphipods.room_label(r, s): kind for r, room in enumerate(burrow.rooms)
                     for s, kind in enumerate(room)}
            for source, target in plan:
                cells[target] = cells.pop(source)
            source, target = (amphipods.parse_label(label, depth) for label in move)
            return len(amphipods.path(source, target)) * amphipods.ENERGY[cells[move[0]]]

        _replay(burrow, encoder("amphipods").encode(burrow), amphipods.check_plan, every, cost_of,
                walks=3, length=12, seed=seed)


def test_elevator_rides_are_exactly_the_checkers_moves() -> None:
    def candidates(facility: Any) -> list:
        names = [elevator.item_name(e, kind) for e in facility.elements for kind in (elevator.GENERATOR,
                                                                                      elevator.MICROCHIP)]
        loads = [(a,) for a in names] + [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
        return [elevator.ElevatorMove(d, load) for d in (elevator.UP, elevator.DOWN) for load in loads]

    for seed, pairs, floors in ((1, 2, 3), (2, 3, 4), (3, 3, 3), (4, 4, 4)):
        facility = elevator.generate(seed, pairs=pairs, floors=floors)
        _replay(facility, encoder("elevator").encode(facility), elevator.check_plan, candidates(facility),
                lambda plan, move: 1, walks=3, length=15, seed=seed)


def test_every_puzzle_has_an_encoder() -> None:
    assert set(ENCODERS) == set(PUZZLES)  # the puzzle registry, not a copy of the encoders' names
