"""The compute time limit of an analysis request, from the moment the service starts on it: parsing
its JSON and checking the model count, not only the solver.

Checking a model is pure Python (the JSON schema, the blocks) and takes time in proportion to the
document: a 38 MB ground-motion record took two minutes. That code does not look at a cancel flag,
so the limit is put to it from outside: a timer thread raises `ComputeTimeExceeded` in the request's
thread, again until it lands (``PyThreadState_SetAsyncExc``, delivered between two bytecodes, so a C call such as
``json.loads`` ends first) when the limit passes while the request is being read and checked. Once
the engine starts analysing, it asks the cancel callable `RequestDeadline.passed` between solves;
its first call withdraws the timer, so an analysis is only ever stopped where it checks.

Interrupting from outside is safe here because the code it can stop builds new objects and
shares nothing it modifies in place: the analysis cache's entries are replaced whole under a
lock (`engine.analysis.cache`).
"""
import ctypes
import threading
import time

#: s, how often the interruption is raised again until the request's thread has taken it.
REPEAT_S = 0.05


class ComputeTimeExceeded(BaseException):
    """Raised in a request's thread when the compute time limit passes while it is read and checked.

    A BaseException, like KeyboardInterrupt, so that no ``except Exception`` on the way turns it
    into another error.
    """


def raise_in_thread(thread_id, exception):
    """Make ``exception`` (a class) be raised in thread ``thread_id`` at its next bytecode; None
    withdraws one not raised yet."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                               ctypes.py_object(exception) if exception is not None else None)


class RequestDeadline:
    """The compute time limit of the request this thread is answering, counted from now; its timer runs
    once `start` is called, inside the code that catches `ComputeTimeExceeded` (a limit shorter than a
    thread's start once interrupted the request while it was still starting the timer, outside that code,
    and the client got no answer).

    Parameters
    ----------
    limit_s : float
        s, the compute time limit (``--compute-time-limit``).
    """

    def __init__(self, limit_s):
        self.limit_s = limit_s
        self.started = time.monotonic()
        self.thread_id = threading.get_ident()
        self.lock = threading.Lock()
        self.armed = True      # the timer may still interrupt the thread
        self.fired = False     # it has
        self.withdrawn = threading.Event()

    def start(self):
        """Start the timer thread that interrupts the request past the limit."""
        threading.Thread(target=self.interrupt_past_the_limit, daemon=True).start()

    def interrupt_past_the_limit(self):
        """Past the limit, raise `ComputeTimeExceeded` in the request's thread, again every
        `REPEAT_S` until it is disarmed: an exception delivered while the thread runs a callback
        that swallows exceptions (a garbage collector callback, a ``__del__``) is lost, the next one lands."""
        if self.withdrawn.wait(max(0.0, self.limit_s - self.elapsed())):
            return
        while True:
            with self.lock:
                if not self.armed:
                    return
                self.fired = True
                raise_in_thread(self.thread_id, ComputeTimeExceeded)
            if self.withdrawn.wait(REPEAT_S):
                return

    def disarm(self):
        """From now on the request is stopped only where it checks `passed`; an interruption not
        delivered yet is withdrawn."""
        with self.lock:
            if not self.armed:
                return
            self.armed = False
            self.withdrawn.set()
            if self.fired:
                raise_in_thread(self.thread_id, None)

    def passed(self):
        """True once the limit has passed (the engine's cancel callable); disarms the timer."""
        self.disarm()
        return self.elapsed() > self.limit_s

    def elapsed(self):
        """s since the request's compute time started."""
        return time.monotonic() - self.started
