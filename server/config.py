"""The service's settings: where it listens, where it keeps jobs, and its limits.

Every limit is configurable (``extrados serve --help``) and each one, when reached, is answered
with a clear JSON error naming the limit and how to raise it.
"""
import ipaddress
import os
from dataclasses import dataclass, field, fields

from extrados.engine.generators import DEFAULT_MAX_BLOCKS
from extrados.engine.io.model_document import MAX_FACE_CORNERS, MAX_FACES
from extrados.engine.io.schema import request_default

#: Environment variable holding the access token (an alternative to ``--token``).
TOKEN_VARIABLE = "EXTRADOS_TOKEN"
DEFAULT_PORT = 8765
MAX_PORT = 65535
MIB = 1024 * 1024
#: Shortest token accepted for a bind beyond loopback. The token is then all that guards the port
#: from the network: 16 characters of a URL-safe alphabet (64 symbols, 96 bits) take ~10^21 years
#: to guess at 10^6 tries a second, while a word or a few characters fall in minutes.
MIN_TOKEN_LENGTH = 16


@dataclass(frozen=True)
class Config:
    """Settings of one service instance.

    Attributes
    ----------
    host, port : where waitress listens; 127.0.0.1 unless a token is given.
    data_dir : folder of the job table (SQLite) and the job request/result files.
    token : when set, every request but ``GET /health`` must carry it
        (``Authorization: Bearer TOKEN`` or ``?token=TOKEN``).
    cors_origins : origins allowed to call the API from a browser page; empty: CORS off.
    allowed_hosts : host names besides loopback and the bound address that requests may name in
        their ``Host`` header (the names clients and a reverse proxy use; `server.guards`).
    max_body_bytes : largest request body (413 beyond).
    max_blocks : largest model, in blocks (413 beyond).
    compute_time_limit_s : a request is stopped after this much parsing, checking and, for a synchronous
        analysis (static, load factor), analysing (422; `server.deadline`).
    max_block_faces, max_face_corners : largest block, in faces, and largest face, in corners (413
        beyond); at most the engine's limits (engine.io.model_document.MAX_FACES, MAX_FACE_CORNERS).
    max_steps : most time steps of a dynamic or construction run (422 beyond); a request's own
        ``max_steps`` may lower it, not raise it.
    job_time_limit_s : a job is stopped and marked failed after this much computing.
    max_batch_cases : most cases of one batch (``POST /v1/batches``; 413 beyond): a submitted batch is
        expanded to its cases in the request, and its job holds them all in memory.
    max_batch_bytes : most bytes, as compact JSON, of the models and records a submitted batch's cases
        hold (413 beyond): the request and its job hold them in memory.
    batch_workers : Dask worker processes of a batch job's own LocalCluster (each one more process
        beside the job's).
    max_queued_jobs : jobs queued or running at once (429 beyond).
    workers : jobs computed at once, each in its own process.
    threads : waitress threads answering requests.
    max_connections : connections open at once (waitress stops accepting beyond).
    read_timeout_s : a request's header and body must arrive within this, and an idle connection
        is closed after it (`server.http_server`).
    result_max_age_s, result_max_bytes : finished jobs older than the age, or the oldest ones
        past the total size of result files, expire (their files are deleted, the job says so).
    cached_models : geometries kept by the analysis cache for live updates.
    warm_up : compile and load the engine's kernels in the background as the app starts, then move every
        object alive out of the garbage collector's full passes (gc.freeze, for a long-lived service process;
        `server.warmup`); `extrados serve` turns it on unless given --no-warm-up.
    """

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    data_dir: str = field(default_factory=lambda: os.path.join(os.path.expanduser("~"), ".extrados"))
    token: str = None
    cors_origins: tuple = ()
    allowed_hosts: tuple = ()
    max_body_bytes: int = 64 * MIB
    max_blocks: int = DEFAULT_MAX_BLOCKS
    max_block_faces: int = 1024
    max_face_corners: int = 256
    max_steps: int = field(default_factory=lambda: request_default("dynamic", "max_steps"))
    compute_time_limit_s: float = 60.0
    job_time_limit_s: float = 6 * 3600.0
    max_batch_cases: int = 2000
    max_batch_bytes: int = 256 * MIB
    batch_workers: int = 1
    max_queued_jobs: int = 16
    workers: int = 1
    threads: int = 8
    max_connections: int = 1000
    read_timeout_s: float = 30.0
    result_max_age_s: float = 7 * 24 * 3600.0
    result_max_bytes: int = 2048 * MIB
    cached_models: int = 16
    warm_up: bool = False

    @classmethod
    def from_mapping(cls, mapping):
        """A Config from a dict (e.g. ``create_app({...})``); unknown keys raise ValueError naming them."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(mapping) - known)
        if unknown:
            raise ValueError(f"unknown setting {unknown[0]!r}; valid settings: {', '.join(sorted(known))}")
        values = dict(mapping)
        for name in ("cors_origins", "allowed_hosts"):
            if name in values:
                values[name] = tuple(values[name])
        return cls(**values)

    def checked(self):
        """The config, or ValueError when it is unsafe or inconsistent (e.g. an open port without a token)."""
        if not is_loopback(self.host):
            check_public_token(self.host, self.token)
        if not 0 <= self.port <= MAX_PORT:
            raise ValueError(f"port {self.port} is not a TCP port (0 to {MAX_PORT}; 0: any free port)")
        for name in ("max_body_bytes", "max_blocks", "max_steps", "max_queued_jobs", "workers", "threads",
                     "cached_models", "max_connections", "max_batch_cases", "max_batch_bytes", "batch_workers"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
        for name, least, most in (("max_block_faces", 4, MAX_FACES), ("max_face_corners", 3, MAX_FACE_CORNERS)):
            if not least <= getattr(self, name) <= most:
                raise ValueError(f"{name} must be {least} to {most} (the engine's limit)")
        for name in ("compute_time_limit_s", "job_time_limit_s", "result_max_age_s", "result_max_bytes",
                     "read_timeout_s"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive")
        return self


def check_public_token(host, token):
    """ValueError unless ``token`` may guard a service bound to ``host``, an address beyond loopback."""
    if not token:
        raise ValueError(f"binding {host} exposes the service beyond this machine: give a token "
                         f"(--token or the {TOKEN_VARIABLE} environment variable)")
    if len(token) < MIN_TOKEN_LENGTH:
        raise ValueError(f"binding {host} exposes the service beyond this machine, and a token of {len(token)} "
                         f"characters is guessed in minutes: give one of at least {MIN_TOKEN_LENGTH}, e.g. "
                         "python -c \"import secrets; print(secrets.token_urlsafe(24))\"")


def is_loopback(host):
    """True for localhost and the loopback ranges 127.0.0.0/8 and ::1."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
