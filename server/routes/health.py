"""``GET /health``: is the service up (open without a token, says nothing private)."""
from flask import Blueprint

import extrados
from extrados.server.routes import services

blueprint = Blueprint("health", __name__)


@blueprint.get("/health")
def health():
    return {"status": "ok", "service": "extrados", "version": extrados.__version__,
            "engine": services().warm_up.to_dict()}
