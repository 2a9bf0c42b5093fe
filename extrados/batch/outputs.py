"""The outputs a batch keeps of a result: the named columns of its row, read from the typed Result.

Rotations and displacements are measured from the first output frame of a dynamic result: the
rotation of a block at frame k is the angle of the quaternion q_0^* q_k, 2 arccos |q_0 . q_k| (rad);
its displacement is |x_k - x_0| (m). Static results have no frames: their block outputs are null.

theta_max/alpha is the largest rotation over the block's slenderness alpha = atan(b / h)
(engine.dynamics.rocking; seed 003, the abscissa of its CDFs): h is the height of the centre of mass
above the block's lowest vertex, b the largest distance of a vertex from the centre of mass along
the rocking direction, the horizontal direction of the support motion (x without one). For a
rectangular block standing on its base these are its half-width and half-height, Housner's alpha.

The free-rocking columns (outputs.free_rocking) follow a block released at rest, tilted on its base:
its rocking angle theta(t) about the world axis a is theta_0 + 2 atan2(a . v, w) of the rotation
(w, v) = q_k q_0^* from the first frame, with theta_0 the signed angle about a from gravity's
direction to the outward normal n of the block's base (its face that faces down most at the start);
its slenderness is alpha = atan(B / H), H the height of the centre of mass over the base's plane and
B the largest distance of a base corner from it along a x n, the same at any tilt. The impacts and
amplitudes are engine.post.rocking_errors'.
"""
import numpy as np

from extrados.engine.errors import ModelError
from extrados.engine.post.rocking_errors import half_periods, rocking_cycles

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
    if "free_rocking" in outputs:
        row.update(free_rocking_columns(result, outputs["free_rocking"], model))
    return row


def free_rocking_columns(result, free_rocking, model):
    """{"free_rocking_amplitudes[block]": [theta_n / alpha], "free_rocking_half_periods[block]": [T_n / 2 (s)],
    "free_rocking_alpha[block]": alpha (rad), "free_rocking_drift[block]": the sliding (m, `drift`),
    "free_rocking_recorded": the last frame's time (s)} of the
    block ``free_rocking["block"]`` rocking about ``free_rocking["axis"]`` (module docstring): one entry
    per impact the frames hold, so a run that stopped early gives the cycles it reached. A static result
    (no frames) gives nulls.

    Raises
    ------
    ModelError
        A block the model does not have (path ``outputs.free_rocking.block``).
    """
    block = free_rocking["block"]
    ids = list(result.blocks.ids)
    if block not in ids:
        raise ModelError(f"the model has no block {block!r}", path="outputs.free_rocking.block")
    names = [f"free_rocking_{name}[{block}]" for name in ("amplitudes", "half_periods", "alpha", "drift")]
    frames = result.frames
    if frames is None or len(frames.t) == 0:
        return dict.fromkeys([*names, "free_rocking_recorded"])
    i = ids.index(block)
    axis = np.asarray(free_rocking["axis"], dtype=float)
    axis /= np.linalg.norm(axis)
    theta0, alpha = release_angle(model, block, frames.position[0, i], axis)
    theta = theta0 + rotation_about(frames.orientation[:, i], axis)
    impacts, amplitudes = rocking_cycles(frames.t, theta)
    amplitudes = amplitudes[:len(impacts)]
    return {names[0]: (amplitudes / alpha).tolist(), names[1]: half_periods(impacts).tolist() if len(impacts) else [],
            names[2]: alpha, names[3]: drift(frames.t, frames.position[:, i], impacts, axis, model),
            "free_rocking_recorded": float(frames.t[-1])}


def drift(t, centre, impacts, axis, model):
    """m: how far the centre of mass (n, 3) lies, at the impacts (theta = 0, upright), across the rocking
    plane's horizontal direction from where it lay at the first: zero for a block that rocks without
    sliding; None with fewer than one impact."""
    if not len(impacts):
        return None
    gravity = np.asarray(model.get("gravity", [0.0, 0.0, -1.0]), dtype=float)
    across = np.cross(axis, gravity)
    along = np.interp(impacts, t, centre @ (across / np.linalg.norm(across)))
    return float(np.max(np.abs(along - along[0])))


def rotation_about(orientation, axis):
    """(n,) float64, rad: the signed angle about the unit ``axis`` of each orientation (n, 4) [w, x, y, z]
    from the first, 2 atan2(axis . v, w) of q_k q_0^* (the rotation taken with w >= 0)."""
    first = orientation[0]
    w = orientation[:, 0] * first[0] + orientation[:, 1:] @ first[1:]
    v = orientation[:, 0, None] * -first[1:] + first[0] * orientation[:, 1:] - np.cross(orientation[:, 1:], first[1:])
    sign = np.where(w < 0.0, -1.0, 1.0)
    return 2.0 * np.arctan2(sign * (v @ axis), sign * w)


def release_angle(model, block, centre, axis):
    """theta_0 (rad, signed about ``axis``) and alpha (rad) of ``block`` whose centre of mass is at
    ``centre`` (m) in the model document (module docstring)."""
    entry = next(entry for entry in model["blocks"] if entry["id"] == block)
    vertices = np.asarray(entry["vertices"], dtype=float)
    gravity = np.asarray(model.get("gravity", [0.0, 0.0, -1.0]), dtype=float)
    down = gravity / np.linalg.norm(gravity)
    corners, normal = max((face_plane(vertices, face, centre) for face in entry["faces"]),
                          key=lambda plane: plane[1] @ down)
    theta0 = float(np.arctan2(axis @ np.cross(down, normal), down @ normal))
    height = float((corners[0] - centre) @ normal)
    across = np.cross(axis, normal)
    half_width = float(np.max(np.abs((corners - centre) @ (across / np.linalg.norm(across)))))
    return theta0, float(np.arctan2(half_width, height))


def face_plane(vertices, face, centre):
    """A face's corners (k, 3) and unit outward normal (away from ``centre``), by Newell's sum."""
    corners = vertices[face]
    normal = np.sum(np.cross(corners, np.roll(corners, -1, axis=0)), axis=0)
    normal /= np.linalg.norm(normal)
    return corners, normal if normal @ (corners.mean(axis=0) - centre) > 0.0 else -normal


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
