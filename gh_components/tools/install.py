"""Install the Extrados Grasshopper package (and built .ghuser files) where Rhino finds them.

The components import ``extrados_gh``; Rhino finds it in its scripts folder, which is on the
module search path of Rhino 7's IronPython and of Rhino 8's script editor::

    Windows  %APPDATA%\\McNeel\\Rhinoceros\\<7.0|8.0>\\scripts
    macOS    ~/Library/Application Support/McNeel/Rhinoceros/<7.0|8.0>/scripts

Built ``.ghuser`` files (gh_components/tools/componentize.py, then the componentizer) go to
Grasshopper's user objects folder, in an ``Extrados`` subfolder.

Usage (any Python 3, no packages needed; Rhino closed or restarted after)::

    python gh_components/tools/install.py                      # every Rhino found
    python gh_components/tools/install.py --rhino 8
    python gh_components/tools/install.py --dest D:/my/scripts # a folder of your choice
    python gh_components/tools/install.py --ghuser build/gh/ghuser/cpy
"""
import argparse
import os
import shutil
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "extrados_gh"
RHINO_VERSIONS = ("7.0", "8.0")
#: Grasshopper's folder id on macOS, part of its user objects path there.
MAC_GRASSHOPPER = "Grasshopper (b45a29b1-4343-4035-989e-044e8580d9cf)"


def mcneel_folder():
    """Where Rhino keeps its per-user files on this system, or None (Linux: no Rhino)."""
    if sys.platform.startswith("win") and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "McNeel" / "Rhinoceros"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "McNeel" / "Rhinoceros"
    return None


def scripts_folders(versions=RHINO_VERSIONS):
    """The scripts folders of the installed Rhino versions among ``versions``."""
    root = mcneel_folder()
    if root is None:
        return []
    return [root / version / "scripts" for version in versions if (root / version).is_dir()]


def user_objects_folder(version="8.0"):
    """Grasshopper's user objects folder, or None where it is not known."""
    if sys.platform.startswith("win") and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "Grasshopper" / "UserObjects"
    if sys.platform == "darwin":
        return mcneel_folder() / version / "Plug-ins" / MAC_GRASSHOPPER / "UserObjects"
    return None


def install_package(dest):
    """Copy ``extrados_gh`` into ``dest`` (replacing an older copy); the package folder written."""
    target = Path(dest) / "extrados_gh"
    if target.exists():
        shutil.rmtree(target)
    Path(dest).mkdir(parents=True, exist_ok=True)
    shutil.copytree(PACKAGE, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return target


def install_user_objects(source, dest):
    """Copy the ``.ghuser`` files of ``source`` into ``dest/Extrados``; the files written."""
    files = sorted(Path(source).glob("*.ghuser"))
    if not files:
        raise FileNotFoundError(f"no .ghuser files in {source} (build them first: see gh_components/README.md)")
    folder = Path(dest) / "Extrados"
    folder.mkdir(parents=True, exist_ok=True)
    return [Path(shutil.copy2(f, folder / f.name)) for f in files]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rhino", choices=[v.split(".")[0] for v in RHINO_VERSIONS],
                        help="only this Rhino version (default: every one found)")
    parser.add_argument("--dest", help="copy the package into this folder instead of Rhino's scripts folders")
    parser.add_argument("--ghuser", help="also copy the .ghuser files of this folder into Grasshopper's user objects")
    parser.add_argument("--user-objects", help="Grasshopper's user objects folder (default: the usual one)")
    args = parser.parse_args(argv)
    versions = RHINO_VERSIONS if args.rhino is None else (args.rhino + ".0",)
    folders = [Path(args.dest)] if args.dest else scripts_folders(versions)
    if not folders:
        print("install: no Rhino %s found for this user; pass --dest with the folder to copy extrados_gh into"
              % " or ".join(versions), file=sys.stderr)
        return 2
    for folder in folders:
        print(f"extrados_gh -> {install_package(folder)}")
    if args.ghuser:
        dest = args.user_objects or user_objects_folder(versions[-1])
        if dest is None:
            print("install: Grasshopper's user objects folder is not known here; pass --user-objects",
                  file=sys.stderr)
            return 2
        try:
            written = install_user_objects(args.ghuser, dest)
        except FileNotFoundError as error:
            print(f"install: {error}", file=sys.stderr)
            return 2
        print(f"{len(written)} user objects -> {Path(dest) / 'Extrados'}")
    print("restart Rhino (or Grasshopper) so that it imports the new package")
    return 0


if __name__ == "__main__":
    sys.exit(main())
