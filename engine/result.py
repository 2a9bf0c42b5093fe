"""The typed result of an analysis, and its document (DESIGN sec. 5, format extrados.result/1).

A finished analysis is a `Result`: arrays grouped by quantity (blocks, contacts, joints,
reactions, frames), which post-processing reads (engine.post.thrust, engine.post.conventional,
engine.post.plot). `Result.to_dict` writes the document once, last; `Result.from_dict` reads one
back (``Result.from_dict(doc).to_dict() == doc``). The document's JSON schema is
engine/io/result_schema.json (`engine.io.schema.result_schema`, also in the service's OpenAPI
document). Results are COMPAS data: ``compas.json_dump(result, path)`` and
``compas.json_load(path)`` round-trip them.

The document, beyond the fields of DESIGN sec. 5:

- each interface: "closed" (it carries compression), "centroid" of the joint polygon,
  "eccentricity_vector" and "eccentricity" (m) of the centre of pressure from it,
  "in_polygon", "in_kernel" (central kernel), "shear_utilisation" |V| / (mu N) and the
  "kernel" polygon (engine.post.joints). A joint that is not closed has no resultant to
  judge: its eccentricities, in_* and shear_utilisation are null; shear_utilisation is
  also null where mu N <= 0 (a frictionless joint).
- "reactions": per support block, the force it applies to the structure (N) and the
  moment of that force (N m) about "point", the support's centre of mass.
- "network": counts of stick / slip / open / closed contacts and of the strong and weak
  networks, with the mean normal force of the closed contacts (engine.post.networks);
  each contact says "network": "strong", "weak" or null (open).
- each block: "stress", the average stress tensor (Pa, tension positive; stress[i][k] is force
  component i times arm component k, seed 001 eq. 24) from the contact forces and point loads
  (eq. 35), with the rotational inertia terms of eq. 55 in a dynamic result (taken over the last
  step); "principal_stress": {"values": ascending, the most compressive first (Pa),
  "directions": the unit direction of each value}; "p" = -tr / 3 and "q" = sqrt(3/2 s : s) (Pa);
  "stress_asymmetry", seed 001 eq. 57 (0 for a symmetric tensor) (engine.post.stress); "entity", the
  block's architectural entity as the model gives it (seed 002 sec. 2.1), null where it has none.
- with mortar joints (engine.contact.bonds), each bonded contact and each joint with a bonded
  contact: "bond" ("intact", "damaged", "broken"; a joint whose contacts differ is "damaged")
  and "damage" (D = 1 - d; a joint's is the mean of its contacts').
- "frames" and "histories" of a dynamic result: block positions and orientations per output
  frame, and per movable block its position and velocity ([v, w], m/s and rad/s) over them,
  rounded to what matters (TOL.frame_*_decimals: t to 1e-9 s, positions to 1e-6 m, quaternions
  to 1e-7, velocities to 1e-7 m/s and rad/s); verdicts and events come from the unrounded arrays.
  "output" (dynamic results) says where each went, as the request asked: "json" (in the document),
  "npz" (the binary sidecar beside it, engine.io.sidecar; the document's field is then empty) or
  "none"; a document without "output" has both in it.
- the analysis's reports (`Result.extra`, written as they are): "stress_summary", volume-weighted
  averages per course and over every movable block (seed 001 Table I); "verdict_by" and
  "max_point_speed" of a static solution; "load_factor_report"; "construction"; and of a dynamic
  run "energy", "events", "cancelled", "stopped_at", "steps", "time_step", "solver_steps",
  "network_history" (the contact counts per output frame after t = 0, seed 001 figs. 25-27) and
  "strain" (engine.post.strain; null unless the block centroids lie in a plane); of any analysis
  of a model whose settings.overlap shrinks or accepts overlaps, "overlap_repair" (engine.analysis.overlap).
- a static or load factor result's "solver" says "warm_start": whether its static solve was offered
  given impulses as its start (engine.analysis.static.WarmStart; APGD starts from them, ``auto``'s
  Newton from zero, engine.solvers.auto).
- results are strict JSON: a non-finite number in the stresses, the joints' readings or the
  reports is written null (and read back as nan).
"""
import copy
from dataclasses import dataclass, field

