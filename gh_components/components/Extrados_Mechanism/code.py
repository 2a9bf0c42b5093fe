"""Mechanism: The collapse mechanism of a load factor result: hinges, block velocities, sliding joints.

    Args:
        result: A Result of Analyze with Type load_factor.
        scale: m of line per unit of the mechanism's dimensionless velocity (default: the fastest block a
            quarter of the model's size).
    Returns:
        hinges: Pivot of each hinge of the mechanism.
        hinge_blocks: The two blocks each hinge joins, as a|b.
        velocities: Each moving block's velocity, a line from its centre.
        moving: Ids of the moving blocks, in the order of Velocities.
        sliding: Block pairs whose joint slides, as a|b.
        factor: The load factor the mechanism is read at: the first one that fails.
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.result_components import mechanism
from extrados_gh.runtime import run_component


class ExtradosMechanismComponent(component):
    def RunScript(self, result, scale):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, mechanism, result, scale)
