"""The fields of deformable blocks in a result: deformed mesh, displacement, element stress (issue 23).

For every deformable block (engine.deformable): its nodes where they are (the rigid frame's position and
rotation applied to the reference nodes plus the elastic displacement), the elastic displacement (world axes),
the stress of each tetrahedron at its centroid (small strain in the block's co-rotated frame, turned to world
axes, tension positive, Voigt order xx, yy, zz, yz, xz, xy), its principal stresses, and the block's volume
average of the stress, which equilibrium makes the contact-force tensor of seed 001 eq. 35 (``blocks.stress``)
up to the discretisation.
"""
import numpy as np

from extrados.engine.deformable.elasticity import VOIGT, element_stresses
from extrados.engine.geometry.quaternion import quat_to_matrices


def block_field(block_id, body, displacement, position, rotation):
    """The JSON-ready field of one deformable block (module docstring); ``displacement`` (3n,) body frame."""
    local = displacement.reshape(-1, 3)
    stress = rotation @ element_stresses(body.mesh, local, body.young, body.poisson) @ rotation.T   # (t, 3, 3)
    volumes = body.mesh.volumes
    return {"block": block_id,
            "element": "tet10" if body.mesh.tetrahedra.shape[1] == 10 else "tet4",
            "nodes": (position + (body.mesh.nodes + local) @ rotation.T).tolist(),
            "tetrahedra": body.mesh.tetrahedra.tolist(),
            "boundary": body.mesh.boundary[:, :3].tolist(),
            "displacement": (local @ rotation.T).tolist(),
            "stress": np.stack([stress[:, i, j] for i, j in VOIGT], axis=1).tolist(),
            "principal_stress": np.linalg.eigvalsh(stress).tolist(),
            "mean_stress": (np.einsum("t,tij->ij", volumes, stress) / volumes.sum()).tolist()}


def deformable_fields(model, elastic, position, orientation):
    """The "deformable" report of a result: one `block_field` per deformable block, from the ElasticState
    ``elastic`` at the blocks' ``position`` (n_blocks, 3) and ``orientation`` (n_blocks, 4); None for a model
    of rigid blocks."""
    bodies = model.elastic_bodies
    if not bodies or elastic is None:
        return None
    rotations = quat_to_matrices(np.asarray(orientation, float))
    return [block_field(model.block_ids[b], body, elastic.displacement[b], position[b], rotations[b])
            for b, body in bodies.items()]
