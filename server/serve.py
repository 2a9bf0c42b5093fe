"""``extrados serve`` and ``python -m extrados.server``: run the service under waitress.

waitress is a pure-Python WSGI server, so the same command works on Windows and macOS, where
Rhino runs. The service binds 127.0.0.1 unless told otherwise, and refuses another address
without a token.
"""
import argparse
import gc
import logging
import os
import signal
import sys

from extrados.engine.io.model_document import MAX_FACE_CORNERS, MAX_FACES
from extrados.server.config import DEFAULT_PORT, MIB, TOKEN_VARIABLE, Config


def parser():
    defaults = Config()
    p = argparse.ArgumentParser(prog="extrados serve", description="Run the Extrados HTTP service and viewer.")
    p.add_argument("--host", default=defaults.host, help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--data-dir", default=defaults.data_dir, help="jobs and results (default ~/.extrados)")
    p.add_argument("--token", default=os.environ.get(TOKEN_VARIABLE),
                   help=f"access token required on every request but /health (default: ${TOKEN_VARIABLE}); "
                        "needed to bind any address but loopback")
    p.add_argument("--cors-origin", action="append", default=[], dest="cors_origins",
                   help="allow browser pages from this origin, e.g. http://localhost:3000 (repeatable; default: "
                        "only the service's own pages)")
    p.add_argument("--allowed-host", action="append", default=[], dest="allowed_hosts",
                   help="a host name clients use to reach the service, besides loopback and the bound address "
                        "(repeatable; requests naming another host get 421)")
    p.add_argument("--max-body-mb", type=float, default=defaults.max_body_bytes / MIB, help="request body limit, MiB")
    p.add_argument("--max-blocks", type=int, default=defaults.max_blocks, help="largest model, in blocks")
    p.add_argument("--max-block-faces", type=int, default=defaults.max_block_faces,
                   help=f"largest block, in faces (at most {MAX_FACES})")
    p.add_argument("--max-face-corners", type=int, default=defaults.max_face_corners,
                   help=f"largest face of a block, in corners (at most {MAX_FACE_CORNERS})")
    p.add_argument("--max-steps", type=int, default=defaults.max_steps,
                   help="most time steps of a dynamic or construction run (duration / time_step)")
    p.add_argument("--compute-time-limit", type=float, default=defaults.compute_time_limit_s,
                   help="seconds the service may spend on a request: parsing and checking it, and a static or load "
                        "factor analysis")
    p.add_argument("--job-time-limit", type=float, default=defaults.job_time_limit_s,
                   help="seconds a job may compute")
    p.add_argument("--max-batch-cases", type=int, default=defaults.max_batch_cases,
                   help="most cases of one batch (POST /v1/batches)")
    p.add_argument("--max-batch-bytes", type=int, default=defaults.max_batch_bytes,
                   help="most bytes (as JSON) of the models and records of one batch's cases")
    p.add_argument("--batch-workers", type=int, default=defaults.batch_workers,
                   help="Dask worker processes of each batch job")
    p.add_argument("--max-queued-jobs", type=int, default=defaults.max_queued_jobs,
                   help="jobs queued or running at once")
    p.add_argument("--workers", type=int, default=defaults.workers, help="jobs computed at once (one process each)")
    p.add_argument("--threads", type=int, default=defaults.threads, help="request threads")
    p.add_argument("--max-connections", type=int, default=defaults.max_connections,
                   help="connections open at once")
    p.add_argument("--read-timeout", type=float, default=defaults.read_timeout_s,
                   help="seconds a request may take to arrive, and an idle connection is kept")
    p.add_argument("--result-max-age", type=float, default=defaults.result_max_age_s / 86400.0,
                   help="days a finished job's result is kept")
    p.add_argument("--result-max-mb", type=float, default=defaults.result_max_bytes / MIB,
                   help="total size of kept results, MiB (the oldest expire first)")
    p.add_argument("--no-warm-up", dest="warm_up", action="store_false",
                   help="do not compile the engine's kernels as the service starts (the first analysis then does)")
    p.add_argument("--example", help="print the viewer address that opens with this example analysed (e.g. arch)")
    return p


def config_from(args):
    return Config(host=args.host, port=args.port, data_dir=args.data_dir, token=args.token or None,
                  cors_origins=tuple(args.cors_origins), allowed_hosts=tuple(args.allowed_hosts),
                  max_body_bytes=int(args.max_body_mb * MIB),
                  max_blocks=args.max_blocks, max_block_faces=args.max_block_faces,
                  max_face_corners=args.max_face_corners, max_steps=args.max_steps,
                  compute_time_limit_s=args.compute_time_limit,
                  job_time_limit_s=args.job_time_limit, max_batch_cases=args.max_batch_cases,
                  max_batch_bytes=args.max_batch_bytes,
                  batch_workers=args.batch_workers, max_queued_jobs=args.max_queued_jobs, workers=args.workers,
                  threads=args.threads, max_connections=args.max_connections,
                  read_timeout_s=args.read_timeout, result_max_age_s=args.result_max_age * 86400.0,
                  result_max_bytes=int(args.result_max_mb * MIB), warm_up=args.warm_up)


def viewer_address(host, port, example=None):
    """The viewer's address; a token is not written into it (the line goes to logs): the page takes
    ``&token=…`` once, then keeps it in a cookie."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    query = [f"example={example}", "run=static"] if example else []
    return f"http://{shown}:{port}/" + ("?" + "&".join(query) if query else "")


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        config = config_from(args).checked()
    except ValueError as exc:
        print(f"extrados serve: error: {exc}", file=sys.stderr)
        return 2
    from extrados.server.app import create_app, stop_services
    from extrados.server.http_server import make_server
    from extrados.server.jobs.store import StoreError

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        app = create_app(config)
    except StoreError as exc:
        print(f"extrados serve: error: {exc}", file=sys.stderr)
        return 2
    try:
        server = make_server(app, config)
    except OSError as exc:
        stop_services(app)
        print(f"extrados serve: error: cannot listen on {config.host}:{config.port} ({exc.strerror or exc}); "
              "another program (another Extrados service?) may hold the port: choose another with --port, "
              "or --port 0 for any free one", file=sys.stderr)
        return 2
    # what is loaded by now (numpy, numba, the engine, the app) lives as long as the service: kept
    # out of the collector's full passes, they stop costing each request tens of milliseconds
    gc.freeze()
    port = server.effective_port
    print(f"Extrados service on http://{config.host}:{port} (data in {os.path.abspath(config.data_dir)})", flush=True)
    print(f"viewer: {viewer_address(config.host, port, args.example)}"
          + (" (open it once with token=YOUR_TOKEN in its query)" if config.token else ""), flush=True)
    # a stop by SIGTERM (a service manager, a test) runs the same clean-up as Ctrl-C
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        stop_services(app)
    return 0
