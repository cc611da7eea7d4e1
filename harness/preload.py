"""Imported once by the forkserver that starts isolated runs (see `crosscheck.harness.run`).

Every run's child process is forked from that server, so whatever is loaded here is
loaded once instead of once per run: the plugins (entry points, and the modules named in
``CROSSCHECK_SOLVERS`` when the server starts; the built-in formulations the runs need are
further modules of the server's preload list, `crosscheck.harness.run._context`), and the environment facts every
record carries (their versions and git commit cost a subprocess and several package
look-ups, tens of milliseconds that a hunt over thousands of tiny instances would
otherwise pay per run).

The server is started as ``python -c``, whose module search path starts with the current
folder; it takes the command's path (`take_import_path`) before loading the plugins, so that
it imports the same plugin modules from the same files as the command.
"""

from __future__ import annotations

import crosscheck.harness.run  # noqa: F401  (the child's entry point and everything it imports)
import crosscheck.solvers.sharing  # noqa: F401  (every run records what its solver shares)
from crosscheck.harness.records import environment
from crosscheck.solvers.registry import load_plugins, take_import_path

take_import_path()
load_plugins()
environment()
