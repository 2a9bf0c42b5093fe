"""Draw the 24 x 24 px icons of the Extrados Grasshopper components.

Every component folder ``gh_components/components/<Folder>/`` gets one
``icon.png``: a small RGBA pictogram on a transparent background.  All icons
share one palette and one way of drawing (sandstone blocks with dark edges,
grey supports, coloured arrows for forces), so that the components read as a
family on the Grasshopper canvas.

The pictograms are drawn with :mod:`PIL.ImageDraw` at ``SCALE`` times the final
size and then reduced with a Lanczos filter, which gives anti-aliased edges.
The output is deterministic: running the script again writes byte-identical
files (no timestamps or other metadata go into the PNGs).

Usage
-----
From the repository root::

    .venv/bin/python gh_components/tools/draw_icons.py            # write all icons
    .venv/bin/python gh_components/tools/draw_icons.py --check    # and print a table
    .venv/bin/python gh_components/tools/draw_icons.py --sheet /tmp/icons_sheet.png

Coordinates
-----------
All drawing functions take coordinates in *icon pixels* (0 to 23).  Integer
coordinates name pixel **centres**, so a one-pixel edge drawn at an integer
coordinate stays crisp after the reduction, and two blocks that share a
boundary share one edge line.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Callable, Iterable, Sequence

from PIL import Image, ImageDraw

# --------------------------------------------------------------------------- #
# Size and resolution
# --------------------------------------------------------------------------- #
ICON_SIZE = 24  #: final icon side in pixels (Grasshopper's standard icon size)
SCALE = 4  #: supersampling factor: draw at SCALE x ICON_SIZE, then downsample
EDGE = 1.0  #: width of block edges, in icon pixels
SHEET_ZOOM = 8  #: magnification of the icons on the contact sheet
SHEET_GAP = 2  #: gap between icons on the contact sheet, in icon pixels

# --------------------------------------------------------------------------- #
# Palette (RGBA)
# --------------------------------------------------------------------------- #
SAND = (0xDC, 0xC7, 0xA1, 255)  #: sandstone blocks
SAND_LIGHT = (0xEE, 0xE2, 0xCB, 255)  #: lit top faces of blocks (3D views)
EDGE_COLOUR = (0x4B, 0x4F, 0x54, 255)  #: dark block edges, outlines
SUPPORT = (0xAE, 0xB5, 0xBD, 255)  #: supports, ground
CONTACT = (0x1F, 0x6F, 0xD1, 255)  #: contact forces (blue)
SLIP = (0xF2, 0x8C, 0x28, 255)  #: slip, friction (orange)
RESULTANT = (0x7B, 0x2C, 0xBF, 255)  #: joint resultants (purple)
THRUST = (0xD6, 0x28, 0x28, 255)  #: thrust lines (red)
LOAD = (0x22, 0x22, 0x22, 255)  #: loads, generic black glyphs
OK_GREEN = (0x2A, 0x9D, 0x4B, 255)  #: "analysis done" check mark (only accent outside the brief's palette)
TRANSPARENT = (0, 0, 0, 0)

Point = tuple[float, float]
Colour = tuple[int, int, int, int]


# --------------------------------------------------------------------------- #
# Drawing primitives
# --------------------------------------------------------------------------- #
class Canvas:
    """A supersampled RGBA drawing surface addressed in icon pixels.

    Parameters
    ----------
    size : int
        Side of the final icon in pixels.
    scale : int
        Supersampling factor; drawing happens on a ``size * scale`` image.
    """

    def __init__(self, size: int = ICON_SIZE, scale: int = SCALE) -> None:
        self.size = size
        self.scale = scale
        self.image = Image.new("RGBA", (size * scale, size * scale), TRANSPARENT)
        self.draw = ImageDraw.Draw(self.image)

    # -- coordinate mapping ------------------------------------------------- #
    def hi(self, v: float) -> float:
        """Map one icon coordinate (pixel centre at integers) to the hi-res image."""
        return (v + 0.5) * self.scale

    def pt(self, p: Point) -> Point:
        """Map a point from icon pixels to hi-res pixels."""
        return (self.hi(p[0]), self.hi(p[1]))

    def w(self, width: float) -> int:
        """Map a line width from icon pixels to hi-res pixels (at least 1)."""
        return max(1, round(width * self.scale))

    # -- shapes ------------------------------------------------------------- #
    def rect(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        fill: Colour | None = SAND,
        outline: Colour | None = EDGE_COLOUR,
        width: float = EDGE,
    ) -> None:
        """Axis-aligned rectangle whose edge lines are centred on its boundary.

        Parameters
        ----------
        x0, y0, x1, y1 : float
            Boundary in icon pixels (``x0 < x1``, ``y0 < y1``).
        fill, outline : colour or None
            Interior and edge colours; ``None`` leaves that part out.
        width : float
            Edge width in icon pixels.
        """
        half = self.w(width) / 2
        if fill is not None:
            self.draw.rectangle(
                [self.hi(x0), self.hi(y0), self.hi(x1) - 1, self.hi(y1) - 1], fill=fill
            )
        if outline is not None:
            self.draw.rectangle(
                [self.hi(x0) - half, self.hi(y0) - half, self.hi(x1) + half - 1, self.hi(y1) + half - 1],
                outline=outline,
                width=self.w(width),
            )

    def polygon(
        self,
        points: Sequence[Point],
        fill: Colour | None = SAND,
        outline: Colour | None = EDGE_COLOUR,
        width: float = EDGE,
    ) -> None:
        """Filled polygon with an edge line centred on its boundary."""
        hi_points = [self.pt(p) for p in points]
        if fill is not None:
            self.draw.polygon(hi_points, fill=fill)
        if outline is not None:
            self.draw.line(hi_points + hi_points[:1], fill=outline, width=self.w(width), joint="curve")
            # round the seam where the closed polyline starts and ends
            self.dot(points[0], width / 2, outline)

    def line(self, points: Sequence[Point], colour: Colour = LOAD, width: float = EDGE) -> None:
        """Open polyline with rounded joints and rounded ends."""
        hi_points = [self.pt(p) for p in points]
        self.draw.line(hi_points, fill=colour, width=self.w(width), joint="curve")
        for p in (points[0], points[-1]):  # round caps
            self.dot(p, width / 2, colour)

    def dot(self, centre: Point, radius: float, colour: Colour) -> None:
        """Filled disc."""
        x, y = self.pt(centre)
        r = radius * self.scale
        self.draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)

    def ellipse(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        fill: Colour | None = SAND,
        outline: Colour | None = EDGE_COLOUR,
        width: float = EDGE,
    ) -> None:
        """Ellipse inscribed in a box, edge centred on its boundary."""
        half = self.w(width) / 2
        box = [self.hi(x0) - half, self.hi(y0) - half, self.hi(x1) + half, self.hi(y1) + half]
        self.draw.ellipse(box, fill=fill, outline=outline, width=self.w(width) if outline else 0)

    def arrow(
        self,
        tail: Point,
        head: Point,
        colour: Colour,
        width: float = 1.5,
        head_length: float = 4.0,
        head_width: float = 5.0,
    ) -> None:
        """Straight arrow from ``tail`` to ``head`` with a filled triangular head.

        Parameters
        ----------
        tail, head : (float, float)
            End points in icon pixels; the tip of the head lies on ``head``.
        colour : colour
            Shaft and head colour.
        width : float
            Shaft width in icon pixels.
        head_length, head_width : float
            Size of the arrow head in icon pixels.
        """
        (tx, ty), (hx, hy) = tail, head
        length = math.hypot(hx - tx, hy - ty)
        ux, uy = (hx - tx) / length, (hy - ty) / length  # unit direction
        nx, ny = -uy, ux  # unit normal
        base = (hx - ux * head_length, hy - uy * head_length)
        # the shaft stops a little inside the head so its round cap stays hidden
        shaft_end = (base[0] + ux * width / 2, base[1] + uy * width / 2)
        self.line([tail, shaft_end], colour, width)
        half = head_width / 2
        self.polygon(
            [head, (base[0] + nx * half, base[1] + ny * half), (base[0] - nx * half, base[1] - ny * half)],
            fill=colour,
            outline=None,
        )

    def hatch(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        spacing: float,
        colour: Colour = EDGE_COLOUR,
        width: float = 0.75,
    ) -> None:
        """45-degree hatching clipped to a rectangle (lines go down-left)."""
        layer = Image.new("RGBA", self.image.size, TRANSPARENT)
        layer_draw = ImageDraw.Draw(layer)
        height = y1 - y0
        x = x0 - height
        while x <= x1 + height:
            layer_draw.line(
                [self.pt((x + height, y0 - 1)), self.pt((x, y1 + 1))],  # run past the box; clipped below
                fill=colour,
                width=self.w(width),
            )
            x += spacing
        box = (int(self.hi(x0)), int(self.hi(y0)), int(self.hi(x1)), int(self.hi(y1)))
        self.image.alpha_composite(layer, dest=box[:2], source=box)

    def render(self) -> Image.Image:
        """Downsample the hi-res drawing to the final anti-aliased icon."""
        return self.image.resize((self.size, self.size), Image.Resampling.LANCZOS)


# --------------------------------------------------------------------------- #
# Geometry helpers and composite glyphs
# --------------------------------------------------------------------------- #
def arc_points(cx: float, cy: float, r: float, a0: float, a1: float, n: int = 16) -> list[Point]:
    """Points on a circular arc, angles in degrees counter-clockwise from +x (y up)."""
    return [
        (cx + r * math.cos(math.radians(a)), cy - r * math.sin(math.radians(a)))
        for a in (a0 + (a1 - a0) * i / n for i in range(n + 1))
    ]


def voussoir(cx: float, cy: float, r_in: float, r_out: float, a0: float, a1: float) -> list[Point]:
    """Outline of an annular sector (one voussoir) between angles ``a0`` and ``a1``."""
    steps = 6  # arc subdivisions per voussoir; plenty at 24 px
    return arc_points(cx, cy, r_out, a0, a1, steps) + arc_points(cx, cy, r_in, a1, a0, steps)


def rotated_rect(cx: float, cy: float, w: float, h: float, angle: float) -> list[Point]:
    """Corners of a ``w`` x ``h`` rectangle centred on (cx, cy), turned ``angle`` degrees clockwise."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    corners = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    return [(cx + x * c - y * s, cy + x * s + y * c) for x, y in corners]


