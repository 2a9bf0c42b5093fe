"""Semicircular arch of hexahedral voussoirs with radial joints (DESIGN sec. 7, arch cases).

Geometry: the arch lies in the x-z plane, centre at the origin, springings on
z = 0 at x = -R and x = +R, extruded in y over [-depth/2, depth/2]. Radial
joint k sits at theta_k = pi k / n measured from the left springing, so its
unit direction is (-cos theta_k, sin theta_k). Voussoir k ("v{k}") spans
theta_k..theta_{k+1} between the intrados radius R - t/2 and the extrados
radius R + t/2, with straight intrados and extrados chords; its cross-section
is an isosceles trapezoid of area

    A = 1/2 sin(pi/n) ((R + t/2)^2 - (R - t/2)^2) = R t sin(pi/n),

so n voussoirs hold n R t sin(pi/n) per unit depth, tending to the annulus
pi R t as n grows.
"""
import bisect
import math

from extrados.engine.generators import (
    STANDARD_GRAVITY, Generator, block_entry, check_count, check_finite, check_flag, check_non_negative,
    check_positive, described_parameters, ground_slab, model_document, polygon_area, quad_prism,
)


def joint_direction(k, voussoirs):
    """Unit (x, z) direction of radial joint k, at theta_k = pi k / n from the left springing.

    Evaluated on the left half and mirrored, so that the springings lie exactly
    on z = 0, the crown joint (n even) exactly on x = 0, and the arch is
    exactly symmetric about x = 0.
    """
    if 2 * k == voussoirs:
        return 0.0, 1.0
    if 2 * k > voussoirs:
        x, z = joint_direction(voussoirs - k, voussoirs)
        return -x, z
    theta = math.pi * k / voussoirs
    return -math.cos(theta), math.sin(theta)


def voussoir_section(radius, thickness, voussoirs, k):
    """Cross-section of voussoir k in the x-z plane, counter-clockwise.

    Returns
    -------
    list of 4 (x, z) tuples
        Extrados and intrados points of joint k, then intrados and extrados of
        joint k + 1, m.
    """
    intrados, extrados = radius - thickness / 2.0, radius + thickness / 2.0
    (xa, za), (xb, zb) = joint_direction(k, voussoirs), joint_direction(k + 1, voussoirs)
    return [(extrados * xa, extrados * za), (intrados * xa, intrados * za),
            (intrados * xb, intrados * zb), (extrados * xb, extrados * zb)]


def check_arch(radius, thickness, voussoirs):
    """Raise ValueError, naming the parameter, unless the arch's dimensions make sense."""
    check_positive("radius", radius)
    check_positive("thickness", thickness)
    if not thickness < 2.0 * radius:
        raise ValueError(f"thickness must be below 2 * radius (intrados radius R - t/2 > 0); "
                         f"got thickness {thickness!r} with radius {radius!r}")
    check_count("voussoirs", voussoirs, 2)


def arch_weight(radius, thickness, depth, voussoirs, density):
    """Weight (N) of all voussoirs: density g depth times the exact area of each trapezoid."""
    area = sum(polygon_area(voussoir_section(radius, thickness, voussoirs, k)) for k in range(voussoirs))
    return density * STANDARD_GRAVITY * depth * area


def arch_point_load(radius, thickness, voussoirs, angle_from_crown_deg, magnitude, live=True):
    """A vertical point load on the extrados at an angle from the crown (DESIGN sec. 7 load-factor case).

    The line of action is that of a load on the circular extrados at angle beta
    from the crown, x = (R + t/2) sin beta (beta > 0 toward +x; a load at the quarter
    span x = R/2 is at beta = asin(R / (2 R + t)), 27.72 deg for t/R = 0.15, not at
    30 deg, which is x = R/2 on the centreline only). The load goes on the voussoir
    whose extrados spans that x, at the point of its extrados chord above it
    (mid-depth, y = 0), so the point lies on the block's surface. On a joint it
    goes on the voussoir on the -x side (at the crown of an even arch: v{n/2-1}).

    Parameters
    ----------
    radius, thickness : float
        Centreline radius R and radial thickness t, m.
    voussoirs : int
        Number of voussoirs n.
    angle_from_crown_deg : float
        beta in [-90, 90], degrees.
    magnitude : float
        Force, N, acting along -z.
    live : bool
        Whether a load factor multiplies it.

    Returns
    -------
    dict
        A "point" load of the model document.
    """
    check_arch(radius, thickness, voussoirs)
    check_finite("angle_from_crown_deg", angle_from_crown_deg)
    if not -90.0 <= angle_from_crown_deg <= 90.0:
        raise ValueError(f"angle_from_crown_deg must be within [-90, 90]; got {angle_from_crown_deg!r}")
    check_non_negative("magnitude", magnitude)
    check_flag("live", live)
    extrados = radius + thickness / 2.0
    x = extrados * math.sin(math.radians(angle_from_crown_deg))
    joint_x = [extrados * joint_direction(k, voussoirs)[0] for k in range(voussoirs + 1)]  # increasing
    k = min(max(bisect.bisect_left(joint_x, x) - 1, 0), voussoirs - 1)
    (xa, za), (xb, zb) = ((extrados * u, extrados * w) for u, w in
                          (joint_direction(k, voussoirs), joint_direction(k + 1, voussoirs)))
    along = min(max((x - xa) / (xb - xa), 0.0), 1.0)
    z = za + along * (zb - za)
    return {"kind": "point", "block": f"v{k}", "point": [float(x), 0.0, float(z)],
            "force": [0.0, 0.0, -float(magnitude)], "live": live}


