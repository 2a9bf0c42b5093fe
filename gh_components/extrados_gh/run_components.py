"""The components that talk to the service: Service, Analyze and Simulate.

Analyze answers at once (static and load factor analyses are quick); with Live off it keeps its
last result until Run is pressed. An analysis that runs past the service's compute time limit
for answering at once is submitted again as a job, which Analyze then polls as Simulate does.
Simulate starts a dynamic job and polls it: each solution of the component asks the service once
for the job's state and its progress and, while the job runs, asks the canvas to solve the
component again a little later, so the canvas never waits on the job.
"""
from __future__ import absolute_import

import json
import os

from . import conversions
from .client import DEFAULT_URL, ExtradosClient, ExtradosError, Job, JobFailed
from .items import DEFAULT, Block, GroundMotion, Load, Material, Result, unwrapped
from .model_components import DEFAULT_TIMEOUT_S, client_of, number, present
from .runtime import outputs

ANALYSIS_TYPES = ("static", "load_factor")


@outputs("Service", "Version")
def service(context, url, token, timeout):
    """Service: where the Extrados service listens; checks that it answers."""
    token = token or os.environ.get("EXTRADOS_TOKEN") or None
    client = ExtradosClient(url or DEFAULT_URL, token=token,
                            timeout=number(timeout, "Timeout", DEFAULT_TIMEOUT_S, positive=True))
    health = client.health()
    client.examples()  # /health answers without a token: this request checks the token too
    engine = health.get("engine") or {}
    if engine.get("state") == "warming":
        context.message("connected, warming up %d %%" % round(100.0 * (engine.get("progress") or 0.0)))
        context.remark("the service is compiling its engine (its first start after an install); analyses wait "
                       "for it, a minute or two at most")
    else:
        context.message("connected")
    return client, health.get("version")


def model_document(blocks, materials, loads, motion=None):
    """The model document of the wired blocks, materials, loads and ground motion.

    Blocks made without a material get the first material (the default stone and dry joint
    when none is wired); the first material's joint is the joint between blocks.
    """
    materials = [m if isinstance(m, Material) else Material(m) for m in present(materials)] or [DEFAULT]
    entries = []
    for block in present(blocks):
        item = block if isinstance(block, Block) else Block(block)
        data = dict(item.data)
        if not item.material_given:
            data["material"] = materials[0].name
        entries.append(data)
    if not entries:
        raise ValueError("connect blocks (from Blocks, Supports or a generator) to Blocks")
    names = [m.name for m in materials]
    for name in set(names):
        if names.count(name) > 1:
            raise ValueError("Materials: two materials are called '%s'" % name)
    return conversions.model_document(
        entries,
        materials=dict((m.name, {"density": m.data["density"]}) for m in materials),
        joints=dict((m.data["joint"], m.data["law"]) for m in materials),
        default_joint=materials[0].data["joint"],
        loads=[unwrapped(load, Load) for load in present(loads)],
        support_motion=None if motion is None else unwrapped(motion, GroundMotion))


def thrust_request(chain, conventional):
    """The analysis request's ``thrust_line`` field, or None (the automatic chain, effective line only)."""
    chain = [str(c) for c in present(chain)]
    field = {}
    if chain:
        field["chain"] = chain
    if conventional:
        field["conventional"] = True
    return field or None


def signature(document):
    """A text equal for equal requests: what a component compares to know its inputs changed."""
    return json.dumps(document, sort_keys=True)


