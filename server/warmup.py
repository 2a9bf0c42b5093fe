"""Warming the engine up as the service starts.

The engine's kernels are numba functions compiled on their first call and cached on disk. After an
install the first analysis compiles them, a minute or more on a small machine, which would spend
the compute time limit of a synchronous analysis before it had begun. `extrados serve` therefore
analyses a small column in a background thread as it starts (engine.analysis.warm_up): the compiled
kernels are then loaded in the service and written to the cache its job processes read.
A synchronous analysis that arrives meanwhile waits for the warm-up (`EngineWarmUp.wait`) before its
compute time starts; ``GET /health`` reports how far it is (the fraction of the missing kernels compiled).

What the warm-up loaded (numba's dispatchers and compiled libraries, the engine's modules) lives as long as
the service, so it ends by moving every object alive out of the garbage collector's reach (gc.freeze(), after
a collection so that no garbage is kept): the service's own gc.freeze() at start (server.serve) runs before
the warm-up has loaded anything. Without it each full collection, about one in fourteen warm arch requests, walked
those objects: 30-40 ms each, against 0.5 ms after the second freeze (2 shared cores).
"""
import gc
import logging
import threading
import time

log = logging.getLogger(__name__)

#: The states ``GET /health`` reports under "engine".
OFF, WARMING, READY, FAILED = "off", "warming", "ready", "failed"


class EngineWarmUp:
    """The warm-up thread and what it reports: state (OFF, WARMING, READY, FAILED), progress, seconds, error."""

    def __init__(self):
        self.state = OFF
        self.progress = 0.0             # fraction of the kernels missing from the cache compiled so far
        self.seconds = None
        self.error = None
        self.done = threading.Event()
        self.done.set()                 # nothing to wait for until `start`

    def start(self):
        """Warm the engine up in a daemon thread."""
        self.state = WARMING
        self.done.clear()
        threading.Thread(target=self.run, name="extrados-warm-up", daemon=True).start()

    def run(self):
        from extrados.engine.analysis.warm_up import compile_kernels

        started = time.monotonic()
        try:
            compile_kernels(self.report)
            gc.collect()
            gc.freeze()
            self.state = READY
            log.info("engine warmed up in %.1f s", time.monotonic() - started)
        except Exception as error:  # a failed warm-up leaves the service up: each analysis compiles as needed
            self.state, self.error = FAILED, f"{type(error).__name__}: {error}"
            log.exception("engine warm-up failed")
        finally:
            self.seconds = time.monotonic() - started
            self.done.set()

    def report(self, fraction):
        """Keep how far the compiling is (called by `compile_kernels` in the warm-up thread)."""
        self.progress = fraction

    def wait(self, timeout=None):
        """Block until the warm-up has ended (at once when none runs); True when it has."""
        return self.done.wait(timeout)

    def to_dict(self):
        report = {"state": self.state}
        if self.state == WARMING:
            report["progress"] = round(self.progress, 3)
        if self.seconds is not None:
            report["seconds"] = round(self.seconds, 3)
        if self.error:
            report["error"] = self.error
        return report
