"""Material & Joint: Density of the blocks and the law of their joints: dry Coulomb friction, brittle
Mohr-Coulomb mortar, or the cohesive mortar law of seed 004.

    Args:
        name: Material name (default stone).
        density: kg/m3 (default 2000).
        friction: Coulomb friction coefficient of the joints (of a mortar joint once broken; default
            0.6).
        law: coulomb (default), mohr_coulomb or cohesive.
        normal_stiffness: Pa/m, makes coulomb joints compliant in compression (optional).
        shear_stiffness: Pa/m, makes coulomb joints compliant in shear (optional).
        cohesion: Pa, of a mohr_coulomb joint: its shear strength without compression.
        tensile_strength: Pa, of a mohr_coulomb joint.
        mode_i: Cohesive joint, opening: stiffness Pa/m, strength Pa, energy J/m2, energy ratio,
            ultimate opening m (default seed 004 Table 1).
        mode_ii: Cohesive joint, sliding: the same five numbers (default seed 004 Table 2).
    Returns:
        material: The material and joint law, for Blocks and Analyze.
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.model_components import material
from extrados_gh.runtime import run_component


class ExtradosMaterialComponent(component):
    def RunScript(self, name, density, friction, law, normal_stiffness, shear_stiffness, cohesion, tensile_strength,
                        mode_i, mode_ii):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, material, name, density, friction, law, normal_stiffness, shear_stiffness,
                                                     cohesion, tensile_strength, mode_i, mode_ii)
