"""What the amphipod formulations share: the fixed part of a burrow.

`Layout` is the instance seen the way the macro-move formulations see it.  They rely
on the *contraction lemma*: some optimal plan is canonical, i.e.

- an amphipod that is home with only its own kind below it never moves;
- every other amphipod moves at most twice: out of its room to a hallway stop and
  later home, or once, straight from its room into its home room;
- an amphipod entering its room goes to the deepest free cell.

(Exchange arguments: moving a settled amphipod or stopping higher up only blocks
cells nobody needs; a hallway amphipod may only go home.)  The literal one-step
formulation ``amphipods-steps`` and the one-move-per-stop ``amphipods-stops`` make none
of these assumptions (their optima range over every plan the rules allow), so they
check the lemma empirically on every instance they finish: ``amphipods-stops`` at
depth 4 too, including burrows without a solution.
"""

from __future__ import annotations

from dataclasses import dataclass

from crosscheck.models.amphipods import Burrow, settled


@dataclass(frozen=True)
class Layout:
    """A burrow's rooms, and per room how many amphipods must leave (`need`).

    Exactly `need[r]` amphipods leave room r (its top ones) and exactly `need[r]`
    amphipods of kind r enter it (the ones not already settled at its bottom).
    """

    depth: int
    rooms: tuple[str, ...]
    settled: tuple[int, ...]
    need: tuple[int, ...]

    @classmethod
    def of(cls, burrow: Burrow) -> Layout:
        home = tuple(settled(burrow))
        return cls(burrow.depth, burrow.rooms, home, tuple(burrow.depth - count for count in home))

    def entry_slot(self, room: int, entered: int) -> int:
        """The slot (0 = top) the next entrant of `room` takes after `entered` entrants."""
        return self.depth - self.settled[room] - entered - 1

