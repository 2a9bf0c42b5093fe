"""``python -m extrados.server``: run the service (see extrados.server.serve)."""
import sys

from extrados.server.serve import main

if __name__ == "__main__":
    sys.exit(main())
