"""Wall: A running-bond wall of box blocks on a ground slab.

    Args:
        courses: Number of courses (default 6).
        blocks_per_course: Whole blocks in the even courses (default 5).
        block_length: m (default 0.4).
        block_height: m (default 0.175).
        depth: Wall thickness, m (default 0.2).
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

from extrados_gh.model_components import wall
from extrados_gh.runtime import run_component


class ExtradosWallComponent(component):
    def RunScript(self, courses, blocks_per_course, block_length, block_height, depth, friction, density, service):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, wall, courses, blocks_per_course, block_length, block_height, depth,
                                                 friction, density, service)
