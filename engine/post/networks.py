"""Contact states and the strong and weak force networks (seed 001 sec. 5.1, figs. 25-27).

Each contact is sticking (|R_T| < mu R_N), sliding (|R_T| = mu R_N) or open (no
contact force though within the envelope). Among the closed contacts (sticking or
sliding), the strong network carries a normal force above the mean normal force of the
closed contacts, the weak network the rest.
"""
import numpy as np

from extrados.engine.result import ContactNetwork
from extrados.engine.tolerance import TOL

STATES = ("stick", "slip", "open")


def contact_states(impulse, friction, sliding, bonded=None):
    """'open', 'stick' or 'slip' for each contact.

    Parameters
    ----------
    impulse : (n_c, 3) float64, N s (or N), in the contact frame (n, u, v)
    friction : (n_c,) float64
    sliding : (n_c,) bool, the contact slides (its tangential velocity is not negligible)
    bonded : (n_c,) bool or None, contacts a mortar bond holds (engine.contact.bonds): closed
        whatever their normal force, since the bond carries tension; they slip where they slide

    Returns
    -------
    (n_c,) str
        open: normal impulse at or below TOL.open_contact_relative of the largest;
        slip: the impulse lies on the Coulomb cone (|t| >= (1 - TOL.slip_relative) mu n)
        and the contact slides; stick otherwise. A bonded contact is stick or slip, by whether it slides.
    """
    normal = impulse[:, 0]
    tangential = np.linalg.norm(impulse[:, 1:], axis=1)
    largest = np.abs(normal).max(initial=0.0)
    is_open = normal <= TOL.open_contact_relative * largest
    on_cone = tangential >= (1.0 - TOL.slip_relative) * friction * normal
    states = np.where(is_open, "open", np.where(on_cone & sliding, "slip", "stick"))
    if bonded is None:
        return states
    return np.where(bonded, np.where(sliding, "slip", "stick"), states)


def contact_network(states, normal_force):
    """Strong and weak networks and state counts of the contacts (seed 001 figs. 25-27).

    A closed contact is strong when its normal force exceeds the mean over the closed
    contacts by more than TOL.network_mean_relative of that mean, so that forces equal
    up to solver noise (a symmetric joint) all fall in the weak network.

    Parameters
    ----------
    states : (n_c,) str, 'stick', 'slip' or 'open' (`contact_states`)
    normal_force : (n_c,) float64, N, compression positive

    Returns
    -------
    ContactNetwork
    """
    states = np.asarray(states)
    closed = states != "open"
    mean = float(normal_force[closed].mean()) if closed.any() else 0.0
    strong = closed & (normal_force > mean + TOL.network_mean_relative * abs(mean))
    weak = closed & ~strong
    counts = {state: int(np.count_nonzero(states == state)) for state in STATES}
    counts.update(closed=int(closed.sum()), strong=int(strong.sum()), weak=int(weak.sum()))
    return ContactNetwork(strong, weak, mean, counts)


def step_contact_states(outcome):
    """(n_c,) 'stick', 'slip' or 'open' of a time step's contacts (`contact_states`): sliding where
    the tangential relative velocity at the end of the step exceeds TOL.event_speed; a contact
    whose mortar bond holds is closed.

    Parameters
    ----------
    outcome : StepOutcome
        Of engine.pipeline.step: impulse (n_c, 3) N s, friction (n_c,), contact_velocity (n_c, 3)
        m/s in the contact frames, bonds (engine.contact.bonds.Bonds or None).
    """
    sliding = np.linalg.norm(outcome.contact_velocity[:, 1:], axis=1) > TOL.event_speed
    bonds = outcome.bonds
    bonded = None if bonds is None else bonds.cylinder & bonds.holding
    return contact_states(outcome.impulse, outcome.friction, sliding, bonded)