def ground(cv: Canvas, x0: float, x1: float, y: float, depth: float = 4.0) -> None:
    """Grey hatched ground strip whose top surface lies at ``y``."""
    cv.rect(x0, y, x1, y + depth, fill=SUPPORT, outline=None)
    cv.hatch(x0, y, x1, y + depth, spacing=3.0)
    cv.line([(x0, y), (x1, y)], EDGE_COLOUR, EDGE)


def arch(cv: Canvas, cx: float, cy: float, r_in: float, r_out: float, n: int) -> None:
    """Semicircular arch of ``n`` voussoirs springing at height ``cy``."""
    for i in range(n):
        a0, a1 = 180.0 * i / n, 180.0 * (i + 1) / n
        cv.polygon(voussoir(cx, cy, r_in, r_out, a0, a1))


#: geometry of the arch on piers shared by the Arch and ThrustLines icons:
#: centre x, springing height, intrados and extrados radii, foot of the piers
ARCH_CX, ARCH_SPRING, ARCH_R_IN, ARCH_R_OUT, ARCH_FOOT = 11.5, 14, 5.5, 10.5, 22


def arch_on_piers(cv: Canvas, n: int = 7) -> None:
    """Semicircular arch of ``n`` voussoirs standing on two rectangular piers."""
    cx, cy, r_in, r_out = ARCH_CX, ARCH_SPRING, ARCH_R_IN, ARCH_R_OUT
    cv.rect(cx - r_out, cy, cx - r_in, ARCH_FOOT)
    cv.rect(cx + r_in, cy, cx + r_out, ARCH_FOOT)
    arch(cv, cx, cy, r_in, r_out, n)


