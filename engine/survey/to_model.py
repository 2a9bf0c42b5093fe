"""`survey_to_model`: surveyed stones to a model document and a per-stone report (seed 002 sec. 4.3).

For each stone of the survey, in the survey's order:

1. a stone surveyed on its face: the least-squares plane of its points, the face's convex outline
   in that plane, or its quadrilateral (`quad_outline`, the blocky simplification of sec. 4.1: the
   block a hexahedron), the outline extruded into the wall by the depth of the stone or of its type
   (`face_plane`, `extrusion`);
2. a stone surveyed all round: the convex hull of its points (`convex_block`);

then the overlaps between neighbours are trimmed or reported (`overlaps`). Every block carries its
entity (building, wall, leaf, course, stone, type, attributes) from the stone table, with ``stone``
set to the stone's id when the table leaves it out.
"""
from typing import NamedTuple

import numpy as np

from extrados.engine.geometry.hull import hull_block
from extrados.engine.geometry.polyhedron import GeometryError, block_volume, validated_block
from extrados.engine.io.model_document import FORMAT
from extrados.engine.survey.convex_block import convex_block
from extrados.engine.survey.extrusion import into_wall_normal, prism, stone_depth
from extrados.engine.survey.face_plane import fit_plane, outline
from extrados.engine.survey.overlaps import resolve_overlaps
from extrados.engine.survey.quad_outline import quad_outline
from extrados.engine.survey.stones import SurveyError

#: What may be done with overlapping neighbours: trim them back to a shared plane, or only report them.
OVERLAP_MODES = ("trim", "report")
#: What the model's static analyses do with the gaps left between neighbours (settings.gaps.mode,
#: engine.analysis.joint_gaps): take them as closed joints, or keep them open.
JOINT_GAP_MODES = ("close", "open")


def hull_outline(plane, points, corners, stone):
    """The convex outline of a face (`face_plane.outline`) and no quad fit."""
    return outline(plane, points, corners, stone), None


#: How a face is outlined: its convex hull, or the quad of the blocky simplification (sec. 4.1).
OUTLINES = {"hull": hull_outline, "quad": quad_outline}


class StoneReport(NamedTuple):
    """How one stone became a block (lengths in m, areas in m^2, volumes in m^3; None: does not apply)."""

    stone: str
    survey: str                    # "face" or "all_round"
    points: int                    # measured points
    plane_rms_m: float             # RMS out-of-plane distance of the face points (face)
    plane_max_m: float             # largest out-of-plane distance (face)
    outline_area_m2: float         # (face)
    outline_deviation_m: float     # largest distance of a measured corner inside the convex outline (face)
    quad_deviation_m: float        # Hausdorff distance of the quad from the convex outline (face, outline "quad")
    quad_area_change_m2: float     # the quad's area less the convex outline's (face, outline "quad")
    depth_m: float                 # extrusion depth (face)
    depth_from: str                # "stone" or "type" (face)
    hull_deviation_m: float        # largest distance of a point inside its convex hull (all_round)
    reference_volume_m3: float     # the stone table's volume to compare with (all_round, when given)
    volume_m3: float               # the block's volume before trimming
    trimmed_m3: float              # volume trimming took from it


class SurveyReport(NamedTuple):
    """The report of `survey_to_model`."""

    stones: list                   # of StoneReport, in the survey's order
    overlaps: list                 # of overlaps.Overlap

    def to_dict(self):
        """The report as JSON-ready lists of objects."""
        return {"stones": [stone._asdict() for stone in self.stones],
                "overlaps": [overlap._asdict() for overlap in self.overlaps]}


