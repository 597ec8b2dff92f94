"""The PyInstaller bundle's entry point: the same ``earmark`` command, frozen."""

import multiprocessing
import sys

from earmark.__main__ import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # the refresh's parsing processes start from this executable too
    sys.exit(main())
