"""Collapse load factor of a semicircular arch under a point load on its extrados (DESIGN sec. 7).

For t/R = 0.15 and 0.20 (n = 20 voussoirs, mu = 0.8) and the load at the crown, 20 degrees
from the crown and at quarter span (x = 0.5 R), prints lambda = P / W_arch found by the NSCD
bisection and by the limit-analysis LP next to the published values, with the hinges of the
NSCD mechanism. Writes out/load_factor_arch.json (the table and the result document of the
quarter-span case at t/R = 0.15) and a picture of that case at its last standing factor.

    .venv/bin/python examples/load_factor_arch.py [--out out] [--tolerance 0.005]
"""
import argparse
import json
import math
from pathlib import Path

from extrados import Model, analyze, generators
from extrados.engine.post.plot import plot_result

RADIUS = 1.0
VOUSSOIRS = 20
FRICTION = 0.8
#: Published lambda = P / W_arch by (t/R, load position); None where no value is published.
PUBLISHED = {
    (0.15, "crown"): 0.1328, (0.15, "20 deg"): 0.1663, (0.15, "quarter span"): 0.2255,
    (0.20, "crown"): 0.3663, (0.20, "20 deg"): None, (0.20, "quarter span"): 0.4423,
}
PICTURED = (0.15, "quarter span")


def load_angle_deg(position, thickness):
    """Angle from the crown of the load on the extrados; quarter span is the point above x = R / 2."""
    if position == "quarter span":
        return math.degrees(math.asin(0.5 * RADIUS / (RADIUS + thickness / 2.0)))
    return {"crown": 0.0, "20 deg": 20.0}[position]


def arch(thickness, position):
    return Model.from_dict(generators.generate(
        "arch", radius=RADIUS, thickness=thickness, voussoirs=VOUSSOIRS, friction=FRICTION, load_fraction=1.0,
        load_angle_deg=load_angle_deg(position, thickness)))


def percent(value, reference):
    return None if value is None or reference is None else 100.0 * (value / reference - 1.0)


def percent_text(value, width):
    """A signed percentage padded to ``width``, or a dash when there is none."""
    return ("-" if value is None else f"{value:+.2f}%").rjust(width)


def text(value, form):
    """``value`` formatted by ``form`` (e.g. "8.4f"), or a dash as wide when there is none."""
    width = int(form.lstrip("+").split(".")[0])
    return "-".rjust(width) if value is None else format(value, form)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out", help="output folder")
    parser.add_argument("--tolerance", type=float, default=0.005, help="relative width of the final bracket")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    rows, pictured = [], None
    print(f"{'t/R':>5} {'load at':>13} {'NSCD':>8} {'LP':>8} {'published':>9} {'NSCD/LP':>8} {'LP/pub':>7} "
          f"{'solves':>6}  hinges")
    for (thickness, position), published in PUBLISHED.items():
        model = arch(thickness, position)
        result = analyze(model, {"type": "load_factor", "tolerance": args.tolerance})
        report = result.to_dict()["load_factor_report"]
        hinges = [hinge["blocks"] for hinge in report["mechanism"]["hinges"]] if report["mechanism"] else []
        row = {"thickness_over_radius": thickness, "load_at": position,
               "load_angle_deg": load_angle_deg(position, thickness), "nscd": report["nscd"],
               "limit_analysis": report["limit_analysis"], "published": published,
               "nscd_vs_lp_percent": percent(report["nscd"], report["limit_analysis"]),
               "lp_vs_published_percent": percent(report["limit_analysis"], published),
               "solves": report["solves"], "hinges": hinges, "sliding": report["mechanism"]["sliding"]}
        rows.append(row)
        print(f"{thickness:5.2f} {position:>13} {text(row['nscd'], '8.4f')} {text(row['limit_analysis'], '8.4f')} "
              f"{text(published, '9.4f')} {percent_text(row['nscd_vs_lp_percent'], 8)} "
              f"{percent_text(row['lp_vs_published_percent'], 7)} {row['solves']:6d}  "
              + " ".join("|".join(pair) for pair in hinges))
        if (thickness, position) == PICTURED:
            pictured = (model, result)
    model, result = pictured
    plot_result(model, result, out / "load_factor_arch.png")
    report = {"radius": RADIUS, "voussoirs": VOUSSOIRS, "friction": FRICTION, "tolerance": args.tolerance,
              "rows": rows, "result_quarter_span_t_0.15": result.to_dict()}
    (out / "load_factor_arch.json").write_text(json.dumps(report, indent=1))
    print(f"wrote {out / 'load_factor_arch.json'} and {out / 'load_factor_arch.png'}")


if __name__ == "__main__":
    main()
