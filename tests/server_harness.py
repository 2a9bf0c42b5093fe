"""A real Extrados service for tests: the Flask app under waitress on a free loopback port.

`running_service(config)` starts it in this process (port 0: the system picks a free port) with
the waitress settings of `extrados serve` (`server.http_server`), and stops it, with its job
workers, at the end. `Client` talks to it over HTTP with the standard library only, as the
Grasshopper client does.
"""
import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager

from extrados.server import create_app
from extrados.server.app import stop_services
from extrados.server.http_server import make_server

FINISHED = ("done", "failed", "cancelled")


@contextmanager
def running_service(**settings):
    """Yield a Client of a service with these `server.Config` settings (data_dir required)."""
    app = create_app({"port": 0, **settings})
    server = make_server(app, app.extensions["extrados"].config)
    stopping = threading.Event()

    def serve():
        try:
            server.run()
        except OSError:
            if not stopping.is_set():  # closing the sockets under the loop ends it with EBADF
                raise

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield Client(f"http://127.0.0.1:{server.effective_port}", app=app)
    finally:
        stopping.set()
        server.close()
        stop_services(app)
        thread.join(timeout=10)


class Client:
    """HTTP JSON client: ``call`` returns (status, parsed body, headers)."""

    def __init__(self, base, app=None, token=None):
        self.base = base
        self.app = app
        self.token = token

    def call(self, method, path, body=None, raw=None, headers=None, timeout=120):
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        sent = {"Content-Type": "application/json"}
        if self.token:
            sent["Authorization"] = f"Bearer {self.token}"
        sent.update(headers or {})
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, parsed(response.read()), dict(response.headers)
        except urllib.error.HTTPError as error:
            return error.code, parsed(error.read()), dict(error.headers)

    def get(self, path, **kwargs):
        return self.call("GET", path, **kwargs)

    def post(self, path, body=None, **kwargs):
        return self.call("POST", path, body, **kwargs)

    def wait_for_job(self, url, states=FINISHED, timeout=120.0, condition=None):
        """Poll a job until its state is one of ``states`` (and ``condition(job)`` holds)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status, job, _ = self.get(url)
            assert status == 200, job
            if job["state"] in states and (condition is None or condition(job)):
                return job
            time.sleep(0.02)
        raise AssertionError(f"job {url} still {job['state']} after {timeout} s")


def start_service_process(data_dir, *extra, env=None):
    """``python -m extrados.server`` on a free port (environment ``env``, or this one's); returns (process, base URL)."""
    process = subprocess.Popen([sys.executable, "-m", "extrados.server", "--port", "0", "--data-dir", str(data_dir), *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    printed = []
    for line in process.stdout:  # log lines (an interrupted job, say) may come first
        printed.append(line)
        if line.startswith("Extrados service on http://"):
            break
    else:
        raise AssertionError("the service did not start:\n" + "".join(printed))
    threading.Thread(target=process.stdout.read, daemon=True).start()  # keep the pipe drained
    return process, line.split()[3]


def parsed(raw):
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace")