@outputs("Result", "Stable", "Load factor", "Residual", "Converged")
def analyze(context, blocks, materials, loads, analysis_type, max_factor, chain, conventional, live, run, service):
    """Analyze: static equilibrium or the collapse load factor, at every change while Live is on."""
    kind = str(analysis_type or "static")
    if kind not in ANALYSIS_TYPES:
        raise ValueError("Type must be one of %s; got '%s'" % (", ".join(ANALYSIS_TYPES), kind))
    analysis = {"type": kind}
    if kind == "load_factor" and max_factor is not None:
        analysis["max_factor"] = number(max_factor, "Max factor", None, positive=True)
    field = thrust_request(chain, conventional)
    if field:
        analysis["thrust_line"] = field
    model = model_document(blocks, materials, loads)
    request = signature({"model": model, "analysis": analysis})
    state = context.state
    live = True if live is None else bool(live)
    client = client_of(service)
    if (live or run) and state.get("request") != request:
        _cancel_running(client, state)
        state["job"] = None
        state["result"] = _analysis_now_or_job(client, state, model, analysis)
        state["request"] = request
    if state.get("job"):
        state["result"] = _finished_job_result(context, client, state)
        if state["result"] is None:
            return None, None, None, None, None
    result = state.get("result")
    if result is None:
        context.message("paused")
        context.remark("Live is off: press Run to analyse")
        return None, None, None, None, None
    if state.get("request") != request:
        context.warn("the inputs changed since this result: press Run (or turn Live on) to analyse again")
    data = result.data
    solver = data.get("solver") or {}
    for warning in data.get("warnings") or []:
        context.warn(warning["message"])
    context.message(_verdict(data))
    return result, data.get("stable"), data.get("load_factor"), solver.get("residual"), solver.get("converged")


def _analysis_now_or_job(client, state, model, analysis):
    """The Result of an analysis answered at once; None after submitting it as a job (kept in ``state``) when
    the service found it too long to answer at once."""
    try:
        return Result(client.analyze(model, analysis), model, analysis)
    except ExtradosError as error:
        if error.code != "compute_time_limit":
            raise
    state.update({"job": client.submit(model, analysis).id, "model": model, "analysis": analysis})
    return None


def _finished_job_result(context, client, state):
    """Poll the job of ``state`` once: its Result when done (the job forgotten), else None with its state and
    progress as the message and a solution asked for later."""
    job = Job(client, state["job"])
    info = job.poll()
    if not job.done:
        context.message("%s %d %%" % (info["state"], round(100.0 * job.progress)))
        context.solve_again_later()
        return None
    state["job"] = None
    if info["state"] != "done":
        state["request"] = None  # Run (or the next change with Live on) starts it again
        raise JobFailed.from_envelope(job.error or {"message": "the job was %s" % info["state"]}, job=info)
    return Result(job.result(), state["model"], state["analysis"])


def _verdict(data):
    if data.get("load_factor") is not None:
        return "load factor %.3g" % data["load_factor"]
    return "stable" if data.get("stable") else "unstable"


@outputs("Result", "State", "Progress", "Frames", "Times")
def simulate(context, blocks, materials, loads, motion, duration, time_step, output_interval, run, cancel,
             service, restitution=None):
    """Simulate: a dynamic run as a job of the service; Run starts it, Cancel stops it. Restitution, when given,
    is the energy ratio r a rocking impact keeps (seed 003 eq. 2; analysis.rocking_restitution)."""
    analysis = {"type": "dynamic", "duration": number(duration, "Duration", 2.0, positive=True)}
    if restitution is not None:
        r = number(restitution, "Restitution", None, minimum=0.0)
        if r > 1.0:
            raise ValueError("Restitution is the fraction of kinetic energy a rocking impact keeps: at most 1; got %g"
                             % r)
        analysis["rocking_restitution"] = r
    if time_step is not None:
        analysis["time_step"] = number(time_step, "Time step", None, positive=True)
    if output_interval is not None:
        analysis["output_interval"] = number(output_interval, "Output interval", None, positive=True)
    return _run_as_job(context, model_document(blocks, materials, loads, motion), analysis, run, cancel, service,
                       "simulation")


