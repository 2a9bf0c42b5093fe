"""Supports: Fix blocks: by id, as extra support solids, or with a ground slab under everything.

    Args:
        blocks: Blocks from a Blocks component or a generator.
        ids: Ids of the blocks to fix.
        geometry: Closed convex solids added as fixed blocks (support0, support1, ...).
        ground: Add a fixed ground slab under the blocks' lowest point.
    Returns:
        blocks: All blocks, supports flagged.
        supports: Ids of the support blocks.
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.model_components import supports
from extrados_gh.runtime import run_component


class ExtradosSupportsComponent(component):
    def RunScript(self, blocks, ids, geometry, ground):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, supports, blocks, ids, geometry, ground)
