"""When a compiled search may use numba's on-disk cache.

numba's cache (``cache=True``) is keyed on the source of a cached function's own module.  A
kernel that calls the trusted compiled parts (`PARTS`: the heap, the node table and the search
protocol's key packing and constants) is compiled with them inside, and its cache would not
notice a change of theirs.  So a kernel module records
the `source_digest` of those parts it was last compiled against (its ``ENGINE_SOURCE``) and
caches only while the two agree (`cache_enabled`).  After a change of a part it compiles afresh
until its recorded digest is updated, and that edit of its own file retires its old cache.
tests/test_compiled_engine.py fails until each kernel records the current digest.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

#: The compiled parts a kernel calls into or reads constants of, files beside this one.
PARTS = ("heap.py", "node_table.py", "search_protocol.py")


def source_digest() -> str:
    """The SHA-256 of the `PARTS`' sources, in hex (16 digits)."""
    digest = hashlib.sha256()
    for part in PARTS:
        digest.update((Path(__file__).parent / part).read_bytes())
    return digest.hexdigest()[:16]


def cache_enabled(recorded: str) -> bool:
    """Whether a kernel module that recorded the digest `recorded` of the parts may use numba's
    cache: only when it is the current one (module doc)."""
    return recorded == source_digest()
