"""One blueprint per resource: health, docs (OpenAPI), analyses, jobs, examples, viewer."""
import json

from flask import Response, current_app


def services():
    """The `server.app.Services` of the app answering this request."""
    return current_app.extensions["extrados"]


def json_response(doc, status=200, headers=None):
    """``doc`` as a compact JSON response. NaN and infinity are not JSON: a document holding one
    raises ValueError instead of sending text a client cannot parse."""
    text = json.dumps(doc, separators=(",", ":"), allow_nan=False)
    return Response(text, status=status, headers=headers, mimetype="application/json")
