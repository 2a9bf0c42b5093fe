"""The model: blocks, materials, joint laws, loads and settings, fixed once built.

`Model` wraps the model document of DESIGN sec. 4. It validates on construction
(schema, references, block geometry) and exposes `mechanics`, a cached
structure-of-arrays view (masses, inertias, packed polyhedra, loads) that the
pipeline stages read. Everything that changes during a run lives in `State`.
"""
import copy
import json
import math
from dataclasses import dataclass
from functools import cached_property
from importlib import resources

import jsonschema
import numpy as np

from engine.errors import ModelError, format_path
from engine.geometry.packed import pack_polyhedra
from engine.geometry.polyhedron import GeometryError, mass_properties, validated_block

FORMAT = "extrados.model/1"
DEFAULT_SETTINGS = {
    "envelope": 0.005,      # m, contacts are created while the gap is below this (seed 000 sec. 2.2)
    "compliance": 1e-10,    # m/N per contact point: E_i = compliance / h^2 (seed 000 eq. 43)
    "solver": "apgd",
    # "tolerance" (relative CCP residual) defaults per analysis: see engine.analysis.static/dynamic
    "max_iterations": 5000,
}
DEFAULT_GRAVITY = [0.0, 0.0, -9.81]
DEFAULT_JOINT = {"law": "coulomb", "friction": 0.6}
SUPPORTED_LAWS = ("coulomb",)


def _schema():
    text = resources.files("engine.io").joinpath("model_schema.json").read_text()
    return json.loads(text)


_VALIDATOR = jsonschema.Draft202012Validator(_schema())


def _block_label(doc, path):
    """Block id for an error inside blocks[i], if there is one."""
    if len(path) >= 2 and path[0] == "blocks" and isinstance(path[1], int):
        try:
            return doc["blocks"][path[1]].get("id")
        except (IndexError, AttributeError):
            return None
    return None


def validate_schema(doc):
    """Raise ModelError for the first schema violation, with its field path."""
    if not isinstance(doc, dict):
        raise ModelError("the model document must be a JSON object")
    errors = sorted(_VALIDATOR.iter_errors(doc), key=lambda e: (len(e.absolute_path), str(e.absolute_path)))
    if errors:
        error = jsonschema.exceptions.best_match(errors)
        path = list(error.absolute_path)
        message = error.message
        if error.validator == "additionalProperties":
            message = "unknown field: " + message.split("(")[-1].rstrip(")").replace(" were unexpected", "").replace(" was unexpected", "")
        raise ModelError(message, path=format_path(path) or None, block=_block_label(doc, path))
    _check_finite(doc, [])


def _check_finite(node, path):
    """Refuse NaN and infinity anywhere in the document."""
    if isinstance(node, float) and not math.isfinite(node):
        raise ModelError(f"{node} is not a finite number", path=format_path(path))
    if isinstance(node, dict):
        for key, value in node.items():
            _check_finite(value, path + [key])
    elif isinstance(node, list):
        for index, value in enumerate(node):
            _check_finite(value, path + [index])


@dataclass(frozen=True)
class Mechanics:
    """Structure-of-arrays view of a built model (read-only during a run)."""

    block_ids: tuple          # (n_blocks,) str
    mass: np.ndarray          # (n_blocks,) float64, kg
    inertia_body: np.ndarray  # (n_blocks, 3, 3) float64, kg m^2 about the centre of mass, body axes
    position0: np.ndarray     # (n_blocks, 3) float64, m, initial centre of mass
    is_support: np.ndarray    # (n_blocks,) bool
    volume: np.ndarray        # (n_blocks,) float64, m^3
    polyhedra: object         # PackedPolyhedra, vertices relative to the centre of mass
    dead_wrench: np.ndarray   # (n_blocks, 6) float64: force N and moment N m about the centre of mass
    live_wrench: np.ndarray   # (n_blocks, 6) float64: the part a load factor multiplies
    size: float               # m, diagonal of the model's bounding box

    @property
    def n_blocks(self):
        return len(self.block_ids)

    @cached_property
    def inverse_inertia_body(self):
        """(n_blocks, 3, 3) float64, read-only I_body^-1 (1/(kg m^2)): the body inertia never changes."""
        inverse = np.linalg.inv(self.inertia_body)
        inverse.flags.writeable = False
        return inverse


