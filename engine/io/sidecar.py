"""The binary sidecar of a result document: its frames and histories as numpy arrays in a ``.npz``.

A dynamic request that sends its frames or histories to ``"npz"`` (engine/io/analysis_schema.json) gets
them here at full precision instead of in the document (engine.result, "output"). The arrays, by name:

- ``t`` (n_frames,) float64, s, and ``block_ids`` (n_blocks,) str, in model order;
- for frames: ``position`` (n_frames, n_blocks, 3) float64, m, centres of mass, and ``orientation``
  (n_frames, n_blocks, 4) float64, unit quaternions [w, x, y, z];
- for histories: ``history_blocks`` (n_movable,) str, ``history_position`` (n_frames, n_movable, 3)
  float64, m, and ``history_velocity`` (n_frames, n_movable, 6) float64, [m/s, rad/s].

Read one with ``numpy.load(path)`` (no pickles: every array is numbers or fixed-width text), or into its
Result with `read_sidecar`.
"""
import dataclasses
import os

import numpy as np

from extrados.engine.errors import ModelError
from extrados.engine.result import Frames


def wants_sidecar(result):
    """Whether the result's request sent its frames or histories to the sidecar."""
    return result.output is not None and "npz" in result.output.values()


def sidecar_arrays(result):
    """{name: array} of the sidecar of a Result whose ``output`` asks for one (module docstring)."""
    frames, blocks = result.frames, result.blocks
    arrays = {"t": frames.t, "block_ids": np.array(blocks.ids, str)}
    if result.output["frames"] == "npz":
        arrays.update(position=frames.position, orientation=frames.orientation)
    if result.output["histories"] == "npz":
        movable = np.flatnonzero(~blocks.support)
        arrays.update(history_blocks=arrays["block_ids"][movable], history_position=frames.position[:, movable],
                      history_velocity=frames.velocity[:, movable])
    return arrays


def write_sidecar(result, file):
    """Write the sidecar of ``result`` (`wants_sidecar`) to ``file``, a path or a binary file object."""
    np.savez_compressed(file, **sidecar_arrays(result))


def sidecar_path(document_path):
    """Where the sidecar of the document at ``document_path`` goes: beside it, ending .npz (result.json:
    result.npz)."""
    return os.path.splitext(document_path)[0] + ".npz"


def unread_frames(result, n_frames):
    """Frames of ``n_frames`` the document already gave (``result.frames``), or all nan when it gave none."""
    if result.frames is not None:
        frames = result.frames
        return Frames(frames.t, frames.position.copy(), frames.orientation.copy(), frames.velocity.copy())
    n_blocks = len(result.blocks.ids)
    return Frames(np.full(n_frames, np.nan), np.full((n_frames, n_blocks, 3), np.nan),
                  np.full((n_frames, n_blocks, 4), np.nan), np.full((n_frames, n_blocks, 6), np.nan))


def read_sidecar(result, file):
    """The Result read from a document (``Result.from_dict``) with the frames and histories its request sent
    to the sidecar ``file`` (a path or binary file object) taken from there, at full precision.

    Raises
    ------
    ModelError
        At ``output`` when the file cannot be read or is not this result's sidecar (other blocks or times).
    """
    try:
        with np.load(file) as arrays:
            arrays = dict(arrays)
    except (OSError, ValueError) as exc:
        raise ModelError(f"the result's frames are in its sidecar, which cannot be read: {exc}",
                         path="output") from None
    if arrays.get("block_ids", np.zeros(0)).tolist() != list(result.blocks.ids):
        raise ModelError("the sidecar is not this result's: its blocks are not the result's", path="output")
    frames = unread_frames(result, len(arrays["t"]))
    if len(frames.t) != len(arrays["t"]):
        raise ModelError(f"the sidecar has {len(arrays['t'])} frames, the result's document {len(frames.t)}",
                         path="output")
    if "position" in arrays:
        frames.position[:], frames.orientation[:] = arrays["position"], arrays["orientation"]
    if "history_blocks" in arrays:
        index = {block_id: i for i, block_id in enumerate(result.blocks.ids)}
        movable = [index[block_id] for block_id in arrays["history_blocks"].tolist()]
        frames.position[:, movable] = arrays["history_position"]
        frames.velocity[:, movable] = arrays["history_velocity"]
    return dataclasses.replace(result, frames=dataclasses.replace(frames, t=arrays["t"]))
