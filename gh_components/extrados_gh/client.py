"""A small HTTP client of the Extrados service for Grasshopper components and scripts.

Standard library only (``urllib`` and ``json``): it runs on Rhino 8's CPython 3 and on Rhino 7's
IronPython 2.7, so it keeps to the syntax both understand (no f-strings, no annotations). Copy
this one file next to a GhPython component, or put its folder on the component's path.

Every failure is an `ExtradosError` whose ``str()`` reads well on a component's message
balloon, e.g. ``model.blocks[3].faces (block 'v3'): mesh is not closed``:

- `ServiceUnavailable`: nothing answers at the URL (or not in time); says how to start it,
- `AuthenticationError`: the token is missing or wrong (HTTP 401),
- `ValidationError`: the model or the request is invalid (HTTP 400, 413, 422), with the field
  path and the block id,
- `JobFailed`: a job ended in the ``failed`` state, with the job's error.

Example, in a script::

    client = ExtradosClient()                         # or ExtradosClient(url, token="...")
    model = client.example("arch", voussoirs=10)
    result = client.analyze(model)                    # static: the result document at once
    job = client.submit(model, {"type": "dynamic", "duration": 2.0})
    job.poll()["state"]                               # one request, never blocks: for components
    job.wait(timeout=600)                             # blocks until finished: for scripts
    result = job.result()
"""
import json
import socket
import time

try:  # CPython 3
    from urllib.error import HTTPError, URLError
    from urllib.parse import quote, urlencode
    from urllib.request import Request, urlopen
except ImportError:  # IronPython 2.7, CPython 2.7
    from urllib import quote, urlencode  # pyright: ignore[reportAttributeAccessIssue] (Python 2 only)
    from urllib2 import HTTPError, Request, URLError, urlopen  # pyright: ignore[reportMissingImports]

try:
    from http.client import HTTPException
except ImportError:
    from httplib import HTTPException  # pyright: ignore[reportMissingImports] (Python 2 only)

__all__ = ["ExtradosClient", "Job", "ExtradosError", "ServiceUnavailable", "AuthenticationError",
           "ValidationError", "JobFailed", "DEFAULT_URL", "START_HINT"]

DEFAULT_URL = "http://127.0.0.1:8765"
START_HINT = "start it with `extrados serve` (or `python -m extrados.server`)"
#: Job states after which nothing changes any more.
FINISHED_STATES = ("done", "failed", "cancelled")
#: Statuses of a request the service refused because of what it held (model, envelope, size).
VALIDATION_STATUSES = (400, 413, 422)
#: Characters of a non-JSON error body shown in a message (a proxy's HTML page, say).
BODY_EXCERPT_CHARS = 200


class ExtradosError(Exception):
    """An error of the Extrados service or of talking to it.

    Attributes
    ----------
    message : str
        What went wrong, in words.
    path : str or None
        The field the error is about, e.g. ``model.blocks[3].vertices[0][0]``.
    block : str or None
        The id of the block the error is about.
    code : str or None
        The service's error code, e.g. ``invalid_model``, ``job_failed``.
    status : int or None
        The HTTP status (None when no answer came).
    """

    def __init__(self, message, path=None, block=None, code=None, status=None):
        Exception.__init__(self, message)
        self.message = message
        self.path = path
        self.block = block
        self.code = code
        self.status = status

    def __str__(self):
        where = self.path or ""
        if self.block is not None:
            where = (where + " " if where else "") + "(block '%s')" % (self.block,)
        return "%s: %s" % (where, self.message) if where else "%s" % (self.message,)

    @classmethod
    def from_envelope(cls, error, status=None, **extra):
        """The error of a service's ``{"message", "path", "block", "code"}`` object."""
        error = error if isinstance(error, dict) else {"message": "%s" % (error,)}
        return cls(error.get("message") or "unknown error", path=error.get("path"), block=error.get("block"),
                   code=error.get("code"), status=status, **extra)


class ServiceUnavailable(ExtradosError):
    """No Extrados service answered at the URL: refused, unreachable or too slow."""


class AuthenticationError(ExtradosError):
    """The service requires a token and none, or a wrong one, was sent (HTTP 401)."""


class ValidationError(ExtradosError):
    """The service refused the model or the request (HTTP 400, 413 or 422)."""


class JobFailed(ExtradosError):
    """A job ended in the ``failed`` state; ``job`` is its last state document (or None)."""

    def __init__(self, message, path=None, block=None, code=None, status=None, job=None):
        ExtradosError.__init__(self, message, path=path, block=block, code=code, status=status)
        self.job = job

    def __str__(self):
        text = ExtradosError.__str__(self)
        return text if text.startswith("the job failed") else "the job failed: " + text