import numpy as np

from extrados.engine.errors import ModelError
from extrados.engine.io.compas_data import DocumentData
from extrados.engine.tolerance import TOL
from extrados.engine.verdict_warnings import result_warnings

FORMAT = "extrados.result/1"
#: The document fields that `Result` types; every other field is a report of `Result.extra`.
TYPED_FIELDS = ("format", "analysis", "stable", "load_factor", "solver", "blocks", "contacts", "interfaces",
                "reactions", "network", "thrust_lines", "frames", "histories", "output", "warnings")


# --- the arrays ------------------------------------------------------------------------------

@dataclass(frozen=True)
class BlockResults:
    """Per block, in model order: where it ends and its average stress (engine.post.stress)."""

    ids: tuple                        # (n_blocks,) str
    support: np.ndarray               # (n_blocks,) bool
    position: np.ndarray              # (n_blocks, 3) float64, m, centres of mass
    orientation: np.ndarray           # (n_blocks, 4) float64, unit quaternions [w, x, y, z]
    velocity: np.ndarray              # (n_blocks, 6) float64, [m/s, rad/s], world
    stress: np.ndarray                # (n_blocks, 3, 3) float64, Pa, tension positive (seed 001 eq. 24, 35, 55)
    principal_values: np.ndarray      # (n_blocks, 3) float64, Pa, ascending
    principal_directions: np.ndarray  # (n_blocks, 3, 3) float64, row k the unit direction of value k
    p: np.ndarray                     # (n_blocks,) float64, Pa, -tr / 3
    q: np.ndarray                     # (n_blocks,) float64, Pa, sqrt(3/2 s : s)
    asymmetry: np.ndarray             # (n_blocks,) float64, seed 001 eq. 57
    entity: tuple                     # (n_blocks,) dict or None, the model's entity of each block (seed 002 sec. 2.1)


@dataclass(frozen=True)
class ContactResults:
    """Per contact point, pairs contiguous (each joint's points its polygon, in order)."""

    body_a: np.ndarray  # (n_c,) int64
    body_b: np.ndarray  # (n_c,) int64, the block the force acts on
    point: np.ndarray   # (n_c, 3) float64, m
    normal: np.ndarray  # (n_c, 3) float64, unit, into body_b
    force: np.ndarray   # (n_c, 3) float64, N, world-frame force on body_b from body_a
    gap: np.ndarray     # (n_c,) float64, m
    state: np.ndarray   # (n_c,) str, 'stick', 'slip' or 'open' (engine.post.networks)


@dataclass(frozen=True)
class ContactNetwork:
    """Strong and weak networks of the closed contacts and the number of contacts in each state."""

    strong: np.ndarray        # (n_c,) bool, closed, normal force above the mean
    weak: np.ndarray          # (n_c,) bool, closed, normal force at or below the mean
    mean_normal_force: float  # N, over the closed contacts; 0 when none is closed
    counts: dict              # {"stick", "slip", "open", "closed", "strong", "weak"}: int


@dataclass(frozen=True)
class Interfaces:
    """Resultants per joint, structure of arrays over n_pairs joints (engine.post.interfaces)."""

    body_first: np.ndarray    # (n_pairs,) int64, the block the force acts on
    body_second: np.ndarray   # (n_pairs,) int64
    normal: np.ndarray        # (n_pairs, 3) float64, unit, pointing into the first block
    force: np.ndarray         # (n_pairs, 3) float64, N, applied by the second block on the first
    moment: np.ndarray        # (n_pairs, 3) float64, N m, about the centre
    centre: np.ndarray        # (n_pairs, 3) float64, m, centre of pressure
    normal_force: np.ndarray  # (n_pairs,) float64, N (compression positive)
    shear_force: np.ndarray   # (n_pairs,) float64, N
    polygon_start: np.ndarray  # (n_pairs + 1,) int64 offsets into the contact points (polygon corners)


