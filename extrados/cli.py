"""The `extrados` command: analyze a model file, import a CAD or mesh file or a survey of stones as a model,
export a result for ParaView or glTF, run a batch and report on its table, print example models.

Exit codes: 0 success, 2 bad input (message on stderr), 1 structure or solver trouble never;
a structure that does not stand is a result, not an error.
"""
import argparse
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path

from extrados.engine.errors import ModelError
from extrados.engine.generators import DEFAULT_MAX_BLOCKS
from extrados.engine.io.schema import request_default


def _parser():
    parser = argparse.ArgumentParser(prog="extrados", description="Masonry analysis with rigid blocks (NSCD).")
    sub = parser.add_subparsers(dest="command", required=True)
    analyze = sub.add_parser("analyze", help="analyse a model document (JSON)")
    analyze.add_argument("model", help="model JSON file, or - for standard input")
    analyze.add_argument("--analysis", default="static", choices=["static", "load_factor", "dynamic", "construction"])
    analyze.add_argument("--duration", type=float, help="dynamic: simulated time (s)")
    analyze.add_argument("--time-step", type=float, help=f"dynamic, construction: time step h (s), default "
                                                         f"{request_default('construction', 'time_step'):g}")
    analyze.add_argument("--output-interval", type=float, help="dynamic: time between frames (s)")
    analyze.add_argument("--max-steps", type=int, help="dynamic, construction: most time steps the run may take "
                                                       f"(default {request_default('dynamic', 'max_steps'):g})")
    analyze.add_argument("--max-factor", type=float, help="load_factor: largest factor of the live loads tried "
                                                          f"(default {request_default('load_factor', 'max_factor'):g})")
    analyze.add_argument("--stages", choices=["courses", "all"], help="construction: build course by course "
                                                                       "or all at once (default "
                                                                       f"{request_default('construction', 'stages')})")
    analyze.add_argument("--thrust-line-chain", help="block ids, comma separated, of the chain whose effective thrust "
                                                     "line the result carries (e.g. an arch ring inside a wall)")
    analyze.add_argument("--ground-record", help="dynamic: accelerogram text file, two columns (t, a) or four "
                                                 "(t, ax, ay, az), m/s^2, as text or CSV, or a PEER .AT2 file "
                                                 "(read in g, given in m/s^2); replaces the model's support_motion")
    analyze.add_argument("--ground-direction", default="1,0,0", help="direction of a two-column record (x,y,z)")
    analyze.add_argument("--ground-scale", type=float, default=1.0,
                         help="multiply the record by this (e.g. 9.81 for a record in g)")
    analyze.add_argument("--ground-baseline", choices=["end_at_rest", "none"], default="end_at_rest",
                         help="end_at_rest (default): remove the linear acceleration baseline that leaves the "
                              "ground moving or displaced after the record's last sample; none: the samples "
                              "as given (the ground keeps its final velocity)")
    analyze.add_argument("--frames", help="dynamic: where the result's frames go: json (in the document), npz (in "
                                          "the sidecar beside --out: result.npz for result.json) or none; "
                                          f"default {request_default('dynamic', 'frames')}")
    analyze.add_argument("--histories", help="dynamic: where its histories go, as --frames; default "
                                             f"{request_default('dynamic', 'histories')}")
    analyze.add_argument("--integrator", choices=["nscd", "hht"],
                         help="dynamic: nscd (non-smooth contact dynamics, the default) or hht (HHT-alpha on "
                              "compliant Winkler joints: every joint needs a normal_stiffness; seed 003)")
    analyze.add_argument("--restitution", type=float, dest="rocking_restitution",
                         help="dynamic: Housner's coefficient of restitution r, the ratio of kinetic energies after "
                              "and before a rocking impact (the request's rocking_restitution); with --integrator "
                              "hht it picks the time step by the time-step law (give no --time-step)")
    analyze.add_argument("--quiet", action="store_true", help="no progress bars")
    analyze.add_argument("--out", help="write the result document here (default: standard output)")
    analyze.add_argument("--png", help="write a picture of the answer: blocks, contact forces and joint resultants; "
                                       "a dynamic run's final frame over the blocks at rest; a load factor's "
                                       "collapse mechanism, hinges and loads")
    analyze.add_argument("--frame", type=int, help="dynamic, with --png: the output frame drawn (0 the first, "
                                                   "-1 the last, the default)")
    export = sub.add_parser("export", help="write a result as VTK files for ParaView, or its blocks as a glTF (.glb)",
                            description="Write a result document as VTK files (a .vtu of the blocks and one of the "
                                        "contact forces per frame, and a .pvd time series to open in ParaView) or "
                                        "its blocks, posed, as a binary glTF for the web and Rhino.")
    export.add_argument("result", help="result JSON file (extrados analyze --out)")
    export.add_argument("--model", required=True, help="the model JSON file the result is of")
    export.add_argument("--format", required=True, choices=["vtk", "gltf"])
    export.add_argument("--out", required=True, help="vtk: the folder of the files (created); gltf: the .glb file")
    export.add_argument("--frame", type=int, help="gltf of a dynamic result: the output frame posed (0 the first, "
                                                  "-1 the last, the default); vtk writes every frame")
    export.add_argument("--colour-by", help="gltf: colour the blocks by a stress of the result's blocks (p or q) "
                                              "or by an entity level they have (wall, course, type, ...)")
    example = sub.add_parser("example", help="print a generated example model", add_help=False,
                             description="Print a generated model; generator parameters as --name value "
                                         "(extrados example NAME --help lists them).")
    example.add_argument("name", nargs="?", help="generator name; omit to list them")
    example.add_argument("-h", "--help", action="store_true", help="this help, or with NAME the generator's parameters")
    example.add_argument("--max-blocks", type=int, default=DEFAULT_MAX_BLOCKS,
                         help=f"refuse parameters that give more blocks than this (default {DEFAULT_MAX_BLOCKS}, "
                              f"as the service's --max-blocks)")
    example.set_defaults(usage=example.format_help)
    batch = sub.add_parser("batch", help="run a batch spec (JSON) of cases on Dask into a results table",
                           description="Run the cases of a batch spec (extrados/batch/batch_schema.json) on an "
                                       "embedded Dask cluster or an existing one. Rerunning resumes: cases done "
                                       "are skipped, and so are cases that failed with their own error (a model "
                                       "or solver error is deterministic) unless --retry-failed; cases whose task "
                                       "did not run (KilledWorker: Dask gave up as its workers died; cancelled) "
                                       "run again on every rerun. See docs/batches.md.")
    batch.add_argument("spec", help="batch spec JSON file")
    batch.add_argument("--out", required=True, help="folder of the results table (cases.parquet, .csv, .json)")
    batch.add_argument("--scheduler", help="address of an existing Dask scheduler, e.g. tcp://host:8786")
    batch.add_argument("--workers", type=int, help="worker processes of the embedded cluster (default: one per core)")
    batch.add_argument("--retry-failed", action="store_true",
                       help="compute again the cases that failed with their own error in an earlier run")
    batch.add_argument("--quiet", action="store_true", help="no progress bar")
    report = sub.add_parser("report", help="statistics and fragility of a batch's results table",
                            description="Fit a lognormal fragility (MLE, bootstrap intervals) to the collapse flag "
                                        "per intensity level, and the empirical CDF and statistics of a response, "
                                        "over a finished or partial batch folder; writes DIR/report.json and "
                                        "figures. Failed cases are left out and counted.")
    report.add_argument("dir", help="the batch folder (extrados batch --out DIR)")
    report.add_argument("--intensity", help="intensity column (default: target_pga, else scale_factor)")
    report.add_argument("--collapse", help="true/false collapse column (default: collapse)")
    report.add_argument("--response", help="response column of the CDF (default: the first theta_max_over_alpha[...], "
                                           "max_rotation[...] or max_displacement[...])")
    report.add_argument("--by", help="column the response statistics are grouped by (default: the intensity)")
    report.add_argument("--png", help="prefix of the figures: PREFIX_fragility.png, PREFIX_cdf.png "
                                      "(default: DIR/report)")
    imports = sub.add_parser("import", help="a model document from a CAD or mesh file, each closed body a block",
                             description="Read OBJ, STL, PLY, glTF/GLB or Rhino .3dm: each closed convex body "
                                         "becomes a block named by its object (or node) name, its layer and "
                                         "user strings its entity; prints what was done per block.")
    imports.add_argument("file", help="the CAD or mesh file")
    imports.add_argument("--out", required=True, help="the model document (JSON) to write")
    imports.add_argument("--hull", action="store_true",
                         help="replace a non-convex body by its convex hull (reported) instead of refusing it")
    imports.add_argument("--units", help="the file's length unit: m, cm, mm, in or ft (default: m; a .3dm file's "
                                         "own unit)")
    imports.add_argument("--scale", type=float, help="metres per file unit, instead of --units")
    imports.add_argument("--up", choices=["z", "y"], help="the file's up axis (default z; y for glTF/GLB, as its "
                                                         "specification says)")
    imports.add_argument("--support-name", action="append", dest="support_names", metavar="NAME",
                         help="a body whose name or layer is NAME (any case) is a support; repeat for several "
                              "(default: support, supports, ground)")
    imports.add_argument("--max-blocks", type=int, default=DEFAULT_MAX_BLOCKS,
                         help=f"refuse a file of more bodies than this (default {DEFAULT_MAX_BLOCKS})")
    survey = sub.add_parser("survey", help="a model document from a survey of stones' faces (seed 002)",
                            description="Fit a plane to each stone's measured face, outline and extrude it into "
                                        "the wall by its depth, trim overlapping neighbours; prints per stone the "
                                        "plane residuals, depth, outline deviation and trimmed volume.")
    survey.add_argument("points", help="the survey: CSV or JSON rows stone, x, y, z (corner), or a labelled PLY, "
                                       "LAS or LAZ point cloud")
    survey.add_argument("--stones", required=True, help="the stone table (CSV or JSON): types, entities, depths")
    survey.add_argument("--depths", required=True, help="the depth of each stone type, m (JSON object)")
    survey.add_argument("--out", required=True, help="the model document (JSON) to write")
    survey.add_argument("--viewpoint", type=float, nargs=3, metavar=("X", "Y", "Z"),
                        help="where the faces were seen from, m (stones without a station in the table)")
    survey.add_argument("--outline",
                        help="a face's outline: hull (its convex hull, the default), or quad (the blocky "
                             "simplification: each stone a hexahedron)")
    survey.add_argument("--report", help="write the per-stone report here (strict JSON)")
    sub.add_parser("serve", add_help=False, help="run the HTTP service and viewer (extrados serve --help)")
    return parser


