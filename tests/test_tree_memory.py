"""What the memory watch of a run counts (crosscheck.harness.runs.tree_memory): the first process's
own growth, never the pages it copies from the process it was forked from, and every
descendant, an orphan included."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
from collections.abc import Iterator

import pytest
from crosscheck.harness.runs.tree_memory import TreeWatch, anonymous_resident_mb, descendants, private_mb

from tests.fixtures import ROOT

#: The run's limit in these tests, and what the run allocates of its own (under it).
LIMIT_MB, OWN_MB = 64, 32


def _touched(megabytes: int) -> bytearray:
    """`megabytes` allocated and written to: resident, this process's own."""
    block = bytearray(megabytes << 20)
    block[::4096] = b"x" * len(range(0, len(block), 4096))
    return block


@pytest.fixture
def inherited() -> Iterator[list[str]]:
    """Many small objects (about 70 MB): what a forkserver holds once it has imported the
    solvers' libraries, made here so that the test does not depend on what was imported."""
    objects = [str(number) * 4 for number in range(1_000_000)]
    yield objects
    del objects


def test_a_run_is_not_charged_for_the_pages_it_copies_from_the_process_it_was_forked_from(
        inherited: list[str]) -> None:
    """A forked run that reads every inherited object (writing its reference count, so that
    the kernel copies every page of them) and collects garbage holds only its own allocation
    as far as the limit is concerned, while those copies alone are more than the limit."""
    go_read, go_write = os.pipe()
    ready_read, ready_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the run: never back into pytest's code
        try:
            os.read(go_read, 1)
            assert sum(map(len, inherited)) > 0
            gc.collect()
            held = _touched(OWN_MB)
            os.write(ready_write, b"x")
            signal.pause()
            del held
        finally:
            os._exit(1)
    try:
        watch = TreeWatch(pid, LIMIT_MB)
        watch.over()  # its starting size, before it runs, as run_isolated takes it
        os.write(go_write, b"x")
        assert os.read(ready_read, 1) == b"x"
        assert not watch.over(), watch.peak_mb
        assert OWN_MB <= watch.peak_mb < OWN_MB + 8
        assert private_mb(pid) > LIMIT_MB  # the copies were made: counting them would have killed it
        assert TreeWatch(pid, OWN_MB // 2, start_mb=watch.start_mb).over()  # its own allocation counts
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        for fd in (go_read, go_write, ready_read, ready_write):
            os.close(fd)


ORPHANING = f"""\
import os, signal, sys
from crosscheck.harness.runs.tree_memory import become_subreaper
become_subreaper()
sys.stdin.readline()  # the watch has taken its starting size
own = bytearray({OWN_MB} << 20)
own[::4096] = b"x" * len(range(0, len(own), 4096))
child = os.fork()
if child == 0:
    if os.fork() == 0:  # the grandchild holds memory of its own; its parent leaves at once
        block = bytearray(48 << 20)
        block[::4096] = b"x" * len(range(0, len(block), 4096))
        print("grandchild", os.getpid(), flush=True)
        signal.pause()
    os._exit(0)
os.waitpid(child, 0)
print("orphaned", flush=True)
signal.pause()
"""


def test_the_watch_finds_a_grandchild_whose_parent_exited_and_the_roots_own_growth() -> None:
    """The run's first process, a child subreaper, adopts the grandchild its child left
    behind: the walk down from it still finds it, and counts it with the root's own growth
    (neither alone is over the limit, together they are)."""
    root = subprocess.Popen([sys.executable, "-c", ORPHANING], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, start_new_session=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert root.stdin is not None and root.stdout is not None
        start_mb = anonymous_resident_mb(root.pid)
        root.stdin.write("go\n")
        root.stdin.flush()
        lines = sorted(root.stdout.readline().split() for _ in range(2))
        assert [line[0] for line in lines] == ["grandchild", "orphaned"], lines
        grandchild = int(lines[0][1])
        assert grandchild in descendants(root.pid)
        watch = TreeWatch(root.pid, LIMIT_MB, start_mb=start_mb)
        assert watch.over(), watch.peak_mb  # 32 MB of its own, 48 MB in the orphan
        assert not TreeWatch(root.pid, 100, start_mb=start_mb).over()
        assert not TreeWatch(root.pid, None).over()
    finally:
        os.killpg(root.pid, signal.SIGKILL)
        root.wait()
