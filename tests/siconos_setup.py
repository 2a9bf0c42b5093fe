"""The Siconos that the Coulomb friction tests compare against, found or installed.

Siconos (INRIA's fc3d solvers of the Coulomb contact problem) is a peer, not a dependency: Debian's
``python3-siconos`` runs under the system's Python (``SYSTEM_PYTHON``), and tests/siconos_peer.py is handed
to it. `make test` runs this file first, which installs the package when it is missing and the run is root
on a system with apt-get. When that is impossible the tests fail with `INSTALL_COMMAND`.

    .venv/bin/python tests/siconos_setup.py
"""
import os
import shutil
import subprocess
import sys

#: The Python that Debian's python3-siconos installs for.
SYSTEM_PYTHON = "/usr/bin/python3"
#: What to run for Siconos, in the words of the failure message.
INSTALL_COMMAND = "apt-get install -y python3-siconos (as root, Debian 12 or later)"


def siconos_python():
    """``SYSTEM_PYTHON`` when it imports siconos.numerics, else None."""
    if not os.path.isfile(SYSTEM_PYTHON):
        return None
    found = subprocess.run([SYSTEM_PYTHON, "-c", "import siconos.numerics"], capture_output=True)
    return SYSTEM_PYTHON if found.returncode == 0 else None


def main():
    """Install python3-siconos unless it is there; a failed install is reported and left to the tests to fail on."""
    if siconos_python():
        print(f"Coulomb friction tests: Siconos under {SYSTEM_PYTHON}")
        return
    if not (shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0):
        print(f"Coulomb friction tests: no Siconos and no way to install it here; run {INSTALL_COMMAND}",
              file=sys.stderr)
        return
    command = ["sh", "-c",
               "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-siconos"]
    print(f"Coulomb friction tests: installing Siconos: {command[-1]}", flush=True)
    if subprocess.run(command).returncode != 0 or siconos_python() is None:
        print(f"Coulomb friction tests: the install failed; they will fail until this works: {INSTALL_COMMAND}",
              file=sys.stderr)


if __name__ == "__main__":
    main()
