"""Analyze: Static equilibrium or collapse load factor of the blocks, updated at every change while
Live is on.

    Args:
        blocks: Blocks (with supports).
        materials: Material & Joint outputs; the first is the joint between blocks (default stone,
            friction 0.6).
        loads: Loads outputs.
        analysis_type: static (default) or load_factor.
        max_factor: Largest load factor tried (load_factor; default 10).
        chain: Ids of the blocks of an arch ring, springing to springing, for its thrust line
            (default: found automatically).
        conventional: Also compute the conventional (minimum, maximum, limit) thrust lines of the
            chain.
        live: Analyse at every change (default true); off: only when Run is pressed.
        run: Analyse now (a button), when Live is off.
        service: The Service component's connection; the local service (http://127.0.0.1:8765) when
            unconnected.
    Returns:
        result: The result, for Contact Forces, Joint Resultants, Thrust Lines and Block Stress.
        stable: Whether the blocks stand.
        load_factor: The collapse load factor (load_factor analyses).
        residual: The contact solver's residual.
        converged: Whether the contact solver converged.
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.run_components import analyze
from extrados_gh.runtime import run_component


class ExtradosAnalyzeComponent(component):
    def RunScript(self, blocks, materials, loads, analysis_type, max_factor, chain, conventional, live, run, service):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, analyze, blocks, materials, loads, analysis_type, max_factor, chain,
                                                    conventional, live, run, service)