def lerp(c0: Colour, c1: Colour, t: float) -> Colour:
    """Linear interpolation between two colours, ``t`` in [0, 1]."""
    return tuple(round(a + (b - a) * t) for a, b in zip(c0, c1))  # type: ignore[return-value]


# --------------------------------------------------------------------------- #
# The icons, one function per component folder
#
# The plain numbers in these functions are layout coordinates in icon pixels
# (0 = left/top pixel centre, 23 = right/bottom), placed by eye on the 24 x 24
# grid; sizes that carry a meaning of their own are named and commented.
# --------------------------------------------------------------------------- #
def icon_service(cv: Canvas) -> None:
    """Extrados_Service: a small server box with a cable and plug (the link to the service)."""
    # two rack units
    for y0 in (2, 9):
        cv.rect(2, y0, 15, y0 + 7, fill=SUPPORT)
        cv.line([(5, y0 + 3.5), (10, y0 + 3.5)], EDGE_COLOUR, 1.0)  # drive slot
        cv.dot((12.5, y0 + 3.5), 1.1, CONTACT)  # status LED
    # cable from the box down and to the right, into a plug
    cv.line([(8.5, 16), (8.5, 19), (11, 21), (14, 21)], LOAD, 1.5)
    cv.rect(14, 18, 18, 23, fill=LOAD, outline=LOAD)
    for y in (19, 22):  # prongs
        cv.line([(18, y), (22, y)], LOAD, 1.0)


