"""Block Entities: Each block's entity from a result, as parallel lists, and the blocks coloured by one
level, to filter (Member Index, Dispatch) and preview (Custom Preview) with native components.

    Args:
        result: A Result of Analyze or Simulate.
        level: The level that gives Values and Colours: building, wall, leaf, course, stone, type or
            attributes.KEY (default course, else the first level).
    Returns:
        ids: Block ids, in model order: every list below has one item per block in this order.
        building: Each block's building (none when it has no building).
        wall: Each block's wall.
        leaf: Each block's leaf (facing).
        course: Each block's course.
        stone: Each block's stone name.
        type: Each block's stone type (header, stretcher, voussoir, ...).
        attributes: Each block's free attributes as JSON text (empty when it has none).
        levels: The levels some block has.
        values: Each block's value of Level (none when it lacks it).
        colours: Each block's colour: one per value of Level, grey for none.
        legend: The values of Level in natural order, none last.
        legend_colours: The colour of each Legend value.
        meshes: Each block as a mesh, as built.
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.result_components import block_entities
from extrados_gh.runtime import run_component


class ExtradosBlockEntitiesComponent(component):
    def RunScript(self, result, level):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, block_entities, result, level)
