"""A single box on a ground slab: the rocking block of Housner (DESIGN sec. 7, rocking cases).

The block of half-width b = width/2 and half-height h = height/2 has slenderness
alpha = atan(b/h); it uplifts under a ground (or body) acceleration a >= g tan alpha.
"""
from extrados.engine.generators import (
    Generator, block_entry, box, check_finite, check_non_negative, check_positive, described_parameters,
    ground_slab, lateral_acceleration_loads, model_document,
)


def rocking_block(width=0.25, height=1.0, depth=0.25, friction=0.8, density=2000.0, lateral_acceleration=0.0):
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
    x_range, y_range = (-width / 2.0, width / 2.0), (-depth / 2.0, depth / 2.0)
    # The slab reaches the block's height beyond it, so that a toppled block lands on it.
    blocks = [block_entry("block", *box(x_range, y_range, (0.0, height))),
              ground_slab((x_range[0] - height, x_range[1] + height), (y_range[0] - height, y_range[1] + height),
                          width)]
    return model_document(blocks, friction, density, lateral_acceleration_loads(lateral_acceleration))


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
    }),
)
