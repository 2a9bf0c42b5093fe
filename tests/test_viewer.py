"""The browser viewer (GET /) in real headless Chromium, Debian's or Playwright's (`tests.browser`), under Playwright.

The server runs as a subprocess (``python -m extrados.server``); the page runs an example through the API,
draws it with WebGL (SwiftShader, no GPU) and keeps a screenshot in tests/artifacts/.
"""
import base64
import contextlib
import io
import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from PIL import Image

from tests.browser import INSTALL_COMMANDS, find_chromium

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--use-angle=swiftshader", "--enable-unsafe-swiftshader"]
SERVER_START_S = 60.0
#: ms; a first analysis in a fresh server may compile the numba kernels when their cache is cold.
RUN_TIMEOUT_MS = 120_000
#: A drawn scene has far more colours than an empty canvas (one) or a few flat panels.
MIN_DISTINCT_COLOURS = 200


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get_json(url):
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.load(response)


def _post_json(url, body):
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


@contextlib.contextmanager
def _running_server(data_dir, *options):
    """The base URL of ``python -m extrados.server`` started with these options; stopped on exit."""
    port = _free_port()
    log = data_dir / "server.log"
    with open(log, "w") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "extrados.server", "--port", str(port), "--data-dir", str(data_dir), *options],
            cwd=REPO, stdout=output, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"the server exited with {process.returncode}:\n{log.read_text()}")
            try:
                _get_json(f"{base}/health")
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"the server did not answer /health in {SERVER_START_S} s:\n{log.read_text()}")
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The base URL of a server (no token) shared by this module's tests."""
    with _running_server(tmp_path_factory.mktemp("server")) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    """A Chromium under Playwright (`tests.browser.find_chromium`, which `make test` installs); never skipped."""
    chromium = find_chromium()
    if chromium is None:
        pytest.fail(f"no Chromium for the viewer's tests; `make test` installs one, or run: {INSTALL_COMMANDS}")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@contextlib.contextmanager
def _open_viewer(browser, address):
    """A fresh page on the viewer with its examples listed; fails on any uncaught script error."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(address)
    page.wait_for_function("window.extrados && document.querySelectorAll('#example option').length > 0")
    yield page
    context.close()
    assert not errors, f"script errors in the page: {errors}"


@pytest.fixture
def page(browser, server):
    with _open_viewer(browser, server + "/") as page:
        yield page


def _wait_finished(page):
    page.wait_for_function("['done', 'error'].includes(document.body.dataset.state)", timeout=RUN_TIMEOUT_MS)
    state = page.evaluate("document.body.dataset.state")
    assert state == "done", f"the run ended in {state}: {page.evaluate('window.extrados.lastError')}"


def run_static_from_file(page, path, model):
    """Write `model` to `path`, load it with the page's model file input and analyse it statically."""
    path.write_text(json.dumps(model))
    page.set_input_files("#model-file", str(path))
    page.select_option("#analysis-type", "static")
    page.click("#run")
    _wait_finished(page)


def run_example(page, example, analysis="static", fields=()):
    """Pick an example and an analysis, fill (selector, value) fields, run it and wait for the result."""
    page.select_option("#example", example)
    page.select_option("#analysis-type", analysis)
    for selector, value in fields:
        page.fill(selector, value)
    page.click("#run")
    _wait_finished(page)


def _canvas_image(page):
    data_url = page.evaluate("document.querySelector('#viewport canvas').toDataURL('image/png')")
    return Image.open(io.BytesIO(base64.b64decode(data_url.split(",", 1)[1]))).convert("RGB")


def _norm(vector):
    return sum(x * x for x in vector) ** 0.5


def test_static_arch_is_drawn(page):
    run_example(page, "arch")

    result = page.evaluate("window.extrados.lastResult")
    drawn = page.evaluate("window.extrados.drawn")
    supports = {block["id"] for block in result["blocks"] if block["support"]}
    joint_with_force = [joint for joint in result["interfaces"] if _norm(joint["force"]) > 0]
    with_support = [joint for joint in joint_with_force if set(joint["blocks"]) & supports]
    assert drawn["blocks"] == len(result["blocks"])
    assert drawn["contacts"] == sum(1 for contact in result["contacts"] if _norm(contact["force"]) > 0) > 0
    assert drawn["resultants"] == len(joint_with_force) - len(with_support) > 0
    assert drawn["reactions"] == len(with_support) > 0
    assert drawn["thrustLines"] == len(result["thrust_lines"]) > 0
    assert "Stable" in page.text_content("#status")
    assert "converged" in page.text_content("#status")

    image = _canvas_image(page)
    colours = image.getcolors(maxcolors=1 << 20)
    assert len(colours) > MIN_DISTINCT_COLOURS, f"the canvas has only {len(colours)} colours"
    background = max(colours)[1]
    drawn_pixels = sum(count for count, colour in colours if colour != background)
    assert drawn_pixels > 0.05 * image.width * image.height

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "viewer_arch.png"))