def face_block(stone, info, depth_table, viewpoint, into_wall, outline_kind):
    """(vertices, faces, report fields) of a stone surveyed on its face (step 1), outlined as
    ``outline_kind`` says (`OUTLINES`); seen from its own station when the stone table gives one,
    else from ``viewpoint`` or along ``into_wall``."""
    if info.station is not None:
        viewpoint, into_wall = info.station, None
    if viewpoint is None and into_wall is None:
        raise SurveyError("no station in the stone table and neither viewpoint nor into_wall given: "
                          "cannot tell which side of its face is into the wall", stone=stone.stone)
    plane = fit_plane(stone.points, stone.stone)
    face, quad = OUTLINES[outline_kind](plane, stone.points, stone.corners, stone.stone)
    depth, depth_from = stone_depth(stone.stone, info, depth_table)
    inward = into_wall_normal(plane, stone.stone, viewpoint, into_wall)
    vertices, faces = prism(face.corners, inward, depth)
    fields = dict(plane_rms_m=plane.rms_m, plane_max_m=plane.max_m, outline_area_m2=face.area_m2,
                  outline_deviation_m=face.deviation_m, depth_m=depth, depth_from=depth_from)
    if quad is not None:
        fields.update(quad_deviation_m=quad.deviation_m, quad_area_change_m2=quad.area_change_m2)
    return vertices, faces, fields


def all_round_block(stone, info):
    """(vertices, faces, report fields) of a stone surveyed all round (step 2)."""
    hull = convex_block(stone.points, stone.stone)
    return hull.vertices, hull.faces, dict(hull_deviation_m=hull.deviation_m,
                                           reference_volume_m3=info.reference_volume)


def stone_block(stone, info, depth_table, viewpoint, into_wall, outline_kind):
    """(vertices, faces) of one stone and its StoneReport before trimming."""
    if info.survey == "all_round":
        vertices, faces, fields = all_round_block(stone, info)
    else:
        vertices, faces, fields = face_block(stone, info, depth_table, viewpoint, into_wall, outline_kind)
    empty = dict.fromkeys(StoneReport._fields)
    report = StoneReport(**{**empty, **fields, "stone": stone.stone, "survey": info.survey,
                            "points": len(stone.points), "volume_m3": block_volume(vertices, faces),
                            "trimmed_m3": 0.0})
    return (vertices, faces), report


def checked_base_blocks(base_blocks):
    """(vertices, outward faces) of each base block (given by vertices and faces, or by points); SurveyError
    naming a block that is neither, or not a convex polyhedron."""
    checked = []
    for index, block in enumerate(base_blocks):
        if not ({"vertices", "faces"} <= block.keys() or "points" in block):
            raise SurveyError("a base block needs vertices and faces, or points", path=f"base_blocks[{index}]",
                              block=block.get("id"))
        try:
            shape = hull_block(block["points"]) if "points" in block else (block["vertices"], block["faces"])
            checked.append(validated_block(*shape))
        except GeometryError as exc:
            raise SurveyError(str(exc), path=f"base_blocks[{index}]", block=block.get("id")) from None
    return checked


