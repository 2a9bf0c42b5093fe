"""``GET /openapi.json``: the OpenAPI 3.1 description of the service."""
from flask import Blueprint

from extrados.server.openapi import openapi_document
from extrados.server.routes import json_response, services

blueprint = Blueprint("docs", __name__)


@blueprint.get("/openapi.json")
def openapi():
    return json_response(openapi_document(token_required=services().config.token is not None))
