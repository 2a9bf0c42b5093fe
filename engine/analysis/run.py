"""`analyze(model, analysis)`: the one entry point of every door (Python, CLI, HTTP)."""
import json
from importlib import resources

import jsonschema

from engine.analysis.construction import ConstructionRequest, construction_result, run_construction
from engine.analysis.dynamic import DynamicRequest, run_dynamic
from engine.analysis.load_factor import LoadFactorRequest, check_live_loads, run_load_factor
from engine.analysis.static import Cancellation, solve_static
from engine.errors import ModelError, format_path
from engine.model import Model
from engine.post.thrust import effective_thrust_line_of_result
from engine.result import dynamic_result, static_result

ANALYSIS_FIELDS = {"static": {"type"}, "load_factor": set(LoadFactorRequest.FIELDS),
                   "dynamic": set(DynamicRequest.FIELDS), "construction": set(ConstructionRequest.FIELDS)}


#: Optional field of every analysis request: {"chain": [block ids]} names the chain of blocks whose
#: effective thrust line the result carries (engine.post.thrust), for arches inside walls and
#: bridges, where the automatic chain does not exist.
THRUST_LINE_FIELD = "thrust_line"
THRUST_LINE_PATH = f"analysis.{THRUST_LINE_FIELD}.chain"


def analysis_schema():
    """The JSON schema of the analysis request (engine/io/analysis_schema.json): one ``$defs``
    entry per analysis type. The HTTP service publishes it in its OpenAPI document."""
    return json.loads(resources.files("engine.io").joinpath("analysis_schema.json").read_text())


def _type_validators():
    """One validator per analysis type, so that an error names the field of the chosen type
    instead of the failure of every branch of a ``oneOf``."""
    schema = analysis_schema()
    return {kind: jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{kind}"})
            for kind in ANALYSIS_FIELDS}


_TYPE_VALIDATORS = _type_validators()


def check_against_schema(request):
    """Raise ModelError at ``analysis.<field>`` for the first schema violation of a typed request."""
    errors = list(_TYPE_VALIDATORS[request["type"]].iter_errors(request))
    if errors:
        error = jsonschema.exceptions.best_match(errors)
        path = format_path(["analysis", *error.absolute_path])
        raise ModelError(error.message, path=path)


def named_thrust_line_chain(model, request):
    """Pop and check the request's thrust_line field: the named chain (list of block ids) or None.

    Only its form and ids are checked here, before the analysis runs; whether the chain's joints
    are loaded is known only after it (``with_named_thrust_line``).
    """
    field = request.pop(THRUST_LINE_FIELD, None)
    if field is None:
        return None
    if not isinstance(field, dict) or set(field) != {"chain"}:
        raise ModelError('thrust_line must be {"chain": [block ids, ...]}', path=f"analysis.{THRUST_LINE_FIELD}")
    chain = field["chain"]
    if not isinstance(chain, list) or len(chain) < 1:
        raise ModelError("a chain is a non-empty list of block ids", path=THRUST_LINE_PATH)
    known = set(model.block_ids)
    for k, block_id in enumerate(chain):
        if not isinstance(block_id, str) or block_id not in known:
            raise ModelError(f"unknown block id {block_id!r}", path=f"{THRUST_LINE_PATH}[{k}]")
    return chain


def with_named_thrust_line(result, chain):
    """The result with the effective thrust line along ``chain``; a chain that a joint left open
    breaks is reported in the line (``points`` empty, ``error`` saying where) instead of losing the
    analysis."""
    try:
        line = effective_thrust_line_of_result(result.to_dict(), chain=chain, path=THRUST_LINE_PATH)
        result.thrust_lines = [line.to_dict()]
    except ModelError as error:
        result.thrust_lines = [{"name": "effective", "points": [], "blocks": list(chain), "error": str(error)}]
    return result


