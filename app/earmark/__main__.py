"""Entry point: ``earmark`` (and ``python -m earmark``)."""

from __future__ import annotations

import sys

from earmark.cli import main as cli_main


def main() -> int:
    """Run the command line; with no command it opens the window."""
    return cli_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