def semicircular_arch(radius=1.0, thickness=0.1075, depth=0.5, voussoirs=20, friction=0.8, density=2000.0,
                      base=True, load_fraction=0.0, load_angle_deg=0.0):
    """Model document of a semicircular arch of n voussoirs with radial joints.

    Parameters
    ----------
    radius : float
        Centreline radius R, m.
    thickness : float
        Radial thickness t, m, below 2 R.
    depth : float
        Extent along y, m.
    voussoirs : int
        Number of voussoirs n >= 2, ids "v0".."v{n-1}" from the left springing.
    friction : float
        Coulomb friction coefficient of the joints.
    density : float
        kg/m³.
    base : bool
        Add the support slab "ground" (top face z = 0) under both springings.
    load_fraction : float
        A live point load on the extrados as a fraction of the arch's weight
        (then a load factor is P / W_arch directly); 0 for none.
    load_angle_deg : float
        Where that load acts: angle from the crown, positive toward +x
        (see `arch_point_load`).

    Returns
    -------
    dict
        The model document.
    """
    check_arch(radius, thickness, voussoirs)
    check_positive("depth", depth)
    check_non_negative("friction", friction)
    check_positive("density", density)
    check_flag("base", base)
    check_non_negative("load_fraction", load_fraction)
    check_finite("load_angle_deg", load_angle_deg)
    if not -90.0 <= load_angle_deg <= 90.0:
        raise ValueError(f"load_angle_deg must be within [-90, 90]; got {load_angle_deg!r}")
    y_range = (-depth / 2.0, depth / 2.0)
    blocks = [block_entry(f"v{k}", *quad_prism(voussoir_section(radius, thickness, voussoirs, k), *y_range))
              for k in range(voussoirs)]
    if base:
        # The slab reaches a radius beyond the extrados on every side, so that
        # falling voussoirs land on it; it is as thick as the arch.
        reach = radius + thickness / 2.0 + radius
        blocks.append(ground_slab((-reach, reach), (y_range[0] - radius, y_range[1] + radius), thickness))
    loads = []
    if load_fraction > 0.0:
        weight = arch_weight(radius, thickness, depth, voussoirs, density)
        loads.append(arch_point_load(radius, thickness, voussoirs, load_angle_deg, load_fraction * weight))
    return model_document(blocks, friction, density, loads)


GENERATOR = Generator(
    name="arch",
    function=semicircular_arch,
    help="Semicircular arch of hexahedral voussoirs with radial joints on a ground slab.",
    parameters=described_parameters(semicircular_arch, {
        "radius": ("m", "centreline radius R", "> 0"),
        "thickness": ("m", "radial thickness t (intrados R - t/2, extrados R + t/2)", "> 0, < 2 radius"),
        "depth": ("m", "extent of the arch along y", "> 0"),
        "voussoirs": ("", "number of voussoirs", ">= 2"),
        "friction": ("", "Coulomb friction coefficient of the joints", ">= 0"),
        "density": ("kg/m^3", "density of the stone", "> 0"),
        "base": ("", "add a ground slab under both springings", "true or false"),
        "load_fraction": ("", "live point load on the extrados as a fraction of the arch weight (0: none)", ">= 0"),
        "load_angle_deg": ("deg", "angle of that load from the crown, positive toward +x", "[-90, 90]"),
    }),
)
