"""The bonds of mortar joints, contact by contact: history, strengths in a step, update after it.

A contact of a mohr_coulomb or cohesive joint (engine.contact.cohesive) carries a bond row,
kept from step to step with the contact's persistent key like its impulse (engine.contact.history):

    KAPPA     m, the largest mixed-mode opening delta_m so far (seed 004 eq. 12)
    BETA      the mode ratio delta_t / <delta_n> (eq. 13) when KAPPA was reached
    BROKEN    1 once the bond is lost for good, else 0
    BOND_GAP  m, the gap the contact was bonded at: openings are measured from it
    SLIP      m (3 columns, world), relative tangential displacement since bonding
    NORMAL    N, the contact's normal force in the last step, compression positive
    BONDED    1 for a contact bonded when it was first found (holding or broken since), else 0

The set of a bonded contact is the cylinder {n >= -T, ||t|| <= C} with its friction in C:
C = a c s + mu <N>, <N> the compression of the step before (seed 004 fig. 11: the peak shear is
sigma_II + mu sigma); once broken, C = mu <N> and T = 0, dry friction. The Coulomb cone of the
associated CCP would make a sliding contact dilate at mu ||u_t|| (seed 000 sec. 2.4;
engine.analysis.limit says the same of limit analysis): between blocks held in place, as in a
wall or a shear test, that dilation builds compression, hence friction, without end. The
cylinder's flow is tangential. Contacts that were never bonded keep the engine's cone.

Contacts present when a run starts (with a gap below TOL.bond_gap) are bonded, and in a
construction run those first found when a stage lays its blocks; contacts made later, contacts
of pairs that touch along an edge or at a corner only (no joint area), and contacts of Coulomb
joints, are dry: BROKEN = 1.
"""
from dataclasses import dataclass

import numpy as np

from extrados.engine.contact.cohesive import COULOMB, MOHR_COULOMB
from extrados.engine.tolerance import TOL

KAPPA, BETA, BROKEN, BOND_GAP = 0, 1, 2, 3
SLIP = slice(4, 7)
NORMAL = 7
BONDED = 8
BOND_COLUMNS = 9


def fresh_bonds(gap, bonding):
    """(n, BOND_COLUMNS) rows of contacts seen for the first time: bonded at their gap when ``bonding``
    (the first detection of a run, or of a construction stage) and the gap is below TOL.bond_gap, dry otherwise."""
    rows = np.zeros((len(gap), BOND_COLUMNS))
    rows[:, BOND_GAP] = gap
    rows[:, BONDED] = np.where(bonding & (np.asarray(gap) <= TOL.bond_gap), 1.0, 0.0)
    rows[:, BROKEN] = 1.0 - rows[:, BONDED]
    return rows


def gathered_bonds(warm_bond, source, gap, bonding):
    """The bond rows of the current contacts: the previous row that ``source`` (n_c,) names, or a fresh
    one where it is -1."""
    rows = fresh_bonds(gap, bonding)
    known = source >= 0
    rows[known] = warm_bond[source[known]]
    return rows


def mixed_ratio(opening, slip):
    """beta = |delta_t| / <delta_n> (seed 004 eq. 13): 0 in pure opening, inf in pure slip."""
    opening = np.maximum(opening, 0.0)
    safe = np.where(opening > 0.0, opening, 1.0)
    return np.where(opening > 0.0, slip / safe, np.inf)


