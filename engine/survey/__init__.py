"""From a survey of stones to blocks (seed 002 sec. 2, 4, 5).

A photogrammetric or total-station survey measures only what can be seen: points on each stone's
visible face. Seed 002 sec. 4.3 turns such a face into a block in three steps, which the modules
here take in order:

1. read the measured points, grouped by stone (`text_readers`: CSV and JSON; `cloud_readers`:
   labelled PLY and LAS/LAZ point clouds), and the stone table of types and entities;
2. fit the least-squares plane of each face and its outline in that plane (`face_plane`);
3. extrude the outline into the wall by the depth of the stone's type (`extrusion`); a stone
   measured all round becomes its convex hull instead (`convex_block`, the blocky
   simplification of sec. 4.1);

then extruded neighbours that overlap are trimmed back to a shared plane (`overlaps`), and
`to_model.survey_to_model` writes the model document and a per-stone report. `synthetic` draws a
noisy survey of known blocks, for examples and checks.
"""
from pathlib import Path

from extrados.engine.survey.cloud_readers import read_las, read_ply
from extrados.engine.survey.stones import SurveyError
from extrados.engine.survey.text_readers import read_points, read_stone_table
from extrados.engine.survey.to_model import survey_to_model

#: The reader of each survey file type, by suffix.
READERS = {".csv": read_points, ".json": read_points, ".ply": read_ply, ".las": read_las, ".laz": read_las}


def read_survey(path, **options):
    """The stones of a survey file, read by its type (`READERS`); ``options`` go to the reader (the
    label of a point cloud). SurveyError for an unknown type, naming the types there are."""
    suffix = Path(path).suffix.lower()
    if suffix not in READERS:
        raise SurveyError(f"unknown survey file type '{suffix}' (known: {', '.join(READERS)})", path=Path(path).name)
    return READERS[suffix](path, **options)


__all__ = ["READERS", "SurveyError", "read_stone_table", "read_survey", "survey_to_model"]
