"""The app factory: configuration, the services every route shares, blueprints and guards."""
import mimetypes
import os
import threading
from dataclasses import dataclass

from flask import Flask

from extrados.engine.analysis.cache import AnalysisCache
from extrados.server.config import Config
from extrados.server.errors import register_error_handlers
from extrados.server.guards import register_guards
from extrados.server.jobs.runner import JobRunner
from extrados.server.jobs.recovery import open_store
from extrados.server.jobs.store import JobStore
from extrados.server.payload import large_request_slots
from extrados.server.routes import (analyses, batches, docs, examples, exports, health, hops, jobs, survey,
                                    viewer)
from extrados.server.warmup import EngineWarmUp

STATIC_FOLDER = os.path.join(os.path.dirname(__file__), "static")
# Windows registries sometimes map .js to text/plain, which browsers refuse for ES modules
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/javascript", ".mjs")


@dataclass
class Services:
    """What the routes share: the settings, the analysis cache, the job table and its runner, the
    engine's warm-up and the places for large requests (`server.payload.large_request_slot`)."""

    config: Config
    cache: AnalysisCache
    store: JobStore
    runner: JobRunner
    warm_up: EngineWarmUp
    large_requests: threading.BoundedSemaphore


def create_app(config=None, start_jobs=True):
    """Build the Flask app.

    Parameters
    ----------
    config : Config or dict, optional
        Settings (`server.config.Config`); a dict names some of them, the rest keep defaults.
    start_jobs : bool
        Start the job dispatcher (tests of the routes alone may leave it off).

    Returns
    -------
    Flask
        With ``app.extensions["extrados"]`` the `Services`; ``stop_services(app)`` stops the jobs.

    Raises
    ------
    StoreError
        When the data directory cannot be written or its job table is damaged (`server.jobs.recovery`).
    """
    if config is None:
        config = Config()
    elif isinstance(config, dict):
        config = Config.from_mapping(config)
    config = config.checked()
    app = Flask(__name__, static_folder=STATIC_FOLDER, static_url_path="/static")
    app.config["MAX_CONTENT_LENGTH"] = config.max_body_bytes
    app.json.sort_keys = False
    store = open_store(config.data_dir)
    services = Services(config, AnalysisCache(max_models=config.cached_models), store, JobRunner(store, config),
                        EngineWarmUp(), large_request_slots())
    app.extensions["extrados"] = services
    register_error_handlers(app)
    register_guards(app, config)
    for module in (health, docs, analyses, batches, jobs, examples, exports, hops, survey, viewer):
        app.register_blueprint(module.blueprint)
    if start_jobs:
        services.runner.start()
    if config.warm_up:
        services.warm_up.start()
    return app


def stop_services(app):
    """Stop the job dispatcher and its workers (running jobs are marked interrupted)."""
    app.extensions["extrados"].runner.stop()
