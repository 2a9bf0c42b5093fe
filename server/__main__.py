"""``python -m server``: run the service (see server.serve)."""
import sys

from server.serve import main

if __name__ == "__main__":
    sys.exit(main())