def icon_blocks(cv: Canvas) -> None:
    """Extrados_Blocks: three stacked sandstone blocks."""
    cv.rect(2, 16, 21, 22)
    cv.rect(4, 10, 17, 16)
    cv.rect(8, 4, 19, 10)


def icon_survey(cv: Canvas) -> None:
    """Extrados_Survey: a stone's face dotted with surveyed points (blue) in front of the block they make."""
    cv.rect(7, 3, 22, 14, fill=SAND_LIGHT)   # the block behind, extruded into the wall
    cv.rect(2, 8, 17, 20)                    # the surveyed face
    for x, y in ((4, 10), (8, 11), (13, 10), (15, 13), (5, 15), (10, 15), (14, 18), (6, 18), (11, 12)):
        cv.dot((x + 0.5, y), 0.9, CONTACT)


def icon_supports(cv: Canvas) -> None:
    """Extrados_Supports: a block resting on hatched grey ground."""
    cv.rect(6, 5, 17, 15)
    ground(cv, 1, 22, 15, depth=6)


def icon_material(cv: Canvas) -> None:
    """Extrados_Material: a block on a support with an orange friction cone at the contact."""
    cv.rect(4, 3, 19, 16)
    ground(cv, 1, 22, 16, depth=5)
    apex = (11.5, 16)
    half_angle = 32.0  # degrees; cone of friction coefficient tan(32 deg) ~ 0.6
    height = 11.0  # cone height in icon pixels
    spread = height * math.tan(math.radians(half_angle))
    left, right = (apex[0] - spread, apex[1] - height), (apex[0] + spread, apex[1] - height)
    translucent_slip = SLIP[:3] + (110,)  # alpha 110/255: the block shows through
    cv.polygon([apex, right, left], fill=translucent_slip, outline=None)
    cv.line([left, apex, right], SLIP, 1.5)


def icon_loads(cv: Canvas) -> None:
    """Extrados_Loads: a block on the ground with a black downward arrow."""
    cv.rect(5, 12, 18, 19)
    ground(cv, 1, 22, 19, depth=4)
    cv.arrow((11.5, 0.5), (11.5, 11), LOAD, width=2.0, head_length=5.0, head_width=7.0)


def icon_ground_motion(cv: Canvas) -> None:
    """Extrados_GroundMotion: hatched ground, a sine wave and a horizontal double arrow."""
    ground(cv, 1, 22, 17, depth=5)
    x0, x1, mid_y = 2, 22, 10  # extent and centre line of the wave
    amplitude, period = 3.0, 13.0  # icon pixels: about one and a half waves across the icon
    samples = 40  # polyline segments
    wave = [
        (x, mid_y - amplitude * math.sin(2 * math.pi * (x - x0) / period))
        for x in (x0 + (x1 - x0) * i / samples for i in range(samples + 1))
    ]
    cv.line(wave, SLIP, 1.5)
    # double arrow: two heads back to back
    cv.arrow((11.5, 3), (2, 3), LOAD, width=1.25, head_length=3.0, head_width=4.0)
    cv.arrow((11.5, 3), (21, 3), LOAD, width=1.25, head_length=3.0, head_width=4.0)


