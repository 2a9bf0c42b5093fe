"""Speed of the survey path (engine.survey, seed 002 sec. 4.3) on the facings of two-leaf walls.

Both facings of a `two_leaf_wall` (courses x blocks per course, 0.5 x 0.3 m ashlars) are surveyed
synthetically, each from a station 10 m in front of it, with ``--points`` points a face and 2 mm of
noise; `survey_to_model` fits the planes, extrudes the faces by their true depths and trims the
overlapping neighbours. Prints seconds in all and per stone, and the overlaps trimmed. numba's
compilation of the broad phase is done first, on a tiny wall, and not counted.

    .venv/bin/python benchmarks/survey_to_model.py [--sizes 5x4 10x10 20x20] [--points 300]
"""
import argparse
import time

import numpy as np

from extrados import generators
from extrados.engine.survey import survey_to_model
from extrados.engine.survey.synthetic import synthetic_survey

SIGMA = 0.002      # m
DISTANCE = 10.0    # m, from each facing to its station


def facings_survey(courses, per_course, points, rng):
    """The stones and stone table of both facings of a two-leaf wall, and their stations."""
    document = generators.generate("two_leaf_wall", courses=courses, blocks_per_course=per_course)
    stones, table = [], {}
    for leaf, side in (("outer", -1.0), ("inner", 1.0)):
        blocks = [block for block in document["blocks"] if block.get("entity", {}).get("leaf") == leaf]
        station = (0.0, side * DISTANCE, 0.15 * courses)
        leaf_stones, leaf_table = synthetic_survey(blocks, station, points, SIGMA, rng)
        stones += leaf_stones
        table.update({stone: info._replace(station=station) for stone, info in leaf_table.items()})
    return stones, table


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["5x4", "10x10", "20x20"], help="courses x blocks per course")
    parser.add_argument("--points", type=int, default=300, help="points surveyed on each face")
    args = parser.parse_args()
    rng = np.random.default_rng(2026)
    survey_to_model(*facings_survey(1, 2, 20, rng), {})
    for size in args.sizes:
        courses, per_course = map(int, size.split("x"))
        stones, table = facings_survey(courses, per_course, args.points, rng)
        start = time.perf_counter()
        _, report = survey_to_model(stones, table, {})
        seconds = time.perf_counter() - start
        print(f"{size:>7}: {len(stones):5d} stones, {len(report.overlaps):5d} overlaps trimmed, {seconds:7.2f} s, "
              f"{1e3 * seconds / len(stones):6.1f} ms a stone")


if __name__ == "__main__":
    main()
