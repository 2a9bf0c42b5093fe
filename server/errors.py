"""Errors as JSON: ``{"error": {"message", "path", "block", "code"}}`` with a 4xx status.

`ApiError` is raised by the routes; the handlers registered by `register_error_handlers` turn it,
the engine's ModelError and werkzeug's HTTP errors into that shape. An unexpected exception is
logged with its traceback and answered 500 with a short message: it is a bug, never user input.
"""
import logging
import sqlite3

from flask import jsonify
from werkzeug.exceptions import HTTPException

from extrados.engine.errors import ModelError
from extrados.server.config import MIB
from extrados.server.jobs.store import StoreError

LOG = logging.getLogger("extrados.server")


class ApiError(Exception):
    """A request the service refuses.

    Parameters
    ----------
    status : int
        400 malformed, 401 token, 404 unknown, 409 conflict with the job's state, 410 expired,
        413 too large, 422 invalid model or request, 429 job queue full.
    message : str
        What is wrong, in words a user can act on.
    path : str, optional
        The field, e.g. ``model.blocks[3].faces``.
    block : str, optional
        The block id concerned.
    code : str, optional
        A stable machine-readable name (``invalid_model``, ``too_many_blocks``, ...).
    """

    def __init__(self, status, message, path=None, block=None, code=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.path = path
        self.block = block
        self.code = code or DEFAULT_CODES.get(status, "error")

    def to_dict(self):
        return {"error": {"message": self.message, "path": self.path, "block": self.block, "code": self.code}}


DEFAULT_CODES = {400: "malformed_request", 401: "unauthorized", 403: "foreign_origin", 404: "not_found",
                 405: "method_not_allowed", 409: "conflict", 410: "expired", 413: "too_large",
                 415: "unsupported_media_type", 421: "unknown_host", 422: "invalid_model", 429: "queue_full",
                 500: "internal_error", 503: "storage_unavailable", 507: "storage_full"}


def model_error(error, prefix="model"):
    """ApiError 422 from the engine's ModelError; paths inside the model document get ``model.``
    in front, paths of the analysis request (``analysis.…``) are already complete."""
    path = error.path
    if path and not path.startswith("analysis") and prefix:
        path = f"{prefix}.{path}"
    elif not path and prefix and error.block is not None:
        path = prefix
    code = "invalid_request" if path and path.startswith("analysis") else "invalid_model"
    return ApiError(422, error.message, path=path, block=error.block, code=code)


def json_error(error):
    response = jsonify(error.to_dict())
    response.status_code = error.status
    return response


def register_error_handlers(app):
    """JSON bodies for every error the app can answer."""

    @app.errorhandler(ApiError)
    def api_error(error):
        return json_error(error)

    @app.errorhandler(ModelError)
    def engine_error(error):
        return json_error(model_error(error))

    @app.errorhandler(StoreError)
    def storage_error(error):
        LOG.error("%s", error)
        return json_error(ApiError(error.status, str(error)))

    @app.errorhandler(sqlite3.Error)
    def table_error(error):
        LOG.error("job table: %s", error)
        return json_error(ApiError(503, f"the job table cannot be used now ({error}); see the service log"))

    @app.errorhandler(HTTPException)
    def http_error(error):
        message = error.description or error.name
        if error.code == 413:
            limit = app.config.get("MAX_CONTENT_LENGTH")
            message = f"the request body is larger than the limit of {limit / MIB:g} MiB (raise --max-body-mb)"
        response = json_error(ApiError(error.code, message))
        if error.code == 405 and error.valid_methods:
            response.headers["Allow"] = ", ".join(error.valid_methods)
        return response

    @app.errorhandler(Exception)
    def unexpected(error):
        LOG.exception("unexpected error")
        return json_error(ApiError(500, f"internal error ({type(error).__name__}); see the service log"))
