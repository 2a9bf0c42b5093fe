"""Material & Joint: Density of the blocks and the Coulomb friction law of their joints (rigid, or
compliant with stiffnesses).

    Args:
        name: Material name (default stone).
        density: kg/m3 (default 2000).
        friction: Coulomb friction coefficient of the joints (default 0.6).
        normal_stiffness: Pa/m, makes the joints compliant in compression (optional).
        shear_stiffness: Pa/m, makes the joints compliant in shear (optional).
    Returns:
        material: The material and joint law, for Blocks and Analyze.
"""
from ghpythonlib.componentbase import executingcomponent as component

from extrados_gh.model_components import material
from extrados_gh.runtime import run_component


class ExtradosMaterialComponent(component):
    def RunScript(self, name, density, friction, normal_stiffness, shear_stiffness):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, material, name, density, friction, normal_stiffness, shear_stiffness)
