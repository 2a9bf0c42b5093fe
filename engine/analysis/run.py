"""`analyze(model, analysis)`: the one entry point of every door (Python, CLI, HTTP)."""
from dataclasses import dataclass

from extrados.engine.analysis.construction import ConstructionRequest, construction_result, run_construction
from extrados.engine.analysis.dynamic import DynamicRequest, run_dynamic
from extrados.engine.analysis.load_factor import LoadFactorRequest, run_load_factor
from extrados.engine.analysis.overlap import repaired
from extrados.engine.analysis.progress import Progress
from extrados.engine.analysis.request import AnalysisRequest, request_document, request_fields
from extrados.engine.analysis.static import STATIC_STEP, Cancellation, solve_static
from extrados.engine.errors import ModelError
from extrados.engine.model import Model
from extrados.engine.post.conventional import chain_plane, conventional_thrust_lines, error_documents
from extrados.engine.post.thrust import effective_thrust_line_of_result
from extrados.engine.post.results import dynamic_result, static_result

#: Optional field of every analysis request (its form is the schema's): {"chain": [block ids],
#: "conventional": bool}. "chain" names the chain of blocks whose effective thrust line the result
#: carries (engine.post.thrust), for arches inside walls and bridges, where the automatic chain does
#: not exist; "conventional" adds the conventional thrust lines of that chain, or of the automatic
#: one (engine.post.conventional).
THRUST_LINE_FIELD = "thrust_line"
THRUST_LINE_PATH = f"analysis.{THRUST_LINE_FIELD}.chain"
CONVENTIONAL_PATH = f"analysis.{THRUST_LINE_FIELD}.conventional"
#: Analyses whose result is the structure as drawn, the geometry conventional lines are drawn on.
CONVENTIONAL_ANALYSES = ("static", "load_factor")


@dataclass(frozen=True)
class StaticRequest(AnalysisRequest):
    """The static analysis request: nothing to set but the thrust lines."""

    KIND = "static"

    @classmethod
    def from_fields(cls, fields, model):
        """The request; ModelError when the model has no block free to move (its masses are built)."""
        model.mechanics
        return cls(**fields)


#: The request class of each analysis type.
REQUESTS = {kind.KIND: kind for kind in (StaticRequest, LoadFactorRequest, DynamicRequest, ConstructionRequest)}


@dataclass(frozen=True)
class ThrustLineRequest:
    """The request's thrust_line field, checked."""

    chain: list = None         # block ids of the named chain; None: the automatic chain
    conventional: bool = False  # add the conventional thrust lines of the chain


def checked_chain(model, chain):
    """The named chain (list of block ids) with its ids checked (path ``analysis.thrust_line.chain``)."""
    known = set(model.block_ids)
    for k, block_id in enumerate(chain):
        if block_id not in known:
            raise ModelError(f"unknown block id {block_id!r}", path=f"{THRUST_LINE_PATH}[{k}]")
    return chain


def thrust_line_request(model, kind, field):
    """The ThrustLineRequest of a ``kind`` analysis request's thrust_line field (None when it has none),
    whose form the schema has checked.

    Only what the model alone fixes is checked here, before the analysis runs: the chain's ids and,
    for conventional lines, the analysis type, gravity and the named chain's vertical plane. Whether
    the chain's joints are loaded is known only after it (``with_thrust_lines``).
    """
    if field is None:
        return ThrustLineRequest()
    chain = checked_chain(model, field["chain"]) if "chain" in field else None
    conventional = field["conventional"]
    if conventional and kind not in CONVENTIONAL_ANALYSES:
        raise ModelError(f"conventional thrust lines are drawn on the structure as drawn: for a static or "
                         f"load_factor analysis, not {kind}", path=CONVENTIONAL_PATH)
    if conventional and chain is not None:
        chain_plane(model, chain, THRUST_LINE_PATH)
    return ThrustLineRequest(chain, conventional)


def with_named_thrust_line(result, chain):
    """The result with the effective thrust line along ``chain``; a chain that a joint left open
    breaks is reported in the line (``points`` empty, ``error`` saying where) instead of losing the
    analysis."""
    try:
        line = effective_thrust_line_of_result(result, chain=chain, path=THRUST_LINE_PATH)
        result.thrust_lines = [line.to_dict()]
    except ModelError as error:
        result.thrust_lines = [{"name": "effective", "points": [], "blocks": list(chain), "error": str(error)}]
    return result


