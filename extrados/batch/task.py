"""One case as a Dask task: analyse, read the outputs, report an error instead of raising it.

The function runs on a worker, perhaps on another machine: it takes and returns plain values, and
the result document, when asked, comes back as strict JSON bytes for the driver to write.
"""
import time
import traceback

import numba

from extrados.engine.analysis import analyze
from extrados.engine.errors import ModelError
from extrados.engine.io import strict_json
from extrados.batch.outputs import case_outputs


def run_case(model, analysis, outputs):
    """Analyse one case and return its row's outputs, error and time, and its document if asked.

    Parameters
    ----------
    model, analysis : dict
        The case's model document and analysis request.
    outputs : dict
        The spec's checked ``outputs``.

    Returns
    -------
    row : dict
        The outputs' columns (outputs.case_outputs), ``error`` (None, or what went wrong and where)
        and ``seconds`` (s, wall time of the case on its worker).
    document : bytes or None
        The strict JSON result document when ``outputs.result_document`` and the case succeeded.
    """
    start = time.perf_counter()
    document = None
    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # cases run side by side, one per worker thread (for this thread only)
    try:
        result = analyze(model, analysis)
        row = {**case_outputs(result, outputs, model), "error": None}
        if outputs["result_document"]:
            document = strict_json.dumps(result.to_dict())
    except ModelError as exc:
        row = {"error": str(exc)}
    except Exception as exc:  # noqa: BLE001 - a failing case is recorded and the batch goes on
        row = {"error": f"{type(exc).__name__}: {exc} ({_where(exc)})"}
    finally:
        numba.set_num_threads(threads)
    row["seconds"] = time.perf_counter() - start
    return row, document


def _where(exc):
    """'file.py:line in function' of the innermost frame of ``exc``'s traceback."""
    frame = traceback.extract_tb(exc.__traceback__)[-1]
    return f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno} in {frame.name}"