def stage_list(stages):
    """The construction stages of a Stages input: "courses" when unconnected, "courses" or "all" as one item,
    else one stage per item, its block ids separated by commas."""
    items = [str(s).strip() for s in present(stages)]
    if not items:
        return "courses"
    if len(items) == 1 and items[0] in ("courses", "all"):
        return items[0]
    built = [[i.strip() for i in item.split(",") if i.strip()] for item in items]
    for k, stage in enumerate(built):
        if not stage:
            raise ValueError("Stages[%d] names no block (give block ids separated by commas)" % k)
    return built


@outputs("Result", "State", "Progress", "Stable", "Stages", "Reactions")
def construct(context, blocks, materials, loads, stages, time_step, run, cancel, service):
    """Construct: the blocks built stage by stage (seed 001 sec. 4.3.1), each stage run until it settles, as a
    job of the service; Run starts it, Cancel stops it. Stages: course by course by default."""
    analysis = {"type": "construction", "stages": stage_list(stages)}
    if time_step is not None:
        analysis["time_step"] = number(time_step, "Time step", None, positive=True)
    result, state, progress, _, _ = _run_as_job(context, model_document(blocks, materials, loads), analysis, run,
                                                cancel, service, "construction")
    if result is None:
        return None, state, progress, None, [], []
    built = (result.data.get("construction") or {}).get("stages", [])
    geometry = context.geometry
    return (result, state, progress, result.data.get("stable"), [",".join(stage["blocks"]) for stage in built],
            [geometry.Vector3d(*[float(c) for c in stage["support_reaction"]]) for stage in built])


#: The table columns a Batch asks for when Outputs is left unconnected.
BATCH_OUTPUTS = ["stable", "load_factor", "solver_converged"]


def vary_dimension(text, k):
    """One dimension of a Batch's Vary: a JSON object (the batch schema's dimension), or
    ``POINTER START STOP COUNT`` for an even grid of the model field at POINTER (e.g. ``/joints/dry/friction``)."""
    text = str(text).strip()
    if text.startswith("{"):
        try:
            return json.loads(text)
        except ValueError as error:
            raise ValueError("Vary[%d] is not JSON: %s" % (k, error))
    parts = text.split()
    if len(parts) != 4 or not parts[0].startswith("/"):
        raise ValueError("Vary[%d] must be POINTER START STOP COUNT (e.g. /joints/dry/friction 0.4 0.8 5) or a "
                         "JSON object; got %r" % (k, text))
    try:
        start, stop, count = float(parts[1]), float(parts[2]), int(parts[3])
    except ValueError:
        raise ValueError("Vary[%d]: START and STOP must be numbers and COUNT an integer; got %r" % (k, text))
    return {"pointer": parts[0], "grid": {"start": start, "stop": stop, "count": count}}


@outputs("State", "Progress", "Cases", "Columns", "Rows", "Table")
def batch(context, blocks, materials, loads, analysis_type, vary, names, run, cancel, service):
    """Batch: one static or load factor analysis per combination of the varied model fields, as a batch job of the
    service; Run starts it, Cancel stops it. Rows: one JSON text per finished case; Table: the CSV text."""
    kind = str(analysis_type or "static")
    if kind not in ("static", "load_factor"):
        raise ValueError("Type must be static or load_factor (dynamic batches: the batch spec, extrados batch); got %r"
                         % kind)
    dimensions = [vary_dimension(text, k) for k, text in enumerate(present(vary))]
    if not dimensions:
        raise ValueError("connect Vary: at least one varied field, e.g. /joints/dry/friction 0.4 0.8 5")
    names = [str(c) for c in present(names)] or BATCH_OUTPUTS
    spec = {"model": model_document(blocks, materials, loads), "analysis": {"type": kind}, "vary": dimensions,
            "outputs": {"names": names}}
    request = signature(spec)
    client = client_of(service)
    state = context.state
    if run and state.get("request") != request:
        _cancel_running(client, state)
        state.clear()
        state.update({"request": request, "job": client.submit_batch(spec).id})
    if not state.get("job"):
        context.message("idle")
        context.remark("press Run to start the batch")
        return None, None, None, None, None, None
    if cancel:
        _cancel_running(client, state)
    if state.get("request") != request:
        context.warn("the inputs changed since this batch: press Run to run it again")
    return _batch_outputs(context, client, state)