def survey_to_model(stones, stone_table, depth_table, *, viewpoint=None, into_wall=None, base_blocks=(),
                    overlaps="trim", outline="hull", joint_gaps="close", gap_tolerance=None):
    """The model document of a survey's stones, and how each stone became a block.

    Parameters
    ----------
    stones : list of StonePoints
        The survey (`text_readers.read_points`, `cloud_readers.read_ply`, `cloud_readers.read_las`).
    stone_table : dict
        {stone id: StoneInfo} (`text_readers.read_stone_table`); every stone of the survey needs an
        entry (a type with a depth, or a depth of its own) unless it is surveyed all round.
    depth_table : dict
        {stone type: extrusion depth in m} (header, stretcher, voussoir, quoin, through_stone, ...).
        Seed 002 gives no figures: there are no defaults.
    viewpoint : (3,) array_like, m, optional
        Where the faces were seen from (the survey station); the wall lies beyond the faces. A stone's
        own ``station`` in the stone table comes first (the faces of a tower's sides, seen from
        stations around it).
    into_wall : (3,) array_like, optional
        Or a direction into the wall (a wall reference plane's normal). Give at most one of the two,
        and one of them for every stone without a station.
    base_blocks : sequence of dict
        Model-document blocks added as they are (a ground slab with ``"support": true``, an existing
        wall): stones that overlap them are trimmed back to their faces, never they.
    overlaps : {"trim", "report"}
        Trim overlapping neighbours back to a shared plane, or only report them (the engine then
        refuses overlaps deeper than its contact envelope).
    outline : {"hull", "quad"}
        A face's outline: the convex hull of its points (or of its measured corners), or the blocky
        simplification of sec. 4.1, the quad through four measured corners or the least-area rectangle
        enclosing the hull, so that the block is a hexahedron (`quad_outline`; its deviation reported).
    joint_gaps : {"close", "open"}
        The document's settings.gaps mode. Neighbours fitted to noisy points meet with gaps of a few
        standard deviations of the noise (trimming closes only the overlaps): "close" (default) has
        static analyses take the gaps up to ``gap_tolerance`` as closed joints, the stones bearing on
        each other as they do in the wall (engine.analysis.joint_gaps); "open" keeps them.
    gap_tolerance : float, m, optional
        The widest gap "close" closes (settings.gaps.tolerance); left out, the model's envelope.

    Returns
    -------
    document : dict
        A model document (format "extrados.model/1"): one block per stone, id the stone's, with its
        ``entity``, then the base blocks, and settings.gaps; materials and joints are the schema's defaults.
    report : SurveyReport

    Raises
    ------
    SurveyError
        Naming the stone: no table entry, no depth, no side into the wall, too few points, a face
        seen edge-on, a block that trimming removes whole; or a base block that is not a convex polyhedron.
    """
    if viewpoint is not None and into_wall is not None:
        raise SurveyError("give viewpoint or into_wall, not both: either says which side of a face is into the wall")
    if overlaps not in OVERLAP_MODES:
        raise SurveyError(f"overlaps is {overlaps!r}; it must be one of {', '.join(OVERLAP_MODES)}")
    if outline not in OUTLINES:
        raise SurveyError(f"outline is {outline!r}; it must be one of {', '.join(OUTLINES)}")
    if joint_gaps not in JOINT_GAP_MODES:
        raise SurveyError(f"joint_gaps is {joint_gaps!r}; it must be one of {', '.join(JOINT_GAP_MODES)}")
    if gap_tolerance is not None and not (np.isfinite(gap_tolerance) and gap_tolerance > 0.0):
        raise SurveyError(f"gap_tolerance is {gap_tolerance!r}; it must be a positive length in m")
    blocks, reports = [], []
    for stone in stones:
        info = stone_table.get(stone.stone)
        if info is None:
            raise SurveyError("no entry in the stone table", stone=stone.stone)
        block, report = stone_block(stone, info, depth_table, viewpoint, into_wall, outline)
        blocks.append(block)
        reports.append(report)
    ids = [stone.stone for stone in stones] + [block["id"] for block in base_blocks]
    fixed = np.r_[np.zeros(len(stones), bool), np.ones(len(base_blocks), bool)]
    trimmed, found = resolve_overlaps(ids, blocks + checked_base_blocks(base_blocks), fixed, overlaps == "trim")
    lost = dict.fromkeys(ids, 0.0)
    for overlap in found:
        lost[overlap.block_a] += overlap.trimmed_a_m3
        lost[overlap.block_b] += overlap.trimmed_b_m3
    reports = [report._replace(trimmed_m3=lost[report.stone]) for report in reports]
    document_blocks = [{"id": stone.stone, "vertices": vertices.tolist(), "faces": faces,
                        "entity": {"stone": stone.stone, **stone_table[stone.stone].entity}}
                       for stone, (vertices, faces) in zip(stones, trimmed)]
    gaps = {"mode": joint_gaps, **({} if gap_tolerance is None else {"tolerance": float(gap_tolerance)})}
    document = {"format": FORMAT, "units": "SI", "blocks": document_blocks + [dict(block) for block in base_blocks],
                "settings": {"gaps": gaps}}
    return document, SurveyReport(reports, found)