def icon_analyze(cv: Canvas) -> None:
    """Extrados_Analyze: a small arch on the ground with a green check mark."""
    arch(cv, 9, 19, 4, 8, 5)
    ground(cv, 0, 19, 19, depth=4)
    cv.line([(13, 5), (16, 8.5), (22, 1)], OK_GREEN, 2.5)


def icon_simulate(cv: Canvas) -> None:
    """Extrados_Simulate: a block standing, a block toppling off it, motion lines behind."""
    ground(cv, 1, 22, 20, depth=3)
    cv.rect(2, 12, 11, 20)
    cv.polygon(rotated_rect(15.5, 12.5, 8, 8, 28))  # toppling block, turned 28 deg
    for (x0, y0), (x1, y1) in (((5, 2), (10, 5)), ((3, 6), (8, 8.5)), ((11, 0.5), (14, 3.5))):
        cv.line([(x0, y0), (x1, y1)], EDGE_COLOUR, 1.0)  # motion streaks


def icon_construct(cv: Canvas) -> None:
    """Extrados_Construct: two courses standing on the ground, a third block lowered onto them (an arrow down)."""
    ground(cv, 1, 23, 21)
    cv.rect(3, 15, 21, 21)
    cv.rect(6, 9, 18, 15)
    cv.rect(8, 1, 16, 5)  # the next block, on its way down
    cv.arrow((12, 5), (12, 8.5), LOAD, width=1.25, head_length=2.5, head_width=3.5)


def icon_batch(cv: Canvas) -> None:
    """Extrados_Batch: a table of results, three rows of cells, the last column ticked green or red."""
    for row in range(3):
        y0 = 4 + 6 * row
        for col, (x0, x1) in enumerate(((2, 9), (9, 16), (16, 22))):
            fill = (OK_GREEN if row != 1 else THRUST) if col == 2 else SAND_LIGHT
            cv.rect(x0, y0, x1, y0 + 6, fill=fill)


def icon_contact_forces(cv: Canvas) -> None:
    """Extrados_ContactForces: two blocks pulled apart, blue contact forces in the joint."""
    cv.rect(2, 2, 21, 8)
    cv.rect(2, 16, 21, 22)
    # a linearly varying pressure: arrow lengths fall from left to right
    for x, tail in ((4.5, 15.5), (11.5, 14.5), (18.5, 13.0)):
        cv.arrow((x, tail), (x, 8.5), CONTACT, width=1.5, head_length=3.0, head_width=4.0)


def icon_joint_resultants(cv: Canvas) -> None:
    """Extrados_JointResultants: two blocks on one joint, a single purple resultant through it."""
    joint_y = 12
    cv.rect(2, 3, 21, joint_y)
    cv.rect(2, joint_y, 21, 21)
    centre_of_pressure = (13.5, joint_y)
    lean = 0.4  # horizontal over vertical component of the resultant
    below, above = 8.0, 8.5  # reach of the arrow under and over the joint, in icon pixels
    tail = (centre_of_pressure[0] + lean * below, joint_y + below)
    head = (centre_of_pressure[0] - lean * above, joint_y - above)
    cv.arrow(tail, head, RESULTANT, width=2.0, head_length=5.0, head_width=6.0)


def icon_thrust_lines(cv: Canvas) -> None:
    """Extrados_ThrustLines: an arch on piers with a red thrust line inside ring and piers."""
    arch_on_piers(cv)
    cx, cy = ARCH_CX, ARCH_SPRING
    r_mid = (ARCH_R_IN + ARCH_R_OUT) / 2
    swing = 1.0  # how far the line strays from the ring's mid-line (kept inside the ring)
    ring = [  # near the intrados at the springings, near the extrados at the crown
        (cx + r * math.cos(math.radians(a)), cy - r * math.sin(math.radians(a)))
        for a in range(0, 181, 6)  # every 6 degrees from the right springing to the left
        for r in [r_mid - swing * math.cos(math.radians(2 * a))]
    ]
    # below the springings the line runs on down the piers, leaning outwards (horizontal thrust)
    lean = 1.5  # outward drift over the pier height, in icon pixels
    right_foot = (ring[0][0] + lean, ARCH_FOOT - 1)
    left_foot = (ring[-1][0] - lean, ARCH_FOOT - 1)
    cv.line([right_foot] + ring + [left_foot], THRUST, 1.5)


