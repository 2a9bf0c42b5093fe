"""A single box on a ground slab: the rocking block of Housner (DESIGN sec. 7, rocking cases).

The block of half-width b = width/2 and half-height h = height/2 has slenderness
alpha = atan(b/h); it uplifts under a ground (or body) acceleration a >= g tan alpha.

For free rocking (seed 003 sec. 2.3, 3.1) it may start tilted by theta_0 = tilt alpha about its
base edge at x = +b. On a Winkler joint of normal stiffness k_n it then starts sunk into the
layer as far as its weight W presses a pivot line of depth D (the block's depth): a wedge of
penetration d over a strip d / tan(theta_0) wide carries k_n D d^2 / (2 tan theta_0), so
d_0 = sqrt(2 W tan(theta_0) / (k_n D)); untilted, it sinks d_0 = W / (k_n A). The block then starts
without the drop onto its pivot that would set it bouncing on the layer.
"""
import math

import numpy as np

from extrados.engine.generators import (
    JOINT, STANDARD_GRAVITY, Generator, block_entry, box, check_finite, check_non_negative, check_positive,
    described_parameters, ground_slab, lateral_acceleration_loads, model_document,
)


def rocking_block(width=0.25, height=1.0, depth=0.25, friction=0.8, density=2000.0, lateral_acceleration=0.0,
                  tilt=0.0, normal_stiffness=0.0):
    """Model document of one box "block" standing on the support slab "ground".

    Parameters
    ----------
    width, height, depth : float
        Block size along x, z and y, m; the block is centred on the z axis, base on z = 0.
    friction : float
        Coulomb friction coefficient of the joint.
    density : float
        kg/m³.
    lateral_acceleration : float
        A live body acceleration along +x on the block, m/s²; 0 for none.
    tilt : float
        theta_0 / alpha: the block starts leaning toward +x on its edge x = +width/2; 0 upright.
    normal_stiffness : float
        k_n of a Winkler joint (N/m³), the block then starts sunk into it (module docstring); 0 for a
        rigid joint.

    Returns
    -------
    dict
        The model document.
    """
    check_positive("width", width)
    check_positive("height", height)
    check_positive("depth", depth)
    check_non_negative("friction", friction)
    check_positive("density", density)
    check_finite("lateral_acceleration", lateral_acceleration)
    check_non_negative("tilt", tilt)
    check_non_negative("normal_stiffness", normal_stiffness)
    x_range, y_range = (-width / 2.0, width / 2.0), (-depth / 2.0, depth / 2.0)
    # The slab reaches the block's height beyond it, so that a toppled block lands on it.
    vertices, faces = box(x_range, y_range, (0.0, height))
    theta = tilt * math.atan2(width, height)
    weight = density * width * height * depth * STANDARD_GRAVITY
    blocks = [block_entry("block", leaning(vertices, theta, width, weight, depth, normal_stiffness), faces),
              ground_slab((x_range[0] - height, x_range[1] + height), (y_range[0] - height, y_range[1] + height),
                          width)]
    document = model_document(blocks, friction, density, lateral_acceleration_loads(lateral_acceleration))
    if normal_stiffness > 0.0:
        document["joints"][JOINT]["normal_stiffness"] = float(normal_stiffness)
    return document


def leaning(vertices, theta, width, weight, depth, normal_stiffness):
    """Box vertices turned by theta (rad) about the base edge x = width/2, z = 0 (toward +x), and sunk
    into a Winkler layer of ``normal_stiffness`` (N/m³) as far as their ``weight`` (N) presses it."""
    c, s = math.cos(theta), math.sin(theta)
    about_y = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
    pivot = np.array([width / 2.0, 0.0, 0.0])
    turned = (np.asarray(vertices, float) - pivot) @ about_y.T + pivot
    if normal_stiffness > 0.0:
        if theta > 0.0:
            sink = math.sqrt(2.0 * weight * math.tan(theta) / (normal_stiffness * depth))
        else:
            sink = weight / (normal_stiffness * width * depth)
        turned[:, 2] -= sink
    return turned.tolist()


GENERATOR = Generator(
    name="rocking_block",
    function=rocking_block,
    help="One box on a ground slab (Housner rocking block; uplift when a >= g width/height).",
    parameters=described_parameters(rocking_block, {
        "width": ("m", "block width (x), 2b", "> 0"),
        "height": ("m", "block height (z), 2h", "> 0"),
        "depth": ("m", "block depth (y)", "> 0"),
        "friction": ("", "Coulomb friction coefficient of the joint", ">= 0"),
        "density": ("kg/m^3", "density of the block", "> 0"),
        "lateral_acceleration": ("m/s^2", "live body acceleration along +x on the block (0: none)", "any"),
        "tilt": ("", "theta_0 / alpha: start leaning toward +x on the edge x = +width/2 (0: upright)", ">= 0"),
        "normal_stiffness": ("N/m^3", "k_n of a Winkler joint, the block starting sunk into it under its weight "
                                      "(0: rigid joint)", ">= 0"),
    }),
)
