"""The service's guards against other sites, foreign host names and slow clients, through a real
waitress server on loopback with raw sockets where a browser or an attacker would not use urllib:
cross-site writes (CSRF), DNS rebinding, slowloris, bodies past waitress's own limit, and the
start-up checks of ``extrados serve`` (port range, port in use, token length, token not logged)."""
import json
import os
import socket
import subprocess
import sys
import time

import pytest

from extrados.server.config import MIN_TOKEN_LENGTH, Config
from tests.server_harness import running_service

#: A request that passes the guards and is refused by the first check behind them (422: the model
#: has no blocks), so the guards are seen without running an analysis.
PASSED = 422
MODEL = {"format": "extrados.model/1", "blocks": []}
BODY = json.dumps({"model": MODEL}).encode()


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    with running_service(data_dir=str(tmp_path_factory.mktemp("data")), read_timeout_s=2.0) as client:
        yield client


def raw_request(base, head, body=b"", timeout=10.0):
    """Send ``head`` (request line and headers, without the blank line) and ``body`` on a new socket;
    returns (status, parsed JSON body)."""
    host, port = base.split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        sock.sendall(head.encode() + b"\r\n\r\n" + body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    header, _, content = answer.partition(b"\r\n\r\n")
    return int(header.split()[1]), json.loads(content)


# --- cross-site requests and DNS rebinding --------------------------------------------------------------

@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_writes_without_a_json_body_type_are_415(service, content_type):
    """What a page of any site may send without a preflight: a Blob body has no type, a string text/plain."""
    headers = {"Content-Type": content_type} if content_type else {}
    head = "\r\n".join(["POST /v1/analyses HTTP/1.1", f"Host: {service.base.split('//')[1]}",
                        f"Content-Length: {len(BODY)}", "Connection: close",
                        *(f"{name}: {value}" for name, value in headers.items())])
    status, body = raw_request(service.base, head, BODY)
    assert status == 415 and body["error"]["code"] == "unsupported_media_type"
    assert "application/json" in body["error"]["message"]


def test_pages_of_other_sites_are_refused(service, tmp_path):
    status, body, _ = service.post("/v1/analyses", {"model": MODEL}, headers={"Origin": "http://evil.test"})
    assert status == 403 and body["error"]["code"] == "foreign_origin"
    assert "--cors-origin http://evil.test" in body["error"]["message"]
    for origin in ("null", "http://[::1", "file://"):  # sandboxed frames, malformed, local files
        assert service.post("/v1/analyses", {"model": MODEL}, headers={"Origin": origin})[0] == 403
    assert service.post("/v1/analyses", {"model": MODEL}, headers={"Origin": service.base})[0] == PASSED
    assert service.post("/v1/analyses", {"model": MODEL})[0] == PASSED
    with running_service(data_dir=str(tmp_path), cors_origins=["http://evil.test"]) as client:
        assert client.post("/v1/analyses", {"model": MODEL}, headers={"Origin": "http://evil.test"})[0] == PASSED


@pytest.mark.parametrize("host", ["evil.test", "evil.test:8765", "attacker.example.com.", "[::1", ""])
def test_foreign_host_names_are_421(service, host):
    """DNS rebinding: a page of evil.test whose name now points at 127.0.0.1 sends Host: evil.test."""
    for method, path in (("GET", "/v1/examples"), ("GET", "/health")):
        status, body = raw_request(service.base, f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close")
        assert status == 421 and body["error"]["code"] == "unknown_host", body
        assert "--allowed-host" in body["error"]["message"]


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "127.0.0.2", "[::1]", "LOCALHOST"])
def test_loopback_host_names_are_answered(service, host):
    port = service.base.rsplit(":", 1)[1]
    status, body = raw_request(service.base, f"GET /health HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close")
    assert status == 200, body


def test_allowed_host_adds_a_name(tmp_path):
    with running_service(data_dir=str(tmp_path), allowed_hosts=["extrados.lab.example"]) as client:
        status, _ = raw_request(client.base, "GET /health HTTP/1.1\r\nHost: extrados.lab.example\r\nConnection: close")
        assert status == 200
        status, _ = raw_request(client.base, "GET /health HTTP/1.1\r\nHost: other.example\r\nConnection: close")
        assert status == 421


