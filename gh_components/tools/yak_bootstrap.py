"""The few lines each component of the Yak package runs before it imports ``extrados_gh``.

A component installed from Yak (Rhino's package manager) finds the package's files under Rhino's per-user
packages folder, ``<McNeel>/Rhinoceros/packages/<7.0|8.0>/extrados/<version>/``, which is not on Python's module
path; a package copied by tools/install.py into Rhino's scripts folder is. `put_extrados_on_path` adds the newest
installed version's folder unless ``extrados_gh`` imports already. tools/yak_package.py copies its source into
each component's code (Python 2.7 and 3: Rhino 7's IronPython, Rhino 8's CPython), with no import of its own.
"""


def put_extrados_on_path(environ=None, home=None):
    """Put the newest Yak-installed Extrados package folder first on sys.path, unless extrados_gh imports already.

    Returns the folder added, or None.
    """
    import os
    import sys
    try:
        import extrados_gh  # noqa: F401
        return None
    except ImportError:
        pass
    environ = os.environ if environ is None else environ
    home = os.path.expanduser("~") if home is None else home
    roots = []
    if environ.get("APPDATA"):
        roots.append(os.path.join(environ["APPDATA"], "McNeel", "Rhinoceros", "packages"))
    roots.append(os.path.join(home, "Library", "Application Support", "McNeel", "Rhinoceros", "packages"))

    def version_key(name):
        return [int(part) if part.isdigit() else 0 for part in name.replace("-", ".").split(".")]

    for root in roots:
        for rhino in ("8.0", "7.0"):
            folder = os.path.join(root, rhino, "extrados")
            if not os.path.isdir(folder):
                continue
            for version in sorted(os.listdir(folder), key=version_key, reverse=True):
                candidate = os.path.join(folder, version)
                if os.path.isfile(os.path.join(candidate, "extrados_gh", "__init__.py")):
                    sys.path.insert(0, candidate)
                    return candidate
    return None
