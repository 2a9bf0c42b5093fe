"""The outputs a batch keeps of a result: the named columns of its row, read from the typed Result.

Rotations and displacements are measured from the first output frame of a dynamic result: the
rotation of a block at frame k is the angle of the quaternion q_0^* q_k, 2 arccos |q_0 . q_k| (rad);
its displacement is |x_k - x_0| (m). Static results have no frames: their block outputs are null.
"""
import numpy as np

from extrados.engine.errors import ModelError

#: The outputs read from the dynamic result's events (s; null when the event did not happen).
EVENT_OUTPUTS = {"collapse_time": "collapse", "first_sliding": "first_sliding", "first_uplift": "first_uplift"}
#: The outputs read from the last solve's report.
SOLVER_OUTPUTS = {"solver_iterations": "iterations", "solver_residual": "residual", "solver_converged": "converged"}


def case_outputs(result, outputs):
    """{column: value} of the outputs ``outputs["names"]`` of ``result`` (JSON values; None where undefined).

    Parameters
    ----------
    result : Result
        An analysis result.
    outputs : dict
        The spec's checked ``outputs``: ``names`` and ``blocks``.

    Raises
    ------
    ModelError
        A block of ``outputs.blocks`` that the model does not have.
    """
    events = result.extra.get("events", {})
    row = {}
    for name in outputs["names"]:
        if name == "stable":
            row[name] = bool(result.stable)
        elif name == "load_factor":
            row[name] = result.load_factor
        elif name == "collapse":
            row[name] = events.get("collapse") is not None if events else None
        elif name in EVENT_OUTPUTS:
            row[name] = events.get(EVENT_OUTPUTS[name])
        elif name in SOLVER_OUTPUTS:
            row[name] = result.solver[SOLVER_OUTPUTS[name]]
        else:
            row.update(_block_outputs(result, name, outputs["blocks"]))
    return row


def _block_outputs(result, name, blocks):
    """{"NAME[block]": largest rotation (rad) or displacement (m) over the frames} for each block."""
    index = {block_id: i for i, block_id in enumerate(result.blocks.ids)}
    missing = [block for block in blocks if block not in index]
    if missing:
        raise ModelError(f"the model has no block {missing[0]!r}", path="outputs.blocks")
    frames = result.frames
    columns = {}
    for block in blocks:
        if frames is None or len(frames.t) == 0:
            columns[f"{name}[{block}]"] = None
            continue
        i = index[block]
        if name == "max_rotation":
            cosines = np.abs(frames.orientation[:, i] @ frames.orientation[0, i])
            value = np.max(2.0 * np.arccos(np.clip(cosines, 0.0, 1.0)))
        else:
            value = np.max(np.linalg.norm(frames.position[:, i] - frames.position[0, i], axis=1))
        columns[f"{name}[{block}]"] = float(value)
    return columns
