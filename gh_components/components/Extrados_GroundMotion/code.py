"""Ground Motion: The supports' motion for Simulate: a sine, a recorded accelerogram or a constant velocity.

    Args:
        direction: Direction of the motion (default x).
        frequency: Hz, of the sine (default 1).
        peak_acceleration: m/s2, of the sine (default 0.2 g).
        duration: s the sine lasts (default: the whole simulation).
        record: Recorded accelerations (m/s2) along Direction, or as vectors; wins over the sine.
        record_step: s between the record's samples.
        from_rest: Start the sine with the ground at rest, D (1 - cos 2 pi f t), instead of at speed (D sin 2 pi f t,
            seed 000).
        velocity: m/s, a constant velocity of the supports (for Duration, or the whole run); wins over the sine.
    Returns:
        motion: The ground motion, for Simulate.
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.model_components import ground_motion
from extrados_gh.runtime import run_component


class ExtradosGroundMotionComponent(component):
    def RunScript(self, direction, frequency, peak_acceleration, duration, record, record_step, from_rest, velocity):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, ground_motion, direction, frequency, peak_acceleration, duration, record,
                             record_step, from_rest, velocity)