def icon_mechanism(cv: Canvas) -> None:
    """Extrados_Mechanism: an arch on piers with the four hinges of its collapse mechanism as dark dots, and an
    orange arrow of the crown's motion."""
    arch_on_piers(cv)
    cx, cy = ARCH_CX, ARCH_SPRING
    # hinges alternate between the intrados and the extrados: the classic four-hinge mechanism
    for angle, radius in ((0, ARCH_R_OUT), (55, ARCH_R_IN), (125, ARCH_R_OUT), (180, ARCH_R_IN)):
        x = cx + radius * math.cos(math.radians(angle))
        y = cy - radius * math.sin(math.radians(angle))
        cv.dot((x, y), 1.6, LOAD)
    crown = (cx, cy - (ARCH_R_IN + ARCH_R_OUT) / 2)
    cv.arrow(crown, (crown[0] + 5.0, crown[1] + 4.0), SLIP, width=1.5, head_length=3.0, head_width=4.0)


def icon_block_stress(cv: Canvas) -> None:
    """Extrados_BlockStress: a block with a blue-to-red stress gradient and principal axes."""
    x0, y0, x1, y1 = 2, 3, 21, 20
    low, high = CONTACT, THRUST
    mid = (0xF4, 0xEC, 0xDC, 255)  # pale sandstone in the middle of the scale
    for i in range(round(cv.hi(y0)), round(cv.hi(y1))):  # one hi-res row at a time
        t = (i - cv.hi(y0)) / (cv.hi(y1) - cv.hi(y0))
        colour = lerp(high, mid, 2 * t) if t < 0.5 else lerp(mid, low, 2 * t - 1)
        cv.draw.line([(cv.hi(x0), i), (cv.hi(x1), i)], fill=colour)
    cv.rect(x0, y0, x1, y1, fill=None)
    # principal axes, turned 20 degrees: the major one a double arrow, the minor one a bar
    c, s = math.cos(math.radians(20)), math.sin(math.radians(20))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    major, minor = 7.5, 4.0  # half-lengths in icon pixels
    for sign in (1, -1):
        cv.arrow((cx, cy), (cx + sign * major * c, cy - sign * major * s), LOAD,
                 width=1.25, head_length=3.0, head_width=4.0)
    cv.line([(cx - minor * s, cy - minor * c), (cx + minor * s, cy + minor * c)], LOAD, 1.25)


def icon_blocks_at_frame(cv: Canvas) -> None:
    """Extrados_BlocksAtFrame: two stacked blocks above a timeline slider."""
    cv.rect(3, 9, 20, 15)
    cv.rect(8, 3, 18, 9)  # upper block, shifted as if caught mid-slide
    track_y = 20
    cv.line([(2, track_y), (21, track_y)], SUPPORT, 2.0)  # timeline
    cv.line([(2, track_y), (14, track_y)], CONTACT, 2.0)  # elapsed part
    for x in (2, 21):  # end ticks
        cv.line([(x, track_y - 2), (x, track_y + 2)], EDGE_COLOUR, 1.0)
    cv.ellipse(12, track_y - 2.5, 16, track_y + 2.5, fill=(255, 255, 255, 255))  # slider knob


def icon_block_entities(cv: Canvas) -> None:
    """Extrados_BlockEntities: a wall of three courses, each in its own colour (blocks by entity)."""
    x0, x1, course, unit = 2, 22, 6, 10  # wall extent, course height, block length
    for row, colour in enumerate((THRUST, CONTACT, OK_GREEN)):
        y0 = 21 - course * (row + 1)
        x = x0 - (unit / 2 if row % 2 else 0)  # the middle course starts half a block early
        while x < x1:
            cv.rect(max(x, x0), y0, min(x + unit, x1), y0 + course, fill=colour)
            x += unit


def icon_arch(cv: Canvas) -> None:
    """Extrados_Arch: a semicircular arch of seven voussoirs on two piers."""
    arch_on_piers(cv)


