"""Blocks At Frame: The blocks as they stand in one frame of a simulation: connect a slider from 0 to
Frames - 1.

    Args:
        result: A Result of Simulate.
        frame: Frame index (negative counts from the end).
        geometry: The blocks' own geometry to move (optional; meshes of the model otherwise).
        ids: The ids of Geometry, when its order is not the model's.
    Returns:
        geometry: The blocks at the frame.
        transforms: One transform per block.
        time: The frame's time, s.
        ids: Block ids.
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.result_components import blocks_at_frame
from extrados_gh.runtime import run_component


class ExtradosBlocksAtFrameComponent(component):
    def RunScript(self, result, frame, geometry, ids):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, blocks_at_frame, result, frame, geometry, ids)