def run_rocking_block(page):
    """The rocking block example pushed at 6 m/s2, run for 0.1 s with a frame every 0.02 s; waits for the result."""
    page.select_option("#example", "rocking_block")
    page.fill("#parameters input[name=lateral_acceleration]", "6")
    page.select_option("#analysis-type", "dynamic")
    page.fill("#duration", "0.1")
    page.fill("#output-interval", "0.02")
    page.click("#run")
    _wait_finished(page)


def test_dynamic_job_plays_frames(page):
    run_rocking_block(page)

    assert page.evaluate("window.extrados.progress.length") > 0, "no job progress was shown"
    result = page.evaluate("window.extrados.lastResult")
    assert result["analysis"] == "dynamic"
    frames = result["frames"]
    assert len(frames) >= 3
    assert page.is_visible("#timeline")
    assert int(page.get_attribute("#frame", "max")) == len(frames) - 1

    page.fill("#frame", "0")
    first = page.evaluate("window.extrados.blockPoses()")["block"]
    page.fill("#frame", str(len(frames) - 1))
    last = page.evaluate("window.extrados.blockPoses()")["block"]
    assert first["position"] == pytest.approx(frames[0]["positions"][0], abs=1e-6)
    assert last["position"] == pytest.approx(frames[-1]["positions"][0], abs=1e-6)
    assert last["position"] != pytest.approx(first["position"], abs=1e-6), "the block did not move"
    assert last["quaternion"] != pytest.approx(first["quaternion"], abs=1e-9), "the block did not rock"

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "viewer_rocking_block.png"))


def test_api_error_is_shown(page, server, tmp_path):
    model = _get_json(f"{server}/v1/examples/column")
    model["blocks"][1]["faces"][0] = [0, 1]  # a face of two vertices
    status, expected = _post_json(f"{server}/v1/analyses", {"model": model, "analysis": {"type": "static"}})
    assert 400 <= status < 500 and expected["error"]["path"], expected

    path = tmp_path / "broken_column.json"
    path.write_text(json.dumps(model))
    page.set_input_files("#model-file", str(path))
    page.click("#run")
    page.wait_for_function("document.body.dataset.state === 'error'", timeout=RUN_TIMEOUT_MS)
    assert page.text_content("#error-message") == expected["error"]["message"]
    assert expected["error"]["path"] in page.text_content("#error-where")
    assert page.evaluate("window.extrados.lastError.path") == expected["error"]["path"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "viewer_error.png"))


def test_token_from_the_address(browser, tmp_path):
    token = "viewer-test-token"
    with _running_server(tmp_path, "--token", token) as base:
        with pytest.raises(urllib.error.HTTPError) as refused:
            _get_json(f"{base}/v1/examples")
        assert refused.value.code == 401
        # the page's scripts and styles are guarded too: the browser sends them the cookie the
        # service set when the page was opened with a good ?token=
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{base}/static/viewer.js", timeout=5).close()
        assert refused.value.code == 401
        # the address `extrados serve --example column` prints: the example analysed at once
        with _open_viewer(browser, f"{base}/?token={token}&example=column&run=static") as page:
            page.wait_for_function("document.body.dataset.state === 'done'", timeout=RUN_TIMEOUT_MS)
            assert page.evaluate("window.extrados.lastResult.stable") is True
            assert page.evaluate("window.extrados.drawn.contacts") > 0
            assert page.input_value("#example") == "column"
            assert token not in page.url, "the token stays in the address bar"


