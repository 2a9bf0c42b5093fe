"""Mortar joints: the cohesive-zone law of seed 004 and the brittle Mohr-Coulomb law of seed 002.

Both give a bonded contact point strengths: a tensile capacity T and a shear capacity C (forces;
the step multiplies them by h), its impulse confined to {n >= -T, ||t|| <= C} (engine.solvers.cone,
engine.contact.bonds). A joint of polygon area A whose m contact points share it (tributary area
a = A / m each) carries a tension up to A sigma_I and, with no normal stress, a shear up to
A sigma_II; in compression friction mu N adds to the cohesion: the friction threshold is passed
before the cohesive shear works (seed 004 sec. 3.1, fig. 5b; fig. 11: the peak shear stress is
sigma_II + mu sigma). Only contacts present when a run starts are bonded; contacts made later are
dry (engine.contact.bonds).

Mohr-Coulomb (seed 002 sec. 3.2, "a shifting is applied to R_N ... set to zero if the contact
is broken"): T = a f_t and C = a c + mu N, rigid, until the contact reaches either capacity;
then it is broken for good.

Cohesive (seed 004 sec. 3). Per mode x in {I, II} the law is elastic, K0, up to the strength
sigma_e at delta_e = sigma_e / K0, then softens bilinearly (fig. 5a) through the cross-over
(delta_c, sigma_c) to zero at the ultimate opening delta_u. The area under the whole curve is
the energy J, of which Phi J lies before delta_c (micro-cracking) and (1 - Phi) J after it
(crack bridging); `BilinearMode` solves for (delta_c, sigma_c).

Mixed mode, with the contact's opening delta_n (its gap less the gap it was bonded at) and its
slip delta_t (relative tangential displacement since bonding):

    delta_m = sqrt(<delta_n>^2 + delta_t^2),  beta = delta_t / <delta_n>          (eq. 12, 13)

(compression does not damage: <x> = max(x, 0)). In units of f = traction / stiffness (m) the
mixed-mode curve is fixed by three openings, each a function of beta and the pure modes':

    delta_m^e = delta_I^e delta_II^e sqrt((1 + beta^2) / (delta_II^e^2 + beta^2 delta_I^e^2))     (eq. 14)
    delta_m^c = delta_I^c delta_II^c sqrt((1 + beta^2) / (delta_II^c^2 + beta^2 delta_I^c^2))     (eq. 16)
    delta_m^u = (1 + beta^2) / delta_m^c * delta_I^c delta_I^u delta_II^c delta_II^u
                / (delta_II^c delta_II^u + beta^2 delta_I^c delta_I^u)                            (eq. 17)

and by the energy split Phi, the same in every direction (sec. 3.2: micro-cracking and crack
bridging end together), which gives the cross-over traction (`crossover_value`). Eq. 14 is the
quadratic initiation criterion (eq. 10-11); eq. 17 is the linear energy criterion (eq. 15 with
n = m = 1) written for the bridging branch, as Camanho and Davila write it for a linear softening,
so the area G of the mixed curve meets eq. 15, G (K_I cos^2 / J_I + K_II sin^2 / J_II) = 1
(cos^2 = 1 / (1 + beta^2)), closely rather than exactly (within 8 % for Tables 1-2). Our copy of
the paper prints eq. 16 and 17 garbled (eq. 16 with a stray root and no 1 + beta^2 under it, eq.
17 with three factors above the line); the forms above keep the printed shapes, give the pure
modes' openings at beta = 0 and beta = inf (which fixes eq. 17's numerator), and make eq. 16 eq. 14
for the cross-over, as "the same assumption" says. Where the two modes' Phi differ, Phi is interpolated
with cos^2 and sin^2. The history kappa = max delta_m (with beta when it was reached)
fixes the strength fraction s = f(kappa) / delta_m^e in [0, 1], the capacities
T = a sigma_e,I s and C = a sigma_e,II s + mu N, and the damage variable d = K / K0 = f(kappa) /
kappa: the bond is a spring of stiffness d K0 on its whole opening and slip, so it unloads along
its secant to the origin, and the capacities hold it on the curve while it is loaded. Past
delta_m^u the contact is broken: rigid again, pure Coulomb.

Departure from seed 004: a bond in compression keeps K0 (compression does not damage) and its
capacity holds friction, which a secant through the cohesive curve alone could not reach, so
there it unloads along K0, as a plastic slip would. Without compression (the paper's tests of
Tables 1 and 2, and its path study of sec. 5.1) the law is the paper's.
"""
from dataclasses import dataclass