def with_conventional_thrust_lines(model, result, chain):
    """The result with the conventional thrust lines of ``chain`` (None: the automatic chain of its effective
    line) after its other lines; a chain that has none (no chain, an open joint, not in a vertical plane)
    gives entries with ``points`` empty and an ``error`` instead of losing the analysis."""
    path = f"analysis.{THRUST_LINE_FIELD}" if chain is None else THRUST_LINE_PATH
    try:
        lines = conventional_thrust_lines(model, result, chain, path)
    except ModelError as error:
        lines = error_documents(error, chain or ())
    result.thrust_lines = result.thrust_lines + lines
    return result


def with_thrust_lines(model, result, thrust_line):
    """The result with the thrust lines a ThrustLineRequest asks for, besides the automatic effective line."""
    if thrust_line.chain is not None:
        result = with_named_thrust_line(result, thrust_line.chain)
    if thrust_line.conventional:
        result = with_conventional_thrust_lines(model, result, thrust_line.chain)
    return result


def parsed_request(model, analysis):
    """The analysis request of DESIGN sec. 5 read against a model: its type's request and its ThrustLineRequest.

    Each field is checked once: against the schema of its type (engine.analysis.request), then across
    fields and against the model by the type's request class.

    Raises
    ------
    ModelError
        Naming the field, e.g. ``analysis.stages[1][0]`` or ``loads`` (no live load for a load factor).
    """
    document = request_document(analysis)
    kind = document["type"]
    fields = request_fields(document, kind)
    thrust_line = thrust_line_request(model, kind, fields.pop(THRUST_LINE_FIELD, None))
    return REQUESTS[kind].from_fields(fields, model), thrust_line


def check_request(model, analysis):
    """Check an analysis request against a model without running it (what `analyze` checks first), so
    that a service can refuse a bad request at once instead of failing a queued job later; its type."""
    parsed_request(model, analysis)
    return request_document(analysis)["type"]


def load_factor_result(model, request, warm=None, cancellation=Cancellation(), progress=Progress()):
    """Result of a load factor analysis: stable when the dead loads stand, load_factor the NSCD value,
    forces and interfaces of the static solution at the largest standing factor (at factor 0 when
    even that fails), and the report of both methods in ``load_factor_report``. ``warm``,
    ``cancellation`` and ``progress`` go to `run_load_factor`."""
    search, report = run_load_factor(model, request, warm, cancellation, progress)
    solution = search.standing if search.standing is not None else search.failing
    return static_result(model, solution, STATIC_STEP, analysis="load_factor", load_factor=search.standing_factor,
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
        effective thrust line the result carries, ``"thrust_line": {"chain": [ids]}``; a static or
        load_factor one may add its conventional thrust lines, ``"conventional": true``.
    progress : callable(fraction), optional
        Called with the fraction done (0-1), never smaller than the last, and with 1 when the
        analysis has ended, not when it was cancelled (engine.analysis.progress): steps of a
        dynamic run, stages and their steps of a construction, static solves of a load factor
        search, settle runs of a static analysis.
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
        With ``overlap_repair`` in its reports when the model's settings.overlap is ``shrink`` or
        ``accept`` (engine.analysis.overlap): the analysis then runs on the repaired blocks.
    """
    if not isinstance(model, Model):
        model = Model.from_dict(model)
    model, repair = repaired(model)
    request, thrust_line = parsed_request(model, analysis)
    # a WarmStart holds the contacts of the blocks as drawn, not of blocks that shrink cut
    result = run_request(model, request, Progress.of(progress), cancel, warm if repair_keeps_blocks(repair) else None)
    return with_overlap_repair(with_thrust_lines(model, result, thrust_line), repair)


def repair_keeps_blocks(repair):
    """Whether the blocks an analysis runs on are those drawn (no repair, or one that cut nothing)."""
    return repair is None or repair["mode"] == "accept" or not repair["pairs"]


def with_overlap_repair(result, repair):
    """``result`` with the report of settings.overlap (engine.analysis.overlap) in ``overlap_repair``, if any."""
    if repair is not None:
        result.extra["overlap_repair"] = repair
    return result


def run_request(model, request, progress, cancel, warm=None):
    """The analysis of a parsed request (`parsed_request`), reporting to ``progress`` (a Progress) up to 1 unless
    cancelled; static and load factor analyses start from ``warm`` (a WarmStart) when given."""
    if isinstance(request, DynamicRequest):
        return dynamic_result(model, run_dynamic(model, request, progress, cancel), request)
    if isinstance(request, ConstructionRequest):
        return construction_result(model, run_construction(model, request, progress, cancel), request)
    if isinstance(request, LoadFactorRequest):
        result = load_factor_result(model, request, warm, Cancellation(cancel, "load_factor analysis"), progress)
    else:
        solution = solve_static(model, live_factor=1.0, warm=warm,
                                cancellation=Cancellation(cancel, "static analysis"), progress=progress)
        result = static_result(model, solution, STATIC_STEP, analysis="static")
    progress(1.0)
    return result
