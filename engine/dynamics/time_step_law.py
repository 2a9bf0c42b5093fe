"""The time step that makes HHT-alpha dissipate a chosen coefficient of restitution (seed 003 eq. 6, 9-10).

With the HHT parameters of eq. 5 the numerical dissipation at a rocking impact is governed by
the time step alone (seed 003 sec. 2.3); a regression over a campaign of free-rocking runs gives
the step that reproduces Housner's energy ratio r per impact (eq. 6):

    dt = A_1 (R H / B)^A_2 k_n^A_3 ln(r)                                    (eq. 6, 9)

with R the semi-diagonal (m), H / B the aspect ratio, k_n the interface's normal stiffness
(N/m^3). For a rectangular block p^2 = 3 g / (4 R) and H / B = cot(alpha), so the same law in p
and alpha (eq. 10) has the coefficient A_1 (3 g / 4)^A_2 (the paper's -7.851 for its -2.238).

``PAPER_LAW`` holds seed 003's coefficients (eq. 9, R^2 = 0.970 on its campaign). Our integrator
is not the paper's finite-element code: ``EXTRADOS_LAW`` holds the coefficients fitted on our own
campaign (benchmarks/rocking_campaign.py and rocking_campaign_fit.py, the same blocks, stiffnesses
and steps as seed 003 sec. 3.1; benchmarks/results/rocking_campaign.json), and is the law a request
uses (``REQUEST_LAW``):

    law                A_1        A_2      A_3      R^2 on its campaign
    seed 003 eq. 9     -2.238     0.629    -0.205   0.970
    EXTRADOS_LAW       -7625      0.551    -0.531   0.586 (133 optima)
"""
import math
from dataclasses import dataclass

import numpy as np

from extrados.engine.collision.detect import detect_contacts
from extrados.engine.contact.laws import pair_laws

#: m/s^2, the g of eq. 10's conversion (seed 003 uses 9.81).
G = 9.81
#: A joint whose normal lies within about 45 degrees of gravity carries a block standing on it.
STANDING_COSINE = 0.7


@dataclass(frozen=True)
class TimeStepLaw:
    """Coefficients of eq. 6 and where they come from."""

    a1: float          # s m^-A2 (N/m^3)^-A3
    a2: float
    a3: float
    r_squared: float   # coefficient of determination of the fit on its campaign
    source: str

    def time_step(self, radius, aspect_ratio, normal_stiffness, restitution):
        """Eq. 6 / 9: the time step (s) for a block of semi-diagonal ``radius`` R (m) and aspect ratio
        ``aspect_ratio`` H/B on a Winkler interface of ``normal_stiffness`` k_n (N/m^3), dissipating
        the coefficient of restitution ``restitution`` r (the ratio of kinetic energies after and
        before an impact, 0 < r < 1) at each impact."""
        check_restitution(restitution)
        return self.a1 * (radius * aspect_ratio) ** self.a2 * normal_stiffness ** self.a3 * math.log(restitution)

    def time_step_from_frequency(self, p, alpha, normal_stiffness, restitution, g=G):
        """Eq. 10: the same step from the frequency parameter ``p`` (1/s) and slenderness ``alpha`` (rad)
        of a rectangular block, R H/B = (3 g / 4) cot(alpha) / p^2."""
        check_restitution(restitution)
        coefficient = self.a1 * (0.75 * g) ** self.a2
        return coefficient * (1.0 / (math.tan(alpha) * p * p)) ** self.a2 * normal_stiffness ** self.a3 \
            * math.log(restitution)

    def to_dict(self):
        return {"A1": self.a1, "A2": self.a2, "A3": self.a3, "r_squared": self.r_squared, "source": self.source}


def check_restitution(restitution):
    if not 0.0 < restitution < 1.0:
        raise ValueError(f"the coefficient of restitution r must lie in (0, 1), not {restitution!r}")


#: Seed 003 eq. 9, fitted on its finite-element campaign (sec. 3.2, R^2 = 0.970).
PAPER_LAW = TimeStepLaw(-2.238, 0.629, -0.205, 0.970, "seed 003 eq. 9")


