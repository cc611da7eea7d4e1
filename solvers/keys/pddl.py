"""The key vault in PDDL: one lifted domain, one problem per vault.

Objects are the open cells (``c-ROW-COL``, 0-based), the robots (``r0``, ``r1``, ...
in the order of `Vault.robots`), the keys (``k-a`` ...) and the four directions.  A
robot steps to an adjacent open cell at cost 1 by one of three actions:

- ``step`` onto plain floor (a ``.`` or a robot's start cell);
- ``step-door`` onto a door whose key is held (a door whose key is not in the grid
  gets no ``door`` fact, so it never opens);
- ``step-key`` onto a key's cell, which picks the key up (again harmlessly if held).

Robots do not block each other (the rules let them share cells).  The goal holds
every key.
"""

from __future__ import annotations

from crosscheck.models.keys.model import DIRECTIONS, WALL, KeyMove, Vault, door_key, is_key
from crosscheck.solvers.engines.pddl import Action, Encoding, GroundAction, domain_text, pddl_name, problem_text

MOVE = ["(at ?r ?from)", "(adjacent ?from ?to ?d)"]
LEAVE = ["(not (at ?r ?from))", "(at ?r ?to)"]
STEP_PARAMETERS = [("?r", "robot"), ("?from", "cell"), ("?to", "cell"), ("?d", "direction")]

ACTIONS = (
    Action("step", STEP_PARAMETERS, MOVE + ["(floor ?to)"], LEAVE, cost=1),
    Action("step-door", STEP_PARAMETERS + [("?k", "key")], MOVE + ["(door ?to ?k)", "(held ?k)"], LEAVE, cost=1),
    Action("step-key", STEP_PARAMETERS + [("?k", "key")], MOVE + ["(key-at ?k ?to)"], LEAVE + ["(held ?k)"],
           cost=1),
)

DOMAIN = domain_text(
    "key-vault",
    types=["robot", "cell", "key", "direction"],
    predicates=["(at ?r - robot ?c - cell)", "(adjacent ?from ?to - cell ?d - direction)", "(floor ?c - cell)",
                "(door ?c - cell ?k - key)", "(key-at ?k - key ?c - cell)", "(held ?k - key)"],
    actions=ACTIONS,
    comment="Key vault: robots step between adjacent open cells (cost 1), through doors whose key\n"
            "is held, and pick up the key of every key cell they enter; goal: every key held.",
)


def _cell(r: int, c: int) -> str:
    return f"c-{r}-{c}"


def encode(vault: Vault) -> Encoding[KeyMove]:
    """The vault as a PDDL task whose optimal plans are the vault's optimal move sequences."""
    cells = [(r, c) for r in range(vault.height) for c in range(vault.width) if vault.at((r, c)) != WALL]
    init = [f"(at r{i} {_cell(*cell)})" for i, cell in enumerate(vault.robots)]
    # With no keys the start is a goal; an empty PDDL goal becomes an axiom LM-cut refuses,
    # so the goal then names the start itself (what holds before any move).
    start = list(init)
    for cell in cells:
        char, key = vault.at(cell), door_key(vault.at(cell))
        if is_key(char):
            init.append(f"(key-at k-{char} {_cell(*cell)})")
        elif key is not None:
            if vault.passable(char):  # a door whose key is missing has no fact: it never opens
                init.append(f"(door {_cell(*cell)} k-{key})")
        else:
            init.append(f"(floor {_cell(*cell)})")
        for direction, target in vault.open_neighbours(cell):
            init.append(f"(adjacent {_cell(*cell)} {_cell(*target)} {direction.lower()})")
    problem = problem_text(
        pddl_name(vault.name), "key-vault",
        objects={
            "robot": [f"r{i}" for i in range(len(vault.robots))],
            "cell": [_cell(*cell) for cell in cells],
            "key": [f"k-{key}" for key in vault.letters],
            "direction": [direction.lower() for direction in DIRECTIONS],
        },
        init=init,
        goal=[f"(held k-{key})" for key in vault.letters] or start,
    )
    return Encoding(DOMAIN, problem, _decode)


def _decode(action: GroundAction) -> KeyMove:
    """``(step|step-door|step-key, rI, from, to, d[, key])`` -> `KeyMove(I, D)`."""
    _, robot, _, _, direction, *_ = action
    return KeyMove(int(robot[1:]), direction.upper())