@dataclass(frozen=True)
class JointAdmissibility:
    """Where each joint carries its resultant, structure of arrays over n_pairs joints (engine.post.joints)."""

    closed: np.ndarray               # (n_pairs,) bool, the joint carries compression
    centroid: np.ndarray             # (n_pairs, 3) float64, m, centroid of the joint polygon
    eccentricity_vector: np.ndarray  # (n_pairs, 3) float64, m, centre of pressure - centroid, in the joint plane
    eccentricity: np.ndarray         # (n_pairs,) float64, m
    in_polygon: np.ndarray           # (n_pairs,) bool, centre of pressure inside the joint polygon
    in_kernel: np.ndarray            # (n_pairs,) bool, centre of pressure inside the central kernel
    shear_utilisation: np.ndarray    # (n_pairs,) float64, |V| / (mu N); inf where mu N <= 0
    kernel: np.ndarray               # (n_kernel, 3) float64, m, world corners of the kernels, counter-clockwise
    kernel_start: np.ndarray         # (n_pairs + 1,) int64, offsets of each joint's kernel corners


@dataclass(frozen=True)
class SupportReactions:
    """What the supports apply to the structure, one row per support block that touches it."""

    block: np.ndarray   # (n_reactions,) int64, the support block
    force: np.ndarray   # (n_reactions, 3) float64, N, applied by the support on the blocks it carries
    moment: np.ndarray  # (n_reactions, 3) float64, N m, of that force about `point`
    point: np.ndarray   # (n_reactions, 3) float64, m, the support's centre of mass


@dataclass(frozen=True)
class BondResults:
    """The mortar bonds of contacts and joints (engine.contact.bonds): '' and nan where none is bonded."""

    contact_state: np.ndarray   # (n_c,) str, 'intact', 'damaged', 'broken' or ''
    contact_damage: np.ndarray  # (n_c,) float64, D = 1 - d
    joint_state: np.ndarray     # (n_pairs,) str, its contacts' state, 'damaged' where they differ
    joint_damage: np.ndarray    # (n_pairs,) float64, mean over its bonded contacts


@dataclass(frozen=True)
class Frames:
    """The output frames of a dynamic run."""

    t: np.ndarray            # (n_frames,) float64, s
    position: np.ndarray     # (n_frames, n_blocks, 3) float64, m
    orientation: np.ndarray  # (n_frames, n_blocks, 4) float64, [w, x, y, z]
    velocity: np.ndarray     # (n_frames, n_blocks, 6) float64, [m/s, rad/s]; nan for supports read from a document


@dataclass(eq=False)
class Result(DocumentData):
    """An analysis result: typed arrays until `to_dict` writes the document (module docstring)."""

    analysis: str                     # "static", "load_factor", "dynamic" or "construction"
    stable: bool
    solver: dict                      # the last CCP solve: name, iterations, residual, converged, seconds
    blocks: BlockResults
    contacts: ContactResults
    network: ContactNetwork
    interfaces: Interfaces
    joints: JointAdmissibility
    reactions: SupportReactions
    bonds: BondResults = None         # None without mortar joints
    load_factor: float = None
    thrust_lines: list = field(default_factory=list)  # "thrust_lines" entries (engine.post.thrust, .conventional)
    frames: Frames = None             # None but for a dynamic result
    output: dict = None               # {"frames", "histories"}: "json", "npz" or "none"; None: both "json"
    extra: dict = field(default_factory=dict)  # the analysis's reports, JSON-ready

    def to_dict(self):
        """The result document (JSON-ready: lists, strings, numbers, null)."""
        ids = self.blocks.ids
        doc = {"format": FORMAT, "analysis": self.analysis, "stable": self.stable, "load_factor": self.load_factor,
               "solver": self.solver, "blocks": block_rows(self.blocks),
               "contacts": contact_rows(ids, self.contacts, self.network, self.bonds),
               "interfaces": interface_rows(ids, self.interfaces, self.contacts.point, self.joints, self.bonds),
               "reactions": reaction_rows(ids, self.reactions),
               "network": dict(self.network.counts, mean_normal_force=self.network.mean_normal_force),
               "thrust_lines": self.thrust_lines, "frames": frame_rows(self.written("frames")),
               "histories": history_rows(self.blocks, self.written("histories"))}
        if self.output is not None:
            doc["output"] = self.output
        doc.update(self.extra)
        doc["warnings"] = result_warnings(doc)
        return doc

    def written(self, series):
        """The Frames the document writes as ``series`` ("frames" or "histories"): None when there are
        none or when the request sent them to the sidecar or nowhere (``output``)."""
        if self.output is not None and self.output[series] != "json":
            return None
        return self.frames

    @classmethod
    def from_dict(cls, doc):
        """The Result of a result document (one that satisfies `result_schema`).

        Raises
        ------
        ModelError
            At ``format`` when the document is not of format extrados.result/1.
        """
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise ModelError(f"a result document has format {FORMAT!r}", path="format")
        blocks = read_blocks(doc["blocks"])
        index = {block_id: i for i, block_id in enumerate(blocks.ids)}
        contacts = read_contacts(doc["contacts"], index)
        interfaces, joints = read_interfaces(doc["interfaces"], index)
        return cls(doc["analysis"], doc["stable"], doc["solver"], blocks, contacts,
                   read_network(doc["contacts"], doc["network"]), interfaces, joints,
                   read_reactions(doc["reactions"], index), read_bonds(doc["contacts"], doc["interfaces"]),
                   doc["load_factor"], doc["thrust_lines"], read_frames(doc["frames"], doc["histories"], blocks),
                   doc.get("output"), {key: value for key, value in doc.items() if key not in TYPED_FIELDS})


