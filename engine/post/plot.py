"""A picture of a result that shows its answer, projected on a plane of the model.

- static and construction: the blocks, contact forces (blue arrows ending at their points), joint resultants
  (red segments along their lines of action through the centres of pressure) and thrust lines;
- dynamic: the blocks at the final frame (or a chosen one) in orange over the outline of the blocks at
  rest, in the plane of the largest motion; the forces and thrust lines of the final state on the final frame;
- load factor: the collapse mechanism (engine.analysis.load_factor.mechanism) drawn moved over the
  outline at rest, its hinges, the live loads at the collapse factor and lambda in the title.

Every picture has a force scale bar. `result_figure` returns the matplotlib Figure, `plot_result` writes a PNG.
"""
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.patches import Polygon  # noqa: E402
from mpl_toolkits.axes_grid1.anchored_artists import AnchoredSizeBar  # noqa: E402
from scipy.spatial import ConvexHull  # noqa: E402

from extrados.engine.post.poses import (  # noqa: E402
    drawn_vertices, frame_vertices, mechanism_vertices, motion_axes, shown_frame)

BLOCK_COLOUR = "#e9dcc4"
SUPPORT_COLOUR = "#bfbfbf"
MOVED_COLOUR = "#e67e22"  # the blocks at the drawn frame, or moved along the mechanism
FORCE_COLOUR, RESULTANT_COLOUR, LOAD_COLOUR, HINGE_COLOUR = "#1f5fbf", "#c0392b", "#117a65", "black"
#: The largest joint force is drawn this fraction of the model's extent long.
FORCE_LENGTH = 0.15


def projection_axes(vertices, support):
    """The two world axes spanning the largest extents of the movable blocks (drop the thinnest)."""
    extent = np.ptp(np.concatenate([v for v, fixed in zip(vertices, support) if not fixed]), axis=0)
    thin = int(np.argmin(extent))
    return [k for k in range(3) if k != thin]


def collapse_mechanism(result):
    """The mechanism of a load factor result (None when max_factor stood, or for another analysis)."""
    return result.extra.get("load_factor_report", {}).get("mechanism")


def nice_force(largest):
    """A round force (1, 2 or 5 times a power of ten, N) at most ``largest`` and over a fifth of it."""
    power = 10.0 ** math.floor(math.log10(largest))
    return max(step * power for step in (1.0, 2.0, 5.0) if step * power <= largest)


def outline(block, axes):
    """(n, 2) corners of a block's projection on ``axes``: the convex hull of its projected vertices."""
    points = block[:, axes]
    return points[ConvexHull(points).vertices]


def draw_blocks(ax, vertices, support, axes, colour):
    """The blocks filled, movable ones in ``colour``, supports grey."""
    for block, fixed in zip(vertices, support):
        ax.add_patch(Polygon(outline(block, axes), closed=True, facecolor=SUPPORT_COLOUR if fixed else colour,
                             edgecolor="0.3", linewidth=0.6))


def draw_rest_outline(ax, vertices, support, axes):
    """The movable blocks at rest as dashed outlines."""
    for block in (block for block, fixed in zip(vertices, support) if not fixed):
        ax.add_patch(Polygon(outline(block, axes), closed=True, fill=False, edgecolor="0.2", linewidth=0.8,
                             linestyle="--"))
    ax.plot([], [], "--", color="0.2", linewidth=0.8, label="at rest")


def draw_forces(ax, result, axes, scale):
    """Contact forces, joint resultants and thrust lines of the result's final state."""
    forces, interfaces = result.contacts.force, result.interfaces
    if len(forces):
        points = result.contacts.point[:, axes]
        f = forces[:, axes] * scale
        ax.quiver(points[:, 0] - f[:, 0], points[:, 1] - f[:, 1], f[:, 0], f[:, 1], angles="xy",
                  scale_units="xy", scale=1, color=FORCE_COLOUR, width=0.002, label="contact forces")
    if len(interfaces.normal_force):
        centres = interfaces.centre[:, axes]
        half = 0.5 * interfaces.force[:, axes] * scale
        # each resultant drawn along its line of action, centred on the centre of pressure
        for (cx, cy), (fx, fy) in zip(centres, half):
            ax.plot([cx - fx, cx + fx], [cy - fy, cy + fy], "-", color=RESULTANT_COLOUR, linewidth=2.0)
        ax.plot(centres[:, 0], centres[:, 1], "o", color=RESULTANT_COLOUR, markersize=3, label="joint resultants")
    for line in (line for line in result.thrust_lines if line["points"]):  # a line that could not be drawn has none
        pts = np.asarray(line["points"])[:, axes]
        ax.plot(pts[:, 0], pts[:, 1], "-", color="#8e44ad", linewidth=1.2, label=f"{line['name']} thrust line")


