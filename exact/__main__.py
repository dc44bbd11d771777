"""``python -m exact``: the ``rtp`` command line (same arguments, same exit codes)."""
import sys

from exact.cli import main

if __name__ == "__main__":
    sys.exit(main())
