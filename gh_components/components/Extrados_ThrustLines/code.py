"""Thrust Lines: The effective thrust line and, when asked for in Analyze, the conventional thrust
lines.

    Args:
        result: A Result of Analyze or Simulate.
    Returns:
        effective: Polyline through the joints' centres of pressure.
        conventional: Minimum-thrust, maximum-thrust and limit lines.
        names: Names of the conventional lines.
        thrusts: Their horizontal thrusts, N.
        safety_factor: The geometric safety factor.
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.result_components import thrust_lines
from extrados_gh.runtime import run_component


class ExtradosThrustLinesComponent(component):
    def RunScript(self, result):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, thrust_lines, result)