# --- strict JSON numbers ---------------------------------------------------------------------------

def json_safe(value):
    """The value with every non-finite float (nested in lists and dicts) replaced by None."""
    if isinstance(value, dict):
        return {key: json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    if isinstance(value, float) and not np.isfinite(value):
        return None
    return value


def finite_or_null(array):
    """The array as nested lists, every non-finite float written None (a vectorised `json_safe`)."""
    if np.isfinite(array).all():
        return array.tolist()
    return json_safe(array.tolist())


def when_closed(closed, values):
    """(n,) or (n, d) values as lists, None where the joint is not closed or a value is not finite (null)."""
    finite = np.isfinite(values)
    keep = closed & (finite if finite.ndim == 1 else finite.all(axis=1))
    return [value if kept else None for value, kept in zip(values.tolist(), keep.tolist())]


def numbers(values, shape):
    """float64 array of nested lists of numbers, reshaped to ``shape``; null reads nan."""
    return np.array(values, float).reshape(shape)


def offsets(lengths):
    """(n + 1,) int64 offsets of n consecutive runs of the given lengths."""
    return np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]).astype(np.int64)


# --- writing the document --------------------------------------------------------------------------

def block_rows(blocks):
    """The document's "blocks"."""
    rows = zip(blocks.ids, blocks.position.tolist(), blocks.orientation.tolist(), blocks.velocity[:, :3].tolist(),
               blocks.velocity[:, 3:].tolist(), blocks.stress.tolist(), blocks.support.tolist(),
               finite_or_null(blocks.principal_values), finite_or_null(blocks.principal_directions),
               finite_or_null(blocks.p), finite_or_null(blocks.q), finite_or_null(blocks.asymmetry),
               copy.deepcopy(blocks.entity))
    return [{"id": i, "position": x, "orientation": o, "velocity": v, "angular_velocity": w, "stress": t,
             "support": bool(support), "principal_stress": {"values": value, "directions": direction},
             "p": pressure, "q": deviator, "stress_asymmetry": skew, "entity": entity}
            for i, x, o, v, w, t, support, value, direction, pressure, deviator, skew, entity in rows]


def contact_rows(ids, contacts, network, bonds):
    """The document's "contacts"; bonded ones also say "bond" and "damage"."""
    membership = np.where(network.strong, "strong", np.where(network.weak, "weak", ""))
    rows = zip(contacts.body_a.tolist(), contacts.body_b.tolist(), contacts.point.tolist(), contacts.normal.tolist(),
               contacts.force.tolist(), contacts.gap.tolist(), contacts.state.tolist(), membership.tolist())
    documents = [{"blocks": [ids[b], ids[a]], "point": p, "normal": n, "force": f, "gap": g, "state": str(s),
                  "network": m or None}
                 for a, b, p, n, f, g, s, m in rows]
    if bonds is not None:
        add_bonds(documents, bonds.contact_state, bonds.contact_damage)
    return documents