def icon_wall(cv: Canvas) -> None:
    """Extrados_Wall: a running-bond wall, five courses, half bats at the ends."""
    x0, x1, course, unit = 2, 22, 4, 8  # wall extent, course height, block length
    for row in range(5):
        y0 = 22 - course * (row + 1)
        x = x0 - (unit / 2 if row % 2 else 0)  # odd courses start half a block early
        while x < x1:
            cv.rect(max(x, x0), y0, min(x + unit, x1), y0 + course)
            x += unit


def icon_spandrel_wall(cv: Canvas) -> None:
    """Extrados_SpandrelWall: a coursed wall with an arched opening."""
    icon_wall(cv)
    cx, cy, r_in, r_out = 12, 22, 5.0, 9.0
    # clear the opening and the arch ring out of the wall
    clear = Image.new("L", cv.image.size, 0)
    ImageDraw.Draw(clear).pieslice(
        [cv.hi(cx - r_out), cv.hi(cy - r_out), cv.hi(cx + r_out), cv.hi(cy + r_out)], 180, 360, fill=255
    )
    cv.image.paste(TRANSPARENT, mask=clear)
    arch(cv, cx, cy, r_in, r_out, 5)


def icon_cylinder(cv: Canvas) -> None:
    """Extrados_Cylinder: a hollow cylindrical tower of stone courses, seen from slightly above."""
    x0, x1 = 3, 20  # outer silhouette
    cx, rx = (x0 + x1) / 2, (x1 - x0) / 2  # centre line and horizontal radius
    ry = 3.0  # vertical half-axis of the ellipses: how far the view looks down
    top, bottom, courses = 5, 20, 3
    height = (bottom - top) / courses

    def front_arc(y: float) -> list[Point]:
        """Front half of the ring outline at height ``y`` (the part facing the viewer)."""
        steps = 24  # segments of the half-ellipse
        return [(cx + rx * math.cos(math.pi * i / steps), y + ry * math.sin(math.pi * i / steps))
                for i in range(steps + 1)]

    # body: the bottom half-ellipse and the rectangle above it, then the side edges
    cv.ellipse(x0, bottom - ry, x1, bottom + ry)
    cv.rect(x0, top, x1, bottom, outline=None)
    cv.line([(x0, top), (x0, bottom)], EDGE_COLOUR)
    cv.line([(x1, top), (x1, bottom)], EDGE_COLOUR)
    for k in range(1, courses):  # bed joints
        cv.line(front_arc(top + k * height), EDGE_COLOUR)
    for k in range(courses):  # head joints, staggered from course to course
        y_top = top + k * height
        for u in ((-0.4, 0.4) if k % 2 else (0.0,)):  # position across the face, -1 (left) .. 1 (right)
            x = cx + u * rx
            dy = ry * math.sqrt(1 - u * u)  # the joint starts and ends on the bed-joint ellipses
            cv.line([(x, y_top + dy), (x, y_top + height + dy)], EDGE_COLOUR)
    # top face: a lit ring around the dark hollow core
    wall = 4  # wall thickness seen at the sides, in icon pixels
    cv.ellipse(x0, top - ry, x1, top + ry, fill=SAND_LIGHT)
    core_ry = ry * (rx - wall) / rx  # same proportions as the outer ellipse
    cv.ellipse(x0 + wall, top - core_ry, x1 - wall, top + core_ry, fill=EDGE_COLOUR)


#: component folder -> drawing function, in the order of the Grasshopper ribbon
ICONS: dict[str, Callable[[Canvas], None]] = {
    "Extrados_Service": icon_service,
    "Extrados_Blocks": icon_blocks,
    "Extrados_Survey": icon_survey,
    "Extrados_Supports": icon_supports,
    "Extrados_Material": icon_material,
    "Extrados_Loads": icon_loads,
    "Extrados_GroundMotion": icon_ground_motion,
    "Extrados_Analyze": icon_analyze,
    "Extrados_Simulate": icon_simulate,
    "Extrados_Construct": icon_construct,
    "Extrados_Batch": icon_batch,
    "Extrados_ContactForces": icon_contact_forces,
    "Extrados_JointResultants": icon_joint_resultants,
    "Extrados_ThrustLines": icon_thrust_lines,
    "Extrados_Mechanism": icon_mechanism,
    "Extrados_BlockStress": icon_block_stress,
    "Extrados_BlocksAtFrame": icon_blocks_at_frame,
    "Extrados_BlockEntities": icon_block_entities,
    "Extrados_Arch": icon_arch,
    "Extrados_Wall": icon_wall,
    "Extrados_SpandrelWall": icon_spandrel_wall,
    "Extrados_Cylinder": icon_cylinder,
}


