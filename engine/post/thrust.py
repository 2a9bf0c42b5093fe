"""Effective thrust line: the centres of pressure of the joints along a chain of blocks (seed 000 sec. 3.1).

Seed 000 (fig. 8c) draws the effective thrust line as the envelope of the resultants
of the forces each contact plane between adjacent voussoirs transmits. Here it is
the ordered polyline of those resultants' centres of pressure, springing to
springing, together with each resultant (its centre and direction: its line of
action) from which the envelope is drawn.

The joint graph
---------------
Nodes are blocks; an edge joins two blocks whose joint is loaded: its normal force
is above TOL.open_contact_relative times the largest joint normal force. An open
joint transmits no force, so it breaks the line.

The chain
---------
A springer is a movable block with a loaded joint on a support. The automatic
chain exists only where at most two blocks bear on supports (an arch on its
abutments, a lintel on two piers): a wall standing on the ground has a springer
per block of its first course, and no chain through it is "the" thrust line, so
its chain must be named. The two springers are joined by the shortest path
through movable blocks (fewest joints); for an arch on its abutments this is the
ring. Among equally short paths, the first that a breadth-first search
(scipy.sparse.csgraph) finds wins; the chain runs from the springer of lower model
index. When the two springers are not joined, or there is one, a springer with
loaded joints on two different supports is a chain of one block; otherwise there
is no chain (a column on the ground has none).

A named chain is a list of block ids, each joined to the next by a loaded joint;
supports may end it but not lie inside it. Each end of a chain that is a movable
block bearing on a support is closed with its most loaded support joint, so an
arch's polyline starts and ends at its springing joints.

The force at joint k is the resultant that block k of the chain applies on block
k + 1 (for an arch under gravity, from the left springing: (H, V) with H the
horizontal thrust, the same at every joint when the loads are vertical).
"""
from dataclasses import dataclass

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import shortest_path

from extrados.engine.errors import ModelError
from extrados.engine.result import Result
from extrados.engine.tolerance import TOL

#: Most blocks bearing on supports for which a chain is found automatically (module docstring).
AUTOMATIC_SPRINGERS = 2
#: Where a named chain sits in a request, for error paths; callers pass their own.
CHAIN_PATH = "thrust_line.chain"


@dataclass(frozen=True)
class EffectiveThrustLine:
    """The effective thrust line of a chain of blocks: n_joints joints in chain order."""

    blocks: tuple         # (n_joints + 1,) str, the chain, end supports included
    joint: np.ndarray     # (n_joints,) int64, index of each joint in the Interfaces
    centre: np.ndarray    # (n_joints, 3) float64, m, centres of pressure: the polyline
    force: np.ndarray     # (n_joints, 3) float64, N, resultant on chain block k + 1 from block k

    @property
    def direction(self):
        """(n_joints, 3) float64, unit direction of each resultant's line of action (through its centre)."""
        return self.force / np.linalg.norm(self.force, axis=1)[:, None]

    def to_dict(self, name="effective"):
        """An entry of the result document's "thrust_lines" (DESIGN sec. 5)."""
        return {"name": name, "points": self.centre.tolist(), "blocks": list(self.blocks),
                "forces": self.force.tolist(), "directions": self.direction.tolist()}


# --- the joint graph -------------------------------------------------------------

def loaded_joints(interfaces):
    """(n_pairs,) bool: joints whose normal force exceeds TOL.open_contact_relative of the largest."""
    largest = interfaces.normal_force.max(initial=0.0)
    return interfaces.normal_force > TOL.open_contact_relative * largest


def joint_lookup(interfaces, loaded):
    """{(block, block): joint index} of the loaded joints, both orders."""
    lookup = {}
    for k in np.flatnonzero(loaded):
        first, second = int(interfaces.body_first[k]), int(interfaces.body_second[k])
        lookup[first, second] = lookup[second, first] = int(k)
    return lookup


def support_joints(is_support, interfaces, loaded, block):
    """Loaded joints of ``block`` on supports, most loaded first: (n,) int64 joint indices."""
    first, second = interfaces.body_first, interfaces.body_second
    on_support = loaded & (((first == block) & is_support[second]) | ((second == block) & is_support[first]))
    joints = np.flatnonzero(on_support)
    return joints[np.argsort(-interfaces.normal_force[joints], kind="stable")]


def springer_blocks(is_support, interfaces, loaded):
    """Movable blocks with a loaded joint on a support, ascending: (n,) int64 block indices."""
    first, second = interfaces.body_first, interfaces.body_second
    on_support = np.concatenate([first[loaded & is_support[second]], second[loaded & is_support[first]]])
    return np.unique(on_support[~is_support[on_support]]).astype(np.int64)


