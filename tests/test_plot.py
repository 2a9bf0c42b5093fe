"""Pictures that show the answer (issue 16): a dynamic result's final (or chosen) frame over the blocks at rest,
in the plane of the largest motion; a load factor's collapse mechanism with its hinges, the load and lambda;
a force scale bar. Read back from the figure and from the PNG's pixels, not compared with a golden image."""
import json
import subprocess
import sys

import matplotlib.colors
import matplotlib.image
import matplotlib.pyplot as plt
import numpy as np
import pytest
from mpl_toolkits.axes_grid1.anchored_artists import AnchoredSizeBar

from extrados import Model, ModelError, analyze, generators
from extrados.engine.post.plot import MOVED_COLOUR, plot_result, result_figure

EXTRADOS = [sys.executable, "-m", "extrados"]
DURATION = 1.5


def toppling_block(direction):
    """The rocking block (0.25 x 0.25 x 1 m) pushed over by a dead body acceleration of 5 m/s^2 along
    ``direction`` (above g b / h = 2.45 m/s^2, it topples in about 0.5 s)."""
    doc = generators.generate("rocking_block")
    doc["loads"] = [{"kind": "body_acceleration", "blocks": ["block"],
                     "acceleration": (5.0 * np.asarray(direction, float)).tolist()}]
    return Model.from_dict(doc)


@pytest.fixture(scope="module")
def toppled():
    """The block toppled along +x: the plane of the motion is xz, where the model's main plane (without its
    thinnest extent, x or y alike) would be yz."""
    model = toppling_block([1.0, 0.0, 0.0])
    return model, analyze(model, {"type": "dynamic", "duration": DURATION})


def pixel_colour(path, fig, ax, point):
    """The RGB (0-1) of the PNG at ``path`` where the figure puts the data ``point`` (x, y)."""
    x, y = ax.transData.transform(point)
    image = matplotlib.image.imread(path)
    return image[int(round(image.shape[0] - y)), int(round(x)), :3]


def test_a_dynamic_picture_draws_the_toppled_block_where_it_lies(toppled, tmp_path):
    model, result = toppled
    final = result.frames.position[-1, 0]
    assert result.extra["events"]["collapsed"] and final[0] > 0.5 and final[2] < 0.2  # lying along +x
    fig = result_figure(model, result)
    ax = fig.axes[0]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("x (m)", "z (m)")
    assert ax.get_title().startswith(f"dynamic analysis: t = {DURATION:.3f} s of {DURATION:.3f} s (collapse at ")
    # a point inside the lying block, away from the joint's resultant, and the middle of the block at rest
    inside, at_rest = (final[0] + 0.3, final[2] + 0.06), (0.0, 0.5)
    path = tmp_path / "final.png"
    fig.savefig(path)
    plt.close(fig)
    moved = matplotlib.colors.to_rgb(MOVED_COLOUR)
    assert np.allclose(pixel_colour(path, fig, ax, inside), moved, atol=0.02)
    assert np.allclose(pixel_colour(path, fig, ax, at_rest), (1.0, 1.0, 1.0), atol=0.02)  # an outline, not filled


def test_a_chosen_frame_is_drawn_instead_of_the_last(toppled, tmp_path):
    model, result = toppled
    fig = result_figure(model, result, frame=0)
    ax = fig.axes[0]
    assert ax.get_title().startswith(f"dynamic analysis: t = 0.000 s of {DURATION:.3f} s")
    path = tmp_path / "first.png"
    fig.savefig(path)
    plt.close(fig)
    moved = matplotlib.colors.to_rgb(MOVED_COLOUR)
    assert np.allclose(pixel_colour(path, fig, ax, (0.0, 0.5)), moved, atol=0.02)  # upright at t = 0
    final = result.frames.position[-1, 0]
    assert not np.allclose(pixel_colour(path, fig, ax, (final[0] + 0.3, final[2] + 0.06)), moved, atol=0.1)
    for frame in (len(result.frames.t), -len(result.frames.t) - 1):
        with pytest.raises(ModelError) as error:
            result_figure(model, result, frame=frame)
        assert error.value.path == "--frame"


@pytest.fixture(scope="module")
def collapse():
    model = Model.from_dict(generators.generate("arch", voussoirs=12, load_fraction=0.1, load_angle_deg=30.0))
    return model, analyze(model, {"type": "load_factor"})


def test_a_load_factor_picture_shows_the_mechanism_its_hinges_the_load_and_lambda(collapse):
    model, result = collapse
    mechanism = result.extra["load_factor_report"]["mechanism"]
    fig = result_figure(model, result)
    ax = fig.axes[0]
    assert ax.get_title() == (f"load factor analysis: λ = {result.load_factor:.4g}, collapse mechanism at "
                              f"λ = {mechanism['factor']:.4g}")
    lines = {line.get_label(): line for line in ax.get_lines()}
    hinges = lines[f"hinges ({len(mechanism['hinges'])})"]
    assert len(mechanism["hinges"]) >= 4  # a four-hinge mechanism at least
    assert np.allclose(np.column_stack(hinges.get_data()),
                       np.array([hinge["pivot"] for hinge in mechanism["hinges"]])[:, [0, 2]])
    load = lines[f"loads (live x {mechanism['factor']:.4g})"]
    assert np.allclose(np.column_stack(load.get_data()), [np.asarray(model.loads[0]["point"])[[0, 2]]])
    # the movable blocks are drawn moved along the mechanism, the ring at rest dashed
    filled = [patch for patch in ax.patches if patch.get_fill() and patch.get_facecolor()[:3] ==
              matplotlib.colors.to_rgb(MOVED_COLOUR)]
    dashed = [patch for patch in ax.patches if not patch.get_fill()]
    assert len(filled) == len(dashed) == 12
    moved_by = [np.linalg.norm(a.get_xy().mean(axis=0) - b.get_xy().mean(axis=0)) for a, b in zip(filled, dashed)]
    assert max(moved_by) > 0.01
    plt.close(fig)


def test_every_picture_has_a_force_scale_bar(collapse, toppled):
    for model, result in (collapse, toppled):
        fig = result_figure(model, result)
        bars = [artist for artist in fig.axes[0].artists if isinstance(artist, AnchoredSizeBar)]
        assert len(bars) == 1
        label = bars[0].txt_label.get_text()
        assert label.endswith(" N") and float(label[:-2]) <= np.abs(result.interfaces.normal_force).max()
        plt.close(fig)


def test_the_cli_draws_a_chosen_frame_and_refuses_a_frame_without_a_dynamic_picture(tmp_path):
    path = tmp_path / "block.json"
    path.write_text(json.dumps(toppling_block([1.0, 0.0, 0.0]).to_dict()))
    png = tmp_path / "frame.png"
    done = subprocess.run(EXTRADOS + ["analyze", str(path), "--analysis", "dynamic", "--duration", "0.1", "--quiet",
                                      "--out", str(tmp_path / "r.json"), "--png", str(png), "--frame", "2"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for extra in (["--frame", "2"], ["--frame", "2", "--analysis", "static", "--png", str(png)]):
        refused = subprocess.run(EXTRADOS + ["analyze", str(path), "--quiet", *extra], capture_output=True, text=True,
                                 timeout=600)
        assert refused.returncode == 2 and "--frame" in refused.stderr


def test_plot_result_writes_the_figure(collapse, tmp_path):
    model, result = collapse
    plot_result(model, result, tmp_path / "collapse.png")
    assert (tmp_path / "collapse.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