def _event(name, time):
    """'collapse at 2.252 s' or 'no collapse': a time (s) to six significant digits, free of float noise."""
    return f"no {name}" if time is None else f"{name} at {time:.6g} s"


def _overlap_line(repair):
    """What settings.overlap did (engine.analysis.overlap): pairs, the deepest overlap, and the most cut block."""
    line = (f"overlaps ({repair['mode']}): {len(repair['pairs'])} pairs of blocks overlapped as drawn, "
            f"the deepest by {repair['max_overlap']:.4g} m")
    if repair["mode"] == "accept" or not repair["blocks"]:
        return line + ("; kept as initial penetrations" if repair["blocks"] else "")
    most = max(repair["blocks"], key=lambda row: row["volume_fraction"])
    return (line + f"; {len(repair['blocks'])} blocks cut, at most {most['cut']:.4g} m and "
            f"{100 * most['volume_fraction']:.2g} % of its volume ({most['id']})")


def _summary(doc):
    """A few lines about a result document, for the terminal."""
    solver = doc["solver"]
    verdict = f" (decided by {doc['verdict_by']})" if "verdict_by" in doc else ""
    lines = [f"analysis: {doc['analysis']}   stable: {'yes' if doc['stable'] else 'NO'}{verdict}",
             f"solver: {solver['name']}, {solver['iterations']} iterations, residual {solver['residual']:.2e}, "
             f"converged: {solver['converged']}, {solver['seconds']:.3f} s",
             f"blocks: {len(doc['blocks'])}, contacts: {len(doc['contacts'])}, joints: {len(doc['interfaces'])}"]
    if doc["analysis"] == "dynamic":
        events = doc["events"]
        lines.append(f"simulated {doc['steps'] * doc['time_step']:.3f} s in {doc['steps']} steps; "
                     f"{_event('first sliding', events['first_sliding'])}, "
                     f"{_event('first uplift', events['first_uplift'])}, {_event('collapse', events['collapse'])}"
                     + (f" ({events['collapse_reason']})" if events["collapse_reason"] else ""))
        steps = doc["solver_steps"]
        if steps["unconverged_steps"]:
            lines.append(f"WARNING: the solver did not converge in {steps['unconverged_steps']} of {steps['steps']} "
                         f"steps (first at t = {steps['first_unconverged_t']:.4g} s, worst residual "
                         f"{steps['worst_residual']:.2e}); raise settings.max_iterations or shorten the time step")
    if doc["analysis"] == "load_factor":
        report = doc["load_factor_report"]
        factors = {key: "none" if report[key] is None else f"{report[key]:.4g}" for key in ("nscd", "limit_analysis")}
        lines.append(f"load factor: {report['status']}, NSCD {factors['nscd']}, limit analysis (LP) "
                     f"{factors['limit_analysis']}, {report['solves']} static solves")
    if "overlap_repair" in doc:
        lines.append(_overlap_line(doc["overlap_repair"]))
    if doc["interfaces"]:
        worst = max(doc["interfaces"], key=lambda j: j["normal_force"])
        lines.append(f"largest joint force: {worst['normal_force']:.1f} N between {worst['blocks'][0]} and "
                     f"{worst['blocks'][1]}")
    return "\n".join(lines)


