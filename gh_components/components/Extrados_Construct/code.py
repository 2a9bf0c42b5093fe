"""Construct: The blocks built stage by stage, each stage run until it settles (seed 001), as a job of the
service.

    Args:
        blocks: Blocks (with supports).
        materials: Material & Joint outputs (default stone, friction 0.6).
        loads: Loads outputs.
        stages: courses (default), all, or one item per stage: its block ids separated by commas.
        time_step: s; the service's default when unset.
        run: Start the construction (a button); press again after changing the inputs.
        cancel: Stop the running construction (a button).
        service: The Service component's connection; the local service (http://127.0.0.1:8765) when unconnected.
    Returns:
        result: The result, for the result components (the structure after the last stage).
        state: The job's state: queued, running, done, failed or cancelled.
        progress: The fraction of the stages done.
        stable: Whether the structure stands once built.
        stages: The block ids of each stage, separated by commas.
        reactions: The support reaction at the end of each stage, N.
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.run_components import construct
from extrados_gh.runtime import run_component


class ExtradosConstructComponent(component):
    def RunScript(self, blocks, materials, loads, stages, time_step, run, cancel, service):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, construct, blocks, materials, loads, stages, time_step, run, cancel,
                             service)
