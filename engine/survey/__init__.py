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
`to_model.survey_to_model` writes the model document and a per-stone report.
"""