def _read_model(path):
    from extrados.engine.model import Model

    if path == "-":
        return Model.from_json(sys.stdin.read())
    return Model.from_json(path)


#: Request fields whose CLI flag has another name.
FLAGS = {"rocking_restitution": "restitution"}


def _analysis_request(args):
    request = {"type": args.analysis}
    for option, kinds in (("duration", ("dynamic",)), ("time_step", ("dynamic", "construction")),
                          ("output_interval", ("dynamic",)), ("stages", ("construction",)), ("frames", ("dynamic",)),
                          ("histories", ("dynamic",)), ("max_steps", ("dynamic", "construction")),
                          ("integrator", ("dynamic",)), ("rocking_restitution", ("dynamic",))):
        value = getattr(args, option)
        if value is not None:
            if args.analysis not in kinds:
                flag = FLAGS.get(option, option).replace('_', '-')
                raise ModelError(f"--{flag} applies to a {' or '.join(kinds)} analysis only")
            request[option] = value
    if args.thrust_line_chain is not None:
        request["thrust_line"] = {"chain": [name.strip() for name in args.thrust_line_chain.split(",") if name.strip()]}
    if args.max_factor is not None:
        if args.analysis != "load_factor":
            raise ModelError("--max-factor applies to a load_factor analysis only")
        request["max_factor"] = args.max_factor
    return request


