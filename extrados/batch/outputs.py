"""The outputs a batch keeps of a result: the named columns of its row, read from the typed Result.

Rotations and displacements are measured from the first output frame of a dynamic result: the
rotation of a block at frame k is the angle of the quaternion q_0^* q_k, 2 arccos |q_0 . q_k| (rad);
its displacement is |x_k - x_0| (m). Static results have no frames: their block outputs are null.

theta_max/alpha is the largest rotation over the block's slenderness alpha = atan(b / h)
(engine.dynamics.rocking; seed 003, the abscissa of its CDFs): h is the height of the centre of mass
above the block's lowest vertex, b the largest distance of a vertex from the centre of mass along
the rocking direction, the horizontal direction of the support motion (x without one). For a
rectangular block standing on its base these are its half-width and half-height, Housner's alpha.
"""
import numpy as np

from extrados.engine.errors import ModelError

#: The outputs read from the dynamic result's events (s; null when the event did not happen).
EVENT_OUTPUTS = {"collapse_time": "collapse", "first_sliding": "first_sliding", "first_uplift": "first_uplift"}
#: The outputs of a block's largest rotation.
ROTATION_OUTPUTS = ("max_rotation", "theta_max_over_alpha")
#: The outputs read from the last solve's report.
SOLVER_OUTPUTS = {"solver_iterations": "iterations", "solver_residual": "residual", "solver_converged": "converged"}


def case_outputs(result, outputs, model):
    """{column: value} of the outputs ``outputs["names"]`` of ``result`` (JSON values; None where undefined).

    Parameters
    ----------
    result : Result
        An analysis result.
    outputs : dict
        The spec's checked ``outputs``: ``names`` and ``blocks``.
    model : dict
        The case's model document (its block vertices and support motion give theta_max/alpha).

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
            row.update(_block_outputs(result, name, outputs["blocks"], model))
    return row


def _block_outputs(result, name, blocks, model):
    """{"NAME[block]": largest rotation (rad), rotation over alpha, or displacement (m) over the frames}."""
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
        if name in ROTATION_OUTPUTS:
            cosines = np.abs(frames.orientation[:, i] @ frames.orientation[0, i])
            value = np.max(2.0 * np.arccos(np.clip(cosines, 0.0, 1.0)))
            if name == "theta_max_over_alpha":
                value /= slenderness(model, block, frames.position[0, i])
        else:
            value = np.max(np.linalg.norm(frames.position[:, i] - frames.position[0, i], axis=1))
        columns[f"{name}[{block}]"] = float(value)
    return columns


def slenderness(model, block, centre):
    """alpha = atan(b / h) (rad) of ``block`` at rest about its centre of mass ``centre`` (m), module docstring."""
    vertices = np.asarray(next(entry["vertices"] for entry in model["blocks"] if entry["id"] == block), dtype=float)
    offsets = vertices - centre
    gravity = np.asarray(model.get("gravity", [0.0, 0.0, -1.0]), dtype=float)
    down = gravity / np.linalg.norm(gravity)
    direction = rocking_direction(model.get("support_motion"), down)
    return float(np.arctan2(np.max(np.abs(offsets @ direction)), np.max(offsets @ down)))


def rocking_direction(motion, down):
    """The unit horizontal direction of a support motion: a sine's, a record's largest sample's; x without one."""
    along = np.array([1.0, 0.0, 0.0])
    if motion is not None and motion["kind"] == "sine":
        along = np.asarray(motion["direction"], dtype=float)
    elif motion is not None and motion["kind"] == "record":
        samples = np.asarray(motion["accelerations"], dtype=float)
        along = samples[np.argmax(np.linalg.norm(samples, axis=1))]
    horizontal = along - (along @ down) * down
    length = np.linalg.norm(horizontal)
    return horizontal / length if length > 0 else np.array([1.0, 0.0, 0.0])
