"""Batch: One static or load factor analysis per combination of varied model fields (a parametric study), as a
batch job of the service.

    Args:
        blocks: Blocks (with supports).
        materials: Material & Joint outputs; the first is the joint between blocks (default stone, friction 0.6).
        loads: Loads outputs.
        analysis_type: static (default) or load_factor.
        vary: One varied model field per item: POINTER START STOP COUNT (e.g. /joints/dry/friction 0.4 0.8 5), or a
            JSON dimension of the batch schema; the cases are their product.
        names: Table columns (the batch schema's outputs.names); default stable, load_factor, solver_converged.
        run: Start the batch (a button); press again after changing the inputs.
        cancel: Stop the running batch (a button); its finished rows stay.
        service: The Service component's connection; the local service (http://127.0.0.1:8765) when unconnected.
    Returns:
        state: The batch job's state: queued, running, done, failed or cancelled.
        progress: The fraction of the cases done.
        cases: How many cases the batch has.
        columns: The table's column names, in the order of Table's.
        rows: One JSON text per finished case: its varied values and its outputs.
        table: The rows as CSV text, with a header line.
"""
from ghpythonlib.componentbase import executingcomponent as component  # pyright: ignore[reportMissingImports]

from extrados_gh.run_components import batch
from extrados_gh.runtime import run_component


class ExtradosBatchComponent(component):
    def RunScript(self, blocks, materials, loads, analysis_type, vary, names, run, cancel, service):
        gh_component = ghenv.Component  # noqa: F821 (GhPython and Rhino 8 define ghenv; self may not be it)
        return run_component(gh_component, batch, blocks, materials, loads, analysis_type, vary, names, run, cancel,
                             service)