def read_record(path, direction, scale):
    """A `record` support motion from an accelerogram file (engine.ground_motion.read_record_file):
    columns t, a along ``direction`` or t, ax, ay, az (m/s^2), or a PEER `.AT2` file, times ``scale``."""
    import numpy as np

    from extrados.engine.ground_motion import read_record_file

    dt, accelerations = read_record_file(path, field="--ground-record", components=(1, 3))
    if accelerations.ndim == 1:
        try:
            axis = np.array([float(v) for v in direction.split(",")])
        except ValueError:
            raise ModelError(f"--ground-direction {direction!r} is not three numbers x,y,z") from None
        if axis.shape != (3,) or not np.linalg.norm(axis) > 0:
            raise ModelError(f"--ground-direction {direction!r} is not a nonzero x,y,z vector")
        accelerations = np.outer(accelerations, axis / np.linalg.norm(axis))
    return {"kind": "record", "dt": dt, "accelerations": (scale * accelerations).tolist()}


def _check_output_path(option, path):
    """Raise ModelError, naming the option, unless a file can be written at path.

    Checked before an analysis runs, so that a typing error in a folder name does not lose its result.
    """
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise ModelError(f"{path} is a folder; give a file name", path=option)
    if not folder.is_dir():
        raise ModelError(f"folder {str(folder)!r} does not exist; create it first", path=option)
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise ModelError(f"cannot write {path} (no permission)", path=option)


