"""The model: blocks, materials, joint laws, loads and settings, fixed once built.

`Model` wraps the model document of DESIGN sec. 4. It validates on construction
(schema, references, block geometry) and exposes `mechanics`, a cached
structure-of-arrays view (masses, inertias, packed polyhedra, loads) that the
pipeline stages read. Everything that changes during a run lives in `State`.

What the blocks alone fix (their checked geometry, volumes, centres, unit-density inertias
and packed polyhedra: `BlockGeometry`) is the costly part of a model. A model built with
``reuse=previous`` from a document whose blocks are identical to the previous model's (same
`block_digest`) takes them over instead of checking and integrating the blocks again; the
rest of the document is validated as usual.
"""
import hashlib
import json
import os
import pickle
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from extrados.engine.contact.cohesive import LAW_CODES, CohesiveLaw
from extrados.engine.deformable.blocks import deformable_plan, elastic_bodies, has_deformable
from extrados.engine.deformable.joint_points import block_spacing
from extrados.engine.errors import ModelError
from extrados.engine.io.model_document import (BLOCK_DEFAULTS, FORMAT, LOAD_DEFAULTS, MODEL_DEFAULTS, SETTINGS_DEFAULTS,
                                               plain_faces, plain_vertices, validate_block, validate_schema)
from extrados.engine.geometry.hull import hull_block
from extrados.engine.geometry.packed import pack_polyhedra
from extrados.engine.geometry.polyhedron import GeometryError, prevalidated_blocks, unit_mass_properties, validated_block
from extrados.engine.io.compas_data import DocumentData
from extrados.engine.scaled_defaults import scaled_settings

SUPPORTED_LAWS = ("coulomb", "mohr_coulomb", "cohesive")


def copied(doc):
    """A deep copy of a JSON-like document (a pickle round trip: several times faster than copy.deepcopy)."""
    return pickle.loads(pickle.dumps(doc, pickle.HIGHEST_PROTOCOL))


def block_digest(blocks):
    """Digest of the blocks of a document: equal digests mean identical blocks (types included).

    The digest hashes the pickle of the blocks, which records every value with its type; the
    same content pickled with shared sub-lists gives another digest (a model is then rebuilt,
    never wrongly reused).
    """
    return hashlib.blake2b(pickle.dumps(blocks, pickle.HIGHEST_PROTOCOL), digest_size=16).hexdigest()


def document_block_digest(doc):
    """`block_digest` of a model document's blocks; None when it has no blocks to hash (then
    validation says what is wrong)."""
    if not isinstance(doc, dict) or "blocks" not in doc:
        return None
    try:
        return block_digest(doc["blocks"])
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return None


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
    entity: tuple             # (n_blocks,) dict or None: each block's architectural entity (seed 002 sec. 2.1)

    @property
    def n_blocks(self):
        return len(self.block_ids)

    @cached_property
    def inverse_inertia_body(self):
        """(n_blocks, 3, 3) float64, read-only I_body^-1 (1/(kg m^2)): the body inertia never changes."""
        inverse = np.linalg.inv(self.inertia_body)
        inverse.flags.writeable = False
        return inverse


@dataclass(frozen=True)
class BlockGeometry:
    """What the blocks' shapes alone fix, shared by models with identical blocks (never modified)."""

    volume: np.ndarray        # (n_blocks,) float64, m^3
    centre: np.ndarray        # (n_blocks, 3) float64, m, centre of mass as drawn
    unit_inertia: np.ndarray  # (n_blocks, 3, 3) float64, m^5: inertia about the centre per unit density, world axes
    polyhedra: object         # PackedPolyhedra, vertices relative to the centre
    size: float               # m, diagonal of the bounding box of all vertices


def block_geometry(blocks):
    """BlockGeometry of checked blocks (outward faces); the mass is density times volume, the
    inertia density times unit_inertia (engine.geometry.polyhedron.unit_mass_properties)."""
    vertices = [np.asarray(block["vertices"], float) for block in blocks]
    faces = [block["faces"] for block in blocks]
    volume, centre, unit_inertia = unit_mass_properties(list(zip(vertices, faces)))
    local_vertices = [v - c for v, c in zip(vertices, centre)]
    all_vertices = np.concatenate(local_vertices) + np.repeat(centre, [len(v) for v in local_vertices], axis=0)
    return BlockGeometry(volume, centre, unit_inertia, pack_polyhedra(local_vertices, faces),
                         float(np.linalg.norm(np.ptp(all_vertices, axis=0))))


