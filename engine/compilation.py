"""Watching numba compile the engine's kernels: how long it took in this thread, and which kernels it compiled.

numba compiles a kernel on its first call for a new type signature, unless its disk cache holds it
(engine.kernel_cache), and announces each compilation as a ``numba:compile`` event around it. A
listener registered at import keeps, per thread, the seconds spent in the outermost compilations
(a kernel that calls another compiles it inside its own), so that

* a `Stopwatch` measures wall time without compilation: a solver's ``seconds`` on a cold cache are
  those of a warm one, not the 40-80 s of the first run;
* `compiled_kernels` calls back after each kernel compiled in the calling thread, for a progress bar.

Loading a kernel from the disk cache is not a compilation and is not taken out.
"""
import threading
import time
from contextlib import contextmanager

from numba.core import event

COMPILE_EVENT = "numba:compile"


class CompileClock(event.Listener):
    """Seconds spent compiling, per thread, counting nested compilations once."""

    def __init__(self):
        self._local = threading.local()

    def _thread(self):
        local = self._local
        if not hasattr(local, "depth"):
            local.depth, local.started, local.seconds, local.watchers = 0, 0.0, 0.0, []
        return local

    def on_start(self, event_):
        local = self._thread()
        if local.depth == 0:
            local.started = time.perf_counter()
        local.depth += 1

    def on_end(self, event_):
        local = self._thread()
        local.depth -= 1
        if local.depth == 0:
            local.seconds += time.perf_counter() - local.started
        for watcher in list(local.watchers):
            watcher(event_.data["dispatcher"])

    def seconds(self):
        """Seconds this thread has spent compiling since the process started."""
        return self._thread().seconds

    def watchers(self):
        """This thread's callbacks ``watcher(dispatcher)``, called after each kernel it compiles."""
        return self._thread().watchers


CLOCK = CompileClock()
event.register(COMPILE_EVENT, CLOCK)


class Stopwatch:
    """Wall time since it was made, less the time this thread spent compiling kernels meanwhile."""

    def __init__(self):
        self.started = time.perf_counter()
        self.compiling = CLOCK.seconds()

    def seconds(self):
        """Seconds elapsed, without compilation (s)."""
        return (time.perf_counter() - self.started) - (CLOCK.seconds() - self.compiling)


@contextmanager
def compiled_kernels(watcher):
    """Call ``watcher(dispatcher)`` after each kernel compiled in this thread while the block runs."""
    watchers = CLOCK.watchers()
    watchers.append(watcher)
    try:
        yield
    finally:
        watchers.remove(watcher)
