"""Cylinder: Rings of blocks, unsupported over a central polygon (seed 000 fig. 10).

    Args:
        radius: Outer radius, m (default 8.1).
        thickness: Radial thickness of the wall, m (default 8.1: solid).
        height: m (default 5).
        courses: Number of courses (default 10).
        ring_width: Nominal radial width of a ring, m (default 0.8).
        blocks_per_ring: Blocks of the innermost ring (default 8).
        block_length: Shortest chord, m (default 1).
        gap_radius: Circumradius of the unsupported polygon, m (default 3.8; 0: supported).
        gap_sides: Corners of the unsupported polygon (default 8).
        friction: Coulomb friction coefficient of the joints (generator default).
        density: kg/m3 (generator default).
        service: The Service component's connection; the local service (http://127.0.0.1:8765) when
            unconnected.
    Returns:
        blocks: The blocks (ground slab fixed), for Analyze.
        material: The generator's material and joint law, for Analyze.
        loads: The generator's loads (none by default).
        meshes: The blocks as meshes, for display.
        ids: Block ids.
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.model_components import cylinder
from extrados_gh.runtime import run_component


class ExtradosCylinderComponent(component):
    def RunScript(self, radius, thickness, height, courses, ring_width, blocks_per_ring, block_length, gap_radius,
                        gap_sides, friction, density, service):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, cylinder, radius, thickness, height, courses, ring_width, blocks_per_ring,
                                                     block_length, gap_radius, gap_sides, friction, density, service)
