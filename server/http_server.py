"""The waitress server of the service: its limits on connections and slow clients, and its own
errors as JSON.

waitress reads each request whole before a thread sees it, so slow clients cost no thread; what
they cost is connections. Three settings keep a few of them from making the service unreachable
(slowloris: connections that send their headers a byte at a time):

- ``connection_limit`` (`Config.max_connections`): beyond it waitress stops accepting; it is set
  well above what clients use, and ``asyncore_use_poll`` lifts select()'s limit of 1024 sockets;
- ``channel_timeout`` (`Config.read_timeout_s`): a connection idle for longer is closed;
- `ReadDeadlineChannel`: a request whose headers and body have not all arrived within the same
  time is dropped, however steadily it trickles in.

That bounds what one client can hold, not what many can: a service exposed beyond this machine
belongs behind a reverse proxy (nginx, Caddy) that buffers requests and limits connections and
rates per client (README, "Exposing the service").

Errors waitress answers itself (a body over its limit, a malformed request line) are sent in the
service's JSON error shape, like the app's (`server.errors`).
"""
import json
import time

from waitress import create_server
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer
from waitress.task import ErrorTask

from extrados.server.config import MIB
from extrados.server.errors import DEFAULT_CODES

#: s, how often waitress looks for idle connections to close.
CLEANUP_INTERVAL_S = 5
#: Bytes the server's loop reads from a connection per turn (waitress's default: 8 KiB). A large body
#: arrives in turns of the loop, and each turn waits for the interpreter while requests are being
#: checked or run in other threads: at 8 KiB a 10 MB body took over the 30 s read limit on a busy
#: machine beside two large requests being checked (CI; the client saw its connection reset).
RECEIVE_BYTES = 256 * 1024


class JsonErrorTask(ErrorTask):
    """An error waitress answers before the app sees the request, as ``{"error": {...}}``."""

    def execute(self):
        error = self.request.error
        message = error.body
        if error.code == 413:
            limit_mib = self.channel.server.adj.max_request_body_size / MIB
            message = f"the request body is larger than {limit_mib:g} MiB (raise --max-body-mb)"
        body = json.dumps({"error": {"message": message, "path": None, "block": None,
                                     "code": DEFAULT_CODES.get(error.code, "malformed_request")}}).encode("utf-8")
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class ReadDeadlineChannel(HTTPChannel):
    """A connection that must deliver each request within ``channel_timeout`` seconds of its first byte."""

    error_task_class = JsonErrorTask
    reading_since = None  # monotonic time the request being read began; None between requests

    def received(self, data):
        if self.request is None:
            self.reading_since = time.monotonic()
        answer = super().received(data)
        if self.request is None:
            self.reading_since = None
        return answer

    def readable(self):
        """Asked on every turn of the server's loop (at least once a second): a request past its
        deadline closes the connection."""
        if self.reading_since is not None and time.monotonic() - self.reading_since > self.adj.channel_timeout:
            self.will_close = True
        return super().readable()


def make_server(app, config):
    """The waitress server of ``app`` on ``config.host``, ``config.port`` with the limits of ``config``.

    waitress's own body limit is set above the app's (`Config.max_body_bytes`), so the app answers
    a body over the limit when its ``Content-Length`` says so; waitress answers (in JSON, through
    `JsonErrorTask`) only bodies too large to be worth reading.

    Raises
    ------
    OSError
        When the address cannot be bound (the port is in use, the address is not this machine's).
    """
    sockets = {}
    server = create_server(app, map=sockets, host=config.host, port=config.port, threads=config.threads,
                           max_request_body_size=config.max_body_bytes + MIB,
                           connection_limit=config.max_connections,
                           channel_timeout=max(1, round(config.read_timeout_s)),
                           cleanup_interval=CLEANUP_INTERVAL_S, recv_bytes=RECEIVE_BYTES, asyncore_use_poll=True)
    for dispatcher in sockets.values():
        if isinstance(dispatcher, BaseWSGIServer):
            dispatcher.channel_class = ReadDeadlineChannel
    return server
