"""Loads: Point loads on blocks and a body acceleration of all blocks; live loads are the ones a load
factor multiplies.

    Args:
        blocks: Blocks, to find the block under each point.
        points: Where the forces act, on the blocks' surfaces (m).
        forces: Force vectors (N): one for all points, or one per point.
        ids: The loaded blocks' ids, instead of finding them from the points.
        acceleration: Body acceleration of all blocks (m/s2), e.g. a horizontal seismic coefficient
            times g.
        live: Whether the loads are live (default true).
    Returns:
        loads: The loads, for Analyze and Simulate.
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.model_components import loads
from extrados_gh.runtime import run_component


class ExtradosLoadsComponent(component):
    def RunScript(self, blocks, points, forces, ids, acceleration, live):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, loads, blocks, points, forces, ids, acceleration, live)
