"""A box resting on an inclined plane (DESIGN sec. 7, block-on-incline case).

The slope descends toward +x: its top face is the plane through the origin
with outward normal (sin theta, 0, cos theta), the image of z = 0 under the
rotation about y by theta,

    R_y(theta) (x, z) = (x cos theta + z sin theta, -x sin theta + z cos theta).

The block is built upright with its bottom face centred on the origin and
rotated by the same R_y, so its bottom face lies on the slope with no gap.
Both are prisms along y of x-z quadrilaterals; R_y has determinant 1 in the
x-z plane, so it keeps their counter-clockwise order.
"""
import math

from extrados.engine.generators import (
    Generator, block_entry, check_finite, check_non_negative, check_positive, described_parameters,
    model_document, quad_prism,
)

#: Length of the slope along its surface, up and down from the block's centre,
#: in block sizes max(width, height): room for the block to slide or topple downhill.
UPHILL_SIZES = 2.0
DOWNHILL_SIZES = 10.0


def rotated_about_y(points_xz, angle_rad):
    """Points (x, z) rotated about the y axis by angle_rad (x toward -z for a positive angle)."""
    c, s = math.cos(angle_rad), math.sin(angle_rad)
    return [(x * c + z * s, -x * s + z * c) for x, z in points_xz]


def block_on_incline(angle_deg=20.0, width=0.5, height=0.5, depth=0.5, friction=0.6, density=2000.0):
    """Model document of a box "block" resting on the support "slope".

    Parameters
    ----------
    angle_deg : float
        Inclination theta of the slope in [0, 90), degrees.
    width, height, depth : float
        Block size along the slope, normal to it and along y, m.
    friction : float
        Coulomb friction coefficient of the joint. The block slides when
        tan theta > friction (if friction < width/height) and topples when
        tan theta > width/height.
    density : float
        kg/m³.

    Returns
    -------
    dict
        The model document.
    """
    check_finite("angle_deg", angle_deg)
    if not 0.0 <= angle_deg < 90.0:
        raise ValueError(f"angle_deg must be within [0, 90); got {angle_deg!r}")
    check_positive("width", width)
    check_positive("height", height)
    check_positive("depth", depth)
    check_non_negative("friction", friction)
    check_positive("density", density)
    angle = math.radians(angle_deg)
    y_range = (-depth / 2.0, depth / 2.0)
    upright = [(-width / 2.0, 0.0), (width / 2.0, 0.0), (width / 2.0, height), (-width / 2.0, height)]
    block = block_entry("block", *quad_prism(rotated_about_y(upright, angle), *y_range))
    # The slope: its top edge rotated like the block's bottom, a horizontal
    # bottom one block size below the lower end of the top face.
    size = max(width, height)
    (x_up, z_up), (x_down, z_down) = rotated_about_y([(-UPHILL_SIZES * size, 0.0), (DOWNHILL_SIZES * size, 0.0)],
                                                     angle)
    z_bottom = z_down - size
    section = [(x_up, z_bottom), (x_down, z_bottom), (x_down, z_down), (x_up, z_up)]
    slope = block_entry("slope", *quad_prism(section, y_range[0] - size, y_range[1] + size), support=True)
    return model_document([block, slope], friction, density)


GENERATOR = Generator(
    name="incline",
    function=block_on_incline,
    help="A box resting on a slope that descends toward +x.",
    parameters=described_parameters(block_on_incline, {
        "angle_deg": ("deg", "inclination of the slope", "[0, 90)"),
        "width": ("m", "block size along the slope", "> 0"),
        "height": ("m", "block size normal to the slope", "> 0"),
        "depth": ("m", "block size along y", "> 0"),
        "friction": ("", "Coulomb friction coefficient of the joint", ">= 0"),
        "density": ("kg/m^3", "density of the block", "> 0"),
    }),
)
