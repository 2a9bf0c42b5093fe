"""A ground-motion batch and Housner's reference of each of its cases, computed on one Dask cluster.

The engine's cases run through extrados.batch.run; Housner's ODE (extrados.batch.housner.housner_case)
is then integrated under the very record each case saw, one task per case on the same scheduler.
"""
from distributed import Client

from extrados.batch.cases import expand
from extrados.batch.housner import housner_case
from extrados.batch.runner import run
from extrados.batch.spec import load_spec


def run_with_housner(spec, out_dir, scheduler, block, restitution=None):
    """The engine's rows and Housner's reference of each row's case.

    Parameters
    ----------
    spec : dict
        A batch spec with ground motions.
    out_dir : str or Path
        The batch's folder (extrados.batch.run).
    scheduler : str
        Address of the Dask scheduler.
    block : str
        The rocking block's id.
    restitution : float, optional
        Housner's r for the reference (``housner_case``); eq. 2's of the block when None.

    Returns
    -------
    rows : list of dict
        The batch table, in the spec's order.
    references : list of dict
        ``housner_case`` of each row's case, in the same order.
    """
    summary = run(spec, out_dir, scheduler=scheduler, progress=False)
    cases = {case.key: case for case in expand(*load_spec(spec))}
    with Client(scheduler) as client:
        futures = [client.submit(housner_case, cases[row["key"]].model, cases[row["key"]].analysis, block,
                                 restitution, pure=False) for row in summary.rows]
        references = client.gather(futures)
    return summary.rows, references