import numpy as np

from extrados.engine.errors import ModelError

#: law codes of engine.model.Model.joint_table
COULOMB, MOHR_COULOMB, COHESIVE = 0, 1, 2
LAW_CODES = {"coulomb": COULOMB, "mohr_coulomb": MOHR_COULOMB, "cohesive": COHESIVE}


@dataclass(frozen=True)
class BilinearMode:
    """One pure mode of the cohesive law: elastic, then bilinear softening (seed 004 fig. 5a)."""

    stiffness: float  # K0, Pa/m
    strength: float   # sigma_e, Pa
    energy: float     # J, J/m^2, the area under the whole curve
    ratio: float      # Phi, the fraction of J before the cross-over
    ultimate: float   # delta_u, m
    crossover: float  # delta_c, m
    crossover_stress: float  # sigma_c, Pa

    @property
    def elastic(self):
        """delta_e = sigma_e / K0, m."""
        return self.strength / self.stiffness

    @classmethod
    def from_dict(cls, mode, path):
        """The mode of a joint's ``mode_I`` or ``mode_II`` entry (DESIGN sec. 4); ModelError at ``path``."""
        k, sigma, energy, ratio, ultimate = (float(mode[key]) for key in
                                             ("stiffness", "strength", "energy", "energy_ratio", "ultimate_opening"))
        delta_c, sigma_c = crossover(k, sigma, energy, ratio, ultimate, path)
        return cls(k, sigma, energy, ratio, ultimate, delta_c, sigma_c)

    def stress(self, opening):
        """sigma(delta), Pa, of the monotonic curve at openings (n,) m (zero beyond delta_u)."""
        return self.stiffness * bilinear_curve(np.asarray(opening, float), self.elastic, self.crossover,
                                               self.crossover_stress / self.stiffness, self.ultimate)


def crossover(stiffness, strength, energy, ratio, ultimate, path):
    """(delta_c, sigma_c) of a bilinear softening with the given energy split.

    With delta_e = sigma_e / K0, the two areas are

        Phi J      = sigma_e delta_e / 2 + (sigma_e + sigma_c)(delta_c - delta_e) / 2,
        (1 - Phi) J = sigma_c (delta_u - delta_c) / 2;

    the second gives sigma_c = 2 (1 - Phi) J / (delta_u - delta_c), and the first then a
    quadratic in delta_c, whose root in [delta_e, delta_u] with 0 <= sigma_c <= sigma_e is the
    curve. Raises ModelError at ``path`` when there is none: J too small or too large for a
    curve from (delta_e, sigma_e) to (delta_u, 0) that softens.
    """
    delta_e = strength / stiffness
    if not delta_e < ultimate:
        raise ModelError(f"ultimate_opening {ultimate:g} m must exceed the elastic opening strength / stiffness "
                         f"= {delta_e:g} m", path=f"{path}.ultimate_opening")
    after = 2.0 * (1.0 - ratio) * energy
    before = 2.0 * ratio * energy - strength * delta_e
    # -sigma_e x^2 + (sigma_e (delta_e + delta_u) + after + before) x
    #   - (sigma_e delta_e delta_u + after delta_e + before delta_u) = 0
    a = -strength
    b = strength * (delta_e + ultimate) + after + before
    c = -(strength * delta_e * ultimate + after * delta_e + before * ultimate)
    discriminant = b * b - 4.0 * a * c
    least, most = strength * delta_e / 2.0, strength * ultimate / 2.0 + strength * delta_e / 2.0
    if discriminant >= 0.0:
        for root in sorted(((-b + s * np.sqrt(discriminant)) / (2.0 * a) for s in (1.0, -1.0))):
            if delta_e <= root < ultimate:
                sigma_c = after / (ultimate - root)
                if 0.0 <= sigma_c <= strength * (1.0 + 1e-12):
                    return float(root), float(min(sigma_c, strength))
    raise ModelError(f"no bilinear softening from strength {strength:g} Pa to zero at {ultimate:g} m holds the "
                     f"energy {energy:g} J/m2 split {ratio:g} / {1.0 - ratio:g} (the curve's area lies between about "
                     f"{least:g} and {most:g} J/m2)", path=f"{path}.energy")


