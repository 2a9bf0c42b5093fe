"""Contact memory: what a step hands the next of each of its contacts, found again by persistent key.

The impulses of the last step warm start the next one's solve; the stretch of each tangential
spring (seed 000 eq. 43, engine.contact.laws.tangential_stretch) and the bond row of each mortar
contact (engine.contact.bonds) carry on. A contact is found again by its key, a splitmix64 hash of
its block pair and feature id (``contact_keys``), through an open-addressing hash index
(``key_index``); a contact whose feature id changed takes over the nearest vanished contact of
its block pair, and a point cut into a joint that has none shares its nearest neighbour's
(``gather_history``). The bookkeeping runs in numba kernels.
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from extrados.engine.collision.feature_id import is_edge_point
from extrados.engine.contact.bonds import BOND_COLUMNS
from extrados.engine.tolerance import TOL

#: splitmix64 constants (Steele, Lea & Flood 2014): the golden-ratio increment, then the two
#: multipliers of the finalizer.
GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
MIX_2 = np.uint64(0x94D049BB133111EB)
#: TOL.history_match_relative as a module constant, for the numba kernels.
HISTORY_MATCH_RELATIVE = TOL.history_match_relative


class ContactMemory(NamedTuple):
    """What the last step kept of its contacts, in its contact order (handed to the numba kernels)."""

    keys: np.ndarray        # (n_prev,) int64, contact keys (contact_keys)
    keys_index: np.ndarray  # (size,) int64, key_index(keys)
    pair: np.ndarray        # (n_prev,) int64, block pair keys (pair_keys), contiguous per pair
    pair_index: np.ndarray  # (size,) int64, key_index(pair)
    point: np.ndarray       # (n_prev, 3) float64, m, world points
    impulse: np.ndarray     # (n_prev, 3) float64, N s, frames (n, u, v)
    stretch: np.ndarray     # (n_prev, 3) float64, m, world, tangential spring stretch
    bond_rows: np.ndarray   # (n_prev, BOND_COLUMNS) float64, engine.contact.bonds


class ContactHistory(NamedTuple):
    """The current contacts' keys and what they take over from the last step."""

    keys: np.ndarray     # (n_c,) int64, contact keys
    pair: np.ndarray     # (n_c,) int64, block pair keys
    impulse: np.ndarray  # (n_c, 3) float64, N s, the solver's start; zero for new contacts
    stretch: np.ndarray  # (n_c, 3) float64, m, world, tangential stretch; zero for new contacts
    source: np.ndarray   # (n_c,) int64, the row of ContactMemory each contact took over; -1 for none


@njit(cache=True)
def key_index(keys):
    """Open-addressing hash index of ``keys``: slot -> row of the first occurrence of each key.

    A key goes to the first free slot from ``key mod size`` on (linear probing). The keys are
    splitmix64 hashes (``contact_keys``), so their low bits are already uniform.

    Parameters
    ----------
    keys : (n,) int64

    Returns
    -------
    (size,) int64
        Rows of ``keys``, -1 in an empty slot; size is the smallest power of two >= 2 n (at least
        1), so at least half the slots stay empty and every probe ends.
    """
    size = 1
    while size < 2 * keys.shape[0]:
        size *= 2
    mask = size - 1
    index = np.full(size, -1, np.int64)
    for row in range(keys.shape[0]):
        slot = keys[row] & mask
        while index[slot] >= 0 and keys[index[slot]] != keys[row]:
            slot = (slot + 1) & mask
        if index[slot] < 0:
            index[slot] = row
    return index


@njit(cache=True)
def find_key(index, keys, key):
    """Row of the first occurrence of ``key`` in ``keys`` (n,) int64, through ``key_index(keys)``; -1 when absent."""
    mask = index.shape[0] - 1
    slot = key & mask
    while index[slot] >= 0:
        row = index[slot]
        if keys[row] == key:
            return row
        slot = (slot + 1) & mask
    return -1


