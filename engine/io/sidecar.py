"""The binary sidecar of a result document: its frames and histories as numpy arrays in a ``.npz``.

A dynamic request that sends its frames or histories to ``"npz"`` (engine/io/analysis_schema.json) gets
them here at full precision instead of in the document (engine.result, "output"). The arrays, by name:

- ``t`` (n_frames,) float64, s, and ``block_ids`` (n_blocks,) str, in model order;
- for frames: ``position`` (n_frames, n_blocks, 3) float64, m, centres of mass, and ``orientation``
  (n_frames, n_blocks, 4) float64, unit quaternions [w, x, y, z];
- for histories: ``history_blocks`` (n_movable,) str, ``history_position`` (n_frames, n_movable, 3)
  float64, m, and ``history_velocity`` (n_frames, n_movable, 6) float64, [m/s, rad/s].

Read one with ``numpy.load(path)`` (no pickles: every array is numbers or fixed-width text), or into its
Result with `extrados.engine.exchange.result_file.read_sidecar`.
"""
import os

import numpy as np


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