def other_block(interfaces, joint, block):
    """The block across ``joint`` from ``block``."""
    first, second = int(interfaces.body_first[joint]), int(interfaces.body_second[joint])
    return second if first == block else first


def movable_graph(is_support, interfaces, loaded):
    """Sparse (n_blocks, n_blocks) adjacency of movable blocks joined by loaded joints."""
    first, second = interfaces.body_first, interfaces.body_second
    inner = loaded & ~is_support[first] & ~is_support[second]
    n = len(is_support)
    return coo_matrix((np.ones(inner.sum()), (first[inner], second[inner])), shape=(n, n)).tocsr()


# --- the chain -----------------------------------------------------------------------

def path_to(predecessors, start, end):
    """Block indices from ``start`` to ``end`` along a shortest-path predecessor row."""
    path = [end]
    while path[-1] != start:
        path.append(int(predecessors[path[-1]]))
    return path[::-1]


def closed_chain(is_support, interfaces, loaded, path):
    """The path with each movable end closed by its most loaded support joint, when it has one.

    A one-block path is closed at its end by a joint other than the one closing its start.
    """
    start = closing_support(is_support, interfaces, loaded, path[0], used=())
    end = closing_support(is_support, interfaces, loaded, path[-1], used=() if start is None else (start[1],))
    return ([] if start is None else [start[0]]) + list(path) + ([] if end is None else [end[0]])


def closing_support(is_support, interfaces, loaded, block, used):
    """(support, joint) of the most loaded support joint of a movable block, not in ``used``; or None."""
    if is_support[block]:
        return None
    joints = [j for j in support_joints(is_support, interfaces, loaded, block) if j not in used]
    return None if not joints else (other_block(interfaces, joints[0], block), joints[0])


def single_block_chain(is_support, interfaces, loaded, springers):
    """[support, block, other support] for the first springer on two different supports, or None."""
    for block in springers:
        supports = [other_block(interfaces, j, block) for j in support_joints(is_support, interfaces, loaded, block)]
        distinct = list(dict.fromkeys(supports))
        if len(distinct) >= 2:
            return [distinct[0], int(block), distinct[1]]
    return None


def find_chain(is_support, interfaces):
    """The automatic chain of the module docstring: block indices, end supports included, or None.

    Parameters
    ----------
    is_support : (n_blocks,) bool
    interfaces : Interfaces

    Returns
    -------
    list of int or None
    """
    loaded = loaded_joints(interfaces)
    springers = springer_blocks(is_support, interfaces, loaded)
    if len(springers) == 0 or len(springers) > AUTOMATIC_SPRINGERS:
        return None
    hops, predecessors = shortest_path(movable_graph(is_support, interfaces, loaded), directed=False,
                                       unweighted=True, indices=springers, return_predecessors=True)
    between = hops[:, springers]  # (n_springers, n_springers) joints between springers
    between[~np.isfinite(between)] = -1.0
    np.fill_diagonal(between, -1.0)
    if between.max(initial=-1.0) < 1.0:
        return single_block_chain(is_support, interfaces, loaded, springers)
    row, column = np.unravel_index(np.argmax(between), between.shape)  # first maximum: lowest indices
    path = path_to(predecessors[row], springers[row], springers[column])
    return closed_chain(is_support, interfaces, loaded, path)


def named_chain(block_ids, is_support, interfaces, chain, path=CHAIN_PATH):
    """A user-named chain of block ids, checked, as block indices (end supports added).

    Parameters
    ----------
    block_ids : sequence of str
        (n_blocks,) the model's block ids.
    is_support : (n_blocks,) bool
    interfaces : Interfaces
    chain : sequence of str
        Block ids in order, each joined to the next by a loaded joint.
    path : str
        Where the chain sits in the request, for error messages.

    Raises
    ------
    ModelError
        Not a list of ids, an unknown or repeated id, a support inside the chain, two
        neighbours with no loaded joint between them (a broken chain), or no joint at all;
        the path points at the offending entry, e.g. ``thrust_line.chain[3]``.
    """
    if isinstance(chain, (str, bytes)) or not hasattr(chain, "__len__") or len(chain) == 0:
        raise ModelError("a chain is a non-empty list of block ids", path=path)
    index = {block_id: i for i, block_id in enumerate(block_ids)}
    blocks = []
    for k, block_id in enumerate(chain):
        if not isinstance(block_id, str) or block_id not in index:
            raise ModelError(f"unknown block id {block_id!r}", path=f"{path}[{k}]")
        if index[block_id] in blocks and not is_support[index[block_id]]:
            raise ModelError(f"block '{block_id}' appears twice in the chain", path=f"{path}[{k}]")
        if is_support[index[block_id]] and 0 < k < len(chain) - 1:
            raise ModelError(f"support '{block_id}' inside the chain: supports may only end it", path=f"{path}[{k}]")
        blocks.append(index[block_id])
    loaded = loaded_joints(interfaces)
    lookup = joint_lookup(interfaces, loaded)
    for k in range(1, len(blocks)):
        if (blocks[k - 1], blocks[k]) not in lookup:
            raise ModelError(f"blocks '{chain[k - 1]}' and '{chain[k]}' share no loaded joint: the chain is broken "
                             "here", path=f"{path}[{k}]")
    if len(blocks) == 3 and blocks[0] == blocks[2]:
        raise ModelError(f"the chain crosses the joint between '{chain[0]}' and '{chain[1]}' twice",
                         path=f"{path}[2]")
    closed = closed_chain(is_support, interfaces, loaded, blocks)
    if len(closed) < 2:
        raise ModelError(f"block '{chain[0]}' alone, on no support, has no joint to draw", path=path)
    return closed