@dataclass(frozen=True)
class RockingBase:
    """What eq. 9 reads of a block standing on a Winkler joint."""

    block: str                 # block id
    radius: float              # m, R: centre of mass to the nearest pivot edge of its base
    aspect_ratio: float        # H / B: height of the centre of mass over its distance to that edge
    normal_stiffness: float    # N/m^3, k_n of the joint


def rocking_bases(model):
    """The base of every movable block that stands on another block (a joint whose normal, from the
    block, points down along gravity): the block's face that faces down most, with R and H/B measured
    from the block's centre of mass to the nearest edge of that face (the pivot it rocks about first).

    Returns
    -------
    list of RockingBase, one per standing block with a normal stiffness on its base joint
    """
    mech = model.mechanics
    orientation = np.tile([1.0, 0.0, 0.0, 0.0], (mech.n_blocks, 1))
    contacts = detect_contacts(mech.polyhedra, mech.position0, orientation, mech.is_support,
                               model.settings["envelope"])
    normal_stiffness = pair_laws(model, contacts)[0]
    down = model.gravity / np.linalg.norm(model.gravity)
    stiffness = {}
    for p in range(contacts.n_pairs):
        first = contacts.pair_start[p]
        a, b = contacts.body_a[first], contacts.body_b[first]
        upright = float(np.dot(contacts.normal[first], down))
        block = a if upright > 0 else b
        if abs(upright) >= STANDING_COSINE and not mech.is_support[block] and np.isfinite(normal_stiffness[p]):
            stiffness[block] = max(stiffness.get(block, 0.0), float(normal_stiffness[p]))
    bases = []
    for block, k_n in stiffness.items():
        height, half_width = lever_to_pivot(*base_polygon(mech.polyhedra, block, down))
        bases.append(RockingBase(mech.block_ids[block], float(np.hypot(height, half_width)),
                                 float(height / half_width), k_n))
    return bases


def base_polygon(packed, block, down):
    """The face of ``block`` whose outward normal is closest to ``down``: its corners (n, 3) relative to the
    block's centre of mass (m) and its outward normal."""
    faces = range(packed.face_start[block], packed.face_start[block + 1])
    face = max(faces, key=lambda f: float(np.dot(packed.face_normal_local[f], down)))
    local = packed.face_vertex[packed.face_vertex_start[face]:packed.face_vertex_start[face + 1]]
    return packed.vertex_local[packed.vertex_start[block] + local], packed.face_normal_local[face]


def lever_to_pivot(polygon, normal):
    """Height H of the centre of mass over a face (``polygon``, corners relative to it, outward ``normal``)
    and distance B of its foot on the face to the face's nearest edge (m): the block's own proportions,
    whether it is drawn upright or tilted."""
    height = float(np.dot(polygon[0], normal))
    foot = height * normal
    distances = []
    for k in range(len(polygon)):
        start, end = polygon[k], polygon[(k + 1) % len(polygon)]
        edge = end - start
        t = np.clip(np.dot(foot - start, edge) / np.dot(edge, edge), 0.0, 1.0)
        distances.append(np.linalg.norm(foot - (start + t * edge)))
    return height, float(min(distances))


def model_time_step(model, restitution, law):
    """The time step of eq. 9 for a model: the smallest over its standing blocks (a smaller block rocks
    with a shorter step), and the base that set it. Raises ValueError when no block stands on a
    joint with a normal stiffness."""
    bases = rocking_bases(model)
    if not bases:
        raise ValueError("no block stands on a joint with a normal_stiffness, from which the time-step law "
                         "could take R, H/B and k_n")
    steps = [law.time_step(base.radius, base.aspect_ratio, base.normal_stiffness, restitution) for base in bases]
    k = int(np.argmin(steps))
    return steps[k], bases[k]


#: Eq. 6 fitted on our HHT integrator's own campaign:
#: all 1600 cases finished, 133 measured optima (benchmarks/results/rocking_campaign.json).
EXTRADOS_LAW = TimeStepLaw(-7625.122091164454, 0.5510991305782779, -0.5305077728861954, 0.5861091529680158,
                           "benchmarks/rocking_campaign.py, 2026-11-27")
#: The law a request's rocking_restitution uses.
REQUEST_LAW = EXTRADOS_LAW
