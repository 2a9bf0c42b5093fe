"""Running the parallel kernels on all of numba's threads or on one, whichever is faster now.

When other processes hold the cores, a parallel region waits at its barriers for threads the
operating system has descheduled: on the shared 2-core machine of the benchmarks an APGD pass over
12,000 contacts took 10-35 ms on two threads against 0.6-1.8 ms on one, while on idle cores two
threads nearly halve it. The kernels of ``engine.solvers`` cut the work into runs fixed by the
problem size, not by the thread count, so the choice never changes a result, only the time.

Parallel kernels are launched one at a time in a process: numba's default threading layer
(workqueue, the one available without TBB or OpenMP) aborts the process when two threads launch
parallel regions at once, as the request threads of the HTTP service would.
"""
import math
import threading
import time
from dataclasses import dataclass, field

import numba

#: Fewest calls of a kernel between two trials of the thread count it is not using.
MIN_TRIAL_INTERVAL = 16
#: Most calls between two trials: how long a choice that went wrong (the machine got busy or
#: idle) may stay.
MAX_TRIAL_INTERVAL = 512
#: Fraction of the time that trials of the slower choice may cost: a choice k times slower is
#: tried again after (k - 1) / TRIAL_COST calls.
TRIAL_COST = 0.05
#: Weight of a new time in the running time of the choice in use.
SMOOTHING = 0.25


@dataclass
class KernelTimings:
    """Running wall times (s) of one kernel key on all threads [0] and on one [1], and its trial schedule."""

    seconds: list = field(default_factory=lambda: [0.0, 0.0])
    calls: int = 0
    single: bool = True
    next_trial: int = 2


class ThreadGovernor:
    """Runs parallel kernels on all of numba's threads or on one, whichever was faster lately.

    The first two calls of a kernel key run on one thread (the safe choice: at worst twice slower,
    where a crowded machine makes all threads ten times slower; the first call may load the kernel
    and is not counted), the third on all. The faster then runs, its time smoothed, and the other
    is tried again after a number of calls that grows with how much slower it was (``TRIAL_COST``),
    but soon after the first comparison, whose times may hold one-off costs such as starting the
    threads. Only a trial changes the choice. With one thread configured
    (``NUMBA_NUM_THREADS=1``) kernels simply run.
    """

    def __init__(self):
        self._timings = {}  # key -> KernelTimings
        self._launch = threading.Lock()  # one parallel launch at a time (see the module docstring)

    def run(self, key, kernel, *args):
        """Call ``kernel(*args)`` on the chosen number of threads and time it.

        Parameters
        ----------
        key : hashable
            Names the kernel and the kind of call; only calls of one key are compared.
        kernel : numba dispatcher
            A ``parallel=True`` kernel.
        *args
            Its arguments.

        Returns
        -------
        object
            What ``kernel`` returns.
        """
        with self._launch:
            return self._run(key, kernel, *args)

    def _run(self, key, kernel, *args):
        threads = numba.get_num_threads()
        if threads == 1:
            return kernel(*args)
        timings = self._timings.setdefault(key, KernelTimings())
        trial = timings.calls == timings.next_trial
        single = timings.single != trial
        started = time.perf_counter()
        if single:
            numba.set_num_threads(1)
            try:
                result = kernel(*args)
            finally:
                numba.set_num_threads(threads)
        else:
            result = kernel(*args)
        elapsed = time.perf_counter() - started
        if trial or timings.calls < 2:
            timings.seconds[int(single)] = elapsed
        else:
            timings.seconds[int(single)] += SMOOTHING * (elapsed - timings.seconds[int(single)])
        if trial:
            fast, slow = sorted(timings.seconds)
            timings.single = timings.seconds[1] <= timings.seconds[0]
            # the first times of a key may hold one-off costs (loading the kernel, starting threads):
            # the first comparison is checked again soon
            ratio = slow / fast if fast > 0.0 and timings.calls > 2 else 1.0
            wait = (ratio - 1.0) / TRIAL_COST if math.isfinite(ratio) else MAX_TRIAL_INTERVAL
            timings.next_trial = timings.calls + int(min(max(wait, MIN_TRIAL_INTERVAL), MAX_TRIAL_INTERVAL))
        timings.calls += 1
        return result