def interface_rows(ids, interfaces, points, joints, bonds):
    """The document's "interfaces": resultants, polygons (``points``, (n_c, 3) m) and their readings."""
    closed = np.asarray(joints.closed, bool)
    starts, kernel_starts = interfaces.polygon_start.tolist(), joints.kernel_start.tolist()
    points, kernel = points.tolist(), joints.kernel.tolist()
    rows = zip(interfaces.body_first.tolist(), interfaces.body_second.tolist(), interfaces.normal.tolist(),
               interfaces.force.tolist(), interfaces.moment.tolist(), interfaces.centre.tolist(),
               interfaces.normal_force.tolist(), interfaces.shear_force.tolist(), closed.tolist(),
               joints.centroid.tolist(), when_closed(closed, joints.eccentricity_vector),
               when_closed(closed, joints.eccentricity), when_closed(closed, joints.in_polygon),
               when_closed(closed, joints.in_kernel), when_closed(closed, joints.shear_utilisation))
    documents = [{"blocks": [ids[first], ids[second]], "normal": normal, "force": force, "moment": moment,
                  "centre": centre, "normal_force": normal_force, "shear_force": shear_force,
                  "polygon": points[starts[k]:starts[k + 1]], "closed": is_closed, "centroid": centroid,
                  "eccentricity_vector": eccentricity_vector, "eccentricity": eccentricity, "in_polygon": in_polygon,
                  "in_kernel": in_kernel, "shear_utilisation": utilisation,
                  "kernel": kernel[kernel_starts[k]:kernel_starts[k + 1]]}
                 for k, (first, second, normal, force, moment, centre, normal_force, shear_force, is_closed, centroid,
                         eccentricity_vector, eccentricity, in_polygon, in_kernel, utilisation) in enumerate(rows)]
    if bonds is not None:
        add_bonds(documents, bonds.joint_state, bonds.joint_damage)
    return documents


def add_bonds(documents, states, damage):
    """Add "bond" and "damage" to the documents whose state is not ''."""
    for document, state, value in zip(documents, states.tolist(), damage.tolist()):
        if state:
            document["bond"], document["damage"] = state, value


def reaction_rows(ids, reactions):
    """The document's "reactions"."""
    return [{"block": ids[b], "force": f, "moment": m, "point": p}
            for b, f, m, p in zip(reactions.block.tolist(), reactions.force.tolist(), reactions.moment.tolist(),
                                  reactions.point.tolist())]


def rounded(array, decimals):
    """The array rounded to ``decimals`` as nested lists: the precision a document writes frames in."""
    return np.round(array, decimals).tolist()


def frame_rows(frames):
    """The document's "frames": [] without frames; rounded to TOL.frame_*_decimals."""
    if frames is None:
        return []
    return [{"t": t, "positions": x, "orientations": o}
            for t, x, o in zip(rounded(frames.t, TOL.frame_time_decimals),
                               rounded(frames.position, TOL.frame_position_decimals),
                               rounded(frames.orientation, TOL.frame_orientation_decimals))]


def history_rows(blocks, frames):
    """The document's "histories": {} without frames, else t and per movable block its position and velocity,
    rounded to TOL.frame_*_decimals."""
    if frames is None:
        return {}
    position = np.round(frames.position, TOL.frame_position_decimals)
    velocity = np.round(frames.velocity, TOL.frame_velocity_decimals)
    return {"t": rounded(frames.t, TOL.frame_time_decimals), "blocks": {
        blocks.ids[i]: {"position": position[:, i].tolist(), "velocity": velocity[:, i].tolist()}
        for i in np.flatnonzero(~blocks.support).tolist()}}


# --- reading it back ---------------------------------------------------------------------------------

def column(rows, key, *shape):
    """(n, *shape) float64 of one numeric field of n rows; null reads nan (a null vector, a row of nan)."""
    width = int(np.prod(shape))
    return numbers([[np.nan] * width if shape and row[key] is None else row[key] for row in rows], (-1, *shape))


def flags(rows, key):
    """(n,) bool of one field of n rows; null reads False."""
    return np.array([bool(row[key]) for row in rows], bool).reshape(-1)