def bilinear_curve(kappa, elastic, cross, cross_value, ultimate):
    """f(kappa): kappa up to ``elastic``, then linear to (cross, cross_value), then linear to 0 at ``ultimate``.

    All arguments broadcast; lengths in m. Zero past ``ultimate``.
    """
    kappa = np.asarray(kappa, float)
    first = elastic + (cross_value - elastic) * (kappa - elastic) / np.maximum(cross - elastic, 1e-300)
    second = cross_value * (ultimate - kappa) / np.maximum(ultimate - cross, 1e-300)
    return np.where(kappa <= elastic, kappa, np.where(kappa <= cross, first, np.clip(second, 0.0, None)))


@dataclass(frozen=True)
class CohesiveLaw:
    """Both modes of a cohesive joint and its friction after failure."""

    mode_I: BilinearMode
    mode_II: BilinearMode
    friction: float

    @classmethod
    def from_dict(cls, joint, path):
        return cls(BilinearMode.from_dict(joint["mode_I"], f"{path}.mode_I"),
                   BilinearMode.from_dict(joint["mode_II"], f"{path}.mode_II"), float(joint["friction"]))

    def mixed_curve(self, beta):
        """(delta_e, delta_c, f_c, delta_u, area) of the mixed-mode curve at slip ratios beta (n,), in f units (m):
        eq. 14, 16 and 17, and the cross-over value f_c from the energy split Phi.

        beta = inf is pure mode II, 0 pure mode I.
        """
        one, two = self.mode_I, self.mode_II
        beta = np.asarray(beta, float)
        cos2 = np.where(np.isinf(beta), 0.0, 1.0 / (1.0 + np.where(np.isinf(beta), 0.0, beta) ** 2))
        sin2 = 1.0 - cos2
        elastic = elliptic(one.elastic, two.elastic, cos2, sin2)                          # eq. 14
        cross = elliptic(one.crossover, two.crossover, cos2, sin2)                        # eq. 16
        bridging_I, bridging_II = one.crossover * one.ultimate, two.crossover * two.ultimate
        # eq. 17, divided through by 1 + beta^2 = 1 / cos^2
        ultimate = bridging_I * bridging_II / (cross * (cos2 * bridging_II + sin2 * bridging_I))
        ratio = one.ratio * cos2 + two.ratio * sin2
        value = crossover_value(elastic, cross, ultimate, ratio)
        area = 0.5 * (elastic * cross + value * (ultimate - elastic))
        return elastic, cross, value, ultimate, area

    def strength_fraction(self, kappa, beta):
        """s in [0, 1]: the fraction of the strengths left after the largest mixed opening kappa (n,) m."""
        elastic, cross, value, ultimate, _ = self.mixed_curve(beta)
        kappa = np.maximum(kappa, elastic)   # no loss of strength before initiation
        return np.clip(bilinear_curve(kappa, elastic, cross, value, ultimate) / elastic, 0.0, 1.0)

    def broken(self, kappa, beta):
        """Whether a contact with history kappa at ratio beta has passed its ultimate opening."""
        return np.asarray(kappa) >= self.mixed_curve(beta)[3]


def elliptic(first, second, cos2, sin2):
    """The mixed value of eq. 14: x with (x cos / first)^2 + (x sin / second)^2 = 1."""
    return 1.0 / np.sqrt(cos2 / first ** 2 + sin2 / second ** 2)


def crossover_value(elastic, cross, ultimate, ratio):
    """f_c, the cross-over value of a bilinear curve through (delta_e, delta_e), (delta_c, f_c) and (delta_u, 0)
    whose area before delta_c is the fraction Phi of the whole (f units, m; all arguments broadcast).

    The areas are J_mu = (delta_e delta_c + f_c (delta_c - delta_e)) / 2 and J_b = f_c (delta_u - delta_c) / 2,
    and (1 - Phi) J_mu = Phi J_b is linear in f_c. Where no f_c in [0, delta_e] gives the split, the nearest
    bound is taken (the curve closest to it that still softens).
    """
    denominator = ratio * (ultimate - cross) - (1.0 - ratio) * (cross - elastic)
    value = (1.0 - ratio) * elastic * cross / np.where(denominator > 0.0, denominator, np.inf)
    return np.where(denominator > 0.0, np.clip(value, 0.0, elastic), elastic)
