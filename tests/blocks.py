"""Small model-building helpers shared by tests (plain boxes and documents)."""
import numpy as np

BOX_FACES = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7]]


def box_vertices(lo, hi):
    """8 corners of an axis-aligned box, bottom face first (matches BOX_FACES)."""
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    return [[x0, y0, z0], [x1, y0, z0], [x1, y1, z0], [x0, y1, z0],
            [x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]]


def box_block(block_id, lo, hi, support=False):
    block = {"id": block_id, "vertices": box_vertices(lo, hi), "faces": [list(f) for f in BOX_FACES],
             "material": "stone"}
    if support:
        block["support"] = True
    return block


def document(blocks, friction=0.6, density=2000.0, loads=None, settings=None):
    doc = {"format": "extrados.model/1", "units": "SI", "gravity": [0.0, 0.0, -9.81],
           "materials": {"stone": {"density": density}},
           "joints": {"dry": {"law": "coulomb", "friction": friction}}, "default_joint": "dry",
           "blocks": blocks}
    if loads:
        doc["loads"] = loads
    if settings:
        doc["settings"] = settings
    return doc


def ground(half=5.0, thickness=0.5):
    return box_block("ground", (-half, -half, -thickness), (half, half, 0.0), support=True)


def rotate_about_y(points, angle_rad):
    c, s = np.cos(angle_rad), np.sin(angle_rad)
    rot = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
    return (np.asarray(points, float) @ rot.T).tolist()
