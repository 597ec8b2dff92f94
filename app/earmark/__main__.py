"""Entry point: ``earmark`` (and ``python -m earmark``)."""

from __future__ import annotations

import gc
import sys

from earmark.core.privacy import private_umask


def main() -> int:
    """Run the command line; with no command it opens the window. Whatever it writes is its user's only.

    No garbage collection while it starts: the objects a start makes (modules, classes, the window) live as long
    as the program, and collections over them cost ~20 ms of the time to the first frame. The window turns it on
    once it is whole, a command before it runs (see earmark.cli). At the end all it made is frozen: the collection
    at exit need not go over it (~10 ms of every command's end)."""
    gc.disable()
    try:
        from earmark.cli import main as cli_main

        private_umask()
        return cli_main(sys.argv[1:])
    finally:
        gc.enable()
        gc.freeze()


if __name__ == "__main__":
    sys.exit(main())