def _batch_outputs(context, client, state):
    """Poll the batch once; its table so far (rows and CSV) once it has ended, or while it runs."""
    job = Job(client, state["job"])
    info = job.poll()
    if info["state"] == "failed":
        state["job"] = state["request"] = None
        raise JobFailed.from_envelope(job.error or {"message": "no reason given"}, job=info)
    table = client.batch_table(state["job"])
    rows = table.get("rows") or []
    columns = sorted(set(key for row in rows for key in row))
    lines = [",".join(columns)] + [",".join(_csv_cell(row.get(c)) for c in columns) for row in rows]
    if not job.done:
        context.solve_again_later()
    else:
        state["result"] = True     # nothing to cancel any more
    context.message("%s %d of %s" % (info["state"], len(rows), table.get("cases")))
    return (info["state"], info.get("progress"), table.get("cases"), columns,
            [json.dumps(row, sort_keys=True) for row in rows], "\n".join(lines) + "\n")


def _csv_cell(value):
    if value is None:
        return ""
    text = json.dumps(value) if isinstance(value, (dict, list, bool)) else str(value)
    return '"%s"' % text.replace('"', '""') if any(c in text for c in ',"\n') else text


def _run_as_job(context, model, analysis, run, cancel, service, what):
    """Result, State, Progress, Frames, Times of a run the service does as a job: Run submits it (cancelling
    this component's earlier one), Cancel stops it, and the canvas polls it without blocking."""
    request = signature({"model": model, "analysis": analysis})
    client = client_of(service)
    state = context.state
    if run and state.get("request") != request:
        _cancel_running(client, state)
        job = client.submit(model, analysis)
        state.clear()
        state.update({"request": request, "job": job.id, "model": model, "analysis": analysis})
    if not state.get("job"):
        if state.get("final"):
            context.message(state["final"])
            return None, state["final"], None, 0, []
        context.message("idle")
        context.remark("press Run to start the %s" % what)
        return None, None, None, None, None
    if cancel:
        _cancel_running(client, state)
    if state.get("request") != request:
        context.warn("the inputs changed since this %s: press Run to run it again" % what)
    return _job_outputs(context, client, state)


def _cancel_running(client, state):
    """Cancel this component's job unless it has finished (the service answers 409 if it just did)."""
    if state.get("job") and state.get("result") is None:
        try:
            Job(client, state["job"]).cancel()
        except ExtradosError as error:
            if error.status != 409:
                raise


def _job_outputs(context, client, state):
    """Poll the job once and give the outputs; ask to be solved again while it runs."""
    if state.get("result") is None:
        job = Job(client, state["job"])
        info = job.poll()
        if not job.done:
            context.message("%s %d %%" % (info["state"], round(100.0 * (info.get("progress") or 0.0))))
            context.solve_again_later()
            return None, info["state"], info.get("progress"), None, None
        if info["state"] == "failed":
            state["job"] = state["request"] = None
            raise JobFailed.from_envelope(job.error or {"message": "no reason given"}, job=info)
        state["final"] = info["state"]
        try:
            state["result"] = Result(job.result(), state["model"], state["analysis"])
        except ExtradosError as error:
            if error.code != "no_result":  # a job cancelled before its first frame has none
                raise
            state["job"] = state["request"] = None   # Run starts it again, even with the same inputs
            context.message(info["state"])
            return None, info["state"], None, 0, []
    result = state["result"]
    frames = result.data.get("frames") or []
    context.message("%s, %d frames" % (state["final"], len(frames)))
    return result, state["final"], 1.0 if state["final"] == "done" else None, len(frames), [f["t"] for f in frames]
