"""3-vectors as tuples of floats, for the numba kernels of the narrow phase.

Tuples stay in registers where array rows would allocate.
"""
import numpy as np
from numba import njit


@njit(cache=True)
def row(array, i):
    """Row i of an (n, 3) array as a tuple (tuples stay in registers; rows would allocate)."""
    return (array[i, 0], array[i, 1], array[i, 2])


@njit(cache=True)
def dot(u, w):
    """u . w"""
    return u[0] * w[0] + u[1] * w[1] + u[2] * w[2]


@njit(cache=True)
def cross(u, w):
    """u x w"""
    return (u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0])


@njit(cache=True)
def subtract(u, w):
    """u - w"""
    return (u[0] - w[0], u[1] - w[1], u[2] - w[2])


@njit(cache=True)
def scaled(scale, u):
    """scale * u"""
    return (scale * u[0], scale * u[1], scale * u[2])


@njit(cache=True)
def along(origin, scale, direction):
    """origin + scale * direction."""
    return (origin[0] + scale * direction[0], origin[1] + scale * direction[1], origin[2] + scale * direction[2])


@njit(cache=True)
def distance(u, w):
    """Euclidean distance |u - w|."""
    difference = subtract(u, w)
    return np.sqrt(dot(difference, difference))