# --- slow clients and waitress's own limits ------------------------------------------------------------

def test_slow_clients_cannot_make_the_service_unreachable(service):
    """Slowloris: 150 connections trickling their headers a byte at a time; /health still answers
    within a second, and the trickling connections are dropped after the read timeout (2 s here)."""
    host, port = service.base.split("//")[1].split(":")
    slow = [socket.create_connection((host, int(port)), timeout=5) for _ in range(150)]
    try:
        for sock in slow:
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: localhost\r\n")
        started = time.monotonic()
        dropped = 0
        while time.monotonic() - started < 6.0 and dropped < len(slow):
            begin = time.monotonic()
            assert service.get("/health", timeout=5)[0] == 200
            assert time.monotonic() - begin < 1.0
            dropped = 0
            for sock in slow:
                try:
                    sock.sendall(b"X")  # one more byte of a header that never ends
                except OSError:
                    dropped += 1
            time.sleep(0.3)
        assert dropped == len(slow), f"{len(slow) - dropped} slow connections still held after 6 s"
    finally:
        for sock in slow:
            sock.close()


def test_a_body_past_waitress_limit_is_a_json_413(service):
    """waitress refuses a declared body above its own limit before reading it; the answer is JSON that names
    the flag that exists."""
    limit = service.app.extensions["extrados"].config.max_body_bytes
    head = "\r\n".join(["POST /v1/analyses HTTP/1.1", "Host: localhost", "Content-Type: application/json",
                        f"Content-Length: {limit + 2 * 1024 * 1024}", "Connection: close"])
    status, body = raw_request(service.base, head)
    assert status == 413 and body["error"]["code"] == "too_large"
    assert "--max-body-mb" in body["error"]["message"]


# --- start-up checks -------------------------------------------------------------------------------------

def serve(*args, env=None):
    return subprocess.run([sys.executable, "-m", "extrados.server", *args], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "EXTRADOS_TOKEN": "", **(env or {})})


@pytest.mark.parametrize("port", [70000, -1])
def test_ports_out_of_range_are_refused(tmp_path, port):
    with pytest.raises(ValueError, match="not a TCP port"):
        Config(port=port, data_dir=str(tmp_path)).checked()
    run = serve("--port", str(port), "--data-dir", str(tmp_path))
    assert run.returncode == 2 and "not a TCP port" in run.stderr, run.stderr


def test_a_port_in_use_is_a_clear_error(tmp_path):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        run = serve("--port", str(holder.getsockname()[1]), "--data-dir", str(tmp_path), "--no-warm-up")
    assert run.returncode == 2 and "--port" in run.stderr and "Traceback" not in run.stderr, run.stderr


def test_a_public_bind_needs_a_long_token(tmp_path):
    with pytest.raises(ValueError, match=f"at least {MIN_TOKEN_LENGTH}"):
        Config(host="0.0.0.0", token="x", data_dir=str(tmp_path)).checked()
    run = serve("--host", "0.0.0.0", "--token", "x", "--data-dir", str(tmp_path))
    assert run.returncode == 2 and f"at least {MIN_TOKEN_LENGTH}" in run.stderr, run.stderr
    assert Config(host="127.0.0.1", token="x", data_dir=str(tmp_path)).checked().token == "x"


def test_the_start_up_lines_do_not_show_the_token(tmp_path):
    token = "a-token-that-must-stay-out-of-logs"
    process = subprocess.Popen([sys.executable, "-m", "extrados.server", "--port", "0", "--no-warm-up", "--token",
                                token, "--data-dir", str(tmp_path)], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        printed = []
        for line in process.stdout:
            printed.append(line)
            if line.startswith("viewer:"):
                break
    finally:
        process.terminate()
        process.wait(timeout=20)
    assert any(line.startswith("Extrados service on") for line in printed), printed
    assert token not in "".join(printed)
