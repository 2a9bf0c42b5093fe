"""A result document read from a file, checked against its schema, as a `Result` (with the frames and histories
of its npz sidecar, engine.io.sidecar, where its request sent them there)."""
import dataclasses
import json
from functools import cache

import jsonschema
import numpy as np

from extrados.engine.errors import ModelError
from extrados.engine.io.schema import first_error, result_schema, schema_error
from extrados.engine.io.sidecar import sidecar_path, wants_sidecar
from extrados.engine.result import FORMAT, Frames, Result


@cache
def result_validator():
    """The validator of result documents (engine/io/result_schema.json)."""
    return jsonschema.Draft202012Validator(result_schema())


def read_result_file(path):
    """The Result of the result document (JSON) at ``path``, and of its sidecar beside it (`sidecar_path`)
    where its "output" says "npz".

    Raises
    ------
    ModelError
        When the file cannot be read, is not JSON, is not a result document (format extrados.result/1)
        or breaks the result schema (at the field, e.g. ``blocks[3].stress``), each message naming the file;
        and at ``output`` when its sidecar is missing or another result's.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            doc = json.load(handle)
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelError(f"cannot read result file: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ModelError(f"{path} is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except (RecursionError, ValueError) as exc:
        raise ModelError(f"{path} is not JSON a result can be read from: {exc}") from None
    result = result_of_document(doc, path)
    return read_sidecar(result, sidecar_path(path)) if wants_sidecar(result) else result


def result_of_document(doc, where):
    """The Result of a result document (a parsed JSON value), checked against the result schema; ModelError
    naming ``where`` (a file, or "the result") when it is not one."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ModelError(f"{where} is not a result document (format {FORMAT!r})", path="format")
    error = first_error(result_validator(), doc)
    if error is not None:
        raise ModelError(f"{where} is not a valid result document: {schema_error(error)}")
    return Result.from_dict(doc)

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
