"""Blocks that overlap as drawn, under the model's ``settings.overlap``: refuse, shrink or accept.

Seed 000's contacts take blocks that touch or penetrate by less than the envelope (sec. 2.5);
deeper, a block sits inside its neighbour and the contact forces that would push it out are not
the structure's. Imported geometry (CAD, surveys, compas_dem's DomeTemplate, whose odd hoops are
turned by half a block so that their chord faces cross the next hoop's) often overlaps by
millimetres to centimetres. The mode (the schema's ``$defs/overlap``) says what an analysis does:

- ``refuse`` (default): `engine.analysis.static.check_no_overlap` names the deepest pair.
- ``shrink``: each overlapping pair (a, b), of separating axis n (from a to b) and deepest contact
  point p (midway between the two surfaces), is cut by the plane n . x = n . p: a keeps
  n . x <= n . p, b keeps n . x >= n . p. Each block loses the half of the overlap on its side
  and stays convex (a convex polyhedron cut by a half-space, engine.geometry.clip); the pair then
  touches on that plane. Clipping rather than shrinking about the centroid: shrinking every face
  would open gaps at the joints that did not overlap.
- ``accept``: the overlaps stay as initial penetrations, which the contacts relieve gently
  (engine.contact.assemble: PENETRATION_RECOVERY of Phi per step, at most MAX_RECOVERY_SPEED).

Both repairs refuse an overlap deeper than ``tolerance`` and report, per block, the overlap
measured and what was changed (the result's ``overlap_repair``).
"""
from dataclasses import dataclass

import numpy as np

from extrados.engine.errors import ModelError
from extrados.engine.geometry.clip import clip_polyhedron
from extrados.engine.io.model_document import OVERLAP_DEFAULTS
from extrados.engine.model import Model
from extrados.engine.pipeline import detect
from extrados.engine.state import State
from extrados.engine.tolerance import TOL

#: m, overlaps shallower than this are left as they are: the rest penetration of contacts under
#: their load is micrometres (engine.contact.assemble, PENETRATION_RECOVERY), well below it.
MIN_OVERLAP = 1e-5


@dataclass(frozen=True)
class Overlaps:
    """The deepest contact of every pair of blocks that overlaps by more than MIN_OVERLAP as drawn."""

    body_a: np.ndarray  # (n_pairs,) int64
    body_b: np.ndarray  # (n_pairs,) int64
    depth: np.ndarray   # (n_pairs,) float64, m, the pair's largest penetration
    normal: np.ndarray  # (n_pairs, 3) float64, unit, separating axis from body_a to body_b
    point: np.ndarray   # (n_pairs, 3) float64, m, deepest contact point, midway between the surfaces


def overlap_settings(model):
    """The model's ``settings.overlap`` over the schema's defaults: {"mode", "tolerance"}."""
    return {**OVERLAP_DEFAULTS, **model.settings.get("overlap", {})}


def allowed_overlap(model):
    """m, the deepest overlap an analysis of ``model`` runs with: the envelope, or the tolerance under ``accept``."""
    overlap = overlap_settings(model)
    envelope = model.settings["envelope"]
    return max(envelope, overlap["tolerance"]) if overlap["mode"] == "accept" else envelope


def drawn_overlaps(model):
    """Overlaps of the blocks as drawn, from the contacts at rest (engine.pipeline.detect)."""
    contacts = detect(model, State.initial(model.mechanics))
    deepest = np.array([start + np.argmin(contacts.gap[start:end])
                        for start, end in zip(contacts.pair_start[:-1], contacts.pair_start[1:])], dtype=np.int64)
    deepest = deepest[contacts.gap[deepest] < -MIN_OVERLAP]
    return Overlaps(contacts.body_a[deepest], contacts.body_b[deepest], -contacts.gap[deepest],
                    contacts.normal[deepest], contacts.point[deepest])


