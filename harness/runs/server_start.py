"""Starting the forkserver of isolated runs so that it imports what the command imported.

multiprocessing starts the server as ``python -c ...``, which puts the current folder first
on the module search path, and has it import the command's script (``__main__``) and then
its preload modules before anything else runs: a package ``crosscheck/`` or a module named
like one crosscheck imports (``pydantic.py``) in the folder the command runs in would be
imported there, and every run forked from the server would inherit it, while the command
itself (the installed ``crosscheck`` script, whose own folder is first on its path) imports
the installed one.

So `start_server` starts it with ``PYTHONSAFEPATH`` set (the current folder is not put on
its path), and the preload (`crosscheck.harness.runs.preload`) calls `take_command_imports`
first: it takes the command's search path (`take_import_path`), gives ``PYTHONSAFEPATH``
back the value it had before the start when it was set only for the start (unset, or set
but empty; the runs' own programs, Fast Downward's ``python`` script among them, must not
inherit it), and then imports the command's script,
which the preload list therefore leaves out.  Only ``crosscheck.harness`` and
``crosscheck.solvers.registry`` themselves (which import nothing beyond the standard
library) are imported before the command's path is taken, from the interpreter's own path
(its installation, ``PYTHONPATH``), never from the current folder.
"""

from __future__ import annotations

import multiprocessing.forkserver
import os
import threading
from multiprocessing import process, spawn

from crosscheck.solvers.registry import pass_import_path, take_import_path

#: The command's script (``__main__``'s file), for the server to import once.
MAIN_PATH_VARIABLE = "CROSSCHECK_MAIN_PATH"
#: Set when ``PYTHONSAFEPATH`` was set for the server's start only: to `WAS_UNSET`, or to
#: `WAS_EMPTY` when the command had it set but empty (which Python reads as unset).
SAFE_PATH_ADDED_VARIABLE = "CROSSCHECK_SAFE_PATH_ADDED"
WAS_UNSET, WAS_EMPTY = "unset", "empty"

_STARTING = threading.Lock()


def start_server() -> None:
    """Start the forkserver now (nothing when it runs already), with the current folder off
    its path and the command's search path and script passed to it (module doc).  The
    environment is changed only to start the server, and given back exactly as it was at once."""
    with _STARTING:
        if _server_running():
            return
        pass_import_path()
        main_path = spawn.get_preparation_data("ignore").get("main_path")
        saved = {name: os.environ.get(name) for name in ("PYTHONSAFEPATH", SAFE_PATH_ADDED_VARIABLE, MAIN_PATH_VARIABLE)}
        if not saved["PYTHONSAFEPATH"]:
            os.environ[SAFE_PATH_ADDED_VARIABLE] = WAS_UNSET if saved["PYTHONSAFEPATH"] is None else WAS_EMPTY
            os.environ["PYTHONSAFEPATH"] = "1"
        if main_path is not None:
            os.environ[MAIN_PATH_VARIABLE] = main_path
        try:
            multiprocessing.forkserver.ensure_running()
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def _server_running() -> bool:
    """Whether this process's forkserver has been started and is still running (its exit
    is looked at, not collected: `ensure_running` collects it and starts another)."""
    pid = multiprocessing.forkserver._forkserver._forkserver_pid  # type: ignore[attr-defined]
    if pid is None:
        return False
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
    except ChildProcessError:
        return False


def take_command_imports() -> None:
    """In the server, before it imports anything more: the command's search path, the
    environment its runs inherit with ``PYTHONSAFEPATH`` as the command had it where only the start set it,
    and the command's script imported (as multiprocessing would, as ``__mp_main__``)."""
    take_import_path()
    was = os.environ.pop(SAFE_PATH_ADDED_VARIABLE, None)
    if was == WAS_UNSET:
        os.environ.pop("PYTHONSAFEPATH", None)
    elif was == WAS_EMPTY:
        os.environ["PYTHONSAFEPATH"] = ""
    main_path = os.environ.pop(MAIN_PATH_VARIABLE, None)
    if main_path is not None:
        process.current_process()._inheriting = True  # type: ignore[attr-defined]  # as multiprocessing's server does
        try:
            spawn.import_main_path(main_path)
        finally:
            del process.current_process()._inheriting  # type: ignore[attr-defined]