class _MethodRequest(Request):
    """A urllib Request with any HTTP method (urllib2's Request knows only GET and POST)."""

    def __init__(self, url, data=None, headers=None, method="GET"):
        Request.__init__(self, url, data, headers or {})
        self._method = method

    def get_method(self):
        return self._method


class ExtradosClient(object):
    """The Extrados service at ``url``.

    Parameters
    ----------
    url : str
        Where the service listens (``extrados serve`` prints it).
    token : str or None
        The service's access token, when it was started with one.
    timeout : float
        Seconds to wait for each answer. A synchronous analysis must finish within it:
        submit longer ones as jobs (`submit`).
    """

    def __init__(self, url=DEFAULT_URL, token=None, timeout=30.0):
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def __repr__(self):
        return "ExtradosClient(%r%s)" % (self.url, ", token=..." if self.token else "")

    # --- the service ------------------------------------------------------------------------

    def health(self):
        # type: () -> dict
        """The service's ``{"status": "ok", "service", "version", "engine": {"state", ...}}`` (engine: the
        warm-up of its compiled kernels, ``off``, ``warming``, ``ready`` or ``failed``)."""
        return self.request("GET", "/health")[1]

    def examples(self):
        """The model generators: a list of ``{"name", "help", "parameters"}``."""
        return self.request("GET", "/v1/examples")[1]["examples"]

    def example(self, name, **params):
        # type: (str, **object) -> dict
        """The model document the generator ``name`` builds with these parameters."""
        query = urlencode(sorted((key, _query_value(value)) for key, value in params.items()))
        path = "/v1/examples/" + quote("%s" % (name,), safe="")
        return self.request("GET", path + ("?" + query if query else ""))[1]

    # --- analyses and jobs ------------------------------------------------------------------

    def analyze(self, model, analysis=None):
        """Analyse a model: the result document for static and load factor analyses, a `Job`
        for dynamic and construction runs (which the service always runs as jobs).

        Parameters
        ----------
        model : dict
            A model document (or an object with ``to_dict()``).
        analysis : dict, str or None
            The analysis request, e.g. ``{"type": "load_factor"}``; None: static.
        """
        status, body = self.request("POST", "/v1/analyses", _envelope(model, analysis))
        if status == 202:
            return self._job_from(body)
        return body

    def submit(self, model, analysis=None):
        """Queue an analysis of any type as a job and return its `Job` at once."""
        status, body = self.request("POST", "/v1/analyses?async=true", _envelope(model, analysis))
        return self._job_from(body)

    def job(self, job_id):
        """The job's state document: ``state`` (queued, running, done, failed, cancelled),
        ``progress`` in [0, 1] and, when it failed, ``error``."""
        return self.request("GET", _job_path(job_id))[1]

    def result(self, job_id):
        """The result document of a finished job.

        Raises
        ------
        JobFailed
            When the job failed.
        ExtradosError
            When it is still queued or running (code ``not_finished``), or its result expired.
        """
        try:
            return self.request("GET", _job_path(job_id) + "/result")[1]
        except ExtradosError as error:
            if error.code == "job_failed":
                raise JobFailed(_without_prefix(error.message), path=error.path, block=error.block,
                                code=error.code, status=error.status)
            raise

    def cancel(self, job_id):
        """Ask the service to stop a queued or running job; its state document."""
        return self.request("DELETE", _job_path(job_id))[1]

    def survey(self, body):
        # type: (dict) -> dict
        """A survey of stones' faces as a model: ``{"model", "report"}`` (POST /v1/survey, seed 002)."""
        return self.request("POST", "/v1/survey", body)[1]

    def submit_batch(self, spec):
        # type: (dict) -> Job
        """Queue a batch of analyses (a batch spec, DESIGN's batch schema) and return its `Job` at once."""
        status, body = self.request("POST", "/v1/batches", spec)
        return self._job_from(body)

    def batch_table(self, job_id):
        # type: (str) -> dict
        """The batch's document with ``rows``: one dict per case finished, in the spec's order."""
        return self.request("GET", "/v1/batches/%s/table" % quote("%s" % (job_id,), safe=""))[1]

    def _job_from(self, body):
        return Job(self, body["id"], info=body)

    # --- HTTP -------------------------------------------------------------------------------

    def request(self, method, path, body=None):
        """Send one request; (status, parsed JSON body) of a 2xx answer.

        Raises
        ------
        ServiceUnavailable, AuthenticationError, ValidationError, ExtradosError
        """
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        request = _MethodRequest(self.url + path, data, headers, method)
        try:
            response = urlopen(request, timeout=self.timeout)
            try:
                return response.getcode(), _parsed(response.read())
            finally:
                response.close()
        except HTTPError as error:
            raise self._http_error(error, method, path)
        except URLError as error:
            raise self._unavailable(error.reason)
        except socket.timeout as error:
            raise self._unavailable(error)
        except (socket.error, HTTPException) as error:
            raise self._unavailable(error)

    def _unavailable(self, reason):
        if isinstance(reason, socket.timeout):
            return ServiceUnavailable("the Extrados service at %s did not answer within %g s; raise the client's "
                                      "timeout, or submit long analyses as jobs (submit)" % (self.url, self.timeout),
                                      code="timeout")
        return ServiceUnavailable("no Extrados service at %s; %s (%s)" % (self.url, START_HINT, reason),
                                  code="unavailable")

    def _http_error(self, error, method, path):
        status = error.code
        try:
            raw = error.read()
        except Exception:  # the body is only a help to the message
            raw = b""
        body = _parsed(raw)
        if isinstance(body, dict) and isinstance(body.get("error"), dict):
            envelope = body["error"]
        else:
            text = ("%s" % (body,)).strip()[:BODY_EXCERPT_CHARS] if body else ""
            envelope = {"message": "HTTP %d from %s %s%s%s" % (status, method, self.url, path,
                                                                 ": " + text if text else "")}
        if status == 401:
            envelope = dict(envelope)
            envelope["message"] = "%s (%s)" % (envelope.get("message") or "unauthorized", (
                "give the service's token: ExtradosClient(url, token=...)" if not self.token
                else "check the token given to ExtradosClient against the service's --token / EXTRADOS_TOKEN"))
            return AuthenticationError.from_envelope(envelope, status)
        if status in VALIDATION_STATUSES:
            return ValidationError.from_envelope(envelope, status)
        return ExtradosError.from_envelope(envelope, status)