def check_tolerance(model, overlaps, tolerance):
    """ModelError naming the deepest pair when it overlaps by more than ``tolerance`` (m)."""
    if len(overlaps.depth) and overlaps.depth.max() > tolerance:
        k = int(np.argmax(overlaps.depth))
        a, b = model.block_ids[overlaps.body_a[k]], model.block_ids[overlaps.body_b[k]]
        raise ModelError(f"blocks '{a}' and '{b}' overlap by {overlaps.depth[k]:.4g} m, more than the overlap "
                         f"tolerance {tolerance:.4g} m that settings.overlap repairs; move them apart",
                         path="settings.overlap.tolerance", block=a)


def cut_planes(overlaps, n_blocks):
    """Per block, the half-spaces n . x <= c that `shrink` cuts it by: list of (normal, offset) per block."""
    planes = [[] for _ in range(n_blocks)]
    for a, b, normal, point in zip(overlaps.body_a, overlaps.body_b, overlaps.normal, overlaps.point):
        offset = float(normal @ point)
        planes[a].append((normal, offset))
        planes[b].append((-normal, -offset))
    return planes


def clipped_block(block, planes, on_plane):
    """The block dict cut by its half-spaces, and how far its surface moved (m): the largest
    distance of an original vertex beyond one of the planes."""
    vertices, faces = np.asarray(block["vertices"], float), block["faces"]
    cut = max(float((vertices @ normal - offset).max()) for normal, offset in planes)
    for normal, offset in planes:
        vertices, faces = clip_polyhedron(vertices, faces, normal, offset, on_plane)
    return {**block, "vertices": vertices.tolist(), "faces": faces}, max(cut, 0.0)


def block_rows(model, overlaps, cut, volume_after):
    """The report's rows of the blocks that overlap: id, deepest overlap, cut depth and volume removed."""
    ids, volume = model.block_ids, model.geometry.volume
    rows = []
    for i in sorted(set(overlaps.body_a.tolist()) | set(overlaps.body_b.tolist())):
        mine = (overlaps.body_a == i) | (overlaps.body_b == i)
        removed = float(volume[i] - volume_after[i])
        rows.append({"id": ids[i], "overlap": float(overlaps.depth[mine].max()), "cut": cut[i],
                     "volume_removed": removed, "volume_fraction": removed / float(volume[i])})
    return rows


def report(model, mode, tolerance, overlaps, cut, volume_after):
    """The result's ``overlap_repair`` document (engine/io/result_schema.json)."""
    ids = model.block_ids
    pairs = [{"blocks": [ids[a], ids[b]], "overlap": float(d)}
             for a, b, d in zip(overlaps.body_a, overlaps.body_b, overlaps.depth)]
    return {"mode": mode, "tolerance": tolerance, "max_overlap": float(overlaps.depth.max(initial=0.0)),
            "pairs": pairs, "blocks": block_rows(model, overlaps, cut, volume_after)}


def shrunk_model(model, overlaps):
    """The model with every overlapping pair cut by its mid plane; the cut depth per block (m)."""
    doc = model.to_dict()
    planes = cut_planes(overlaps, model.mechanics.n_blocks)
    on_plane = TOL.geometric_relative * model.geometry.size
    cut = [0.0] * len(planes)
    for i, block_planes in enumerate(planes):
        if block_planes:
            doc["blocks"][i], cut[i] = clipped_block(doc["blocks"][i], block_planes, on_plane)
    return Model.from_dict(doc), cut


def repaired(model):
    """The model an analysis runs on, and the ``overlap_repair`` report (None under ``refuse``).

    Parameters
    ----------
    model : Model

    Returns
    -------
    model : Model, ``model`` itself, or under ``shrink`` with overlaps a new Model of the cut blocks
        (same ids, order, materials, loads and settings)
    report : dict or None
    """
    overlap = overlap_settings(model)
    mode, tolerance = overlap["mode"], overlap["tolerance"]
    if mode == "refuse":
        return model, None
    overlaps = drawn_overlaps(model)
    check_tolerance(model, overlaps, tolerance)
    if mode == "accept" or len(overlaps.depth) == 0:
        zero = [0.0] * model.mechanics.n_blocks
        return model, report(model, mode, tolerance, overlaps, zero, model.geometry.volume)
    shrunk, cut = shrunk_model(model, overlaps)
    return shrunk, report(model, mode, tolerance, overlaps, cut, shrunk.geometry.volume)
