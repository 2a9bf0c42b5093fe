"""The blocks of a model, at rest or posed at a result's frame, as a binary glTF (.glb) for the web and Rhino.

Each block is one node named by its id, child of a root node ``extrados`` that turns the engine's z-up world
into glTF's y-up one ((x, y, z) -> (x, z, -y): web viewers show it upright, and the importers of z-up
programs such as Blender and Rhino turn it back). A node's mesh holds the
block's faces triangulated (fans: the faces of a block are convex) with vertices relative to its centre of
mass as drawn, and the node's matrix carries the pose [A(q) | x]: glTF stores vertices as float32
(about 6e-8 of a block's size) but node matrices as JSON numbers, so a posed vertex keeps the pose exactly
and the shape to float32. A block's entity (seed 002 sec. 2.1) is its node's extras, ``{"entity": {...}}``.
Optionally each block is coloured, as vertex colours (COLOR_0), by a scalar of the result (``p`` or ``q``;
seed 002 fig. 3 colours its blocks by von Mises stress) through the viridis colour map over the blocks'
range, or by an entity level (``wall``, ``course``, ``type``, ...: engine.post.entities), a colour per name.
"""
import numpy as np
import trimesh
from matplotlib import colormaps

from extrados.engine.errors import ModelError
from extrados.engine.post.entities import NO_ENTITY, NO_ENTITY_COLOUR, entity_codes, entity_colour
from extrados.engine.post.poses import check_same_blocks, drawn_vertices, frame_pose, quaternion_rotation, shown_frame

ROOT_NODE = "extrados"
#: The root node's matrix: the engine's z-up world in glTF's y-up frame.
Z_UP_TO_Y_UP = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, -1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]])
#: The result's block scalars a glTF may be coloured by (engine.result.BlockResults).
COLOUR_SCALARS = ("p", "q")
COLOUR_MAP = "viridis"
#: RGBA (0-255) of a block whose scalar is not finite.
NO_VALUE_COLOUR = (160, 160, 160, 255)


def fan_triangles(faces):
    """(n_triangles, 3) int64 vertex indices of convex polygons ``faces`` split into fans from their first vertex."""
    return np.array([[face[0], face[j], face[j + 1]] for face in faces for j in range(1, len(face) - 1)], np.int64)


def pose_matrices(position, orientation):
    """(n_blocks, 4, 4) float64 homogeneous transforms [A(q) | x] of centres ``position`` (m) and unit
    quaternions ``orientation`` [w, x, y, z]."""
    matrices = np.tile(np.eye(4), (len(position), 1, 1))
    matrices[:, :3, :3] = quaternion_rotation(orientation).as_matrix()
    matrices[:, :3, 3] = position
    return matrices


def scalar_colours(values):
    """(n, 4) uint8 RGBA of ``values`` (n,) through COLOUR_MAP over their finite range; NO_VALUE_COLOUR where
    a value is not finite."""
    finite = np.isfinite(values)
    colours = np.tile(np.array(NO_VALUE_COLOUR, np.uint8), (len(values), 1))
    if finite.any():
        low, high = values[finite].min(), values[finite].max()
        spread = high - low if high > low else 1.0
        colours[finite] = colormaps[COLOUR_MAP]((values[finite] - low) / spread, bytes=True)
    return colours


def category_colours(codes):
    """(n, 4) uint8 RGBA of entity ``codes`` (n,): name k's ``entity_colour(k)``, NO_ENTITY_COLOUR for NO_ENTITY."""
    colours = np.full((len(codes), 4), 255, np.uint8)
    for i, code in enumerate(codes):
        colours[i, :3] = NO_ENTITY_COLOUR if code == NO_ENTITY else entity_colour(int(code))
    return colours


def block_colours(entities, result, colour_by):
    """(n_blocks, 4) uint8 RGBA per block of the result's scalar or the entity level ``colour_by`` (None: None).

    Parameters
    ----------
    entities : sequence of dict or None
        The blocks' entities, model order.
    result : Result or None
    colour_by : str or None
    """
    if colour_by is None:
        return None
    coded = entity_codes(entities)
    if colour_by in coded:
        return category_colours(coded[colour_by][0])
    if colour_by not in COLOUR_SCALARS:
        raise ModelError(f"{colour_by!r} is not a block scalar or an entity level the blocks have; give one of "
                         f"{', '.join((*COLOUR_SCALARS, *coded))}", path="--colour-by")
    if result is None:
        raise ModelError(f"colouring by {colour_by} needs the result", path="--colour-by")
    return scalar_colours(getattr(result.blocks, colour_by))


def block_scene(model, poses, entities, colours=None):
    """trimesh Scene of the blocks, one node per block (named by its id, its entity in its extras) under the
    root node.

    Parameters
    ----------
    model : Model
    poses : (n_blocks, 4, 4) float64
        Each block's transform from its drawn centre of mass (`pose_matrices`).
    entities : sequence of dict or None
        Each block's entity.
    colours : (n_blocks, 4) uint8, optional
        RGBA per block.
    """
    scene = trimesh.Scene()
    scene.graph.update(frame_to=ROOT_NODE, frame_from=scene.graph.base_frame, matrix=Z_UP_TO_Y_UP)
    blocks = model.to_dict()["blocks"]
    for i, (block, vertices, centre, entity) in enumerate(zip(blocks, drawn_vertices(model), model.geometry.centre,
                                                              entities)):
        mesh = trimesh.Trimesh(vertices - centre, fan_triangles(block["faces"]), process=False)
        if colours is not None:
            mesh.visual.vertex_colors = np.tile(colours[i], (len(vertices), 1))
        scene.add_geometry(mesh, node_name=block["id"], geom_name=block["id"], parent_node_name=ROOT_NODE,
                           transform=poses[i], metadata=None if entity is None else {"entity": entity})
    return scene


def write_gltf(model, path, result=None, frame=None, colour_by=None):
    """Write the model's blocks to a binary glTF (.glb) at ``path`` (module docstring).

    Parameters
    ----------
    model : Model
    path : str or os.PathLike
    result : Result, optional
        Pose the blocks as the result leaves them, with the entities it echoes; without it the blocks are at
        rest (as drawn) with the model's entities.
    frame : int, optional
        A dynamic result's output frame (negative counts from the end); default its last.
    colour_by : str, optional
        A block scalar of the result (COLOUR_SCALARS) or an entity level (engine.post.entities.ENTITY_LEVELS)
        to colour the blocks by.

    Raises
    ------
    ModelError
        When the model is not the result's, the frame is not one of the result's, or ``colour_by`` is unknown.
    """
    if result is None:
        if frame is not None:
            raise ModelError("a frame is a dynamic result's: give the result", path="--frame")
        centres = model.geometry.centre
        poses = pose_matrices(centres, np.tile([1.0, 0.0, 0.0, 0.0], (len(centres), 1)))
        entities = [block.get("entity") for block in model.to_dict()["blocks"]]
    else:
        check_same_blocks(model, result)
        poses = pose_matrices(*frame_pose(result, shown_frame(result, frame)))
        entities = result.blocks.entity
    block_scene(model, poses, entities, block_colours(entities, result, colour_by)).export(path, file_type="glb")