class Job(object):
    """A job of the service: poll it without blocking (components) or wait for it (scripts).

    Attributes
    ----------
    id : str
        The job's id.
    info : dict
        The last state document seen (from `poll`, `wait` or the submission).
    """

    def __init__(self, client, job_id, info=None):
        self.client = client
        self.id = job_id
        self.info = dict(info or {"id": job_id})

    def __repr__(self):
        return "Job(%r, state=%r, progress=%.2f)" % (self.id, self.state, self.progress)

    def poll(self):
        """One GET of the job's state document (never blocks beyond one request)."""
        self.info = self.client.job(self.id)
        return self.info

    @property
    def state(self):
        """The last state seen: queued, running, done, failed or cancelled."""
        return self.info.get("state")

    @property
    def done(self):
        """Whether the last state seen is final (done, failed or cancelled): `poll` first."""
        return self.state in FINISHED_STATES

    @property
    def progress(self):
        """The last progress seen, in [0, 1]."""
        return float(self.info.get("progress") or 0.0)

    @property
    def error(self):
        """The job's error ``{"message", "path", "block", "code"}``, or None."""
        return self.info.get("error")

    def result(self):
        """The job's result document (`JobFailed` when it failed)."""
        try:
            return self.client.result(self.id)
        except JobFailed as failed:
            failed.job = self.info
            raise

    def cancel(self):
        """Ask the service to stop the job; its state document."""
        self.info = self.client.cancel(self.id)
        return self.info

    def wait(self, timeout=None, interval=0.5):
        """Poll until the job is finished; its final state document (blocks: for scripts).

        Parameters
        ----------
        timeout : float or None
            Seconds to wait at most; None: no limit.
        interval : float
            Seconds between polls.

        Raises
        ------
        JobFailed
            When the job failed.
        ExtradosError
            With code ``wait_timeout`` when it is not finished after ``timeout`` seconds.
        """
        deadline = None if timeout is None else time.time() + timeout
        while True:
            info = self.poll()
            if info.get("state") == "failed":
                error = info.get("error") or {"message": "no reason given"}
                raise JobFailed.from_envelope(error, job=info)
            if self.done:
                return info
            if deadline is not None and time.time() + interval > deadline:
                raise ExtradosError("job %s is still %s (%.0f %% done) after %g s" % (
                    self.id, self.state, 100.0 * self.progress, timeout), code="wait_timeout")
            time.sleep(interval)


def _envelope(model, analysis):
    if hasattr(model, "to_dict") and not isinstance(model, dict):
        model = model.to_dict()
    body = {"model": model}
    if analysis is not None:
        body["analysis"] = analysis
    return body


def _job_path(job_id):
    return "/v1/jobs/" + quote("%s" % (job_id,), safe="")


def _query_value(value):
    if value is True or value is False:
        return "true" if value else "false"
    return "%s" % (value,)


def _parsed(raw):
    if not raw:
        return None
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    try:
        return json.loads(text)
    except ValueError:
        return text


def _without_prefix(message):
    prefix = "the job failed: "
    return message[len(prefix):] if message and message.startswith(prefix) else message