@dataclass(frozen=True)
class Bonds:
    """The bonds of one step's contacts."""

    law: np.ndarray    # (n_c,) int64, index of each contact's joint law in model.joint_table
    code: np.ndarray   # (n_c,) int64, its law code (COULOMB, MOHR_COULOMB, COHESIVE)
    rows: np.ndarray   # (n_c, BOND_COLUMNS) float64, the bond rows
    area: np.ndarray   # (n_c,) float64, m^2, tributary area of each contact point

    @property
    def mortar(self):
        """(n_c,) bool, contacts of a mortar law."""
        return self.code != COULOMB

    @property
    def cylinder(self):
        """(n_c,) bool, contacts of a mortar law that were bonded: their set is a cylinder."""
        return self.mortar & (self.rows[:, BONDED] > 0.0)

    @property
    def holding(self):
        """(n_c,) bool, contacts of a mortar law whose bond holds."""
        return self.mortar & (self.rows[:, BROKEN] == 0.0)

    def strength_fraction(self, model):
        """(n_c,) s in [0, 1]: 1 for a holding mohr_coulomb bond, the cohesive law's s(kappa, beta), 0 when dry."""
        fraction = np.where(self.holding, 1.0, 0.0)
        for index, law in enumerate(model.joint_table["cohesive"]):
            mine = self.holding & (self.law == index)
            if law is not None and mine.any():
                fraction[mine] = law.strength_fraction(self.rows[mine, KAPPA], self.rows[mine, BETA])
        return fraction

    def strengths(self, model, friction, normal):
        """(n_c, 2) N, [shear capacity C, tensile capacity T] of each contact (engine.contact.cohesive).

        C = a c s + mu <normal> and T = a f_t s for a holding bond, with the law's strengths, the
        tributary area a and the fraction s (zero once broken: C = mu <normal>, T = 0); zero for contacts
        that were never bonded (their set is Coulomb's cone).

        Parameters
        ----------
        model : Model
        friction : (n_c,) float64
        normal : (n_c,) N, the normal force the friction acts with (compression positive)
        """
        table = model.joint_table
        fraction = self.strength_fraction(model)
        shear = self.area * table["cohesion"][self.law] * fraction + friction * np.maximum(normal, 0.0)
        return np.column_stack([np.where(self.cylinder, shear, 0.0),
                                self.area * table["tensile_strength"][self.law] * fraction])

    def secant_factor(self, model):
        """(n_c,) d = K / K0 (seed 004 sec. 3.1): the secant stiffness of a holding cohesive bond through
        the point its history reached on the mixed-mode curve, d = f(kappa) / kappa, no more than 1 (and
        at least TOL.secant_floor); 1 for every other contact."""
        factor = np.ones(len(self.law))
        for index, law in enumerate(model.joint_table["cohesive"]):
            mine = self.holding & (self.law == index)
            if law is not None and mine.any():
                kappa, beta = self.rows[mine, KAPPA], self.rows[mine, BETA]
                elastic = law.mixed_curve(beta)[0]
                curve = law.strength_fraction(kappa, beta) * elastic
                factor[mine] = np.clip(curve / np.maximum(kappa, elastic), TOL.secant_floor, 1.0)
        return factor

    def damage(self, model):
        """(n_c,) D = 1 - d for display: 0 intact, 1 broken; nan for contacts that were never bonded (a
        Mohr-Coulomb bond is 0 or 1)."""
        lost = np.where(self.holding, 1.0 - self.secant_factor(model), 1.0)
        return np.where(self.cylinder, lost, np.nan)

    def as_bonded(self):
        """These bonds as the run's first step made them: no history, every bonded contact holding."""
        rows = self.rows.copy()
        rows[:, KAPPA] = rows[:, BETA] = 0.0
        rows[:, BROKEN] = 1.0 - rows[:, BONDED]
        return Bonds(self.law, self.code, rows, self.area)

    def static_states(self, model, friction, impulse, h):
        """(n_c,) str of a static solution: 'damaged' where a bond's force reached its capacity (the joint's
        strength is all used: it would start to soften or break), 'intact' elsewhere; '' for dry contacts.

        A static solve is one step of a pseudo-time h from the drawn configuration: its motion is not an
        opening history, so the bonds are judged by their forces (`at_capacity`).
        """
        bonded = self.as_bonded()
        capacity = bonded.strengths(model, friction, impulse[:, 0] / h) * h
        spent = bonded.holding & at_capacity(impulse, capacity)
        return np.where(~bonded.holding, "", np.where(spent, "damaged", "intact"))

    def states(self, model):
        """(n_c,) str, 'intact', 'damaged' or 'broken' for contacts that were bonded, '' for others."""
        damage = self.damage(model)
        return np.where(~self.cylinder, "", np.where(self.rows[:, BROKEN] > 0.0, "broken",
                                                     np.where(damage > 0.0, "damaged", "intact")))


def updated_rows(model, bonds, gap_after, slip_step, impulse, cohesion_impulse, h):
    """The bond rows after a step.

    Parameters
    ----------
    model : Model
    bonds : Bonds at the start of the step
    gap_after : (n_c,) m, each contact's gap at the end of the step (gap + h u_n)
    slip_step : (n_c, 3) m, world, the relative tangential displacement of the step (h u_t)
    impulse : (n_c, 3) N s, the step's impulses (n, u, v)
    cohesion_impulse : (n_c, 2) N s, [C h, T h] of the step
    h : float, s

    Returns
    -------
    (n_c, BOND_COLUMNS) float64

    A cohesive bond breaks once its history passes the mixed-mode ultimate opening delta_m^u; a
    Mohr-Coulomb bond breaks when its impulse reaches its tensile cap, or its shear capacity
    beyond what friction alone carries (seed 002: brittle).
    """
    rows = bonds.rows.copy()
    holding = bonds.holding
    rows[holding, SLIP] += slip_step[holding]
    rows[:, NORMAL] = impulse[:, 0] / h
    opening = gap_after - rows[:, BOND_GAP]
    slip = np.linalg.norm(rows[:, SLIP], axis=1)
    mixed = np.sqrt(np.maximum(opening, 0.0) ** 2 + slip ** 2)                     # eq. 12
    grows = holding & (mixed > rows[:, KAPPA])
    rows[grows, KAPPA] = mixed[grows]
    rows[grows, BETA] = mixed_ratio(opening[grows], slip[grows])
    for index, law in enumerate(model.joint_table["cohesive"]):
        mine = holding & (bonds.law == index)
        if law is not None and mine.any():
            rows[mine, BROKEN] = np.where(law.broken(rows[mine, KAPPA], rows[mine, BETA]), 1.0, 0.0)
    brittle = holding & (bonds.code == MOHR_COULOMB)
    if brittle.any():
        rows[brittle, BROKEN] = np.where(at_capacity(impulse[brittle], cohesion_impulse[brittle]), 1.0, 0.0)
    return rows


def at_capacity(impulse, cohesion_impulse):
    """(n,) bool: the impulse is at its tensile cap -T h or at its shear capacity C h (to TOL.slip_relative)."""
    margin = 1.0 - TOL.slip_relative
    shear = np.linalg.norm(impulse[:, 1:], axis=1)
    shear_cap, tension_cap = cohesion_impulse[:, 0], cohesion_impulse[:, 1]
    at_tension = (tension_cap > 0.0) & (-impulse[:, 0] >= margin * tension_cap)
    at_shear = (shear_cap > 0.0) & (shear >= margin * shear_cap)
    return at_tension | at_shear
