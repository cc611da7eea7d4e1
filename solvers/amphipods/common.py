"""What the amphipod formulations share: the fixed part of a burrow.

`Layout` is the instance seen the way the macro-move formulations see it.  They rely
on the *contraction lemma*: some optimal plan is canonical, i.e.

- an amphipod that is home with only its own kind below it never moves;
- every other amphipod moves at most twice: out of its room to a hallway stop and
  later home, or once, straight from its room into its home room (one that starts in
  the hallway has stopped there: it moves once, home);
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

from crosscheck.models.amphipods.model import Burrow, settled


@dataclass(frozen=True)
class Layout:
    """A burrow's hallway and rooms, and per room who must leave and who must enter.

    A burrow may start in the middle of a plan (see `Burrow`): amphipods standing in the
    hallway (they have stopped, so they only move home) and rooms whose top cells are
    empty.  Room r's amphipods start at slot `top[r]`; exactly `leave[r]` of them leave
    (those above its `settled[r]` home amphipods at the bottom), and exactly `enter[r]`
    amphipods of kind r enter it, filling it from slot ``depth - settled[r] - 1`` up.
    """

    depth: int
    rooms: tuple[str, ...]
    hallway: str
    settled: tuple[int, ...]
    top: tuple[int, ...]
    leave: tuple[int, ...]
    enter: tuple[int, ...]

    @classmethod
    def of(cls, burrow: Burrow) -> Layout:
        home = tuple(settled(burrow))
        top = tuple(len(room) - len(room.lstrip(".")) for room in burrow.rooms)
        leave = tuple(burrow.depth - t - s for t, s in zip(top, home, strict=True))
        return cls(burrow.depth, burrow.rooms, burrow.hallway, home, top, leave,
                   tuple(burrow.depth - count for count in home))

    def leaver(self, room: int, p: int) -> tuple[str, int]:
        """The kind and slot of the `p`-th amphipod (0 = the top one) to leave `room`."""
        slot = self.top[room] + p
        return self.rooms[room][slot], slot

    def entry_slot(self, room: int, entered: int) -> int:
        """The slot (0 = top) the next entrant of `room` takes after `entered` entrants."""
        return self.depth - self.settled[room] - entered - 1
