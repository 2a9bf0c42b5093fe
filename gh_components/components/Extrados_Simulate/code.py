"""Simulate: A dynamic run (collapse, rocking, ground motion) as a job of the service, polled without
freezing the canvas.

    Args:
        blocks: Blocks (with supports).
        materials: Material & Joint outputs (default stone, friction 0.6).
        loads: Loads outputs.
        motion: A Ground Motion output (optional).
        duration: Simulated time, s (default 2).
        time_step: s (default 0.001).
        output_interval: s between frames (default duration / 200).
        run: Start the simulation (a button); press again after changing the inputs.
        cancel: Stop the running simulation (a button).
        service: The Service component's connection; the local service (http://127.0.0.1:8765) when
            unconnected.
        restitution: The fraction r of kinetic energy a rocking impact keeps (seed 003); default: the plastic
            impact's own.
    Returns:
        result: The result with its frames, for Blocks At Frame and the other result components.
        state: queued, running, done, failed or cancelled.
        progress: Fraction done, 0 to 1.
        frames: Number of frames: the range of a frame slider.
        times: Time of each frame, s.
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.run_components import simulate
from extrados_gh.runtime import run_component


class ExtradosSimulateComponent(component):
    def RunScript(self, blocks, materials, loads, motion, duration, time_step, output_interval, run, cancel, service,
                  restitution):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, simulate, blocks, materials, loads, motion, duration, time_step,
                             output_interval, run, cancel, service, restitution)
