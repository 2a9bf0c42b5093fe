"""Where the blocks of a result are to be drawn: at a frame of a dynamic run, or moved along a collapse mechanism.

Every function returns the world vertices of the model's blocks, one (n_vertices, 3) float64 array (m)
per block in model order, the blocks' drawn vertices moved as rigid bodies.
"""
import numpy as np
from scipy.spatial.transform import Rotation

from extrados.engine.errors import ModelError

#: A mechanism (its velocities normalised to a largest point speed of 1) is drawn moved by this
#: fraction of the model's largest extent: visible, and small enough to read as the first motion.
MECHANISM_AMPLITUDE = 0.03
#: Motion smaller than this fraction of the model's largest extent does not show in a picture: the
#: plane of such a motion is noise, and the model's own main plane is drawn instead.
VISIBLE_MOTION = 1e-3


def drawn_vertices(model):
    """The blocks' vertices as the model document draws them (the configuration at rest, t = 0)."""
    return [np.asarray(block["vertices"], float) for block in model.to_dict()["blocks"]]


def rigid_moved(vertices, centre_from, centre_to, rotation):
    """``vertices`` (n, 3) of a body moved so that ``centre_from`` goes to ``centre_to`` (both (3,) m)
    and turned by ``rotation`` ((3, 3), about the centre)."""
    return (vertices - centre_from) @ rotation.T + centre_to


def quaternion_rotation(q):
    """scipy Rotation of unit quaternions [w, x, y, z], (4,) or (n, 4) (the engine's order; scipy's is
    [x, y, z, w])."""
    return Rotation.from_quat(np.asarray(q, float)[..., [1, 2, 3, 0]])


def posed_vertices(model, position, orientation):
    """The blocks' drawn vertices moved from the model's initial pose to the pose (``position``, ``orientation``).

    The initial pose is the drawn one: centres of mass where the vertices put them, the identity orientation
    (engine.state.State.initial), so a block at centre x turned by A(q) has vertices x + A(q) (v - x_0).

    Parameters
    ----------
    model : Model
    position : (n_blocks, 3) float64
        m, centres of mass.
    orientation : (n_blocks, 4) float64
        Unit quaternions [w, x, y, z].

    Returns
    -------
    list of (n_vertices, 3) float64, m, one per block in model order
    """
    rotations = quaternion_rotation(orientation).as_matrix()
    return [rigid_moved(vertices, centre0, centre, rotation) for vertices, centre0, centre, rotation
            in zip(drawn_vertices(model), model.geometry.centre, position, rotations)]


def frame_vertices(model, frames, k):
    """The blocks at output frame ``k`` of a dynamic run.

    A block's pose at frame k relative to frame 0, x_k + R_k R_0^T (v - x_0), moves the vertices
    drawn in the model (which are the blocks at frame 0).

    Parameters
    ----------
    model : Model
    frames : engine.result.Frames
    k : int
        Frame index (negative counts from the end).
    """
    moved = []
    for i, vertices in enumerate(drawn_vertices(model)):
        turn = quaternion_rotation(frames.orientation[k, i]) * quaternion_rotation(frames.orientation[0, i]).inv()
        moved.append(rigid_moved(vertices, frames.position[0, i], frames.position[k, i], turn.as_matrix()))
    return moved


def shown_frame(result, frame):
    """The index of the frame of a dynamic result that a picture or an export shows (the last unless
    ``frame`` names one; negative counts from the end), or None for another analysis.

    Raises
    ------
    ModelError
        At ``--frame`` when the result has no such frame, or is not dynamic.
    """
    if result.frames is None:
        if frame is not None:
            raise ModelError("a frame can be drawn of a dynamic result only", path="--frame")
        return None
    n_frames = len(result.frames.t)
    if frame is None:
        return n_frames - 1
    if not -n_frames <= frame < n_frames:
        raise ModelError(f"the result has frames 0 to {n_frames - 1}", path="--frame")
    return frame % n_frames


