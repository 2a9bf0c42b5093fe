"""Arch: A semicircular arch of voussoirs on a ground slab.

    Args:
        radius: Centreline radius, m (default 1).
        thickness: Radial thickness, m (default 0.1075).
        depth: Extent along y, m (default 0.5).
        voussoirs: Number of voussoirs (default 20).
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

from extrados_gh.model_components import arch
from extrados_gh.runtime import run_component


class ExtradosArchComponent(component):
    def RunScript(self, radius, thickness, depth, voussoirs, friction, density, service):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, arch, radius, thickness, depth, voussoirs, friction, density, service)
