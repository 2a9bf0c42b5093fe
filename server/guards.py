"""Checks every request passes before its route: the Host it names, the page it comes from, the
access token and the media type of its body.

- **Host** (DNS rebinding): a page of a site whose name the attacker points at 127.0.0.1 talks to
  the service as if it were that site. Requests must name a host the service answers to: loopback
  (``localhost``, 127.0.0.0/8, ::1), the address it is bound to, any address when bound to all of
  them (an address cannot be rebound; a name can), and the names given by ``--allowed-host``;
  others get 421.
- **Origin** (cross-site requests): a browser says which page sent a request in ``Origin``. A
  request from a page of another origin than the service's own is refused (403) unless
  ``--cors-origin`` names that origin, which also turns CORS on for it.
- **Token**, when configured: required on every request but ``GET /health`` (and CORS preflights,
  which browsers send without credentials). It is read from ``Authorization: Bearer``, from the
  ``token`` query parameter (the viewer's address), from ``RhinoComputeKey`` (where Rhino's Hops component
  sends the API key of its settings), or from the cookie the service sets when a page
  was opened with a good ``?token=``: a browser cannot put a header on the page's scripts and
  stylesheets, and the cookie (HttpOnly, SameSite=Strict) carries the token to them.
- **Media type**: a request with a body must send it as ``application/json`` (415). A page may
  send any site a POST of ``text/plain`` or with no type at all without asking first (a CORS
  "simple request"); a JSON type makes the browser ask the service (a preflight), which says no.
"""
import hmac
import ipaddress
from urllib.parse import urlsplit

from flask import request

from extrados.server.config import is_loopback
from extrados.server.errors import ApiError

OPEN_PATHS = ("/health",)
CORS_METHODS = "GET, POST, DELETE, OPTIONS"
CORS_HEADERS = "Authorization, Content-Type"
TOKEN_COOKIE = "extrados_token"
#: The header Rhino's Hops component sends its API key in (Hops' settings: "API Key").
HOPS_KEY_HEADER = "RhinoComputeKey"
#: Methods whose request carries a body, which must be JSON.
BODY_METHODS = ("POST", "PUT", "PATCH")
#: Addresses that mean "every interface of this machine".
WILDCARD_ADDRESSES = ("0.0.0.0", "::", "")


def presented_token():
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.args.get("token") or request.headers.get(HOPS_KEY_HEADER) or request.cookies.get(TOKEN_COOKIE)


def token_matches(presented, token):
    """True when the presented token is the service's (compared in constant time)."""
    return presented is not None and hmac.compare_digest(presented.encode("utf-8"), token.encode("utf-8"))


def host_name(authority):
    """The host of a ``Host`` header (``[::1]:8765`` -> ``::1``), lower case; empty when malformed."""
    try:
        name = urlsplit("//" + authority).hostname or ""
    except ValueError:  # e.g. an unclosed "[" of an IPv6 address
        return ""
    return name.rstrip(".")


def is_address(name):
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def answered_names(config):
    """The host names a request may name besides loopback: the bound host and the ``--allowed-host`` names."""
    return frozenset(name.lower().rstrip(".") for name in (config.host, *config.allowed_hosts))


def host_allowed(name, names, bound_host):
    """True when a request naming host ``name`` is one this service answers (see the module's docstring)."""
    if is_loopback(name) or name in names:
        return True
    return is_address(name) and bound_host in WILDCARD_ADDRESSES


def same_origin(origin, host_header):
    """True when ``origin`` (``scheme://host[:port]``) is the service's own page: the authority it
    names is the one the request was sent to."""
    try:
        return urlsplit(origin).netloc.lower() == host_header.lower()
    except ValueError:  # a malformed origin is no one's
        return False


def check_host(names, bound_host):
    authority = request.headers.get("Host")
    if authority is None:  # HTTP/1.0 without Host: not a browser
        return
    name = host_name(authority)
    if not host_allowed(name, names, bound_host):
        raise ApiError(421, f"this service does not answer to the host name {name!r}; if clients reach it by that "
                            f"name, start it with --allowed-host {name}", code="unknown_host")


def check_origin(config):
    origin = request.headers.get("Origin")
    if origin is None or origin in config.cors_origins or same_origin(origin, request.headers.get("Host", "")):
        return
    raise ApiError(403, f"a request from a page of {origin} is refused: pages of other sites may not use this "
                        f"service; to allow that one, start it with --cors-origin {origin}", code="foreign_origin")


def check_token(config):
    if config.token is None or request.path in OPEN_PATHS:
        return
    if request.method == "OPTIONS" and request.headers.get("Origin") in config.cors_origins:
        return
    token = presented_token()
    if token is None:
        raise ApiError(401, "this service requires a token: send 'Authorization: Bearer TOKEN'")
    if not token_matches(token, config.token):
        raise ApiError(401, "wrong token")


def check_media_type():
    if request.method not in BODY_METHODS:
        return
    mimetype = request.mimetype
    if mimetype != "application/json" and not mimetype.endswith("+json"):
        raise ApiError(415, f"send the request body as application/json, not {mimetype or 'without a Content-Type'}")


def register_guards(app, config):
    names = answered_names(config)

    @app.before_request
    def guard():
        check_host(names, config.host)
        check_origin(config)
        check_token(config)
        check_media_type()

    @app.after_request
    def token_cookie(response):
        """A page opened with a good ``?token=`` gets the cookie its scripts and styles will send."""
        if (config.token is not None and response.status_code < 400
                and token_matches(request.args.get("token"), config.token)):
            response.set_cookie(TOKEN_COOKIE, config.token, httponly=True, samesite="Strict", path="/")
        return response

    @app.after_request
    def cross_origin(response):
        origin = request.headers.get("Origin")
        if origin is not None and origin in config.cors_origins:
            response.headers["Access-Control-Allow-Origin"] = origin
            response.headers["Access-Control-Allow-Methods"] = CORS_METHODS
            response.headers["Access-Control-Allow-Headers"] = CORS_HEADERS
            response.headers["Access-Control-Expose-Headers"] = "Location"
            response.vary.add("Origin")
        return response
