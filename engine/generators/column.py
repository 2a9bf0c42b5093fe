"""Column of stacked box blocks on a ground slab (DESIGN sec. 7, stacked-column case).

Blocks "b0" (bottom) to "b{n-1}" are centred on the z axis; block k spans
z in [k h, (k + 1) h], so neighbours share their faces exactly.
"""
from extrados.engine.generators import (
    Generator, block_entry, box, check_count, check_finite, check_non_negative, check_positive,
    described_parameters, ground_slab, lateral_acceleration_loads, model_document,
)


def column(blocks=5, width=0.3, depth=0.3, block_height=0.3, friction=0.8, density=2000.0,
           lateral_acceleration=0.0):
    """Model document of a column of identical stacked boxes.

    Parameters
    ----------
    blocks : int
        Number of blocks, >= 1.
    width, depth, block_height : float
        Block size along x, y and z, m.
    friction : float
        Coulomb friction coefficient of the joints.
    density : float
        kg/m³.
    lateral_acceleration : float
        A live body acceleration along +x on all blocks, m/s²; 0 for none.
        The column topples when a/g > b/H_total = width / (blocks block_height).

    Returns
    -------
    dict
        The model document; blocks "b0".."b{n-1}" from the bottom, then "ground".
    """
    check_count("blocks", blocks, 1)
    check_positive("width", width)
    check_positive("depth", depth)
    check_positive("block_height", block_height)
    check_non_negative("friction", friction)
    check_positive("density", density)
    check_finite("lateral_acceleration", lateral_acceleration)
    x_range, y_range = (-width / 2.0, width / 2.0), (-depth / 2.0, depth / 2.0)
    entries = [block_entry(f"b{k}", *box(x_range, y_range, (k * block_height, (k + 1) * block_height)))
               for k in range(blocks)]
    # The slab reaches the column's height beyond it, so that a toppled column lands on it.
    reach = blocks * block_height
    entries.append(ground_slab((x_range[0] - reach, x_range[1] + reach),
                               (y_range[0] - reach, y_range[1] + reach), block_height))
    return model_document(entries, friction, density, lateral_acceleration_loads(lateral_acceleration))


GENERATOR = Generator(
    name="column",
    function=column,
    help="Column of stacked box blocks on a ground slab.",
    parameters=described_parameters(column, {
        "blocks": ("", "number of stacked blocks", ">= 1"),
        "width": ("m", "block width (x)", "> 0"),
        "depth": ("m", "block depth (y)", "> 0"),
        "block_height": ("m", "block height (z)", "> 0"),
        "friction": ("", "Coulomb friction coefficient of the joints", ">= 0"),
        "density": ("kg/m^3", "density of the blocks", "> 0"),
        "lateral_acceleration": ("m/s^2", "live body acceleration along +x on all blocks (0: none)", "any"),
    }),
)
