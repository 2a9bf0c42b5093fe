"""One blueprint per resource: health, docs (OpenAPI), analyses, batches, jobs, examples, viewer."""
from flask import Response, current_app

from extrados.engine.io import strict_json


def services():
    """The `server.app.Services` of the app answering this request."""
    return current_app.extensions["extrados"]


def json_response(doc, status=200, headers=None):
    """``doc`` as a compact JSON response (engine.io.strict_json). NaN and infinity are not JSON: a document
    holding one raises NonFiniteNumber, a ValueError, instead of sending text a client cannot parse."""
    return Response(strict_json.dumps(doc), status=status, headers=headers, mimetype="application/json")
