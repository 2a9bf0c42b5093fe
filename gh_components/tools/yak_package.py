"""Build the Yak packages of the Extrados components: one for Rhino 8 (CPython components), one for Rhino 7
(IronPython components), each a folder and its ``.yak`` (a zip with ``manifest.yml`` at its root, as
``yak build`` makes; McNeel's "The Package Manifest" guide lists its fields).

Each package holds:

    manifest.yml      name, version, authors, description, keywords, icon
    icon.png          the Analyze component's icon
    README.md         gh_components/README.md
    extrados_gh/      the package the components import
    *.ghuser          the components, when built (tools/componentize.py, then the componentizer on Windows)

and this script writes the componentizer's input with each component's code preceded by the source of
``yak_bootstrap.put_extrados_on_path`` and a call to it, so that a component installed from Yak imports the
package beside it. On a machine with Rhino (Windows)::

    python gh_components/tools/yak_package.py build/yak
    ipy componentize_ipy.py build/yak/componentize/ipy build/yak/rh7          # Rhino 7
    python componentize_cpy.py build/yak/componentize/cpy build/yak/rh8       # Rhino 8
    python gh_components/tools/yak_package.py build/yak --ghuser-built        # the .yak files again, with them
    "C:\\Program Files\\Rhino 8\\System\\yak.exe" push build/yak/extrados-0.1.0-rh8_0-any.yak

Without the ``.ghuser`` files (this project's CI, on Linux) the packages hold the Python package only, and the
script says so.

Usage::

    .venv/bin/python gh_components/tools/yak_package.py TARGET [--ghuser-built]
"""
import argparse
import inspect
import shutil
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import componentize  # noqa: E402
import yak_bootstrap  # noqa: E402

GH = Path(__file__).resolve().parents[1]
#: Rhino version -> (distribution tag of the .yak name, the interpreter of its components)
PACKAGES = {"rh8": ("rh8_0-any", "cpy"), "rh7": ("rh7_0-any", "ipy")}
NAME = "extrados"
AUTHORS = ["Extrados developers"]
KEYWORDS = ["masonry", "structural analysis", "rigid blocks", "contact dynamics", "thrust line", "grasshopper"]
DESCRIPTION = ("Extrados: Non-Smooth Contact Dynamics of masonry built of rigid blocks. The components send the "
               "blocks drawn in Rhino to the Extrados service and draw the contact forces, joint resultants, "
               "thrust lines, collapse mechanisms and dynamic runs it answers.")
IMPORT_LINE = "from extrados_gh."


def version():
    """The package's version, from extrados_gh/__init__.py."""
    for line in (GH / "extrados_gh" / "__init__.py").read_text(encoding="utf-8").splitlines():
        if line.startswith("__version__"):
            return line.split("=", 1)[1].strip().strip("\"'")
    raise ValueError("extrados_gh/__init__.py has no __version__")


def manifest(package_version):
    """manifest.yml's text: YAML written by hand (plain scalars, a list per key), as the guide's example."""
    lines = [f"name: {NAME}", f"version: {package_version}", "authors:"]
    lines += [f"  - {author}" for author in AUTHORS]
    lines += ["description: >", *[f"  {chunk}" for chunk in wrapped(DESCRIPTION, 100)],
              "keywords:", *[f"  - {word}" for word in KEYWORDS], "icon: icon.png"]
    return "\n".join(lines) + "\n"


def wrapped(text, width):
    """``text`` cut at spaces into lines of at most ``width`` characters."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return lines + [line]


def bootstrapped(code):
    """A component's code with the bootstrap (`yak_bootstrap.put_extrados_on_path`) run before its first import
    of extrados_gh."""
    at = code.index(IMPORT_LINE)
    source = inspect.getsource(yak_bootstrap.put_extrados_on_path)
    return code[:at] + source + "\n\nput_extrados_on_path()\n" + code[at:]


def write_componentizer_input(target):
    """The componentizer's layout (tools/componentize.py) with bootstrapped code; the folders written."""
    written = componentize.assemble(target / "componentize")
    for folder in written:
        code = folder / "code.py"
        code.write_text(bootstrapped(code.read_text(encoding="utf-8")), encoding="utf-8")
    return written


def stage(target, rhino, ghuser_built):
    """The package folder of one Rhino version: manifest, icon, README, extrados_gh and its built .ghuser files."""
    folder = target / rhino
    kept = sorted(folder.glob("*.ghuser")) if ghuser_built and folder.is_dir() else []
    ghuser = {path.name: path.read_bytes() for path in kept}
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    (folder / "manifest.yml").write_text(manifest(version()), encoding="utf-8")
    shutil.copyfile(GH / "components" / "Extrados_Analyze" / "icon.png", folder / "icon.png")
    shutil.copyfile(GH / "README.md", folder / "README.md")
    shutil.copytree(GH / "extrados_gh", folder / "extrados_gh", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name, data in ghuser.items():
        (folder / name).write_bytes(data)
    return folder, len(ghuser)


def pack(folder, out):
    """Zip ``folder``'s files (manifest.yml at the root) into the .yak ``out``."""
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(folder).as_posix())
    return out


def build(target, ghuser_built=False):
    """Write the componentizer input and both packages under ``target``; [(yak path, .ghuser count)]."""
    target.mkdir(parents=True, exist_ok=True)
    write_componentizer_input(target)
    built = []
    for rhino, (tag, _) in PACKAGES.items():
        folder, count = stage(target, rhino, ghuser_built)
        built.append((pack(folder, target / f"{NAME}-{version()}-{tag}.yak"), count))
    return built


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("target", help="where to write the packages, e.g. build/yak")
    parser.add_argument("--ghuser-built", action="store_true",
                        help="keep the .ghuser files the componentizer wrote into TARGET/rh7 and TARGET/rh8")
    args = parser.parse_args(argv)
    try:
        built = build(Path(args.target), args.ghuser_built)
    except componentize.LayoutError as error:
        print(f"yak_package: {error}", file=sys.stderr)
        return 2
    for path, count in built:
        print(f"{path}: {count} .ghuser files" + ("" if count else " (the Python package only: build the "
                                                              ".ghuser files on Windows, see this script's help)"))
    print(f"componentizer input with the Yak bootstrap: {Path(args.target) / 'componentize'}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