def validated_request(analysis):
    """The analysis request of DESIGN sec. 5, checked; raises ModelError naming the field."""
    if analysis is None:
        return {"type": "static"}
    if isinstance(analysis, str):
        analysis = {"type": analysis}
    if not isinstance(analysis, dict):
        raise ModelError("the analysis request must be an object", path="analysis")
    kind = analysis.get("type")
    if kind not in ANALYSIS_FIELDS:
        raise ModelError(f"unknown analysis type {kind!r} (expected one of {sorted(ANALYSIS_FIELDS)})",
                         path="analysis.type")
    unknown = set(analysis) - ANALYSIS_FIELDS[kind] - {THRUST_LINE_FIELD}
    if unknown:
        raise ModelError(f"unknown field '{sorted(unknown)[0]}' for a {kind} analysis",
                         path=f"analysis.{sorted(unknown)[0]}")
    check_against_schema(analysis)
    return dict(analysis)


def check_request(model, analysis):
    """Check an analysis request against a model without running it (what `analyze` checks first),
    so that a service can refuse a bad request at once instead of failing a queued job later.

    Raises
    ------
    ModelError
        Naming the field, e.g. ``analysis.stages[1][0]`` or ``loads`` (no live load for a load factor).
    """
    request = validated_request(analysis)
    named_thrust_line_chain(model, request)
    if request["type"] == "dynamic":
        DynamicRequest.from_dict(request)
    elif request["type"] == "construction":
        ConstructionRequest.from_dict(request, model.mechanics)
    elif request["type"] == "load_factor":
        LoadFactorRequest.from_dict(request)
        check_live_loads(model)
    else:
        model.mechanics  # builds the masses: raises ModelError for a model with no block free to move
    return request["type"]


def load_factor_result(model, request, warm=None, cancellation=Cancellation()):
    """Result of a load factor analysis: stable when the dead loads stand, load_factor the NSCD value,
    forces and interfaces of the static solution at the largest standing factor (at factor 0 when
    even that fails), and the report of both methods in ``load_factor_report``. ``warm`` and
    ``cancellation`` go to `run_load_factor`."""
    search, report = run_load_factor(model, request, warm, cancellation)
    solution = search.standing if search.standing is not None else search.failing
    return static_result(model, solution, analysis="load_factor", load_factor=search.standing_factor,
                         extra={"load_factor_report": report})


def analyze(model, analysis=None, progress=None, cancel=None, warm=None):
    """Analyse a model.

    Parameters
    ----------
    model : Model or dict
        A Model or a model document (DESIGN sec. 4).
    analysis : dict or str, optional
        The analysis request of DESIGN sec. 5; default ``{"type": "static"}``. Types static,
        load_factor, dynamic and construction; any of them may name the chain of blocks whose
        effective thrust line the result carries, ``"thrust_line": {"chain": [ids]}``.
    progress : callable(fraction), optional
        Dynamic and construction runs report the fraction done (0-1).
    cancel : callable() -> bool, optional
        Dynamic and construction runs stop cleanly when it returns True; the result says ``cancelled``
        (a construction result in ``construction.cancelled``). Static and load factor analyses check
        it between solves and raise ``engine.errors.AnalysisCancelled``.
    warm : engine.analysis.static.WarmStart, optional
        Contacts at rest of the model's geometry and an impulse guess for static and load factor
        analyses (engine.analysis.cache keeps them per geometry).

    Returns
    -------
    Result
    """
    if not isinstance(model, Model):
        model = Model.from_dict(model)
    request = validated_request(analysis)
    chain = named_thrust_line_chain(model, request)
    result = run_request(model, request, progress, cancel, warm)
    return result if chain is None else with_named_thrust_line(result, chain)


def run_request(model, request, progress, cancel, warm=None):
    """The analysis of a checked request (without its thrust_line field); static and load factor
    analyses start from ``warm`` (a WarmStart) when given."""
    if request["type"] == "dynamic":
        dynamic = DynamicRequest.from_dict(request)
        return dynamic_result(model, run_dynamic(model, dynamic, progress, cancel), dynamic)
    if request["type"] == "construction":
        construction = ConstructionRequest.from_dict(request, model.mechanics)
        return construction_result(model, run_construction(model, construction, progress, cancel), construction)
    cancellation = Cancellation(cancel, f"{request['type']} analysis")
    if request["type"] == "load_factor":
        return load_factor_result(model, LoadFactorRequest.from_dict(request), warm, cancellation)
    solution = solve_static(model, live_factor=1.0, warm=warm, cancellation=cancellation)
    return static_result(model, solution, analysis=request["type"])
