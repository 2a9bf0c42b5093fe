"""The `extrados` command: analyze a model file, import a CAD or mesh file or a survey of stones as a model,
export a result for ParaView or glTF, run a batch and report on its table, print example models.

Exit codes: 0 success, 2 bad input (message on stderr), 1 structure or solver trouble never;
a structure that does not stand is a result, not an error. The options and their help are
`extrados.cli_parser`'s.
"""
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path

from extrados import cli_parser
from extrados.engine.errors import ModelError


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
    if doc["analysis"] == "load_factor":
        report = doc["load_factor_report"]
        factors = {key: "none" if report[key] is None else f"{report[key]:.4g}" for key in ("nscd", "limit_analysis")}
        lines.append(f"load factor: {report['status']}, NSCD {factors['nscd']}, limit analysis (LP) "
                     f"{factors['limit_analysis']}, {report['solves']} static solves")
    if "overlap_repair" in doc:
        lines.append(_overlap_line(doc["overlap_repair"]))
    lines.extend(f"WARNING: {warning['message']}" for warning in doc.get("warnings", []))
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
    options = {key: value for key, value in (("outline", args.outline), ("joint_gaps", args.joint_gaps),
                                             ("gap_tolerance", args.gap_tolerance)) if value is not None}
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
    parser = cli_parser.parser()
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