#: The progress bar's label of each analysis type.
ANALYSIS_BARS = {"static": "static analysis", "load_factor": "load factor search", "dynamic": "simulating",
                 "construction": "building"}


@contextmanager
def _progress_bar(label, quiet):
    """A ``progress(fraction)`` that moves a percent bar on standard error (tqdm), closed at the end;
    None when quiet."""
    if quiet:
        yield None
        return
    from tqdm import tqdm

    with tqdm(total=100, unit="%", desc=label, file=sys.stderr, leave=False) as bar:
        yield lambda fraction: bar.update(round(100 * fraction) - bar.n)


def _compile_kernels(quiet):
    """Compile the engine's kernels missing from the cache before the analysis, saying so on standard error."""
    from extrados.engine.analysis.warm_up import compile_kernels, kernels_to_compile

    if not kernels_to_compile():
        return
    print("compiling numerical kernels (first run only)…", file=sys.stderr, flush=True)
    with _progress_bar("kernels compiled", quiet) as progress:
        compile_kernels(progress)


def _run_analyze(args):
    from extrados.engine.analysis import analyze
    from extrados.engine.io import sidecar, strict_json
    from extrados.engine.model import Model

    for option, path in (("--out", args.out), ("--png", args.png)):
        if path:
            _check_output_path(option, path)
    model = _read_model(args.model)
    request = _analysis_request(args)
    if args.frame is not None and (args.analysis != "dynamic" or not args.png):
        raise ModelError("applies to a dynamic analysis with --png only", path="--frame")
    if "npz" in (args.frames, args.histories) and not args.out:
        raise ModelError("needed: an npz sidecar (--frames or --histories npz) is written beside the result "
                         "document", path="--out")
    if args.ground_record:
        if args.analysis != "dynamic":
            raise ModelError("--ground-record applies to a dynamic analysis only")
        doc = model.to_dict()
        doc["support_motion"] = {**read_record(args.ground_record, args.ground_direction, args.ground_scale),
                                 "baseline": args.ground_baseline}
        model = Model.from_dict(doc)
    _compile_kernels(args.quiet)
    with _progress_bar(ANALYSIS_BARS[args.analysis], args.quiet) as progress:
        result = analyze(model, request, progress=progress)
    doc = result.to_dict()
    try:
        text = strict_json.dumps(doc)
    except (strict_json.NonFiniteNumber, strict_json.UnwritableValue) as exc:
        raise ModelError(f"the result cannot be written as JSON: {exc}") from exc
    if args.out:
        with open(args.out, "wb") as handle:
            handle.write(text)
        print(_summary(doc))
        print(f"result written to {args.out}")
        if sidecar.wants_sidecar(result):
            sidecar.write_sidecar(result, sidecar.sidecar_path(args.out))
            print(f"frames and histories asked as npz written to {sidecar.sidecar_path(args.out)}")
    else:
        print(text.decode())
        print(_summary(doc), file=sys.stderr)
    if args.png:
        from extrados.engine.post.plot import plot_result

        plot_result(model, result, args.png, frame=args.frame)
        print(f"picture written to {args.png}", file=sys.stderr if not args.out else sys.stdout)


