"""Blocks: Closed convex Breps or Meshes become Extrados blocks (checked: closed, convex-faced, faces
turned outward).

    Args:
        geometry: Closed convex Breps or Meshes, one per block, in metres.
        ids: One id per block, or one prefix (arch -> arch0, arch1, ...); b0, b1, ... when empty.
        material: A Material & Joint output or a material name; the Analyze component's first
            material when unconnected.
        entity: Optional: each block's entity as JSON text, e.g. {"wall": "west", "course": "3",
            "type": "header", "attributes": {"phase": 2}}; one per block or one for all.
    Returns:
        blocks: The blocks, for Supports, Loads and Analyze.
        ids: The blocks' ids.
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.model_components import blocks
from extrados_gh.runtime import run_component


class ExtradosBlocksComponent(component):
    def RunScript(self, geometry, ids, material, entity):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, blocks, geometry, ids, material, entity)
