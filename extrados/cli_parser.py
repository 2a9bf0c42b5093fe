"""The `extrados` command line: its parser, one sub-command (and its options and help) per function.

`extrados.cli` runs the commands; the option defaults that a request's schema owns are read from it
(`request_default`), so that the help says what the analysis will do.
"""
import argparse

from extrados.engine.generators import DEFAULT_MAX_BLOCKS
from extrados.engine.io.schema import request_default


def add_analyze_parser(sub):
    """The `extrados analyze` options: the analysis, its request's fields, the ground record, where the result goes."""
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


def add_export_parser(sub):
    """The `extrados export` options: a result as VTK files or a glTF."""
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


def add_example_parser(sub):
    """The `extrados example` options: a generator's parameters follow as --name value (parsed by the command)."""
    example = sub.add_parser("example", help="print a generated example model", add_help=False,
                             description="Print a generated model; generator parameters as --name value "
                                         "(extrados example NAME --help lists them).")
    example.add_argument("name", nargs="?", help="generator name; omit to list them")
    example.add_argument("-h", "--help", action="store_true", help="this help, or with NAME the generator's parameters")
    example.add_argument("--max-blocks", type=int, default=DEFAULT_MAX_BLOCKS,
                         help=f"refuse parameters that give more blocks than this (default {DEFAULT_MAX_BLOCKS}, "
                              f"as the service's --max-blocks)")
    example.set_defaults(usage=example.format_help)


def add_batch_parser(sub):
    """The `extrados batch` options: a batch spec run on Dask into a results table."""
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


def add_report_parser(sub):
    """The `extrados report` options: the columns of a batch's table to fit and describe."""
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


def add_import_parser(sub):
    """The `extrados import` options: a CAD or mesh file's unit, up axis and supports."""
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


def add_survey_parser(sub):
    """The `extrados survey` options: the survey, its stone and depth tables, where the model goes."""
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
    survey.add_argument("--joint-gaps", choices=("close", "open"),
                        help="the model's settings.gaps: close (default) has static analyses take the gaps left "
                             "between neighbours as closed joints, open keeps them")
    survey.add_argument("--gap-tolerance", type=float, metavar="M",
                        help="the widest gap closed, m (default: the model's contact envelope)")
    survey.add_argument("--report", help="write the per-stone report here (strict JSON)")


def add_serve_parser(sub):
    """The `extrados serve` entry: its options are the service's own (extrados.server.serve)."""
    sub.add_parser("serve", add_help=False, help="run the HTTP service and viewer (extrados serve --help)")


#: The sub-commands, in the order the help lists them.
SUBCOMMANDS = (add_analyze_parser, add_export_parser, add_example_parser, add_batch_parser, add_report_parser,
               add_import_parser, add_survey_parser, add_serve_parser)


def parser():
    """The `extrados` argument parser: a sub-command each (`SUBCOMMANDS`), chosen as ``args.command``."""
    command_line = argparse.ArgumentParser(prog="extrados", description="Masonry analysis with rigid blocks (NSCD).")
    sub = command_line.add_subparsers(dest="command", required=True)
    for add_subcommand in SUBCOMMANDS:
        add_subcommand(sub)
    return command_line