def _run_export(args):
    from extrados.engine.exchange.gltf_export import write_gltf
    from extrados.engine.exchange.result_file import read_result_file
    from extrados.engine.exchange.vtk_export import write_vtk

    if args.format == "vtk":
        for option, value in (("--frame", args.frame), ("--colour-by", args.colour_by)):
            if value is not None:
                raise ModelError("applies to --format gltf only: vtk writes every frame with every field", path=option)
    else:
        _check_output_path("--out", args.out)
    result = read_result_file(args.result)
    model = _read_model(args.model)
    if args.format == "vtk":
        collection = write_vtk(model, result, args.out)
        print(f"{len(result.blocks.ids)} blocks written to {args.out}; open {collection} in ParaView")
    else:
        write_gltf(model, args.out, result, frame=args.frame, colour_by=args.colour_by)
        print(f"{len(result.blocks.ids)} blocks written to {args.out}")


def _run_batch(args):
    from extrados.batch import run

    if args.workers is not None and args.workers < 1:
        raise ModelError(f"{args.workers} workers; give at least 1", path="--workers")
    summary = run(args.spec, args.out, scheduler=args.scheduler, workers=args.workers, progress=not args.quiet,
                  retry_failed=args.retry_failed)
    print(f"{summary.cases} cases: {summary.done} done, {summary.failed} failed, {summary.skipped} finished before; "
          f"table in {Path(args.out) / 'cases.parquet'}")


def _run_report(args):
    from extrados.batch import report

    if Path(args.dir).is_dir():  # a missing folder is told as one without a table
        _check_output_path("dir", Path(args.dir) / "report.json")
    if args.png:
        _check_output_path("--png", f"{args.png}_fragility.png")
    result, written = report(args.dir, intensity=args.intensity, response=args.response, collapse=args.collapse,
                             by=args.by, png=args.png)
    print(f"{result.cases} cases, {len(result.failed)} failed (left out)")
    if result.fit is not None:
        median, dispersion = result.bootstrap.median_interval, result.bootstrap.dispersion_interval
        print(f"fragility over {result.columns.intensity}: median {result.fit.median:.4g} "
              f"[{median[0]:.4g}, {median[1]:.4g}], dispersion {result.fit.dispersion:.3g} "
              f"[{dispersion[0]:.3g}, {dispersion[1]:.3g}] ({result.bootstrap.confidence:.0%} bootstrap)")
    elif result.fit_error is not None:
        print(f"no fragility fit: {result.fit_error}")
    print("written: " + ", ".join(str(path) for path in written))


def _run_import(args):
    from extrados.engine.io.cad import SUPPORT_NAMES
    from extrados.engine.model import Model

    _check_output_path("--out", args.out)
    model = Model.from_file(args.file, hull=args.hull, units=args.units, scale=args.scale, up=args.up,
                            support_names=args.support_names or SUPPORT_NAMES, max_blocks=args.max_blocks)
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump(model.to_dict(), handle)
    for entry in model.import_report:
        print(f"{entry.id}: {entry.volume:.6g} m^3" + "".join(f"; {change}" for change in entry.changes))
    supports = sum(bool(block.get("support")) for block in model.to_dict()["blocks"])
    print(f"{len(model.import_report)} blocks ({supports} supports) written to {args.out}")


def _read_depths(path):
    """The depth table of a JSON file: {stone type: depth in m}; ModelError naming the file when it is not one."""
    try:
        depths = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(f"cannot read the depth table: {exc}", path=Path(path).name) from None
    if not isinstance(depths, dict):
        raise ModelError("the depth table must be a JSON object {stone type: depth in m}", path=Path(path).name)
    return depths


def _report_value(value, form):
    """``value`` formatted by ``form`` (e.g. "7.2f"), or a dash as wide when the report gives none."""
    return "-".rjust(int(form.split(".")[0])) if value is None else format(value, form)


