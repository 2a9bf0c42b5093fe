"""Contact Forces: Contact forces as lines from their points, coloured stick (blue), slip (orange) or
open (grey).

    Args:
        result: A Result of Analyze or Simulate.
        scale: m per N (default: the largest force drawn at a quarter of the model's size).
    Returns:
        lines: One line per loaded contact point.
        vectors: The forces, N.
        points: The contact points.
        states: stick, slip or open.
        colours: One colour per line, for Custom Preview.
        magnitudes: N.
        bonds: Mortar joints: intact, damaged or broken (empty for dry joints).
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.result_components import contact_forces
from extrados_gh.runtime import run_component


class ExtradosContactForcesComponent(component):
    def RunScript(self, result, scale):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, contact_forces, result, scale)
