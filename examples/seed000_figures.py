"""Drawing helpers shared by the seed 000 case-study examples (figs. 6-10): blocks, loads, thrust lines, resultants.

Everything draws in a vertical x-z plane (the examples' walls and arches lie in it),
on a matplotlib Axes, in metres.
"""
import numpy as np
from matplotlib.patches import Polygon
from scipy.spatial import ConvexHull
from scipy.spatial.transform import Rotation

BLOCK_COLOUR = "#e9dcc4"
LINE_COLOUR = "#c0392b"
CONVENTIONAL_COLOUR = "#1f5fbf"
#: Largest block displacement in a mechanism picture, as a fraction of the structure's size.
MECHANISM_DISPLACEMENT = 0.03


def block_outlines(document, axes=(0, 2), supports=False):
    """{id: (n, 2) outline} of the movable blocks (or the supports) of a model document, projected on two world axes.

    Parameters
    ----------
    document : dict
        Model document.
    axes : (int, int)
        The world axes to keep, default (x, z).
    supports : bool
        Outline the supports instead of the movable blocks.

    Returns
    -------
    dict
        Block id -> counter-clockwise convex outline (n, 2), m.
    """
    outlines = {}
    for block in document["blocks"]:
        if block["support"] != supports:
            continue
        points = np.asarray(block["vertices"], float)[:, list(axes)]
        outlines[block["id"]] = points[ConvexHull(points).vertices]
    return outlines


def posed_outline(vertices, position0, position, rotation, axes=(0, 2)):
    """Outline (n, 2) of a block's vertices (n_v, 3) moved from position0 to position with a rotation (scipy)."""
    moved = rotation.apply(np.asarray(vertices, float) - position0) + position
    points = moved[:, list(axes)]
    return points[ConvexHull(points).vertices]


def draw_blocks(ax, outlines, colour=BLOCK_COLOUR, highlight=(), highlight_colour="#d9a066", linewidth=0.5):
    """Filled outlines; ids in ``highlight`` get their own colour."""
    for block_id, outline in outlines.items():
        face = highlight_colour if block_id in highlight else colour
        ax.add_patch(Polygon(outline, closed=True, facecolor=face, edgecolor="0.3", linewidth=linewidth))


def draw_loads(ax, loads, weight, length):
    """Arrows of vertical point loads (model document entries) labelled with their share of ``weight`` in percent.

    ``length`` (m) is the arrow's length.
    """
    for load in loads:
        x, _, z = load["point"]
        share = -load["force"][2] / weight
        ax.annotate(f"{100 * share:.1f}%", xy=(x, z), xytext=(x, z + length), ha="center", fontsize=8,
                    arrowprops={"arrowstyle": "-|>", "color": CONVENTIONAL_COLOUR, "linewidth": 1.4})


def draw_effective(ax, line, label="effective thrust line", segment=None):
    """An EffectiveThrustLine: the polyline of its centres of pressure and each resultant along its line of action.

    ``segment`` (m) is the length each resultant is drawn with, by default 6 % of the line's span.
    """
    centre, direction = line.centre[:, [0, 2]], line.direction[:, [0, 2]]
    segment = segment or 0.06 * np.ptp(centre[:, 0])
    for (cx, cz), (dx, dz) in zip(centre, 0.5 * segment * direction):
        ax.plot([cx - dx, cx + dx], [cz - dz, cz + dz], "-", color=LINE_COLOUR, linewidth=0.8, alpha=0.7)
    ax.plot(centre[:, 0], centre[:, 1], "o-", color=LINE_COLOUR, markersize=2.5, linewidth=1.4, label=label)


def draw_conventional(ax, line, label, colour=CONVENTIONAL_COLOUR):
    """The funicular polygon of a conventional ThrustLine (engine.post.funicular)."""
    ax.plot(line.polygon[:, 0], line.polygon[:, 1], "--", color=colour, linewidth=1.3, label=label)


def draw_resultants(ax, interfaces, scale, colour=LINE_COLOUR, linewidth=1.6):
    """Joint resultants of a result document, each a segment along its force through its centre of pressure.

    Parameters
    ----------
    interfaces : list of dict
        Result document "interfaces" entries.
    scale : float
        m per N: a segment is scale |F| long, so lengths are proportional to the forces (seed 000 fig. 9c).
    """
    for joint in interfaces:
        centre = np.asarray(joint["centre"], float)[[0, 2]]
        half = 0.5 * scale * np.asarray(joint["force"], float)[[0, 2]]
        ax.plot([centre[0] - half[0], centre[0] + half[0]], [centre[1] - half[1], centre[1] + half[1]], "-",
                color=colour, linewidth=linewidth, solid_capstyle="butt")


def mechanism_outlines(document, result, mechanism, size):
    """Outlines moved along a mechanism's velocities: the fastest point moves MECHANISM_DISPLACEMENT * size.

    Parameters
    ----------
    document : dict
        Model document.
    result : dict
        Result document (block positions).
    mechanism : dict
        A load factor report's "mechanism" (normalised velocities per movable block).
    size : float
        The structure's size, m.
    """
    vertices = {block["id"]: block["vertices"] for block in document["blocks"]}
    positions = {block["id"]: np.asarray(block["position"], float) for block in result["blocks"]}
    step = MECHANISM_DISPLACEMENT * size
    moved = {}
    for block in mechanism["blocks"]:
        centre = positions[block["id"]]
        rotation = Rotation.from_rotvec(step * np.asarray(block["angular_velocity"]))
        moved[block["id"]] = posed_outline(vertices[block["id"]], centre,
                                           centre + step * np.asarray(block["velocity"]), rotation)
    return moved


def draw_mechanism(ax, document, result, mechanism, size):
    """Original outlines (empty) and the moved ones (filled); hinges as dots, sliding joints as crosses."""
    draw_blocks(ax, block_outlines(document), colour="none", linewidth=0.3)
    draw_blocks(ax, mechanism_outlines(document, result, mechanism, size))
    for hinge in mechanism["hinges"]:
        ax.plot(hinge["pivot"][0], hinge["pivot"][2], "o", color=LINE_COLOUR, markersize=4)
    supports = {block["id"] for block in document["blocks"] if block["support"]}
    positions = {block["id"]: np.asarray(block["position"]) for block in result["blocks"]}
    for pair in mechanism["sliding"]:
        movable = [positions[b] for b in pair if b not in supports]
        if len(movable) < len(pair):
            ax.plot(movable[0][0], 0.0, "x", color=CONVENTIONAL_COLOUR, markersize=7, mew=2)
    ax.plot([], [], "o", color=LINE_COLOUR, label="hinge")
    ax.plot([], [], "x", color=CONVENTIONAL_COLOUR, mew=2, label="sliding on a support")


def finish(ax, title, x_range, z_range, legend=True):
    """Ground line, equal axes, limits, a small title and legend."""
    ax.axhline(0.0, color="0.4", linewidth=1.0)
    ax.set_aspect("equal")
    ax.set_xlim(*x_range)
    ax.set_ylim(*z_range)
    ax.set_title(title, fontsize=9)
    ax.tick_params(labelsize=7)
    if legend:
        ax.legend(loc="lower center", fontsize=7, ncol=2)
