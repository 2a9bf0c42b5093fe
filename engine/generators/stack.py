"""Harmonic stack of Paterson & Zwick leaning over a table edge (DESIGN sec. 7, harmonic-stack case).

Blocks are numbered from the top, i = 1..n; the table edge is x = 0 and the
table lies at x < 0. Block i overhangs the one below it (block n: the table)
by s L / (2i), so its right edge is

    r_i = (s L / 2) sum_{j=i}^{n} 1/j,      r_{n+1} = 0 (the table edge).

With s = 1 this is the classical critical stack: the centres c_i = r_i - L/2
of the top k blocks average to

    (1/k) sum_{i=1}^{k} r_i - L/2 = L/2 + (L/2) sum_{j=k+1}^{n} 1/j - L/2 = r_{k+1},

the edge of the block below (or of the table, k = n). Any s > 1 puts some of
these centres of mass beyond their edge, s < 1 strictly inside.
"""
from extrados.engine.generators import (
    Generator, block_entry, box, check_count, check_finite, check_non_negative, check_positive,
    described_parameters, ground_slab, model_document,
)


def right_edges(blocks, length, scale):
    """Right edges r_1..r_n of the blocks (x, m), from the top block down.

    Returns
    -------
    list of float
        r_i = (scale length / 2) sum_{j=i}^{n} 1/j.
    """
    edges, tail = [], 0.0
    for j in range(blocks, 0, -1):
        tail += 1.0 / j
        edges.append(scale * length / 2.0 * tail)
    return edges[::-1]


def harmonic_stack(blocks=4, length=1.0, height=0.2, depth=0.5, scale=1.0, friction=0.8, density=2000.0):
    """Model document of n blocks stacked with harmonic overhangs over the table "ground".

    Parameters
    ----------
    blocks : int
        Number of blocks n >= 1, ids "b1" (top) to "b{n}" (on the table).
    length, height, depth : float
        Block size along x, z and y, m.
    scale : float
        Factor s on every overhang, 0 < s < 2 (so each block rests on the one
        below): 1 is exactly critical, 0.98 stands, 1.02 falls.
    friction : float
        Coulomb friction coefficient of the joints.
    density : float
        kg/m³.

    Returns
    -------
    dict
        The model document; the table "ground" has its right edge at x = 0 and its top at z = 0.
    """
    check_count("blocks", blocks, 1)
    check_positive("length", length)
    check_positive("height", height)
    check_positive("depth", depth)
    check_finite("scale", scale)
    if not 0.0 < scale < 2.0:
        raise ValueError(f"scale must be within (0, 2) so that each block rests on the one below; got {scale!r}")
    check_non_negative("friction", friction)
    check_positive("density", density)
    y_range = (-depth / 2.0, depth / 2.0)
    entries = [block_entry(f"b{i}", *box((edge - length, edge), y_range, ((blocks - i) * height,
                                                                          (blocks - i + 1) * height)))
               for i, edge in enumerate(right_edges(blocks, length, scale), start=1)]
    # The table reaches two block lengths back from its edge and a block length beside the stack.
    entries.append(ground_slab((-2.0 * length, 0.0), (y_range[0] - length, y_range[1] + length), height))
    return model_document(entries, friction, density)


GENERATOR = Generator(
    name="stack",
    function=harmonic_stack,
    help="Paterson & Zwick harmonic stack over a table edge (scale 1: critical).",
    parameters=described_parameters(harmonic_stack, {
        "blocks": ("", "number of stacked blocks", ">= 1"),
        "length": ("m", "block length (x), L", "> 0"),
        "height": ("m", "block height (z)", "> 0"),
        "depth": ("m", "block depth (y)", "> 0"),
        "scale": ("", "factor on every overhang L/(2i); 1 is critical", "(0, 2)"),
        "friction": ("", "Coulomb friction coefficient of the joints", ">= 0"),
        "density": ("kg/m^3", "density of the blocks", "> 0"),
    }),
)
