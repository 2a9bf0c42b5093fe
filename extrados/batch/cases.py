"""The cases of a batch spec: the product of its dimensions, each a (model, analysis) pair keyed by its content.

A case's key is the sha256 of the canonical JSON (sorted keys, no spaces) of
``{"model": ..., "analysis": ...}``: the same documents give the same key on every run and machine,
so a rerun finds the cases it finished.
"""
import copy
import hashlib
import itertools
import json
import math
from contextlib import nullcontext
from typing import NamedTuple

import numpy as np

from extrados.engine.errors import ModelError
from extrados.engine.generators import TooManyBlocks, block_budget, generate
from extrados.batch.motions import ground_motions


#: Most cases one spec may expand to: the cases (model documents with their records) are held in
#: memory and submitted at once, and 16 dimensions of 10,000 values each would be 10^64 of them.
MAX_CASES = 100_000


class BatchTooLarge(ModelError):
    """The documents of a batch's cases (models and records) exceed the byte budget given to `expand`."""


class Case(NamedTuple):
    """One analysis of a batch."""

    key: str          # sha256 hex of the canonical (model, analysis) JSON
    inputs: dict      # {column name: value} of the varied inputs, the table's input columns
    model: dict       # the model document
    analysis: dict    # the analysis request


def case_key(model, analysis):
    """The sha256 hex digest of the canonical JSON of ``{"model": model, "analysis": analysis}``."""
    text = json.dumps({"model": model, "analysis": analysis}, sort_keys=True, separators=(",", ":"),
                      allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()


def dimension_values(dimension):
    """The values a ``vary`` entry takes: its list, its rows, or its grid's count values from start to stop."""
    if "list" in dimension:
        return list(dimension["list"])
    if "rows" in dimension:
        return list(dimension["rows"])
    grid = dimension["grid"]
    return np.linspace(grid["start"], grid["stop"], grid["count"]).tolist()


def dimension_inputs(dimension, value):
    """{table column: value} of a ``vary`` entry at one of its values: its parameter's name, its pointer,
    analysis + its request pointer, or each of its parameters with its value of the row."""
    if "parameters" in dimension:
        return dict(zip(dimension["parameters"], value))
    if "request" in dimension:
        return {f"analysis{dimension['request']}": value}
    return {dimension.get("parameter") or dimension["pointer"]: value}


def expand(spec, folder, max_blocks=None, max_bytes=None):
    """The cases of a checked spec (spec.load_spec), in the order of the product of its dimensions,
    the ground motions and their scales varying fastest.

    Parameters
    ----------
    spec : dict
    folder : Path
        Where relative record file paths start.
    max_blocks : int, optional
        Most blocks of a generated model: its generator stops at the next one (a service's limit).
    max_bytes : int, optional
        Most bytes of the documents the cases hold, as compact JSON: each distinct model before its
        ground motion, and each record at each scale (the cases share these); the expansion stops at
        the document that passes it (a service's bound on a request's memory).

    Raises
    ------
    ModelError
        More than MAX_CASES cases (path ``vary``), a generator that refuses its parameters (path
        ``generator``), a pointer whose parent is not in the model or the request (path
        ``vary[i].pointer``, ``vary[i].request``), or a record file that cannot be read.
    TooManyBlocks
        A generated model of more than ``max_blocks`` blocks.
    BatchTooLarge
        Documents of more than ``max_bytes`` bytes (path ``vary``).
    """
    dimensions = spec["vary"]
    count = case_count(spec)
    if count > MAX_CASES:
        raise ModelError(f"{count} cases, more than the limit of {MAX_CASES}; split the batch", path="vary")
    held = _ByteBudget(max_bytes)
    motions = [({}, None)]
    if "ground_motions" in spec:
        motions = []
        for inputs, support_motion in ground_motions(spec["ground_motions"], folder):
            held.count(support_motion)
            motions.append((inputs, support_motion))
    cases = []
    for values in itertools.product(*(dimension_values(d) for d in dimensions)):
        model = _base_model(spec, dimensions, values, max_blocks)
        for index, (dimension, value) in enumerate(zip(dimensions, values)):
            if "pointer" in dimension:
                _set_pointer(model, dimension["pointer"], value, f"vary[{index}].pointer")
        held.count(model)
        analysis = _case_analysis(spec["analysis"], dimensions, values)
        inputs = {column: value for d, value in zip(dimensions, values)
                  for column, value in dimension_inputs(d, value).items()}
        for motion_inputs, support_motion in motions:
            case_model = model
            if support_motion is not None:
                case_model = dict(model, support_motion=support_motion)
            cases.append(Case(case_key(case_model, analysis), {**inputs, **motion_inputs}, case_model, analysis))
    return cases


def case_count(spec):
    """The cases of a checked spec, counted without building any (repeated ones included)."""
    count = math.prod(len(dimension_values(d)) for d in spec["vary"])
    motions = spec.get("ground_motions")
    if motions is not None:
        stochastic = motions.get("stochastic", {})
        records = (len(motions["files"]) + len(motions["records"]) + len(stochastic.get("seeds", ()))
                   + stochastic.get("count", 0))
        count *= records * len(motions.get("scale_factors") or motions["target_pga"])
    return count


class _ByteBudget:
    """The compact-JSON bytes of the documents an expansion holds, against its limit (None: no limit)."""

    def __init__(self, limit):
        self.limit, self.used = limit, 0

    def count(self, document):
        """Count ``document``'s bytes; BatchTooLarge once they pass the limit."""
        if self.limit is None:
            return
        self.used += len(json.dumps(document, separators=(",", ":")))
        if self.used > self.limit:
            raise BatchTooLarge(f"the cases' models and records pass {self.limit / 2 ** 20:g} MiB as JSON; "
                                "split the batch, or vary fewer models or records", path="vary")


def _base_model(spec, dimensions, values, max_blocks):
    """The model document before pointers: the spec's, or its generator's with the varied parameters
    (at most ``max_blocks`` blocks, when given)."""
    if "model" in spec:
        return copy.deepcopy(spec["model"])
    parameters = dict(spec["generator"]["parameters"])
    for dimension, value in zip(dimensions, values):
        if "parameter" in dimension or "parameters" in dimension:
            parameters.update(dimension_inputs(dimension, value))
    try:
        with nullcontext() if max_blocks is None else block_budget(max_blocks):
            return generate(spec["generator"]["name"], **parameters)
    except TooManyBlocks:
        raise
    except ValueError as exc:
        raise ModelError(f"{exc} (parameters {parameters})", path="generator") from exc


def _case_analysis(analysis, dimensions, values):
    """The analysis request of a case: the spec's, with the fields its request dimensions set (a copy)."""
    varied = [(index, dimension, value) for index, (dimension, value) in enumerate(zip(dimensions, values))
              if "request" in dimension]
    if not varied:
        return analysis
    analysis = copy.deepcopy(analysis)
    for index, dimension, value in varied:
        _set_pointer(analysis, dimension["request"], value, f"vary[{index}].request", "analysis request")
    return analysis


def _set_pointer(document, pointer, value, field, name="model"):
    """Set the field at JSON pointer ``pointer`` (RFC 6901) of ``document`` (the ``name``) to ``value``, in place."""
    parts = [part.replace("~1", "/").replace("~0", "~") for part in pointer.split("/")[1:]]
    parent = document
    for part in parts[:-1]:
        parent = _child(parent, part, pointer, field, name)
    last = parts[-1]
    if isinstance(parent, list):
        _child(parent, last, pointer, field, name)
        parent[int(last)] = value
    elif isinstance(parent, dict):
        parent[last] = value
    else:
        raise ModelError(f"{pointer!r}: the field's parent is not an object or a list in the {name}", path=field)


def _child(node, part, pointer, field, name):
    """``node[part]`` (an object's field or a list's index), or a ModelError saying the pointer misses."""
    if isinstance(node, dict) and part in node:
        return node[part]
    if isinstance(node, list) and part.isdigit() and int(part) < len(node):
        return node[int(part)]
    raise ModelError(f"{pointer!r}: the {name} has no {part!r} there", path=field)
