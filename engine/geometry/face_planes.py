"""Corners moved onto their faces' best-fit planes, so that every face of a block is exactly planar.

A block read from a file whose coordinates are rounded (float32 in STL and glTF: 6e-8 of their
magnitude) has faces that are planar only to that rounding, which may exceed the planarity check
of engine.geometry.polyhedron for a block far from the origin. Each face gets the least-squares
plane of its corners; each corner then moves by the least distance that puts it on the planes of
all its faces: the minimum-norm correction d of N d = -(N x + o) (N the faces' unit normals, o their
offsets), exact on three or more independent planes, the nearest point of their line on two.
"""
import numpy as np


def face_plane(points):
    """Unit normal n and offset o of the least-squares plane n . x + o = 0 of points (SVD of the
    centred points; the normal's sign is arbitrary).

    Parameters
    ----------
    points : (k, 3) float64, k >= 3
    """
    centre = points.mean(axis=0)
    normal = np.linalg.svd(points - centre)[2][-1]
    return normal, -normal @ centre


def snapped_to_face_planes(vertices, faces):
    """The vertices moved onto the best-fit planes of the faces they belong to.

    Parameters
    ----------
    vertices : (n, 3) float64
    faces : list of polygons (lists of vertex indices)

    Returns
    -------
    (n, 3) float64, each vertex moved by the least distance that puts it on all its faces' planes
    """
    planes = [face_plane(vertices[face]) for face in faces]
    faces_of = [[] for _ in vertices]
    for index, face in enumerate(faces):
        for corner in face:
            faces_of[corner].append(index)
    snapped = vertices.copy()
    for corner, around in enumerate(faces_of):
        normals = np.array([planes[f][0] for f in around])
        offsets = np.array([planes[f][1] for f in around])
        off_planes = normals @ vertices[corner] + offsets
        snapped[corner] += np.linalg.lstsq(normals, -off_planes, rcond=None)[0]
    return snapped
