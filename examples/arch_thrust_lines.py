"""Effective against conventional thrust lines of a semicircular arch (seed 000 sec. 3.1, fig. 8).

A static NSCD analysis of the generated arch (radial joints, self-weight and an optional
point load on the extrados) gives the joint resultants; the effective thrust line is the
polyline of their centres of pressure, springing to springing. The conventional thrust
lines of graphical statics for the same voussoirs and loads are the minimum- and
maximum-thrust funiculars that fit the section, and the limit line in the least
thickness (geometric safety factor). The effective horizontal thrust lies between the
conventional minimum and maximum whenever the arch stands without sliding.
Writes OUT/arch_thrust_lines.png and OUT/arch_thrust_lines.json (the result document
with all the lines in "thrust_lines" and a "thrust" summary).

    .venv/bin/python examples/arch_thrust_lines.py [--thickness 0.15] [--voussoirs 20]
        [--friction 0.8] [--load-fraction 0.0] [--load-angle-deg 0.0] [--out out]
"""
import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Polygon  # noqa: E402

from extrados import analyze, generators  # noqa: E402
from extrados.engine.generators.arch import arch_point_load, arch_weight  # noqa: E402
from extrados.engine.post.funicular import (  # noqa: E402
    combined, self_weight, semicircular_section, thrust_bounds, vertical_loads, voussoir_polygons,
)
from extrados.engine.post.thrust import effective_thrust_line_of_result  # noqa: E402

RADIUS, DEPTH, DENSITY = 1.0, 0.5, 2000.0   # m, m, kg/m^3 (the generator's defaults)
#: Each resultant is drawn along its line of action over this fraction of the radius.
ACTION_SEGMENT = 0.12


def conventional_loads(section, args):
    """Voussoir self-weights plus the point load the generator puts on the extrados, if any."""
    loads = self_weight(section, DENSITY, DEPTH)
    if args.load_fraction == 0.0:
        return loads
    weight = arch_weight(RADIUS, args.thickness, DEPTH, args.voussoirs, DENSITY)
    load = arch_point_load(RADIUS, args.thickness, args.voussoirs, args.load_angle_deg, args.load_fraction * weight)
    voussoir = int(load["block"][1:])
    return combined(loads, vertical_loads(section, [voussoir], [load["point"][0]], [-load["force"][2]]))


def draw(section, effective, bounds, path):
    """Voussoirs, the effective line with its resultants, and the conventional lines, in the x-z plane."""
    fig, ax = plt.subplots(figsize=(9, 5.5), dpi=120)
    for voussoir in voussoir_polygons(section):
        ax.add_patch(Polygon(voussoir, closed=True, facecolor="#e9dcc4", edgecolor="0.3", linewidth=0.6))
    ax.axhline(0.0, color="0.4", linewidth=1.0)
    centre, direction = effective.centre[:, [0, 2]], effective.direction[:, [0, 2]]
    half = 0.5 * ACTION_SEGMENT * RADIUS * direction
    for (cx, cz), (dx, dz) in zip(centre, half):
        ax.plot([cx - dx, cx + dx], [cz - dz, cz + dz], "-", color="#c0392b", linewidth=0.8, alpha=0.7)
    ax.plot(centre[:, 0], centre[:, 1], "o-", color="#c0392b", markersize=3, linewidth=1.6,
            label=f"effective, H = {effective.force[:, 0].mean():.1f} N")
    styles = (("minimum", "#1f5fbf", "--", "minimum"), ("maximum", "#1e8449", "--", "maximum"),
              ("limit", "#7d3c98", ":", "limit (in the least thickness)"))
    for name, colour, style, label in styles:
        line = getattr(bounds, name)
        if line is not None:
            ax.plot(line.crossing[:, 0], line.crossing[:, 1], style, color=colour, linewidth=1.3,
                    label=f"conventional {label}, H = {line.thrust:.1f} N")
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("z (m)")
    ax.set_title(f"thrust lines (geometric safety factor {bounds.geometric_safety_factor:.3f})")
    ax.legend(loc="lower center", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--thickness", type=float, default=0.15, help="radial thickness t (m), R = 1 m")
    parser.add_argument("--voussoirs", type=int, default=20, help="number of voussoirs")
    parser.add_argument("--friction", type=float, default=0.8, help="Coulomb friction coefficient")
    parser.add_argument("--load-fraction", type=float, default=0.0, help="point load over the arch weight")
    parser.add_argument("--load-angle-deg", type=float, default=0.0, help="its angle from the crown (deg)")
    parser.add_argument("--out", default="out", help="output folder")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    model = generators.generate("arch", radius=RADIUS, thickness=args.thickness, depth=DEPTH,
                                voussoirs=args.voussoirs, friction=args.friction, density=DENSITY,
                                load_fraction=args.load_fraction, load_angle_deg=args.load_angle_deg)
    # the load is live; a static analysis applies it once (load factor 1)
    result = analyze(model, {"type": "static"}).to_dict()
    effective = effective_thrust_line_of_result(result)
    section = semicircular_section(RADIUS, args.thickness, args.voussoirs)
    bounds = thrust_bounds(section, conventional_loads(section, args))

    thrust = {"effective": float(effective.force[:, 0].mean()),
              "minimum": None if bounds.minimum is None else bounds.minimum.thrust,
              "maximum": None if bounds.maximum is None else bounds.maximum.thrust,
              "limit": bounds.limit.thrust, "geometric_safety_factor": bounds.geometric_safety_factor}
    result["thrust_lines"] = [effective.to_dict()] + [
        getattr(bounds, name).to_dict(f"conventional_{name}")
        for name in ("minimum", "maximum", "limit") if getattr(bounds, name) is not None]
    result["thrust"] = thrust
    draw(section, effective, bounds, out / "arch_thrust_lines.png")
    (out / "arch_thrust_lines.json").write_text(json.dumps(result, indent=1))

    print(f"arch t/R = {args.thickness}, n = {args.voussoirs}, mu = {args.friction}: "
          f"{'stands' if result['stable'] else 'does not stand'}")
    for name in ("effective", "minimum", "maximum", "limit"):
        value = thrust[name]
        print(f"  {name:9s} horizontal thrust H = {'none fits' if value is None else f'{value:.2f} N'}")
    print(f"  geometric safety factor {bounds.geometric_safety_factor:.4f}")
    print(f"wrote {out / 'arch_thrust_lines.png'} and {out / 'arch_thrust_lines.json'}")


if __name__ == "__main__":
    main()
