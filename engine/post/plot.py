"""A picture of a result: blocks, contact forces and joint resultants, projected on the model's main plane."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.patches import Polygon  # noqa: E402
from scipy.spatial import ConvexHull  # noqa: E402


def movable_vertices(model):
    """(n, 3) vertices of the blocks that are not supports."""
    blocks = model.to_dict()["blocks"]
    return np.concatenate([np.asarray(b["vertices"]) for b, support in zip(blocks, model.mechanics.is_support)
                           if not support])


def projection_axes(model):
    """The two world axes spanning the largest extents of the movable blocks (drop the thinnest)."""
    extent = np.ptp(movable_vertices(model), axis=0)
    thin = int(np.argmin(extent))
    return [k for k in range(3) if k != thin]


def plot_result(model, result, path, force_scale=None):
    """Write a PNG of a Result: blocks (supports grey), contact forces (blue arrows ending at their points)
    and joint resultants (red segments along their lines of action through the centres of pressure)."""
    axes = projection_axes(model)
    fig, ax = plt.subplots(figsize=(9, 6), dpi=120)
    for block, support in zip(model.to_dict()["blocks"], model.mechanics.is_support):
        pts = np.asarray(block["vertices"])[:, axes]
        hull = pts[ConvexHull(pts).vertices]
        colour = "0.75" if support else "#e9dcc4"
        ax.add_patch(Polygon(hull, closed=True, facecolor=colour, edgecolor="0.3", linewidth=0.6))
    forces, interfaces = result.contacts.force, result.interfaces
    largest = np.abs(interfaces.normal_force).max(initial=0.0)
    shown = movable_vertices(model)[:, axes]
    size = np.ptp(shown, axis=0).max()
    scale = force_scale or (0.15 * size / largest if largest > 0 else 1.0)
    if len(forces):
        points = result.contacts.point[:, axes]
        f = forces[:, axes] * scale
        ax.quiver(points[:, 0] - f[:, 0], points[:, 1] - f[:, 1], f[:, 0], f[:, 1], angles="xy",
                  scale_units="xy", scale=1, color="#1f5fbf", width=0.002, label="contact forces")
    if len(interfaces.normal_force):
        centres = interfaces.centre[:, axes]
        half = 0.5 * interfaces.force[:, axes] * scale
        # each resultant drawn along its line of action, centred on the centre of pressure
        for (cx, cy), (fx, fy) in zip(centres, half):
            ax.plot([cx - fx, cx + fx], [cy - fy, cy + fy], "-", color="#c0392b", linewidth=2.0)
        ax.plot(centres[:, 0], centres[:, 1], "o", color="#c0392b", markersize=3, label="joint resultants")
    for line in (line for line in result.thrust_lines if line["points"]):  # a line that could not be drawn has none
        pts = np.asarray(line["points"])[:, axes]
        ax.plot(pts[:, 0], pts[:, 1], "-", color="#8e44ad", linewidth=1.2, label=f"{line['name']} thrust line")
    names = "xyz"
    ax.set_xlabel(f"{names[axes[0]]} (m)")
    ax.set_ylabel(f"{names[axes[1]]} (m)")
    ax.set_aspect("equal")
    margin = 0.15 * size
    ax.set_xlim(shown[:, 0].min() - margin, shown[:, 0].max() + margin)
    ax.set_ylim(shown[:, 1].min() - margin, shown[:, 1].max() + margin)
    verdict = "stands" if result.stable else "does not stand"
    ax.set_title(f"{result.analysis} analysis: the structure {verdict}")
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
