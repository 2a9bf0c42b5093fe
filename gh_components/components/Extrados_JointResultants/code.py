"""Joint Resultants: The resultant of each joint at its centre of pressure, with its eccentricity.

    Args:
        result: A Result of Analyze or Simulate.
        scale: m per N (default: the largest resultant drawn at a quarter of the model's size).
    Returns:
        lines: Each resultant drawn from its centre of pressure.
        centres: Centres of pressure.
        vectors: Resultants, N.
        eccentricity: m, from the joint's centroid.
        in_kernel: Whether the centre lies in the joint's kernel (whole joint compressed).
        normal_force: N.
        shear_force: N.
        bonds: Mortar joints: intact, damaged (some contacts damaged or broken) or broken; empty
            when dry.
        damage: Mortar joints: mean damage of the joint's contacts, 0 intact to 1 broken.
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.result_components import joint_resultants
from extrados_gh.runtime import run_component


class ExtradosJointResultantsComponent(component):
    def RunScript(self, result, scale):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, joint_resultants, result, scale)
