"""Spandrel Wall: A wall with a semicircular arch opening (seed 000 fig. 8).

    Args:
        length: m (default 16.2).
        height: m (default 5).
        thickness: m (default 0.8).
        opening_radius: Intrados radius of the opening, m (default 3.8).
        ring_thickness: Radial depth of the voussoirs, m (default 0.6).
        voussoirs: Number of voussoirs (default 15).
        course_height: Nominal course height, m (default 0.5).
        block_length: Whole block length, m (default 1).
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

from extrados_gh.model_components import spandrel_wall
from extrados_gh.runtime import run_component


class ExtradosSpandrelWallComponent(component):
    def RunScript(self, length, height, thickness, opening_radius, ring_thickness, voussoirs, course_height,
                        block_length, friction, density, service):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, spandrel_wall, length, height, thickness, opening_radius, ring_thickness,
                                                          voussoirs, course_height, block_length, friction, density,
                                                          service)
