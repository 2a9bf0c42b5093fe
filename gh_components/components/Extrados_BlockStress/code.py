"""Block Stress: Average stress of each block: p or q coloured blue (compression) to red, and principal
axes; or the cumulated strain of its cell.

    Args:
        result: A Result of Analyze or Simulate.
        invariant: p (mean pressure, default), q (deviatoric), or, for a Simulate result of a wall, shear
            or dilation (cumulated strain of each block's centroid cell).
        scale: m per Pa of the principal axes (default: the largest at a quarter of the model's
            size).
    Returns:
        centres: Block centres.
        values: p or q, Pa; shear or dilation, dimensionless.
        colours: One colour per block.
        axes: Principal axes, three lines per block, length by stress.
        principal: Principal stresses, three per block, Pa (tension positive).
        ids: Block ids.
        kappa: The strain indicator kappa at the end of the run (seed 001 eq. 59), with shear or
            dilation.
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.result_components import block_stress
from extrados_gh.runtime import run_component


class ExtradosBlockStressComponent(component):
    def RunScript(self, result, invariant, scale):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, block_stress, result, invariant, scale)