def draw_loads(ax, model, axes, scale, live_factor):
    """The model's point loads as arrows ending at their points, the live ones times ``live_factor``."""
    loads = [load for load in model.loads if load["kind"] == "point"]
    if not loads:
        return
    point = np.array([load["point"] for load in loads], float)[:, axes]
    force = np.array([np.asarray(load["force"], float) * (live_factor if model.is_live(load) else 1.0)
                      for load in loads])[:, axes] * scale
    ax.quiver(point[:, 0] - force[:, 0], point[:, 1] - force[:, 1], force[:, 0], force[:, 1], angles="xy",
              scale_units="xy", scale=1, color=LOAD_COLOUR, width=0.006)
    # a marker at each point of application: a small load's arrow may be short at the forces' scale
    ax.plot(point[:, 0], point[:, 1], "v", color=LOAD_COLOUR, markersize=7, linestyle="none",
            label=f"loads (live x {live_factor:.4g})" if live_factor != 1.0 else "loads")


def draw_hinges(ax, mechanism, axes):
    """The mechanism's hinges: a ring at each pivot."""
    if mechanism["hinges"]:
        pivots = np.array([hinge["pivot"] for hinge in mechanism["hinges"]])[:, axes]
        ax.plot(pivots[:, 0], pivots[:, 1], "o", markersize=8, markerfacecolor="white", markeredgecolor=HINGE_COLOUR,
                markeredgewidth=1.5, linestyle="none", label=f"hinges ({len(pivots)})")


def draw_scale_bar(ax, largest, scale):
    """A bar as long as a round force (N) drawn at ``scale`` (m per N)."""
    force = nice_force(largest)
    ax.add_artist(AnchoredSizeBar(ax.transData, force * scale, f"{force:g} N", "lower left", pad=0.4, sep=4,
                                  color="black", frameon=False, size_vertical=0))


def dynamic_title(result, k):
    events = result.extra.get("events", {})
    t, end = result.frames.t[k], result.frames.t[-1]
    verdict = f"collapse at {events['collapse']:.3f} s" if events.get("collapse") is not None else "no collapse"
    return f"dynamic analysis: t = {t:.3f} s of {end:.3f} s ({verdict})"


def load_factor_title(result, mechanism):
    report = result.extra["load_factor_report"]
    if mechanism is None:
        return f"load factor analysis: λ ≥ {report['max_factor']:.4g}, no collapse up to max_factor"
    factor = "none: the dead loads do not stand" if result.load_factor is None else f"{result.load_factor:.4g}"
    return f"load factor analysis: λ = {factor}, collapse mechanism at λ = {mechanism['factor']:.4g}"


def result_figure(model, result, frame=None, force_scale=None):
    """The picture of a Result as a matplotlib Figure (module docstring).

    Parameters
    ----------
    model : Model
    result : Result
    frame : int, optional
        Dynamic results: the output frame drawn (negative counts from the end); default the last.
    force_scale : float, optional
        m per N of the force arrows; default: the largest joint force FORCE_LENGTH of the model's extent.

    Raises
    ------
    ModelError
        At ``--frame`` for a frame the result does not have.
    """
    rest, support = drawn_vertices(model), model.mechanics.is_support
    k, mechanism = shown_frame(result, frame), collapse_mechanism(result)
    moved = None
    if k is not None:
        moved = frame_vertices(model, result.frames, k)
    elif mechanism is not None:
        moved = mechanism_vertices(model, result.blocks.position, mechanism)
    axes = (motion_axes(rest, moved, support) if moved is not None else None) or projection_axes(rest, support)

    fig, ax = plt.subplots(figsize=(9, 6), dpi=120)
    if moved is None:
        draw_blocks(ax, rest, support, axes, BLOCK_COLOUR)
    else:
        draw_blocks(ax, moved, support, axes, MOVED_COLOUR)
        draw_rest_outline(ax, rest, support, axes)
    shown = np.concatenate([v for configuration in (rest, moved or []) for v, fixed in zip(configuration, support)
                            if not fixed])[:, axes]
    size = np.ptp(shown, axis=0).max()
    largest = np.abs(result.interfaces.normal_force).max(initial=0.0)
    scale = force_scale or (FORCE_LENGTH * size / largest if largest > 0 else 1.0)
    if k is None or k == len(result.frames.t) - 1:
        draw_forces(ax, result, axes, scale)
    if k is None:  # a dynamic frame's loads have moved with their blocks
        draw_loads(ax, model, axes, scale, 1.0 if mechanism is None else mechanism["factor"])
    if mechanism is not None:
        draw_hinges(ax, mechanism, axes)
    if largest > 0:
        draw_scale_bar(ax, largest, scale)
    names = "xyz"
    ax.set_xlabel(f"{names[axes[0]]} (m)")
    ax.set_ylabel(f"{names[axes[1]]} (m)")
    ax.set_aspect("equal")
    margin = 0.15 * size
    ax.set_xlim(shown[:, 0].min() - margin, shown[:, 0].max() + margin)
    ax.set_ylim(shown[:, 1].min() - margin, shown[:, 1].max() + margin)
    if k is not None:
        ax.set_title(dynamic_title(result, k))
    elif result.analysis == "load_factor":
        ax.set_title(load_factor_title(result, mechanism))
    else:
        ax.set_title(f"{result.analysis} analysis: the structure {'stands' if result.stable else 'does not stand'}")
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    return fig


def plot_result(model, result, path, frame=None, force_scale=None):
    """Write the PNG of `result_figure` to ``path``."""
    fig = result_figure(model, result, frame, force_scale)
    fig.savefig(path)
    plt.close(fig)