def frame_pose(result, k):
    """(position (n_blocks, 3) m, orientation (n_blocks, 4) [w, x, y, z]) of output frame ``k`` of a dynamic
    result (`shown_frame`), or of the blocks' final pose when ``k`` is None.

    Raises
    ------
    ModelError
        At ``frames`` when the frames carry no orientations: the request sent them to the npz sidecar or
        nowhere ("output"), and the document holds the histories' positions alone.
    """
    if k is None:
        return result.blocks.position, result.blocks.orientation
    position, orientation = result.frames.position[k], result.frames.orientation[k]
    if not (np.isfinite(position).all() and np.isfinite(orientation).all()):
        raise ModelError(f"frame {k} has no pose of every block: the result's frames went to "
                         f"{(result.output or {}).get('frames', 'json')!r}, not to its document", path="frames")
    return position, orientation


def check_same_blocks(model, result):
    """Refuse a model that is not the result's: the blocks, their order and their supports must be the same.

    Raises
    ------
    ModelError
        At ``blocks[i]``, the first block that differs, or at ``blocks`` when their numbers differ.
    """
    model_ids, result_ids = list(model.block_ids), list(result.blocks.ids)
    if len(model_ids) != len(result_ids):
        raise ModelError(f"the model has {len(model_ids)} blocks, the result {len(result_ids)}: it is not the "
                         "result's model", path="blocks")
    support = model.mechanics.is_support
    for i, (model_id, result_id) in enumerate(zip(model_ids, result_ids)):
        if model_id != result_id:
            raise ModelError(f"the model's block {model_id!r} is {result_id!r} in the result: it is not the "
                             "result's model", path=f"blocks[{i}]")
        if support[i] != result.blocks.support[i]:
            raise ModelError(f"block {model_id!r} is {'' if support[i] else 'not '}a support in the model but "
                             f"{'' if result.blocks.support[i] else 'not '}in the result: it is not the result's "
                             "model", path=f"blocks[{i}]")


def mechanism_vertices(model, centres, mechanism):
    """The blocks moved along a collapse mechanism (the ``mechanism`` of a load factor report,
    engine.analysis.load_factor.mechanism): each movable block translated by a v and turned by a w,
    with a = MECHANISM_AMPLITUDE times the model's largest extent; supports stay.

    Parameters
    ----------
    model : Model
    centres : (n_blocks, 3) float64
        m, the blocks' centres of mass, about which the angular velocities turn them.
    mechanism : dict
        Its "blocks": [{"id", "velocity", "angular_velocity"}] (normalised: largest point speed 1).
    """
    vertices = drawn_vertices(model)
    amplitude = MECHANISM_AMPLITUDE * np.ptp(np.concatenate(vertices), axis=0).max()
    index = {block_id: i for i, block_id in enumerate(model.block_ids)}
    moved = list(vertices)
    for block in mechanism["blocks"]:
        i = index[block["id"]]
        turn = Rotation.from_rotvec(amplitude * np.asarray(block["angular_velocity"], float)).as_matrix()
        moved[i] = rigid_moved(vertices[i], centres[i], centres[i] + amplitude * np.asarray(block["velocity"]), turn)
    return moved


def motion_axes(before, after, support):
    """The two world axes of the plane in which the movable blocks moved most (the sum of their vertices'
    squared displacements along each axis); None when no vertex moved by VISIBLE_MOTION of the extent.

    Parameters
    ----------
    before, after : list of (n_vertices, 3) float64
        The blocks' vertices in two configurations (m).
    support : (n_blocks,) bool
    """
    moved = [b - a for a, b, fixed in zip(before, after, support) if not fixed]
    if not moved:
        return None
    displacement = np.concatenate(moved)
    extent = np.ptp(np.concatenate(before), axis=0).max()
    if np.linalg.norm(displacement, axis=1).max() <= VISIBLE_MOTION * extent:
        return None
    spread = (displacement ** 2).sum(axis=0)
    return sorted(np.argsort(spread)[1:].tolist())