def no_contact_memory():
    """ContactMemory of no contact: what a run starts from."""
    no_keys = np.zeros(0, np.int64)
    return ContactMemory(no_keys, key_index(no_keys), no_keys, key_index(no_keys), np.zeros((0, 3)),
                         np.zeros((0, 3)), np.zeros((0, 3)), np.zeros((0, BOND_COLUMNS)))


@njit(cache=True)
def splitmix_keys(body_a, body_b, feature_id, n_blocks):
    """(n_c,) uint64 splitmix64 finalizer of feature_id ^ (pair index * GOLDEN_GAMMA).

    Parameters
    ----------
    body_a, body_b : (n_c,) int64
    feature_id : (n_c,) int64
    n_blocks : int

    Returns
    -------
    (n_c,) uint64, with the pair index body_a * n_blocks + body_b; all arithmetic wraps modulo 2^64
    """
    keys = np.empty(body_a.shape[0], np.uint64)
    blocks = np.uint64(n_blocks)
    for i in range(body_a.shape[0]):
        pair = np.uint64(body_a[i]) * blocks + np.uint64(body_b[i])
        z = np.uint64(feature_id[i]) ^ (pair * GOLDEN_GAMMA)
        z = (z ^ (z >> np.uint64(30))) * MIX_1
        z = (z ^ (z >> np.uint64(27))) * MIX_2
        keys[i] = z ^ (z >> np.uint64(31))
    return keys


def contact_keys(contacts, n_blocks):
    """(n_c,) int64 persistent keys of (block pair, feature id) used to warm start impulses.

    The pair index and the 57-bit feature id are mixed by the splitmix64 finalizer, so keys
    of different contacts collide with probability about n_c^2 / 2^64.
    """
    return splitmix_keys(np.asarray(contacts.body_a, np.int64), np.asarray(contacts.body_b, np.int64),
                         np.asarray(contacts.feature_id, np.int64), n_blocks).view(np.int64)


@njit(cache=True)
def pair_keys(body_a, body_b, n_blocks):
    """(n_c,) int64 index body_a * n_blocks + body_b of each contact's block pair."""
    keys = np.empty(body_a.shape[0], np.int64)
    for i in range(body_a.shape[0]):
        keys[i] = body_a[i] * n_blocks + body_b[i]
    return keys


@njit(cache=True)
def nearest_unused(memory, used, pair, point, reach):
    """Row of the unused previous contact of block pair ``pair`` nearest to ``point`` within
    ``reach`` (m); -1 when none. A pair's previous contacts are contiguous from the row that
    ``memory.pair_index`` gives for it."""
    row = find_key(memory.pair_index, memory.pair, pair)
    if row < 0:
        return -1
    best = -1
    best_squared = reach * reach
    while row < memory.pair.shape[0] and memory.pair[row] == pair:
        if not used[row]:
            squared = 0.0
            for k in range(3):
                squared += (memory.point[row, k] - point[k]) ** 2
            if squared <= best_squared:
                best = row
                best_squared = squared
        row += 1
    return best