class Model:
    """A masonry model: the document of DESIGN sec. 4, validated, with cached mechanics.

    Build one from a document (`from_dict`, `from_json`) or block by block
    (`Model()`, then `add_block`). Any change clears the cached mechanics.
    """

    def __init__(self, doc=None):
        if doc is None:
            doc = {"format": FORMAT, "units": "SI", "gravity": list(DEFAULT_GRAVITY),
                   "materials": {"stone": {"density": 2000.0}},
                   "joints": {"dry": dict(DEFAULT_JOINT)}, "default_joint": "dry", "blocks": []}
            self._doc = doc
            return
        validate_schema(doc)
        self._doc = copy.deepcopy(doc)
        self._doc["blocks"] = [self._checked_block(b, i) for i, b in enumerate(self._doc["blocks"])]
        self._check_references()

    # --- document ---------------------------------------------------------
    @classmethod
    def from_dict(cls, doc):
        """Model from a model document (dict); raises ModelError on bad input."""
        return cls(doc)

    @classmethod
    def from_json(cls, text_or_path):
        """Model from JSON text or from the path of a JSON file."""
        text = text_or_path
        if not str(text_or_path).lstrip().startswith("{"):
            try:
                with open(text_or_path, encoding="utf-8") as handle:
                    text = handle.read()
            except OSError as exc:
                raise ModelError(f"cannot read model file: {exc}") from exc
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ModelError(f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from exc
        return cls(doc)

    def to_dict(self):
        """The model document (faces oriented outward), a deep copy."""
        return copy.deepcopy(self._doc)

    def to_json(self, **kwargs):
        return json.dumps(self._doc, **kwargs)

    @property
    def block_ids(self):
        return [b["id"] for b in self._doc["blocks"]]

    @property
    def settings(self):
        merged = dict(DEFAULT_SETTINGS)
        merged.update(self._doc.get("settings", {}))
        return merged

    @property
    def support_motion(self):
        """The `support_motion` entry of the document, or None (read-only view)."""
        return self._doc.get("support_motion")

    @property
    def joints(self):
        """Joint laws by name (read-only view)."""
        return self._doc.get("joints", {})

    @property
    def gravity(self):
        return np.asarray(self._doc.get("gravity", DEFAULT_GRAVITY), dtype=float)

    # --- building in Python -----------------------------------------------
    def add_block(self, mesh=None, *, id=None, vertices=None, faces=None, material=None, support=False):
        """Add a closed convex block from a COMPAS Mesh or from vertices and faces.

        Parameters
        ----------
        mesh : compas.datastructures.Mesh, optional
        id : str, optional
            Defaults to "b{index}".
        vertices : (n, 3) array_like, optional
        faces : list of list of int, optional
        material : str, optional
        support : bool
        """
        if mesh is not None:
            vertices, faces = mesh.to_vertices_and_faces()
        index = len(self._doc["blocks"])
        block = {"id": id if id is not None else f"b{index}",
                 "vertices": np.asarray(vertices, float).tolist(), "faces": [list(map(int, f)) for f in faces]}
        if material is not None:
            block["material"] = material
        if support:
            block["support"] = True
        self._doc["blocks"].append(self._checked_block(block, index))
        self._check_references()
        self.__dict__.pop("mechanics", None)
        return block["id"]

    def add_load(self, load):
        """Add a load dict of DESIGN sec. 4 (point or body_acceleration)."""
        self._doc.setdefault("loads", []).append(dict(load))
        validate_schema(self._doc)
        self._check_references()
        self.__dict__.pop("mechanics", None)

    # --- validation -------------------------------------------------------
    @staticmethod
    def _checked_block(block, index):
        try:
            vertices, faces = validated_block(block["vertices"], block["faces"])
        except GeometryError as exc:
            path = f"blocks[{index}]" + (f".{exc.where}" if exc.where else "")
            raise ModelError(str(exc), path=path, block=block.get("id")) from exc
        block = dict(block)
        block["vertices"] = vertices.tolist()
        block["faces"] = faces
        return block

    def _check_references(self):
        doc = self._doc
        ids = {}
        for index, block in enumerate(doc["blocks"]):
            if block["id"] in ids:
                raise ModelError(f"duplicate block id (also blocks[{ids[block['id']]}])",
                                 path=f"blocks[{index}].id", block=block["id"])
            ids[block["id"]] = index
            material = block.get("material", "stone")
            if material not in doc.get("materials", {}):
                raise ModelError(f"unknown material '{material}'", path=f"blocks[{index}].material", block=block["id"])
        joints = doc.get("joints", {})
        for name, joint in joints.items():
            if joint["law"] not in SUPPORTED_LAWS:
                raise ModelError(f"joint law '{joint['law']}' is not available yet (only {', '.join(SUPPORTED_LAWS)})",
                                 path=f"joints.{name}.law")
        if "default_joint" in doc and doc["default_joint"] not in joints:
            raise ModelError(f"unknown joint '{doc['default_joint']}'", path="default_joint")
        for index, assignment in enumerate(doc.get("joint_assignments", [])):
            for k, bid in enumerate(assignment["blocks"]):
                if bid not in ids:
                    raise ModelError(f"unknown block id '{bid}'", path=f"joint_assignments[{index}].blocks[{k}]")
            if assignment["joint"] not in joints:
                raise ModelError(f"unknown joint '{assignment['joint']}'", path=f"joint_assignments[{index}].joint")
        motion = doc.get("support_motion", {})
        if motion.get("kind") == "sine" and ("amplitude" in motion) == ("peak_acceleration" in motion):
            raise ModelError("give exactly one of amplitude and peak_acceleration", path="support_motion")
        if motion.get("kind") == "sine" and not any(motion["direction"]):
            raise ModelError("direction must not be zero", path="support_motion.direction")
        for k, bid in enumerate(motion.get("blocks", [])):
            if bid not in ids:
                raise ModelError(f"unknown block id '{bid}'", path=f"support_motion.blocks[{k}]")
            if not doc["blocks"][ids[bid]].get("support", False):
                raise ModelError(f"block '{bid}' is not a support; only supports can be moved",
                                 path=f"support_motion.blocks[{k}]", block=bid)
        for index, load in enumerate(doc.get("loads", [])):
            targets = [load["block"]] if load["kind"] == "point" else load["blocks"]
            if targets == "all":
                continue
            for bid in targets:
                if bid not in ids:
                    field = "block" if load["kind"] == "point" else "blocks"
                    raise ModelError(f"unknown block id '{bid}'", path=f"loads[{index}].{field}")

    # --- joint laws -------------------------------------------------------
    def default_joint(self):
        """The joint law dict of pairs without an assignment."""
        name = self._doc.get("default_joint")
        if name is not None:
            return self._doc["joints"][name]
        joints = self._doc.get("joints", {})
        return next(iter(joints.values())) if len(joints) == 1 else DEFAULT_JOINT

    @cached_property
    def joint_table(self):
        """Joint laws as arrays for vectorized lookup (see engine.contact.laws).

        Returns
        -------
        dict with
            pair_keys : (n_assigned,) int64, sorted keys min(a, b) * n_blocks + max(a, b)
            pair_law : (n_assigned,) int64, index of the law of each assigned pair
            friction, normal_stiffness, shear_stiffness : (n_laws,) float64 (nan: no stiffness)
        Law 0 is the default joint.
        """
        laws = [self.default_joint()]
        names = {}
        index = {bid: i for i, bid in enumerate(self.block_ids)}
        n = len(index)
        keys, law_of_pair = [], []
        for assignment in self._doc.get("joint_assignments", []):
            name = assignment["joint"]
            if name not in names:
                names[name] = len(laws)
                laws.append(self._doc["joints"][name])
            a, b = sorted(index[x] for x in assignment["blocks"])
            keys.append(a * n + b)
            law_of_pair.append(names[name])
        order = np.argsort(keys, kind="stable")
        return {"pair_keys": np.asarray(keys, np.int64)[order], "pair_law": np.asarray(law_of_pair, np.int64)[order],
                "friction": np.array([law["friction"] for law in laws], float),
                "normal_stiffness": np.array([law.get("normal_stiffness", np.nan) for law in laws], float),
                "shear_stiffness": np.array([law.get("shear_stiffness", np.nan) for law in laws], float)}

    # --- mechanics --------------------------------------------------------
    @cached_property
    def mechanics(self):
        """Masses, inertias, packed polyhedra and load wrenches (computed once)."""
        doc = self._doc
        if not doc["blocks"]:
            raise ModelError("the model has no blocks", path="blocks")
        n = len(doc["blocks"])
        mass = np.zeros(n)
        inertia = np.zeros((n, 3, 3))
        centre = np.zeros((n, 3))
        volume = np.zeros(n)
        local_vertices, faces = [], []
        for i, block in enumerate(doc["blocks"]):
            density = doc["materials"][block.get("material", "stone")]["density"]
            vertices = np.asarray(block["vertices"], float)
            mass[i], centre[i], inertia[i] = mass_properties(vertices, block["faces"], density)
            volume[i] = mass[i] / density
            local_vertices.append(vertices - centre[i])
            faces.append(block["faces"])
        is_support = np.array([bool(b.get("support", False)) for b in doc["blocks"]])
        if is_support.all():
            raise ModelError("every block is a support: nothing can move", path="blocks")
        dead, live = self._load_wrenches(mass, centre)
        all_vertices = np.concatenate(local_vertices) + np.repeat(centre, [len(v) for v in local_vertices], axis=0)
        size = float(np.linalg.norm(np.ptp(all_vertices, axis=0)))
        return Mechanics(tuple(self.block_ids), mass, inertia, centre, is_support, volume,
                         pack_polyhedra(local_vertices, faces), dead, live, size)

    def _load_wrenches(self, mass, centre):
        """Dead (gravity and loads without `live`) and live wrenches per block, (n, 6) each."""
        n = len(mass)
        dead = np.zeros((n, 6))
        live = np.zeros((n, 6))
        dead[:, :3] = mass[:, None] * self.gravity[None, :]
        index = {bid: i for i, bid in enumerate(self.block_ids)}
        for load in self._doc.get("loads", []):
            target = live if load.get("live", False) else dead
            if load["kind"] == "point":
                i = index[load["block"]]
                force = np.asarray(load["force"], float)
                arm = np.asarray(load["point"], float) - centre[i]
                target[i, :3] += force
                target[i, 3:] += np.cross(arm, force)
            else:
                blocks = range(n) if load["blocks"] == "all" else [index[b] for b in load["blocks"]]
                for i in blocks:
                    target[i, :3] += mass[i] * np.asarray(load["acceleration"], float)
        return dead, live