# --- the line ------------------------------------------------------------------------

def thrust_line_along(block_ids, interfaces, chain):
    """The EffectiveThrustLine of a chain of block indices (each joined to the next by a joint).

    Parameters
    ----------
    block_ids : sequence of str
    interfaces : Interfaces
    chain : sequence of int
        Block indices, n_joints + 1 of them.

    Returns
    -------
    EffectiveThrustLine
    """
    lookup = joint_lookup(interfaces, np.ones(len(interfaces.normal_force), bool))
    joint = np.array([lookup[pair] for pair in zip(chain[:-1], chain[1:])], np.int64)
    # Interfaces.force acts on body_first; the line carries the force on the next block of the chain
    downstream = np.asarray(chain[1:])
    sign = np.where(interfaces.body_first[joint] == downstream, 1.0, -1.0)
    return EffectiveThrustLine(tuple(block_ids[b] for b in chain), joint, interfaces.centre[joint].copy(),
                               sign[:, None] * interfaces.force[joint])


def effective_thrust_line(block_ids, is_support, interfaces, chain=None, path=CHAIN_PATH):
    """The effective thrust line of the automatic chain, or of a named one.

    Parameters
    ----------
    block_ids : sequence of str
        (n_blocks,) the model's block ids.
    is_support : (n_blocks,) bool
    interfaces : Interfaces
        Joint resultants (`engine.post.interfaces.interface_resultants`).
    chain : sequence of str, optional
        Block ids of a named chain; by default the chain is found (module docstring).
    path : str
        Where a named chain sits in the request, for error messages.

    Returns
    -------
    EffectiveThrustLine or None
        None when no chain is found automatically.
    """
    is_support = np.asarray(is_support, bool)
    if chain is None:
        indices = find_chain(is_support, interfaces)
        if indices is None:
            return None
    else:
        indices = named_chain(block_ids, is_support, interfaces, chain, path)
    return thrust_line_along(block_ids, interfaces, indices)


def thrust_line_documents(mechanics, interfaces, chain=None, path=CHAIN_PATH):
    """The result document's "thrust_lines" list (DESIGN sec. 5) of a solved model.

    Parameters
    ----------
    mechanics : Mechanics
        ``Model.mechanics`` (block ids and supports).
    interfaces : Interfaces
        ``interface_resultants(contacts, frame, force)`` of the solution.
    chain, path
        As in `effective_thrust_line`.

    Returns
    -------
    list of dict
        ``[{"name": "effective", "points": [[x, y, z], ...], "blocks", "forces", "directions"}]``,
        or ``[]`` when no chain is found automatically.
    """
    line = effective_thrust_line(mechanics.block_ids, mechanics.is_support, interfaces, chain, path)
    return [] if line is None else [line.to_dict()]


# --- from a result ------------------------------------------------------------------------------

def result_interfaces(result):
    """Block ids, supports and joint resultants of a Result, or of a result document (`Result.from_dict`).

    Returns
    -------
    block_ids : tuple of str
    is_support : (n_blocks,) bool
    interfaces : Interfaces
    """
    if isinstance(result, dict):
        result = Result.from_dict(result)
    return result.blocks.ids, result.blocks.support, result.interfaces


def effective_thrust_line_of_result(result, chain=None, path=CHAIN_PATH):
    """`effective_thrust_line` of a Result, or of a result document."""
    return effective_thrust_line(*result_interfaces(result), chain=chain, path=path)