@njit(cache=True)
def gather_history(memory, keys, pair, point, reach, shared_reach):
    """Rows of the previous step's impulses and stretches for the current contacts.

    A contact takes the row of its key (same block pair and feature id). A contact whose key
    is new takes the nearest previous contact of the same block pair within ``reach`` that no
    other contact took: the feature id of a corner changes when the separating-axis test swaps
    the reference and incident faces, or when a clipped corner passes from one line to
    another, but the corner itself is where it was, and its tangential spring must not reset.
    A contact still without a row then shares the row of the nearest previous contact of its
    pair within ``shared_reach``, taken or not: a joint cut into points (engine.deformable.
    joint_points) gains a point when a sliding edge grows past a whole number of spacings, and
    that point stands on mortar whose state its neighbours carry, not on a new, dry joint.

    Parameters
    ----------
    memory : ContactMemory of the previous step
    keys, pair : (n_c,) int64, contact and pair keys of the current contacts
    point : (n_c, 3) float64, m
    reach : (n_c,) float64, m, farthest a previous contact may lie to pass its history on
    shared_reach : (n_c,) float64, m, farthest a previous contact may lie to share its history
        (zero: none; the contact spacing of cut points, `contact_history`)

    Returns
    -------
    gamma0, stretch : (n_c, 3) float64; zero for a contact with neither key nor neighbour
    source : (n_c,) int64, the previous row each contact took over; -1 for none
    """
    gamma0 = np.zeros((keys.shape[0], 3))
    stretch = np.zeros((keys.shape[0], 3))
    used = np.zeros(memory.keys.shape[0], np.bool_)
    source = np.empty(keys.shape[0], np.int64)
    for i in range(keys.shape[0]):
        source[i] = find_key(memory.keys_index, memory.keys, keys[i])
        if source[i] >= 0:
            used[source[i]] = True
    for i in range(keys.shape[0]):
        if source[i] < 0:
            source[i] = nearest_unused(memory, used, pair[i], point[i], reach[i])
            if source[i] >= 0:
                used[source[i]] = True
    none_used = np.zeros(memory.keys.shape[0], np.bool_)
    for i in range(keys.shape[0]):
        if source[i] < 0 and shared_reach[i] > 0.0:
            source[i] = nearest_unused(memory, none_used, pair[i], point[i], shared_reach[i])
        if source[i] >= 0:
            for k in range(3):
                gamma0[i, k] = memory.impulse[source[i], k]
                stretch[i, k] = memory.stretch[source[i], k]
    return gamma0, stretch, source


@njit(cache=True)
def history_reach(body_a, body_b, radius):
    """(n_c,) m, TOL.history_match_relative times the smaller diameter of each contact's blocks."""
    reach = np.empty(body_a.shape[0])
    for i in range(body_a.shape[0]):
        reach[i] = HISTORY_MATCH_RELATIVE * 2.0 * min(radius[body_a[i]], radius[body_b[i]])
    return reach


def contact_history(mechanics, memory, contacts, impulse_guess=None, spacing=None):
    """The keys of the current contacts and what they take over from ``memory`` (``gather_history``).

    Parameters
    ----------
    mechanics : Mechanics of the model (n_blocks, polyhedra.radius)
    memory : ContactMemory of the last step
    contacts : Contacts
    impulse_guess : (n_c, 3) float64, optional
        N s, impulses to start from instead of the memory's, in the order of ``contacts``; they come
        with no tangential stretch and no contact takes over a previous row.
    spacing : (n_blocks,) float64, optional
        m, the blocks' contact spacing (Model.contact_spacing, inf where none): a point cut into a
        joint shares the history of its pair's nearest previous contact within the smaller spacing
        of its two blocks when it has neither key nor vanished neighbour.

    Returns
    -------
    ContactHistory
    """
    body_a, body_b = np.asarray(contacts.body_a, np.int64), np.asarray(contacts.body_b, np.int64)
    keys = contact_keys(contacts, mechanics.n_blocks)
    pair = pair_keys(body_a, body_b, mechanics.n_blocks)
    if impulse_guess is not None:
        return ContactHistory(keys, pair, impulse_guess, np.zeros((contacts.n_contacts, 3)),
                              np.full(contacts.n_contacts, -1, np.int64))
    reach = history_reach(body_a, body_b, mechanics.polyhedra.radius)
    shared_reach = np.zeros(contacts.n_contacts)
    if spacing is not None:
        cut = is_edge_point(contacts.feature_id)
        shared_reach[cut] = np.minimum(spacing[body_a[cut]], spacing[body_b[cut]])
    return ContactHistory(keys, pair, *gather_history(memory, keys, pair, np.ascontiguousarray(contacts.point), reach,
                                                      shared_reach))


def remember_contacts(history, contacts, impulse, stretch, bond_rows):
    """The ContactMemory of a step: its contacts' keys, pair keys, points, impulses (n_c, 3) N s,
    tangential stretches (n_c, 3) m and bond rows, in contact order, with the keys and pairs indexed."""
    return ContactMemory(history.keys, key_index(history.keys), history.pair, key_index(history.pair),
                         np.array(contacts.point, dtype=np.float64), np.array(impulse, dtype=np.float64), stretch,
                         bond_rows)