def _run_survey(args):
    from extrados.engine.io.strict_json import dumps as strict_dumps
    from extrados.engine.survey import read_stone_table, read_survey, survey_to_model

    _check_output_path("--out", args.out)
    if args.report:
        _check_output_path("--report", args.report)
    options = {} if args.outline is None else {"outline": args.outline}
    document, report = survey_to_model(read_survey(args.points), read_stone_table(args.stones),
                                       _read_depths(args.depths), viewpoint=args.viewpoint, **options)
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump(document, handle)
    print(f"{'stone':>16} {'RMS mm':>7} {'max mm':>7} {'depth m':>7} {'dev mm':>7} {'trimmed m3':>10}")
    for stone in report.stones:
        deviation = stone.outline_deviation_m if stone.quad_deviation_m is None else stone.quad_deviation_m
        millimetres = [None if value is None else 1e3 * value for value in (stone.plane_rms_m, stone.plane_max_m,
                                                                             deviation)]
        print(f"{stone.stone:>16} {_report_value(millimetres[0], '7.2f')} {_report_value(millimetres[1], '7.2f')} "
              f"{_report_value(stone.depth_m, '7.3f')} {_report_value(millimetres[2], '7.2f')} "
              f"{stone.trimmed_m3:10.3g}")
    if args.report:
        Path(args.report).write_bytes(strict_dumps(report.to_dict()))
    print(f"{len(report.stones)} stones, {len(report.overlaps)} overlaps trimmed, written to {args.out}")


def _parse_params(extra, generator):
    params = {}
    it = iter(extra)
    for token in it:
        if not token.startswith("--"):
            raise ModelError(f"unexpected argument {token!r}; give parameters as --name value")
        name = token[2:].replace("-", "_")
        if "=" in name:
            name, value = name.split("=", 1)
        else:
            try:
                value = next(it)
            except StopIteration:
                raise ModelError(f"parameter --{name} needs a value") from None
        params[name] = value
    return generator.convert(params)


def _run_example(args, extra):
    from extrados.engine.generators import GENERATORS, TooManyBlocks, block_budget

    if not args.name:
        if args.help:
            print(args.usage(), end="\n\n")
        for name, gen in GENERATORS.items():
            print(f"{name}: {gen.help}")
        return
    if args.name not in GENERATORS:
        raise ModelError(f"unknown example {args.name!r} (available: {', '.join(GENERATORS)})", path="name")
    generator = GENERATORS[args.name]
    if args.help:
        print(generator.usage())
        return
    try:
        params = _parse_params(extra, generator)
        with block_budget(args.max_blocks):
            doc = generator.function(**params)
    except TooManyBlocks as exc:
        given = ", ".join(f"--{name.replace('_', '-')} {value}" for name, value in params.items())
        raise ModelError(f"{exc} ({given or 'the defaults'}); ask for fewer or raise --max-blocks",
                         path=args.name) from exc
    except ValueError as exc:
        raise ModelError(str(exc)) from exc
    print(json.dumps(doc, indent=1))


#: The commands that take no arguments beyond their own.
COMMANDS = {"analyze": _run_analyze, "import": _run_import, "survey": _run_survey, "export": _run_export,
            "batch": _run_batch, "report": _run_report}


def main(argv=None):
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    try:
        if args.command == "serve":
            from extrados.server.serve import main as serve

            return serve(extra)
        if args.command == "example":
            _run_example(args, extra)
        else:
            if extra:
                parser.error(f"unrecognized arguments: {' '.join(extra)}")
            COMMANDS[args.command](args)
    except ModelError as exc:
        print(f"extrados: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        _quiet_stdout()
    except KeyboardInterrupt:
        print(f"extrados: interrupted{_INTERRUPTED.get(args.command, '')}", file=sys.stderr)
        return 130
    return 0


#: What an interrupted command kept, after "extrados: interrupted".
_INTERRUPTED = {"batch": "; the finished cases are kept in the table: run the same command again to resume"}


def _quiet_stdout():
    """A reader that closed standard output early (``extrados example wall | head``) took what it
    wanted: point standard output at the null device so that flushing it at exit raises nothing."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