def texts(values):
    """(n,) str of n strings."""
    return np.array(values, str).reshape(-1)


def read_blocks(rows):
    principal = [row["principal_stress"] for row in rows]
    return BlockResults(
        tuple(row["id"] for row in rows), flags(rows, "support"), column(rows, "position", 3),
        column(rows, "orientation", 4), np.hstack([column(rows, "velocity", 3), column(rows, "angular_velocity", 3)]),
        column(rows, "stress", 3, 3), column(principal, "values", 3), column(principal, "directions", 3, 3),
        column(rows, "p"), column(rows, "q"), column(rows, "stress_asymmetry"),
        copy.deepcopy(tuple(row.get("entity") for row in rows)))   # none in documents written before entities


def block_pairs(rows, index):
    """(n, 2) int64 block indices of the rows' "blocks"."""
    return np.array([[index[first], index[second]] for first, second in (row["blocks"] for row in rows)],
                    np.int64).reshape(-1, 2)


def read_contacts(rows, index):
    pairs = block_pairs(rows, index)
    return ContactResults(pairs[:, 1], pairs[:, 0], column(rows, "point", 3), column(rows, "normal", 3),
                          column(rows, "force", 3), column(rows, "gap"), texts([row["state"] for row in rows]))


def read_network(rows, counts):
    membership = texts([row["network"] or "" for row in rows])
    return ContactNetwork(membership == "strong", membership == "weak", counts["mean_normal_force"],
                          {key: value for key, value in counts.items() if key != "mean_normal_force"})


def read_interfaces(rows, index):
    pairs = block_pairs(rows, index)
    interfaces = Interfaces(pairs[:, 0], pairs[:, 1], column(rows, "normal", 3), column(rows, "force", 3),
                            column(rows, "moment", 3), column(rows, "centre", 3), column(rows, "normal_force"),
                            column(rows, "shear_force"), offsets([len(row["polygon"]) for row in rows]))
    joints = JointAdmissibility(
        flags(rows, "closed"), column(rows, "centroid", 3), column(rows, "eccentricity_vector", 3),
        column(rows, "eccentricity"), flags(rows, "in_polygon"), flags(rows, "in_kernel"),
        column(rows, "shear_utilisation"), numbers([corner for row in rows for corner in row["kernel"]], (-1, 3)),
        offsets([len(row["kernel"]) for row in rows]))
    return interfaces, joints


def read_reactions(rows, index):
    return SupportReactions(np.array([index[row["block"]] for row in rows], np.int64), column(rows, "force", 3),
                            column(rows, "moment", 3), column(rows, "point", 3))


def read_bond_column(rows):
    """(states, damage) of rows that may say "bond" and "damage"."""
    return texts([row.get("bond", "") for row in rows]), numbers([row.get("damage", np.nan) for row in rows], -1)


def read_bonds(contacts, interfaces):
    """BondResults, or None when no contact or joint is bonded."""
    if not any("bond" in row for row in contacts) and not any("bond" in row for row in interfaces):
        return None
    return BondResults(*read_bond_column(contacts), *read_bond_column(interfaces))


def read_frames(rows, histories, blocks):
    """Frames of the document's "frames" and "histories", either of which may be empty (what neither
    holds reads nan: velocities without histories, orientations and supports without frames); None when both are."""
    if not rows and not histories:
        return None
    n_blocks = len(blocks.ids)
    t = column(rows, "t") if rows else numbers(histories["t"], -1)
    position = np.full((len(t), n_blocks, 3), np.nan)
    orientation = np.full((len(t), n_blocks, 4), np.nan)
    velocity = np.full((len(t), n_blocks, 6), np.nan)
    if rows:
        position[:] = numbers([row["positions"] for row in rows], (-1, n_blocks, 3))
        orientation[:] = numbers([row["orientations"] for row in rows], (-1, n_blocks, 4))
    for i, block_id in enumerate(blocks.ids):
        if histories and block_id in histories["blocks"]:
            velocity[:, i] = histories["blocks"][block_id]["velocity"]
            position[:, i] = histories["blocks"][block_id]["position"]
    return Frames(t, position, orientation, velocity)
