"""Settings defaults that scale with the model, so that a verdict does not depend on its scale.

The schema's ``settings.compliance`` (1e-10 m/N) and ``settings.envelope`` (5 mm) are right for
blocks of stone a few decimetres to a metre across. A model a hundred times larger, or ten
million times denser, is the same mechanics, yet with these absolute values its closed contacts
sink under its weight fast enough to fail the static verdict, and a model of millimetre blocks
touches blocks beyond its neighbours. A setting the document leaves out is therefore the schema's
value brought into the range where it means the same for any scale:

- compliance c: the regularisation of seed 000 eq. 43, E = c / h^2, is relative to the Delassus
  operator's scale D^T M^-1 D ~ 1/m. At the static step (engine.analysis.static, h = 1 s) the
  product E m = c m / h^2 of the heaviest movable block's mass m is kept within
  [TOL.regularisation_mass_low, TOL.regularisation_mass_high], i.e. c m within these bounds times
  1 s^2 (c = clip(c_schema, low / m, high / m)): blocks of 0.1 kg to 2.5 t keep 1e-10 m/N, and a
  model scaled by 100 in length (a million in mass) has E m of an ordinary model, so its static
  step sinks, and its dynamic steps (E m h_s^2 / h^2) regularise, as that model's do.
- envelope: at most TOL.envelope_radius_fraction of the median movable block radius.

A value written in the document's settings is used as written.
"""
import numpy as np

from extrados.engine.tolerance import TOL


def default_compliance(schema_value, mass, is_support):
    """Compliance (m/N) of a model whose settings leave it out.

    Parameters
    ----------
    schema_value : float
        m/N, the schema's default.
    mass : (n_blocks,) float64, kg
    is_support : (n_blocks,) bool

    Returns
    -------
    float
        ``schema_value`` clipped so that c m (s^2, E m at the static step h = 1 s) lies within
        [TOL.regularisation_mass_low, TOL.regularisation_mass_high] for the heaviest movable block m.
    """
    heaviest = float(mass[~is_support].max(initial=0.0))
    if not heaviest > 0.0:
        return schema_value
    return float(np.clip(schema_value, TOL.regularisation_mass_low / heaviest, TOL.regularisation_mass_high / heaviest))


def default_envelope(schema_value, radius, is_support):
    """Envelope (m) of a model whose settings leave it out.

    Parameters
    ----------
    schema_value : float
        m, the schema's default.
    radius : (n_blocks,) float64, m, largest vertex distance from each block's centre
    is_support : (n_blocks,) bool
    """
    movable = radius[~is_support]
    if len(movable) == 0:
        return schema_value
    return min(schema_value, TOL.envelope_radius_fraction * float(np.median(movable)))


def scaled_settings(settings, given, mechanics):
    """``settings`` (the schema's defaults under the document's ``given`` settings) with the
    compliance and envelope the document leaves out scaled to ``mechanics`` (a new dict)."""
    scaled = dict(settings)
    if "compliance" not in given:
        scaled["compliance"] = default_compliance(settings["compliance"], mechanics.mass, mechanics.is_support)
    if "envelope" not in given:
        scaled["envelope"] = default_envelope(settings["envelope"], mechanics.polyhedra.radius, mechanics.is_support)
    return scaled
