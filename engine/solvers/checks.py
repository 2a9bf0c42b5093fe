"""Checks of the arrays a ``Problem`` is built from: shapes, finite values, indices and signs.

Each check names the field and the first bad entry, so that the caller's error points at it.
"""
import numpy as np
from numba import njit

#: The largest finite float64; anything larger in magnitude, or NaN, is not finite.
LARGEST_FLOAT = np.finfo(np.float64).max


@njit(cache=True)
def count_non_finite(values):
    """Number of NaN and infinite entries of ``values`` (n,) float64.

    |x| <= LARGEST_FLOAT fails exactly for NaN and +-inf; a count without an early exit lets the
    loop vectorize (three times faster than stopping at the first).
    """
    count = 0
    for i in range(values.shape[0]):
        count += not (abs(values[i]) <= LARGEST_FLOAT)
    return count


@njit(cache=True)
def first_outside(bodies, n_bodies):
    """Index of the first entry of ``bodies`` (n,) int64 outside 0..n_bodies-1; -1 when none."""
    for i in range(bodies.shape[0]):
        if bodies[i] < 0 or bodies[i] >= n_bodies:
            return i
    return -1


@njit(cache=True)
def first_equal(body_a, body_b):
    """Index of the first contact whose two bodies (n,) int64 are the same; -1 when none."""
    for i in range(body_a.shape[0]):
        if body_a[i] == body_b[i]:
            return i
    return -1


@njit(cache=True)
def first_row_below(values, floor, floor_allowed):
    """Index of the first row of ``values`` (n, m) float64 with an entry below ``floor`` (or equal to it
    unless ``floor_allowed``); -1 when none."""
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            if values[i, j] < floor or (values[i, j] == floor and not floor_allowed):
                return i
    return -1


@njit(cache=True)
def first_negative(values):
    """Index of the first entry of ``values`` (n,) float64 below 0; -1 when none."""
    for i in range(values.shape[0]):
        if values[i] < 0.0:
            return i
    return -1


def _shape_matches(got, wanted):
    """True when the shape ``got`` has the entries of ``wanted`` (None entries free)."""
    if len(got) != len(wanted):
        return False
    for size, want in zip(got, wanted):
        if want is not None and size != want:
            return False
    return True


def frozen(array, dtype, shape, name, copy=True):
    """A read-only contiguous array of ``array`` checked against ``shape`` (None entries free).

    A copy unless ``copy`` is False and ``array`` is already C-contiguous of type ``dtype``: then
    ``array`` itself is flagged read-only and returned. Float arrays must be finite.
    """
    out = np.array(array, dtype=dtype, order="C") if copy else np.asarray(array, dtype=dtype, order="C")
    if not _shape_matches(out.shape, shape):
        wanted = tuple("*" if s is None else s for s in shape)
        raise ValueError(f"Problem.{name}: expected shape {wanted}, got {out.shape}")
    if dtype is np.float64 and count_non_finite(out.reshape(-1)):
        raise ValueError(f"Problem.{name}: contains non-finite values")
    out.flags.writeable = False
    return out


def check_entries(problem):
    """Raise ValueError at the first entry of ``problem`` (a ``Problem``) out of its range.

    Body indices lie in 0..n_b-1 and differ within a contact; compliance > 0; friction, cohesion,
    tensile cap and inverse mass >= 0.
    """
    n_b = problem.inverse_mass.shape[0]
    for name in ("body_a", "body_b"):
        bodies = getattr(problem, name)
        bad = first_outside(bodies, n_b)
        if bad >= 0:
            raise ValueError(f"Problem.{name}[{bad}]: body index {bodies[bad]} outside 0..{n_b - 1}")
    same = first_equal(problem.body_a, problem.body_b)
    if same >= 0:
        raise ValueError(f"Problem.body_b[{same}]: contact joins body {problem.body_a[same]} to itself")
    bad = first_row_below(problem.compliance, 0.0, False)
    if bad >= 0:
        raise ValueError(f"Problem.compliance[{bad}]: entries must be > 0, got {problem.compliance[bad]}")
    bad = first_negative(problem.friction)
    if bad >= 0:
        raise ValueError(f"Problem.friction[{bad}]: must be >= 0, got {problem.friction[bad]}")
    bad = first_row_below(problem.cohesion, 0.0, True)
    if bad >= 0:
        raise ValueError(f"Problem.cohesion[{bad}]: cohesion and tensile cap must be >= 0, "
                         f"got {problem.cohesion[bad]}")
    bad = first_negative(problem.inverse_mass)
    if bad >= 0:
        raise ValueError(f"Problem.inverse_mass[{bad}]: must be >= 0, got {problem.inverse_mass[bad]}")
