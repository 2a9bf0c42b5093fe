"""Progress of an analysis: a caller's ``progress(fraction)``, seen by each stage through a window of the run.

An analysis reports the fraction done, 0 to 1, to the callable its caller hands `analyze` (the command
line's bar, a job's progress in the job table). A stage whose length is known in advance reports its
own fraction; a stage made of sub-stages hands each a window of its range (`Progress.part`): a load
factor search gives each static solve the share of one of the solves it expects, a construction
gives each stage an equal share, a static analysis gives its settle run all of its range. What the
caller sees never goes back (an estimate that grew holds the fraction until the work catches up),
and `analyze` reports 1 at the end of every analysis.
"""
from dataclasses import dataclass, field


@dataclass
class ProgressSink:
    """The caller's callable and the largest fraction it has been sent."""

    report: object = None   # callable(fraction) or None
    last: float = 0.0

    def send(self, fraction):
        if self.report is not None and fraction > self.last:
            self.last = fraction
            self.report(fraction)


@dataclass(frozen=True)
class Progress:
    """The window [start, end] of a run's progress that one stage reports into, as 0-1 of itself."""

    sink: ProgressSink = field(default_factory=ProgressSink)
    start: float = 0.0
    end: float = 1.0

    @classmethod
    def of(cls, report):
        """The whole run's Progress of a caller's ``progress(fraction)`` (None: nobody listens); a Progress as is."""
        return report if isinstance(report, Progress) else cls(ProgressSink(report))

    def __call__(self, fraction):
        """Report ``fraction`` (0-1, clipped) of this window done."""
        self.sink.send(self.at(fraction))

    def at(self, fraction):
        """The run's fraction at ``fraction`` of this window."""
        return self.start + (self.end - self.start) * min(max(float(fraction), 0.0), 1.0)

    def part(self, start, end):
        """The window from ``start`` to ``end`` (fractions of this one) for a sub-stage."""
        return Progress(self.sink, self.at(start), self.at(end))