# --------------------------------------------------------------------------- #
# Output
# --------------------------------------------------------------------------- #
def render_icon(name: str) -> Image.Image:
    """Draw the icon of one component folder and return the 24 x 24 RGBA image."""
    cv = Canvas()
    ICONS[name](cv)
    return cv.render()


def write_icons(components_dir: Path, names: Iterable[str]) -> list[Path]:
    """Write ``<components_dir>/<name>/icon.png`` for every name; return the paths.

    The PNG is saved without any ancillary chunks (no time, no text), so
    repeated runs produce byte-identical files.
    """
    paths = []
    for name in names:
        path = components_dir / name / "icon.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        render_icon(name).save(path, format="PNG", optimize=False, compress_level=9)
        paths.append(path)
    return paths


def check_icons(paths: Sequence[Path]) -> bool:
    """Print folder, size, mode and opaque-pixel count of each icon; True if all are sound."""
    ok = True
    print(f"{'folder':<26} {'size':>7} {'mode':>5} {'opaque px':>9}")
    for path in paths:
        with Image.open(path) as im:
            # every pixel minus those with alpha 0 (histogram bin 0)
            visible = im.width * im.height - im.getchannel("A").histogram()[0] if im.mode == "RGBA" else 0
            sound = im.size == (ICON_SIZE, ICON_SIZE) and im.mode == "RGBA" and visible > 0
            ok &= sound
            size = f"{im.size[0]}x{im.size[1]}"
            print(f"{path.parent.name:<26} {size:>7} {im.mode:>5} {visible:>9}{'' if sound else '  <-- BAD'}")
    return ok


def contact_sheet(paths: Sequence[Path], out: Path, columns: int = 6) -> None:
    """Save the icons magnified ``SHEET_ZOOM`` times (nearest neighbour) on a checkerboard."""
    cell = (ICON_SIZE + SHEET_GAP) * SHEET_ZOOM
    rows = math.ceil(len(paths) / columns)
    sheet = Image.new("RGBA", (columns * cell, rows * cell), (255, 255, 255, 255))
    checker = ImageDraw.Draw(sheet)
    square = SHEET_ZOOM * 2  # checker squares of 2 icon pixels show transparency
    for y in range(0, sheet.height, square):
        for x in range(0, sheet.width, square):
            if (x // square + y // square) % 2:
                checker.rectangle([x, y, x + square - 1, y + square - 1], fill=(232, 232, 232, 255))
    for i, path in enumerate(paths):
        with Image.open(path) as im:
            big = im.resize((ICON_SIZE * SHEET_ZOOM,) * 2, Image.Resampling.NEAREST)
        offset = SHEET_GAP * SHEET_ZOOM // 2
        sheet.alpha_composite(big, ((i % columns) * cell + offset, (i // columns) * cell + offset))
    sheet.save(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; see the module docstring."""
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=here.parent / "components",
                        help="components folder holding the <Folder>/ directories (default: %(default)s)")
    parser.add_argument("--only", nargs="+", choices=sorted(ICONS), metavar="FOLDER",
                        help="draw only these component folders")
    parser.add_argument("--check", action="store_true", help="print a table of the written icons")
    parser.add_argument("--sheet", type=Path, help="also save a magnified contact sheet to this file")
    args = parser.parse_args(argv)

    names = args.only or list(ICONS)
    paths = write_icons(args.out, names)
    print(f"wrote {len(paths)} icons under {args.out}")
    ok = check_icons(paths) if args.check else True
    if args.sheet:
        contact_sheet(paths, args.sheet)
        print(f"contact sheet: {args.sheet}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
