"""Checks every request passes before its route: the access token and CORS.

The token, when configured, is required on every request but ``GET /health`` (and CORS
preflights, which browsers send without credentials). It is read from ``Authorization: Bearer``,
from the ``token`` query parameter (the viewer's address), or from the cookie the service sets
when a page was opened with a good ``?token=``: a browser cannot put a header on the page's
scripts and stylesheets, and the cookie (HttpOnly, SameSite=Strict) carries the token to them.
"""
import hmac

from flask import request

from extrados.server.errors import ApiError

OPEN_PATHS = ("/health",)
CORS_METHODS = "GET, POST, DELETE, OPTIONS"
CORS_HEADERS = "Authorization, Content-Type"
TOKEN_COOKIE = "extrados_token"


def presented_token():
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.args.get("token") or request.cookies.get(TOKEN_COOKIE)


def register_guards(app, config):
    origins = set(config.cors_origins)

    @app.before_request
    def require_token():
        if config.token is None or request.path in OPEN_PATHS:
            return None
        if request.method == "OPTIONS" and request.headers.get("Origin") in origins:
            return None
        token = presented_token()
        if token is None:
            raise ApiError(401, "this service requires a token: send 'Authorization: Bearer TOKEN'")
        if not hmac.compare_digest(token.encode("utf-8"), config.token.encode("utf-8")):
            raise ApiError(401, "wrong token")
        return None

    @app.after_request
    def token_cookie(response):
        """A page opened with a good ``?token=`` gets the cookie its scripts and styles will send."""
        if config.token is not None and request.args.get("token") == config.token and response.status_code < 400:
            response.set_cookie(TOKEN_COOKIE, config.token, httponly=True, samesite="Strict", path="/")
        return response

    @app.after_request
    def cross_origin(response):
        origin = request.headers.get("Origin")
        if origin is not None and origin in origins:
            response.headers["Access-Control-Allow-Origin"] = origin
            response.headers["Access-Control-Allow-Methods"] = CORS_METHODS
            response.headers["Access-Control-Allow-Headers"] = CORS_HEADERS
            response.headers["Access-Control-Expose-Headers"] = "Location"
            response.vary.add("Origin")
        return response