class Model(DocumentData):
    """A masonry model: the document of DESIGN sec. 4, validated, with cached mechanics.

    Build one from a document (`from_dict`, `from_json`) or block by block
    (`Model()`, then `add_block`). Any change clears the cached mechanics. A COMPAS data
    object: ``compas.json_dump(model, path)`` writes its document, ``compas.json_load`` reads it.
    """

    def __init__(self, doc=None, reuse=None):
        self.block_digest = None   # of the document's blocks as given; None when built block by block
        self.import_report = ()    # BlockReport per block of a model read from a CAD file (from_file)
        if doc is None:
            self._doc = {"format": FORMAT, "units": "SI", **copied(MODEL_DEFAULTS), "blocks": []}
            return
        self.block_digest = document_block_digest(doc)
        same_blocks = reuse is not None and self.block_digest is not None and reuse.block_digest == self.block_digest
        validate_schema(doc, blocks_checked=same_blocks)
        rest = copied({key: value for key, value in doc.items() if key != "blocks"})
        if same_blocks:
            blocks = list(reuse._doc["blocks"])
            self.__dict__["geometry"] = reuse.geometry
        else:
            given = [self._shaped_block(block, index) for index, block in enumerate(copied(doc["blocks"]))]
            checked = prevalidated_blocks([(block["vertices"], block["faces"]) for block in given])
            blocks = [self._checked_block(b, i, c) for i, (b, c) in enumerate(zip(given, checked))]
        self._doc = {key: blocks if key == "blocks" else rest[key] for key in doc}
        self._check_references()

    # --- document ---------------------------------------------------------
    @classmethod
    def from_dict(cls, doc, reuse=None):
        """Model from a model document (dict); raises ModelError on bad input.

        Parameters
        ----------
        doc : dict
        reuse : Model, optional
            A model built before; when ``doc``'s blocks are identical to its document's (same
            `block_digest`), their checks and `geometry` are taken over, not done again.
        """
        if not isinstance(doc, dict):
            raise ModelError(f"the model document must be a JSON object, not {type(doc).__name__}")
        return cls(doc, reuse)

    @classmethod
    def from_json(cls, text_or_path):
        """Model from JSON text (a str whose first character, after blanks, is '{' or '[') or from
        the path (str or os.PathLike) of a JSON file."""
        if not isinstance(text_or_path, (str, os.PathLike)):
            raise ModelError(f"from_json takes JSON text or a file path, not {type(text_or_path).__name__}")
        text = text_or_path
        if not (isinstance(text, str) and text.lstrip()[:1] in ("{", "[")):
            try:
                with open(text_or_path, encoding="utf-8") as handle:
                    text = handle.read()
            except (OSError, UnicodeDecodeError) as exc:
                raise ModelError(f"cannot read model file: {exc}") from exc
        try:
            doc = json.loads(text)   # NaN and Infinity parse, for validation to name their field
        except json.JSONDecodeError as exc:
            raise ModelError(f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from exc
        except RecursionError:
            raise ModelError("malformed JSON: lists and objects nested too deeply") from None
        except ValueError as exc:   # an integer of more digits than Python converts
            raise ModelError(f"malformed JSON: {exc}") from None
        return cls.from_dict(doc)

    @classmethod
    def from_file(cls, path, **options):
        """Model from a file: a model document (.json) or a CAD or mesh file of closed bodies.

        Parameters
        ----------
        path : str or os.PathLike
            .json (`from_json`), or .obj, .stl, .ply, .glb, .gltf, .3dm: each closed convex body a
            block (engine.io.cad.import_file).
        **options
            Of `engine.io.cad.import_file`: hull, units, scale, up, support_names, max_blocks.

        Returns
        -------
        Model
            Built from a CAD file, its ``import_report`` holds a BlockReport per block (its id,
            volume, and what the import changed).
        """
        if Path(path).suffix.lower() == ".json":
            if options:
                raise ModelError(f"a model document takes no import options ({', '.join(options)})", path=str(path))
            return cls.from_json(os.fspath(path))
        from extrados.engine.io.cad import import_file

        imported = import_file(path, **options)
        model = cls.from_dict(imported.document)
        model.import_report = imported.report
        return model

    def to_dict(self):
        """The model document (faces oriented outward; a block given by points as the vertices and
        faces of their hull), a deep copy."""
        return copied(self._doc)

    def to_json(self, **kwargs):
        return json.dumps(self._doc, **kwargs)

    @property
    def block_ids(self):
        return [b["id"] for b in self._doc["blocks"]]

    def _field(self, name):
        """The document's top-level field ``name``, or the schema's default for it (read-only view)."""
        return self._doc.get(name, MODEL_DEFAULTS.get(name))

    @property
    def settings(self):
        """The document's settings over the defaults, the compliance and envelope scaled to the
        model when left out (engine.scaled_defaults; a new dict)."""
        return dict(self._settings)

    @cached_property
    def _settings(self):
        given = self._doc.get("settings", {})
        settings = {**SETTINGS_DEFAULTS, **given}
        return scaled_settings(settings, given, self.mechanics) if self._doc["blocks"] else settings

    @property
    def support_motion(self):
        """The `support_motion` entry of the document, or None (read-only view)."""
        return self._doc.get("support_motion")

    @property
    def joints(self):
        """Joint laws by name (read-only view)."""
        return self._field("joints")

    @property
    def gravity(self):
        """(3,) float64, m/s^2."""
        return np.asarray(self._field("gravity"), dtype=float)

    @property
    def loads(self):
        """The document's loads (read-only view)."""
        return self._doc.get("loads", [])

    @staticmethod
    def material_of(block):
        """The material name of a block dict."""
        return block.get("material", BLOCK_DEFAULTS["material"])

    @staticmethod
    def is_live(load):
        """Whether a load dict is live: the part of the loads a load factor multiplies."""
        return load.get("live", LOAD_DEFAULTS["live"])

    # --- building in Python -----------------------------------------------
    def add_block(self, mesh=None, *, id=None, vertices=None, faces=None, points=None, material=None, support=False,
                  entity=None, deformable=None):
        """Add a closed convex block from a COMPAS Mesh, from vertices and faces, or from points.

        Parameters
        ----------
        mesh : compas.datastructures.Mesh, optional
        id : str, optional
            Defaults to "b{index}".
        vertices : (n, 3) array_like, optional
        faces : list of list of int, optional
        points : (n, 3) array_like, optional
            m; the block is their convex hull (engine.geometry.hull), in place of vertices and faces.
        material : str, optional
        support : bool
        entity : dict, optional
            The block's architectural entity (model_schema.json, $defs/entity: building, wall, leaf,
            course, stone, type and free attributes; seed 002 sec. 2.1), given back by every result.
        deformable : dict, optional
            The block's elasticity (model_schema.json, $defs/deformable: E, nu, mesh_size, element, theta;
            engine.deformable), over its material's.
        """
        if mesh is not None:
            vertices, faces = mesh.to_vertices_and_faces()
        index = len(self._doc["blocks"])
        block = {"id": id if id is not None else f"b{index}"}
        if vertices is not None:
            block["vertices"] = plain_vertices(vertices, index)
        if faces is not None:
            block["faces"] = plain_faces(faces, index)
        if points is not None:
            block["points"] = plain_vertices(points, index, "points")
        if material is not None:
            block["material"] = material
        if support:
            block["support"] = True
        if entity is not None:
            block["entity"] = copied(entity)
        if deformable is not None:
            block["deformable"] = copied(deformable)
        validate_block(block, index)
        self._doc["blocks"].append(self._checked_block(self._shaped_block(block, index), index))
        self._check_references()
        self.block_digest = None
        for cached in ("geometry", "mechanics", "_settings", "elastic_bodies"):
            self.__dict__.pop(cached, None)
        return block["id"]

    def add_load(self, load):
        """Add a load dict of DESIGN sec. 4 (point or body_acceleration)."""
        self._doc.setdefault("loads", []).append(dict(load))
        validate_schema(self._doc)
        self._check_references()
        self.__dict__.pop("mechanics", None)

    # --- validation -------------------------------------------------------
    @staticmethod
    def _shaped_block(block, index):
        """The block (one that passed `validate_schema`), a block given by points turned into the
        vertices and faces of their convex hull (engine.geometry.hull); ModelError at
        ``blocks[index].points`` when they span no volume or their hull fails the checks of a block
        (engine.geometry.polyhedron.validated_block: in floating point, far from the origin)."""
        if "points" not in block:
            return block
        try:
            vertices, faces = validated_block(*hull_block(block["points"]))
        except GeometryError as exc:
            where = f" (the hull's {exc.where})" if exc.where else ""
            raise ModelError(f"{exc}{where}", path=f"blocks[{index}].points", block=block["id"]) from exc
        rest = {key: value for key, value in block.items() if key not in ("id", "points")}
        return {"id": block["id"], "vertices": vertices.tolist(), "faces": faces, **rest}

    @staticmethod
    def _checked_block(block, index, checked=None):
        """The block with float vertices and outward faces; ``checked`` is what `prevalidated_blocks`
        found for it (None: check it here, raising ModelError at its path)."""
        try:
            vertices, faces = checked or validated_block(block["vertices"], block["faces"])
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
            material = self.material_of(block)
            if material not in self._field("materials"):
                raise ModelError(f"unknown material '{material}'", path=f"blocks[{index}].material", block=block["id"])
        joints = self.joints
        for name, joint in joints.items():
            if joint["law"] not in SUPPORTED_LAWS:
                raise ModelError(f"joint law '{joint['law']}' is not available yet (only {', '.join(SUPPORTED_LAWS)})",
                                 path=f"joints.{name}.law")
            if joint["law"] == "cohesive":
                CohesiveLaw.from_dict(joint, f"joints.{name}")   # raises at the mode whose curve cannot exist
        if "default_joint" in doc and doc["default_joint"] not in joints:
            raise ModelError(f"unknown joint '{doc['default_joint']}'", path="default_joint")
        for index, assignment in enumerate(doc.get("joint_assignments", [])):
            for k, bid in enumerate(assignment["blocks"]):
                if bid not in ids:
                    raise ModelError(f"unknown block id '{bid}'", path=f"joint_assignments[{index}].blocks[{k}]")
            if assignment["joint"] not in joints:
                raise ModelError(f"unknown joint '{assignment['joint']}'", path=f"joint_assignments[{index}].joint")
        if doc["blocks"] and has_deformable(doc["blocks"], self._field("materials"), self.material_of):
            deformable_plan(doc["blocks"], self._field("materials"), self.material_of, self.geometry.volume)
        motion = doc.get("support_motion", {})
        if motion.get("kind") == "sine" and ("amplitude" in motion) == ("peak_acceleration" in motion):
            raise ModelError("give exactly one of amplitude and peak_acceleration", path="support_motion")
        if motion.get("kind") == "sine" and not any(motion["direction"]):
            raise ModelError("direction must not be zero", path="support_motion.direction")
        for k, bid in enumerate(motion.get("blocks", [])):
            if bid not in ids:
                raise ModelError(f"unknown block id '{bid}'", path=f"support_motion.blocks[{k}]")
            if not doc["blocks"][ids[bid]].get("support", BLOCK_DEFAULTS["support"]):
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
            return self.joints[name]
        joints = self.joints if len(self.joints) == 1 else MODEL_DEFAULTS["joints"]
        return next(iter(joints.values()))

    @cached_property
    def joint_table(self):
        """Joint laws as arrays for vectorized lookup (see engine.contact.laws).

        Returns
        -------
        dict with
            pair_keys : (n_assigned,) int64, sorted keys min(a, b) * n_blocks + max(a, b)
            pair_law : (n_assigned,) int64, index of the law of each assigned pair
            friction, normal_stiffness, shear_stiffness : (n_laws,) float64, a Coulomb joint's optional
                stiffnesses (nan: none)
            law_code : (n_laws,) int64, engine.contact.cohesive COULOMB, MOHR_COULOMB or COHESIVE
            cohesion, tensile_strength : (n_laws,) float64, Pa, the strengths of a bonded joint
                (mohr_coulomb: its cohesion and tensile strength; cohesive: sigma_e of modes II and I)
            bond_stiffness : (n_laws, 2) float64, Pa/m, K0 of modes I and II of a cohesive law (nan: none),
                which make its bonded contacts compliant (engine.contact.mortar.compliance_of_bonds)
            cohesive : list of CohesiveLaw or None per law
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
                laws.append(self.joints[name])
            a, b = sorted(index[x] for x in assignment["blocks"])
            keys.append(a * n + b)
            law_of_pair.append(names[name])
        order = np.argsort(keys, kind="stable")
        cohesive = [CohesiveLaw.from_dict(law, "joints") if law["law"] == "cohesive" else None for law in laws]
        return {"pair_keys": np.asarray(keys, np.int64)[order], "pair_law": np.asarray(law_of_pair, np.int64)[order],
                "friction": np.array([law["friction"] for law in laws], float),
                "normal_stiffness": np.array([law.get("normal_stiffness", np.nan) for law in laws], float),
                "shear_stiffness": np.array([law.get("shear_stiffness", np.nan) for law in laws], float),
                "bond_stiffness": np.array([(c.mode_I.stiffness, c.mode_II.stiffness) if c else (np.nan, np.nan)
                                            for c in cohesive], float).reshape(-1, 2),
                "law_code": np.array([LAW_CODES[law["law"]] for law in laws], np.int64),
                "cohesion": np.array([c.mode_II.strength if c else law.get("cohesion", 0.0)
                                      for law, c in zip(laws, cohesive)], float),
                "tensile_strength": np.array([c.mode_I.strength if c else law.get("tensile_strength", 0.0)
                                              for law, c in zip(laws, cohesive)], float),
                "cohesive": cohesive}

    # --- mechanics --------------------------------------------------------
    @cached_property
    def geometry(self):
        """BlockGeometry of the blocks (computed once, or taken over from a model with the same blocks)."""
        return block_geometry(self._doc["blocks"])

    @cached_property
    def elastic_bodies(self):
        """Block index -> ElasticBody of the deformable blocks (engine.deformable.blocks), meshed once; empty
        for a model of rigid blocks."""
        blocks, materials = self._doc["blocks"], self._field("materials")
        if not has_deformable(blocks, materials, self.material_of):
            return {}
        return elastic_bodies(blocks, materials, self.material_of, self.geometry)

    @cached_property
    def contact_spacing(self):
        """(n_blocks,) m, the contact spacing of each deformable block that has one, inf elsewhere; None when
        no block has one (engine.deformable.joint_points)."""
        return block_spacing(self.elastic_bodies, len(self._doc["blocks"]))

    @cached_property
    def mechanics(self):
        """Masses, inertias, packed polyhedra and load wrenches (computed once)."""
        doc = self._doc
        if not doc["blocks"]:
            raise ModelError("the model has no blocks", path="blocks")
        geometry = self.geometry
        materials = self._field("materials")
        density = np.array([materials[self.material_of(b)]["density"] for b in doc["blocks"]], float)
        mass = density * geometry.volume
        inertia = density[:, None, None] * geometry.unit_inertia
        is_support = np.array([bool(b.get("support", BLOCK_DEFAULTS["support"])) for b in doc["blocks"]])
        if is_support.all():
            raise ModelError("every block is a support: nothing can move", path="blocks")
        dead, live = self._load_wrenches(mass, geometry.centre)
        return Mechanics(tuple(self.block_ids), mass, inertia, geometry.centre, is_support, geometry.volume,
                         geometry.polyhedra, dead, live, geometry.size, tuple(b.get("entity") for b in doc["blocks"]))

    def _load_wrenches(self, mass, centre):
        """Dead (gravity and loads without `live`) and live wrenches per block, (n, 6) each."""
        n = len(mass)
        dead = np.zeros((n, 6))
        live = np.zeros((n, 6))
        dead[:, :3] = mass[:, None] * self.gravity[None, :]
        index = {bid: i for i, bid in enumerate(self.block_ids)}
        for load in self._doc.get("loads", []):
            target = live if self.is_live(load) else dead
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
