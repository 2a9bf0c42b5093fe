"""``python -m extrados``: the ``extrados`` command (extrados.cli)."""
import sys

from extrados.cli import main

if __name__ == "__main__":
    sys.exit(main())