def test_mortar_bonds_are_drawn(page, tmp_path):
    """A mortared cantilever (a pier with an arm bonded to its side): every contact with a bond gets a dot, in
    the colour of its state, and the legend names the states drawn."""
    from tests.test_mortar import MORTAR, cantilever

    run_static_from_file(page, tmp_path / "cantilever.json", cantilever(MORTAR))
    result = page.evaluate("window.extrados.lastResult")
    bonded = [contact for contact in result["contacts"] if contact.get("bond")]
    assert bonded and {contact["bond"] for contact in bonded} == {"intact"}
    assert page.evaluate("window.extrados.drawn.bonds") == len(bonded)
    assert "mortar bond, intact" in page.text_content("#legend")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "viewer_mortar_bonds.png"))


def test_an_unconverged_verdict_is_flagged(page, tmp_path):
    """A static solve capped at 5 APGD iterations stops above its tolerance: the result's warning is listed
    under the status, in the result's words; a converged run clears it."""
    from extrados.engine.generators import generate

    model = generate("arch", voussoirs=10)
    model.setdefault("settings", {}).update(solver="apgd", max_iterations=5)
    run_static_from_file(page, tmp_path / "capped.json", model)
    result = page.evaluate("window.extrados.lastResult")
    assert [warning["code"] for warning in result["warnings"]] == ["unconverged_solve"]
    assert page.is_visible("#warnings")
    assert page.text_content("#warnings li") == f"Warning: {result['warnings'][0]['message']}"
    page.screenshot(path=str(ARTIFACTS / "viewer_unconverged_warning.png"))
    run_static_from_file(page, tmp_path / "arch.json", generate("arch", voussoirs=10))
    assert page.evaluate("window.extrados.lastResult.warnings") == []
    assert not page.is_visible("#warnings")


def _luminance(hex_colour):
    r, g, b = (int(hex_colour[k:k + 2], 16) for k in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _assert_on_the_ramp(looks, values):
    """Blocks coloured from light yellow (the lowest value) to dark red (the highest), darker as the value grows."""
    ordered = sorted(values, key=values.get)
    assert looks[ordered[-1]]["colour"] == "#800026"
    luminance = [_luminance(looks[block]["colour"]) for block in ordered]
    assert all(later <= earlier + 1.0 for earlier, later in zip(luminance, luminance[1:])), luminance
    assert len({looks[block]["colour"] for block in ordered}) > len(ordered) // 3


def test_blocks_are_coloured_by_their_stress_with_a_scale_in_kpa(page):
    """Issue 21/22: colour by the block stress invariant p (seed 001 eq. 55), the ramp's range in the legend."""
    run_example(page, "arch")
    result = page.evaluate("window.extrados.lastResult")
    page.select_option("#block-colouring", "p")
    p = {block["id"]: block["p"] for block in result["blocks"] if not block["support"]}
    looks = page.evaluate("window.extrados.blockLooks()")
    _assert_on_the_ramp(looks, p)
    legend = page.text_content("#legend")
    assert "block stress p 0.00 Pa – " in legend and " kPa" in legend
    shown = float(legend.split("block stress p 0.00 Pa – ")[1].split(" kPa")[0])
    assert shown == pytest.approx(max(p.values()) / 1e3, rel=5e-3)
    page.screenshot(path=str(ARTIFACTS / "viewer_arch_stress_p.png"))


def test_a_collapsing_wall_is_coloured_by_its_cumulated_strain_with_the_indicator(page):
    """Seed 001 sec. 3.1: the cumulated shear of each block's centroid cell (eq. 19) on the ramp, and the strain
    indicator kappa (eq. 59) of the run in the legend; a static result has no strains and says so."""
    run_example(page, "wall_over_gap", "dynamic", (("#duration", "0.1"), ("#output-interval", "0.02")))
    strain = page.evaluate("window.extrados.lastResult.strain")
    page.select_option("#block-colouring", "shear")
    looks = page.evaluate("window.extrados.blockLooks()")
    shear = dict(zip(strain["blocks"], strain["shear"]))
    assert max(shear.values()) > 0.0
    _assert_on_the_ramp(looks, shear)
    kappa = strain["history"]["indicator"][-1]
    assert f"strain indicator κ = {kappa:.4g}"[:26] in page.text_content("#legend")
    page.screenshot(path=str(ARTIFACTS / "viewer_wall_shear_strain.png"))
    run_example(page, "wall_over_gap")
    page.select_option("#block-colouring", "dilation")
    assert "cumulated dilation: none (strains come with dynamic runs of in-plane walls)" in page.text_content("#legend")
