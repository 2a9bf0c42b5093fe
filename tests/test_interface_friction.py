"""The friction spring of a compliant joint (engine.contact.interface_friction): Coulomb's cap, the
stretch it keeps, and its 12 x 12 tangent against central differences, sticking and sliding."""
import numpy as np
import pytest

from extrados.engine.contact.interface_friction import friction_forces

CENTRE = np.array([[0.3, -0.1, 0.0]])
NORMAL = np.array([[0.0, 0.0, 1.0]])
AREA = np.array([0.02])
SHEAR = np.array([5e8])          # N/m^3
FRICTION = np.array([0.6])
CENTRE_A = np.array([[0.0, 0.0, -0.5]])
CENTRE_B = np.array([[0.1, 0.05, 1.2]])
NORMAL_FORCE = 2000.0            # N
#: dN / d(dx_A, dtheta_A, dx_B, dtheta_B) of a joint pressed along z (any row will do for the check).
NORMAL_TANGENT = np.array([[0.0, 0.0, 3e7, 1e6, -2e6, 0.0, 0.0, 0.0, -3e7, -1e6, 2e6, 0.0]])


def wrenches(motion, stretch_old, moved_b):
    """[F_A, T_A, F_B, T_B] (12,) for small rigid motions (12,) of A and B about their centres."""
    def point_motion(twist, centre):
        return twist[:3] + np.cross(twist[3:], CENTRE[0] - centre)
    moved_a = point_motion(motion[:6], CENTRE_A[0])[None]
    moved = moved_b + point_motion(motion[6:], CENTRE_B[0])[None]
    normal_force = NORMAL_FORCE + NORMAL_TANGENT[0] @ motion
    force_b, stretch, sliding, stiffness = friction_forces(
        CENTRE, NORMAL, np.array([normal_force]), AREA, SHEAR, FRICTION, stretch_old, moved_a, moved, CENTRE_A,
        CENTRE_B, NORMAL_TANGENT)
    f = force_b[0]
    out = np.concatenate([-f, -np.cross(CENTRE[0] - CENTRE_A[0], f), f, np.cross(CENTRE[0] - CENTRE_B[0], f)])
    return out, stretch[0], sliding[0], stiffness[0]


@pytest.mark.parametrize("slip", [False, True])
def test_the_tangent_matches_central_differences(slip):
    stretch_old = np.array([[1e-7, 2e-7, 0.0]])
    moved_b = np.array([[3e-5 if slip else 1e-7, -1e-7, 0.0]])   # K A |s| = 1e7 * 3e-5 = 300 N; mu N = 1200 N
    if slip:
        moved_b = np.array([[3e-4, -1e-4, 0.0]])
    wrench, _, sliding, stiffness = wrenches(np.zeros(12), stretch_old, moved_b)
    assert sliding == slip
    step = 1e-9
    numeric = np.empty((12, 12))
    for col in range(12):
        e = np.zeros(12)
        e[col] = step
        numeric[:, col] = (wrenches(e, stretch_old, moved_b)[0] - wrenches(-e, stretch_old, moved_b)[0]) / (2 * step)
    scale = np.abs(numeric).max()
    assert np.abs(stiffness - numeric).max() < 1e-6 * scale


def test_a_sliding_joint_carries_mu_n_and_keeps_the_stretch_of_it():
    moved_b = np.array([[1e-3, 0.0, 0.0]])
    wrench, stretch, sliding, _ = wrenches(np.zeros(12), np.zeros((1, 3)), moved_b)
    assert sliding
    force_b = wrench[6:9]
    assert np.linalg.norm(force_b) == pytest.approx(FRICTION[0] * NORMAL_FORCE, rel=1e-12)
    assert force_b[0] < 0.0 and force_b[2] == 0.0          # it resists B's slip along +x, in the joint's plane
    assert np.linalg.norm(stretch) * SHEAR[0] * AREA[0] == pytest.approx(FRICTION[0] * NORMAL_FORCE, rel=1e-12)


def test_a_joint_that_carries_nothing_forgets_its_stretch():
    force_b, stretch, sliding, _ = friction_forces(
        CENTRE, NORMAL, np.zeros(1), AREA, SHEAR, FRICTION, np.array([[1e-4, 0.0, 0.0]]), np.zeros((1, 3)),
        np.array([[1e-4, 0.0, 0.0]]), CENTRE_A, CENTRE_B, NORMAL_TANGENT)
    assert not force_b.any() and not stretch.any() and not sliding[0]
