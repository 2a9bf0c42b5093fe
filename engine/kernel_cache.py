"""Where numba keeps the engine's compiled kernels, and which of them it does not hold yet.

numba compiles every ``@njit(cache=True)`` kernel on its first call (40-80 s for the engine) and
keeps the machine code on disk: by default in a ``__pycache__`` beside the sources, which is
read-only for a wheel installed system-wide. Unless ``NUMBA_CACHE_DIR`` is set (the Makefile sets
its own), the engine sets it, before any kernel is defined, to a per-user folder:

    Linux     $XDG_CACHE_HOME/extrados/numba/<hash>, else ~/.cache/extrados/numba/<hash>
    macOS     ~/Library/Caches/extrados/numba/<hash>
    Windows   %LOCALAPPDATA%/extrados/Cache/numba/<hash>

named by a hash of the engine's sources, as the Makefile's folder is: numba does not notice an edit
to a function inlined from another module, so a cache kept across such an edit would run stale
code. Worker processes inherit the variable. Folders of other versions are left in place (another
installation may use them); deleting them is always safe.
"""
import hashlib
import importlib
import os
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent
#: Hex digits of the source hash in the folder's name.
HASH_DIGITS = 12


def user_cache_root():
    """The per-user folder of the engine's compiled kernels, before the version hash (Path)."""
    home = Path.home()
    if os.name == "nt":
        return Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local", "extrados", "Cache", "numba")
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "extrados" / "numba"
    return Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache", "extrados", "numba")


def engine_source_hash():
    """The first HASH_DIGITS hex digits of the SHA-1 of the engine's Python sources, in path order."""
    digest = hashlib.sha1()
    for path in sorted(ENGINE.rglob("*.py"), key=lambda p: p.relative_to(ENGINE).as_posix()):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:HASH_DIGITS]


def use_kernel_cache():
    """Point numba at the per-user kernel folder unless NUMBA_CACHE_DIR is set; returns the folder used.

    Must run before the engine's kernels are defined: numba chooses a kernel's cache folder when
    its decorator runs. An unwritable folder is no error, nor a user without a home directory
    (None is returned): numba then falls back to its own places.
    """
    if not os.environ.get("NUMBA_CACHE_DIR"):
        try:
            os.environ["NUMBA_CACHE_DIR"] = str(user_cache_root() / engine_source_hash())
        except RuntimeError:     # Path.home(): no home directory
            return None
        config = sys.modules.get("numba.core.config")
        if config is not None:   # numba was imported first: it reads its environment again
            config.reload_config()
    return Path(os.environ["NUMBA_CACHE_DIR"])


def engine_kernels():
    """Every kernel of the engine that numba compiles on its own (list of numba dispatchers).

    Only the modules that use numba's ``njit`` are imported (not, say, matplotlib's for the picture:
    the command line asks before every analysis). Kernels inlined into their callers
    (``inline="always"``) are compiled as part of them and have no cache entry of their own.
    """
    from numba.core.registry import CPUDispatcher

    package = __name__.rpartition(".")[0]
    kernels = []
    for path in sorted(ENGINE.rglob("*.py")):
        if "njit" not in path.read_text(encoding="utf-8"):
            continue
        module = importlib.import_module(".".join((package, *path.relative_to(ENGINE).with_suffix("").parts)))
        for value in vars(module).values():
            if (isinstance(value, CPUDispatcher) and value.py_func.__module__ == module.__name__
                    and value.targetoptions.get("inline", "never") != "always"):
                kernels.append(value)
    return kernels


def is_cached(kernel):
    """Whether numba's disk cache holds an entry for ``kernel`` (its index file exists)."""
    return os.path.exists(kernel._cache._cache_file._index_path)


def kernel_name(kernel):
    """A kernel's dotted name below the engine, e.g. ``solvers.pgs.gauss_seidel_sweep``."""
    return f"{kernel.py_func.__module__.split('.', 2)[2]}.{kernel.py_func.__qualname__}"
