"""Entry point: ``earmark`` (and ``python -m earmark``)."""

from __future__ import annotations

import sys

from earmark.cli import main as cli_main
from earmark.core.privacy import private_umask


def main() -> int:
    """Run the command line; with no command it opens the window. Whatever it writes is its user's only."""
    private_umask()
    return cli_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
