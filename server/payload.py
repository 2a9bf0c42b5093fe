"""Reading an analysis request from an HTTP body: JSON, its envelope, and the size limits.

What the engine checks (the model document, the analysis request) is left to the engine; here we
only refuse what must not reach it: text that is not JSON, an envelope without a model, a model
larger than the service accepts, and more large bodies at once than it can hold in memory.
"""
import json
import threading
from contextlib import contextmanager

import orjson
from flask import request

from extrados.server.config import MIB
from extrados.server.errors import ApiError

ENVELOPE_FIELDS = ("model", "analysis")
#: Analyses that take time steps, whose request carries ``max_steps``.
STEPPED_ANALYSES = ("dynamic", "construction")
#: bytes; a body above this is large: parsed and checked, it takes about ten times its size in
#: memory (four bodies of 53 MB took 2.3 GB) and seconds to minutes of the compute time limit.
LARGE_BODY_BYTES = 8 * MIB
#: Large bodies parsed and checked at once; another is answered 503 at once instead of waiting, so
#: that large requests cannot take every thread and gigabytes of memory.
MAX_LARGE_REQUESTS = 2


def large_request_slots():
    """The semaphore `large_request_slot` takes a place of (one per app)."""
    return threading.BoundedSemaphore(MAX_LARGE_REQUESTS)


@contextmanager
def large_request_slot(slots):
    """Hold one of ``slots`` while a request with a large body is answered; 503 when none is free."""
    if (request.content_length or 0) <= LARGE_BODY_BYTES:
        yield
        return
    if not slots.acquire(blocking=False):
        raise ApiError(503, f"the service is already answering {MAX_LARGE_REQUESTS} requests larger than "
                            f"{LARGE_BODY_BYTES // MIB} MiB; retry in a minute", code="busy")
    try:
        yield
    finally:
        slots.release()


def json_body():
    """The request body parsed as JSON (400 naming line and column when it is not); its media type
    was checked by `server.guards`."""
    raw = request.get_data(cache=False)
    try:
        return orjson.loads(raw)   # strict JSON, several times faster than json.loads on a model document
    except orjson.JSONDecodeError:
        pass   # the standard parser names the error's line and column (or parses what orjson refuses: huge integers)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError(400, f"the body is not UTF-8 text (byte {exc.start})") from exc
    try:
        return json.loads(text, parse_constant=refuse_constant)
    except json.JSONDecodeError as exc:
        raise ApiError(400, f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from exc
    except ValueError as exc:
        raise ApiError(400, f"malformed JSON: {exc}") from exc
    except RecursionError as exc:
        raise ApiError(400, "malformed JSON: nested too deeply") from exc


def refuse_constant(name):
    """NaN and Infinity are not JSON; Python's parser would accept them."""
    raise ValueError(f"{name} is not a JSON number")


def checked_object(body, fields, shape):
    """``body`` when it is a JSON object with no other fields than ``fields``; else 400 saying ``shape`` (the
    object expected, e.g. ``{"model": {...}}``) or naming the first unknown field."""
    if not isinstance(body, dict):
        raise ApiError(400, f"the body must be a JSON object {shape}")
    unknown = sorted(set(body) - set(fields))
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0]!r} (expected {', '.join(fields)})", path=unknown[0])
    return body


def analysis_envelope(body, config):
    """(model document, analysis request) of ``{"model": …, "analysis": …}``.

    Raises
    ------
    ApiError
        400 when the envelope is not an object with a model object; 413 when the model has more
        blocks than ``config.max_blocks``, or a block more faces or a face more corners than
        ``config.max_block_faces`` and ``config.max_face_corners``.
    """
    checked_object(body, ENVELOPE_FIELDS, '{"model": {...}, "analysis": {...}}')
    if "model" not in body:
        raise ApiError(400, "the body has no model", path="model")
    model = body["model"]
    if not isinstance(model, dict):
        raise ApiError(400, "model must be a JSON object (a model document)", path="model")
    check_model_size(model, config)
    return model, capped_steps(body.get("analysis"), config.max_steps)


def check_model_size(model, config):
    """413 at its blocks for a model document (a dict) of more blocks than ``config.max_blocks``, or with
    a block over the face or corner limit (`check_block_sizes`)."""
    blocks = model.get("blocks")
    if isinstance(blocks, list):
        if len(blocks) > config.max_blocks:
            raise ApiError(413, f"the model has {len(blocks)} blocks, more than this service's limit of "
                                f"{config.max_blocks} (raise --max-blocks)", path="model.blocks",
                           code="too_many_blocks")
        check_block_sizes(blocks, config)


def capped_steps(analysis, max_steps):
    """The analysis request with ``max_steps`` at most this service's limit: filled in for a dynamic or
    construction request that gives none, 422 naming --max-steps for one that asks for more."""
    if not isinstance(analysis, dict) or analysis.get("type") not in STEPPED_ANALYSES:
        return analysis
    asked = analysis.get("max_steps")
    if asked is None:
        return {**analysis, "max_steps": max_steps}
    if isinstance(asked, (int, float)) and not isinstance(asked, bool) and asked > max_steps:
        raise ApiError(422, f"max_steps is more than this service's limit of {max_steps} time steps "
                            "(raise --max-steps)", path="analysis.max_steps", code="invalid_request")
    return analysis


def check_block_sizes(blocks, config):
    """413 naming the block, and the flag to raise, for a block over the service's face or corner limit,
    or given by more points than a hull within those limits can have (`check_point_count`)."""
    for index, block in enumerate(blocks):
        if not isinstance(block, dict):
            continue
        label = block.get("id") if isinstance(block.get("id"), str) else None
        check_point_count(block.get("points"), index, label, config)
        faces = block.get("faces")
        if not isinstance(faces, list):
            continue
        if len(faces) > config.max_block_faces:
            raise ApiError(413, f"block has {len(faces)} faces, more than this service's limit of "
                                f"{config.max_block_faces} (raise --max-block-faces)",
                           path=f"model.blocks[{index}].faces", block=label, code="block_too_large")
        for k, face in enumerate(faces):
            if isinstance(face, list) and len(face) > config.max_face_corners:
                raise ApiError(413, f"face has {len(face)} corners, more than this service's limit of "
                                    f"{config.max_face_corners} (raise --max-face-corners)",
                               path=f"model.blocks[{index}].faces[{k}]", block=label, code="block_too_large")


def check_point_count(points, index, label, config):
    """413 for a block given by n points (engine.geometry.hull) whose hull may pass a service limit: it
    has at most 2 n - 4 triangles (merged into fewer faces) and a face at most n - 1 corners."""
    if not isinstance(points, list):
        return
    n = len(points)
    for most, limit, flag in ((config.max_block_faces // 2 + 2, f"{config.max_block_faces} faces", "--max-block-faces"),
                              (config.max_face_corners + 1, f"{config.max_face_corners} corners a face",
                               "--max-face-corners")):
        if n > most:
            raise ApiError(413, f"block has {n} points, more than the {most} whose hull is sure to keep within this "
                                f"service's limit of {limit} (raise {flag})",
                           path=f"model.blocks[{index}].points", block=label, code="block_too_large")
