"""The analysis request document (DESIGN sec. 5), read through its schema.

engine/io/analysis_schema.json has one ``$defs`` entry per analysis type. A request is checked
once, against its type's entry: types, ranges, unknown fields, finite numbers; the entry's
defaults fill what the request leaves out. Each type's request class (an ``AnalysisRequest``:
``DynamicRequest`` …) then adds only its checks across fields and against the model.
"""
import jsonschema

from extrados.engine.errors import ModelError
from extrados.engine.io.schema import analysis_schema, check_finite, first_error, schema_error, with_defaults

SCHEMA = analysis_schema()
ANALYSIS_TYPES = ("static", "load_factor", "dynamic", "construction")
#: One validator per analysis type, so that an error names the field of the chosen type instead
#: of the failure of every branch of the schema's ``oneOf``.
_VALIDATORS = {kind: jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{kind}"})
               for kind in ANALYSIS_TYPES}


def request_document(analysis):
    """The request as a dict with a known ``type``: None is a static analysis, a string names the type.

    Raises
    ------
    ModelError
        At ``analysis`` or ``analysis.type``.
    """
    if analysis is None:
        analysis = {"type": "static"}
    elif isinstance(analysis, str):
        analysis = {"type": analysis}
    if not isinstance(analysis, dict):
        raise ModelError("the analysis request must be an object", path="analysis")
    if analysis.get("type") not in ANALYSIS_TYPES:
        raise ModelError(f"unknown analysis type {analysis.get('type')!r} (expected one of {sorted(ANALYSIS_TYPES)})",
                         path="analysis.type")
    return analysis


def request_fields(request, kind):
    """The fields of a ``kind`` request, checked against its schema, with its defaults filled in.

    ``type`` may be left out (it is ``kind``); the result holds every field but ``type``.

    Raises
    ------
    ModelError
        At the first offending field, e.g. ``analysis.time_step`` or ``analysis.speed`` (unknown).
    """
    document = {"type": kind, **request}
    check_finite(document, ("analysis",))
    error = first_error(_VALIDATORS[kind], document)
    if error is not None:
        raise schema_error(error, root_path=("analysis",))
    fields = with_defaults(document, SCHEMA["$defs"][kind], SCHEMA)
    del fields["type"]
    return fields


def check_step_count(steps, max_steps, what):
    """Refuse a run of more than ``max_steps`` time steps before it starts (``what`` says how the
    count arises, e.g. "duration / time_step").

    Parameters
    ----------
    steps : float
        Time steps the request asks for (may be inf: a duration of 1e308 over a step of 1e-300).
    max_steps : int
        The request's ``max_steps`` (analysis_schema.json).
    """
    if not steps <= max_steps:
        raise ModelError(f"{steps:.4g} time steps ({what}), more than max_steps {max_steps}: lengthen the time "
                         "step, shorten the run, or raise max_steps (CLI and service: --max-steps)",
                         path="analysis.time_step")


class AnalysisRequest:
    """What the request classes share: ``KIND``, the analysis type, and `from_dict`."""

    KIND = None

    @classmethod
    def from_dict(cls, request, model):
        """The request of a request dict (``type`` may be left out; ``thrust_line`` is not read here),
        checked against its schema, then by the class's ``from_fields`` across fields and against ``model``.

        Raises
        ------
        ModelError
            At the offending field, e.g. ``analysis.time_step``.
        """
        fields = request_fields(request, cls.KIND)
        fields.pop("thrust_line", None)
        return cls.from_fields(fields, model)
