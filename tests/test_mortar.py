"""Mortar joints (issue 7): the cohesive law of seed 004 and the brittle Mohr-Coulomb law of seed 002.

The law itself is checked against its closed forms (areas, peaks, eq. 11, 14, 15); the NSCD step
against the law on two blocks and one joint, displacement controlled: a support block (the
actuator) moves at a prescribed speed and drags the loaded block through a rigid glue joint,
so the mortar joint under test opens or slides at that speed.
"""
import numpy as np
import pytest

from extrados import Model, analyze
from extrados.engine.contact.bonds import SLIP
from extrados.engine.contact.cohesive import BilinearMode, CohesiveLaw
from extrados.engine.contact.history import contact_keys
from extrados.engine.errors import ModelError
from extrados.engine.generators import box
from extrados.engine.generators.panel import TABLE_1_MODE_I, TABLE_2_MODE_II
from extrados.engine.pipeline import SolverSettings, StepSettings, step
from extrados.engine.post.networks import step_contact_states
from extrados.engine.state import State

#: Seed 004 Table 1 (mode I) and Table 2 (mode II), friction 0.7 (sec. 4.2.2).
MODE_I, MODE_II = TABLE_1_MODE_I, TABLE_2_MODE_II
MORTAR = {"law": "cohesive", "friction": 0.7, "mode_I": MODE_I, "mode_II": MODE_II}
#: A glue far stronger than the mortar: the actuator drags the block without letting go.
GLUE = {"law": "mohr_coulomb", "friction": 1.0, "cohesion": 1e12, "tensile_strength": 1e12}
#: Joint size (m): a 0.2 x 0.2 m joint under a 0.05 m tall block.
WIDTH, HEIGHT = 0.2, 0.05
AREA = WIDTH * WIDTH


# --- the law ---------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", [MODE_I, MODE_II], ids=["mode I", "mode II"])
def test_bilinear_curve_has_the_tables_peak_energy_and_split(mode):
    law = BilinearMode.from_dict(mode, "m")
    opening = np.linspace(0.0, law.ultimate * 1.001, 400001)
    stress = law.stress(opening)
    assert stress.max() == pytest.approx(mode["strength"], rel=1e-4)
    assert np.trapezoid(stress, opening) == pytest.approx(mode["energy"], rel=1e-6)
    before = opening <= law.crossover
    assert np.trapezoid(stress[before], opening[before]) == pytest.approx(mode["energy_ratio"] * mode["energy"],
                                                                         rel=1e-3)
    assert law.stress([law.ultimate])[0] == 0.0 and law.elastic == mode["strength"] / mode["stiffness"]


def test_an_energy_no_softening_curve_can_hold_is_refused_at_its_field():
    tiny = dict(MODE_I, energy=1e-6)
    with pytest.raises(ModelError) as error:
        BilinearMode.from_dict(tiny, "joints.m.mode_I")
    assert error.value.path == "joints.m.mode_I.energy"
    with pytest.raises(ModelError) as error:
        Model.from_dict(two_block_model({"law": "cohesive", "friction": 0.7, "mode_I": tiny, "mode_II": MODE_II}))
    assert error.value.path == "joints.mortar.mode_I.energy"


def test_mixed_mode_curve_meets_eq_11_16_17_the_energy_split_and_the_pure_modes():
    law = CohesiveLaw.from_dict(MORTAR, "j")
    one, two = law.mode_I, law.mode_II
    beta = np.array([0.0, 0.3, 1.0, 3.0, 10.0, np.inf])
    elastic, cross, value, ultimate, area = law.mixed_curve(beta)
    cos2 = np.array([1.0, 1 / 1.09, 0.5, 0.1, 1 / 101, 0.0])
    sin2 = 1.0 - cos2
    # eq. 11: (delta_mI / delta_I^e)^2 + (delta_mII / delta_II^e)^2 = 1 at initiation; eq. 16 the same at the cross-over
    assert elastic ** 2 * (cos2 / one.elastic ** 2 + sin2 / two.elastic ** 2) == pytest.approx(1.0, rel=1e-12)
    assert cross ** 2 * (cos2 / one.crossover ** 2 + sin2 / two.crossover ** 2) == pytest.approx(1.0, rel=1e-12)
    # eq. 17 as printed, (1 + beta^2) / delta_m^c * ... / (delta_II^c delta_II^u + beta^2 delta_I^c delta_I^u)
    b = beta[1:-1]
    eq17 = ((1 + b ** 2) / cross[1:-1] * one.crossover * one.ultimate * two.crossover * two.ultimate
            / (two.crossover * two.ultimate + b ** 2 * one.crossover * one.ultimate))
    assert ultimate[1:-1] == pytest.approx(eq17, rel=1e-12)
    # Phi of the area lies before the cross-over (sec. 3.2: the same split in every direction)
    before = 0.5 * (elastic * cross + value * (cross - elastic))
    assert before / area == pytest.approx(0.5, rel=1e-12)
    # eq. 15 (n = m = 1), J_mI / J_I + J_mII / J_II = 1 with J_mI = K_I cos^2 G and J_mII = K_II sin^2 G: eq. 17
    # meets it for the bridging branch, so the whole curve meets it closely (within 8 % for Tables 1-2)
    criterion = area * (one.stiffness * cos2 / one.energy + two.stiffness * sin2 / two.energy)
    assert criterion == pytest.approx(1.0, rel=0.08)
    assert criterion[[0, -1]] == pytest.approx(1.0, rel=1e-12)
    # the pure modes are the tables' curves (in f = stress / stiffness)
    assert [elastic[0], cross[0], value[0] * one.stiffness, ultimate[0]] == pytest.approx(
        [one.elastic, one.crossover, one.crossover_stress, one.ultimate], rel=1e-9)
    assert [elastic[-1], cross[-1], value[-1] * two.stiffness, ultimate[-1]] == pytest.approx(
        [two.elastic, two.crossover, two.crossover_stress, two.ultimate], rel=1e-9)
    assert law.strength_fraction(np.array([0.5 * one.elastic, one.ultimate]), np.array([0.0, 0.0])).tolist() == [1.0,
                                                                                                               0.0]


# --- two blocks, one joint -------------------------------------------------------------------------

def two_block_model(mortar=MORTAR, gravity=(0.0, 0.0, 0.0), loads=(), pusher=False, height=HEIGHT):
    """A fixed base, the block on it (mortar joint), and an actuator support glued on top of it (or, with
    ``pusher``, touching its -x side through a frictionless dry joint)."""
    base = box((-0.2, 0.4), (-0.2, 0.4), (-0.1, 0.0))
    block = box((0.0, WIDTH), (0.0, WIDTH), (0.0, height))
    if pusher:
        actuator = box((-0.1, 0.0), (0.0, WIDTH), (0.0, height))
        joint = {"law": "coulomb", "friction": 0.0}
    else:
        actuator = box((0.0, WIDTH), (0.0, WIDTH), (height, 2 * height))
        joint = GLUE
    blocks = [{"id": "base", "vertices": base[0], "faces": base[1], "support": True},
              {"id": "block", "vertices": block[0], "faces": block[1]},
              {"id": "actuator", "vertices": actuator[0], "faces": actuator[1], "support": True}]
    return {"format": "extrados.model/1", "units": "SI", "gravity": list(gravity),
            "materials": {"stone": {"density": 2000.0}},
            "joints": {"mortar": mortar, "actuator": joint}, "default_joint": "mortar",
            "joint_assignments": [{"blocks": ["block", "actuator"], "joint": "actuator"}],
            "blocks": [dict(b, material="stone") for b in blocks], "loads": list(loads)}


def joint_force(model, outcome, h):
    """World force (N) the base applies to the block, summed over their contacts."""
    ids = model.block_ids
    base, block = ids.index("base"), ids.index("block")
    total = np.zeros(3)
    force = np.einsum("nki,nk->ni", outcome.frame, outcome.impulse) / h
    for a, b, f in zip(outcome.contacts.body_a, outcome.contacts.body_b, force):
        if {a, b} == {base, block}:
            total += f if b == block else -f
    return total


def drive(model, velocity, steps, h=1e-3):
    """Move the actuator at ``velocity`` (m/s) for ``steps`` steps; the block's displacement (m) and
    the joint's force (N) after each step, and the last outcome."""
    return drive_path(model, np.tile(np.asarray(velocity, float), (steps, 1)), h)


def drive_path(model, velocities, h=1e-3):
    """Move the actuator at velocities[k] (m/s) in step k; as `drive`."""
    model = Model.from_dict(model)
    mech = model.mechanics
    state = State.initial(mech)
    actuator, block = model.block_ids.index("actuator"), model.block_ids.index("block")
    start = state.position[block].copy()
    displacement, force = np.zeros((len(velocities), 3)), np.zeros((len(velocities), 3))
    for k, velocity in enumerate(velocities):
        prescribed = np.zeros((mech.n_blocks, 6))
        prescribed[actuator, :3] = velocity
        settings = StepSettings(time_step=h, wrench=mech.dead_wrench,
                                solver=SolverSettings(tolerance=1e-10, max_iterations=20000), support_velocity=prescribed)
        outcome = step(model, state, settings)
        displacement[k] = state.position[block] - start
        force[k] = joint_force(model, outcome, h)
    return displacement, force, outcome


def test_pure_mode_i_traces_the_bilinear_law():
    """Seed 004 sec. 4.1, Table 1: the direct tensile test, displacement controlled."""
    law = BilinearMode.from_dict(MODE_I, "m")
    speed = 1e-4                                     # m/s: 1e-7 m per 1 ms step, 1400 steps to delta_u
    steps = int(1.15 * law.ultimate / (speed * 1e-3))
    opening, force, outcome = drive(two_block_model(), (0.0, 0.0, speed), steps)
    stress = -force[:, 2] / AREA                     # the base pulls the block down: tension
    delta = opening[:, 2]
    assert stress.max() == pytest.approx(MODE_I["strength"], rel=0.01)
    assert np.trapezoid(stress, delta) == pytest.approx(MODE_I["energy"], rel=0.02)
    assert abs(stress[-1]) < 1e-6 * MODE_I["strength"]            # broken: no tension left
    assert set(mortar_states(outcome)) == {"broken"}


def mortar_states(outcome):
    """Bond states of the contacts of the mortar joints (law 0, the default) after a step."""
    bonds = outcome.bonds
    model = Model.from_dict(two_block_model())
    return bonds.states(model)[(bonds.law == 0) & bonds.mortar].tolist()


def triplet_model(mortar=MORTAR):
    """Seed 004 fig. 9, the triplet shear test: the block mortared between a fixed base and a fixed cap,
    pushed along x by an actuator against its -x side (a frictionless dry joint). By symmetry each joint
    takes half the push and no moment: pure mode II."""
    document = two_block_model(mortar, pusher=True)
    cap = box((-0.2, 0.4), (-0.2, 0.4), (HEIGHT, HEIGHT + 0.1))
    document["blocks"].append({"id": "cap", "vertices": cap[0], "faces": cap[1], "support": True,
                               "material": "stone"})
    return document


def test_pure_mode_ii_traces_the_bilinear_law():
    """Seed 004 sec. 4.2, Table 2 at zero normal stress: the cohesive shear alone."""
    law = BilinearMode.from_dict(MODE_II, "m")
    speed = 1e-3                                     # m/s: 1e-6 m per 1 ms step
    steps = int(1.1 * law.ultimate / (speed * 1e-3))
    slip, force, outcome = drive(triplet_model(), (speed, 0.0, 0.0), steps)
    stress = -force[:, 0] / AREA                     # the base holds the block back (-x) with half the push
    assert stress.max() == pytest.approx(MODE_II["strength"], rel=0.01)
    assert np.trapezoid(stress, slip[:, 0]) == pytest.approx(MODE_II["energy"], rel=0.02)
    assert set(mortar_states(outcome)) == {"broken"}
    assert np.abs(slip[:, 1:]).max() < 1e-3 * slip[-1, 0]          # it slid straight along x


def test_a_support_pulled_at_constant_speed_through_the_document_breaks_the_joint_past_its_ultimate_opening():
    """Displacement control from the model document (support_motion kind velocity): the glued actuator lifts the
    block at 1 mm/s. Stopped at half mode I's ultimate opening the joint is damaged and still holds the block
    there; carried on to twice it, the joint is broken and the block has gone up with the actuator."""
    speed, h = 1e-3, 1e-3
    for travel, bond in ((0.5 * MODE_I["ultimate_opening"], "damaged"), (2.0 * MODE_I["ultimate_opening"], "broken")):
        doc = two_block_model()
        doc["support_motion"] = {"kind": "velocity", "velocity": [0.0, 0.0, speed], "blocks": ["actuator"],
                                 "duration": travel / speed}
        result = analyze(doc, {"type": "dynamic", "duration": travel / speed, "time_step": h}).to_dict()
        joint = [j for j in result["interfaces"] if set(j["blocks"]) == {"base", "block"}]
        block = next(b for b in result["blocks"] if b["id"] == "block")
        assert abs(block["position"][2] - HEIGHT / 2 - travel) <= 1.01 * speed * h   # within one step of travel
        assert joint[0]["bond"] == bond
        if bond == "damaged":
            assert joint[0]["normal_force"] < 0.0   # in tension
        else:
            assert joint[0]["normal_force"] == 0.0


def test_a_damaged_joint_unloads_along_its_secant():
    """Seed 004 sec. 3.1: d = K / K0 is the damage variable, so a joint opened into softening and closed
    again carries sigma(kappa) delta / kappa on the way back, through the origin; reopened, it follows
    the same secant up to the curve and softens on from there."""
    law = BilinearMode.from_dict(MODE_I, "m")
    speed, h = 1e-4, 1e-3
    out = int(2 * law.crossover / (speed * h))                      # open to twice the cross-over
    back = out // 2                                                 # close half way
    path = np.array([(0, 0, speed)] * out + [(0, 0, -speed)] * back + [(0, 0, speed)] * (2 * back))
    opening, force, _ = drive_path(two_block_model(), path, h)
    stress, delta = -force[:, 2] / AREA, opening[:, 2]
    kappa = delta[out - 1]
    at_kappa = law.stress([kappa])[0]
    assert stress[out - 1] == pytest.approx(at_kappa, rel=0.01)
    halfway = out + back - 1
    assert stress[halfway] == pytest.approx(at_kappa * delta[halfway] / kappa, rel=0.02)
    # reloaded past kappa it is on the curve again
    assert stress[-1] == pytest.approx(law.stress([delta[-1]])[0], rel=0.02)


NORMAL_STRESS = 0.2e6   # Pa, the lowest level of the triplet tests (seed 004 sec. 4.2.1)


def test_shear_under_compression_peaks_at_cohesion_plus_friction_then_follows_mu_sigma():
    """Seed 004 fig. 11: the peak shear stress is sigma_II + mu sigma; once the joint is broken the shear is
    the friction mu sigma (Coulomb, fig. 5b)."""
    load = {"kind": "point", "block": "block", "point": [WIDTH / 2, WIDTH / 2, HEIGHT],
            "force": [0.0, 0.0, -NORMAL_STRESS * AREA]}
    law = BilinearMode.from_dict(MODE_II, "m")
    speed = 2e-3
    steps = int(1.3 * law.ultimate / (speed * 1e-3))
    slip, force, outcome = drive(two_block_model(loads=[load], pusher=True), (speed, 0.0, 0.0), steps)
    shear = -force[:, 0] / AREA
    assert force[-1, 2] / AREA == pytest.approx(NORMAL_STRESS, rel=1e-3)
    assert shear.max() == pytest.approx(MODE_II["strength"] + 0.7 * NORMAL_STRESS, rel=0.01)
    assert shear[-1] == pytest.approx(0.7 * NORMAL_STRESS, rel=1e-3)
    assert set(mortar_states(outcome)) == {"broken"}


BRITTLE = {"law": "mohr_coulomb", "friction": 0.6, "cohesion": 1.0e5, "tensile_strength": 5.0e4}


def test_mohr_coulomb_bond_holds_its_tensile_strength_then_lets_go_for_good():
    """Seed 002: cohesion shifts the normal reaction until the joint breaks, then it is dry for good."""
    opening, force, outcome = drive(two_block_model(BRITTLE), (0.0, 0.0, 1e-4), 60)
    tension = -force[:, 2] / AREA
    assert tension.max() == pytest.approx(BRITTLE["tensile_strength"], rel=0.01)
    broke = int(np.argmax(tension))
    assert np.all(np.abs(tension[broke + 1:]) < 1e-6 * BRITTLE["tensile_strength"])
    assert set(mortar_states(outcome)) == {"broken"}


def test_mohr_coulomb_shear_under_compression():
    load = {"kind": "point", "block": "block", "point": [WIDTH / 2, WIDTH / 2, HEIGHT],
            "force": [0.0, 0.0, -NORMAL_STRESS * AREA]}
    slip, force, outcome = drive(two_block_model(BRITTLE, loads=[load], pusher=True), (1e-3, 0.0, 0.0), 60)
    shear = -force[:, 0] / AREA
    assert shear.max() == pytest.approx(BRITTLE["cohesion"] + 0.6 * NORMAL_STRESS, rel=0.01)
    assert shear[-1] == pytest.approx(0.6 * NORMAL_STRESS, rel=1e-3)


# --- a wall with mortar ---------------------------------------------------------------------------

def cantilever(joint, tip_load=0.0):
    """A pier on the ground with a block mortared to its side and nothing under it."""
    ground = box((-0.5, 1.0), (-0.5, 0.7), (-0.1, 0.0))
    pier = box((0.0, 0.4), (0.0, 0.2), (0.0, 0.4))
    arm = box((0.4, 0.6), (0.0, 0.2), (0.2, 0.4))
    blocks = [{"id": "ground", "vertices": ground[0], "faces": ground[1], "support": True},
              {"id": "pier", "vertices": pier[0], "faces": pier[1]},
              {"id": "arm", "vertices": arm[0], "faces": arm[1]}]
    loads = [{"kind": "point", "block": "arm", "point": [0.6, 0.1, 0.4], "force": [0.0, 0.0, -tip_load]}]
    return {"format": "extrados.model/1", "units": "SI", "gravity": [0.0, 0.0, -9.81],
            "materials": {"stone": {"density": 2000.0}}, "joints": {"j": joint}, "default_joint": "j",
            "blocks": [dict(b, material="stone") for b in blocks], "loads": loads if tip_load else []}


@pytest.mark.parametrize("joint", [MORTAR, BRITTLE], ids=["cohesive", "mohr_coulomb"])
def test_a_mortared_cantilever_stands_where_the_dry_one_falls(joint):
    dry = analyze(cantilever({"law": "coulomb", "friction": 0.7}), "static").to_dict()
    assert dry["stable"] is False
    wet = analyze(cantilever(joint), "static").to_dict()
    assert wet["stable"] is True
    arm_joint = [j for j in wet["interfaces"] if set(j["blocks"]) == {"pier", "arm"}][0]
    assert arm_joint["bond"] == "intact"
    # the arm's weight hangs from the joint: shear equal to it, and a tension-compression couple
    weight = 2000.0 * 0.2 * 0.2 * 0.2 * 9.81
    assert arm_joint["shear_force"] == pytest.approx(weight, rel=1e-3)
    tension = [c for c in wet["contacts"] if set(c["blocks"]) == {"pier", "arm"} and
               np.dot(c["force"], c["normal"]) < 0.0]
    assert tension, "the top of the joint must be in tension"
    # a bond holding tension is a closed joint: stick, not open
    assert {c["state"] for c in wet["contacts"] if set(c["blocks"]) == {"pier", "arm"}} == {"stick"}


def test_a_construction_stage_lays_its_blocks_in_mortar():
    """Built pier first, arm second: the arm's joint is bonded when its stage lays it, so the arm stays where it
    was drawn (within 1 um; its joint's elastic slip is far smaller); with dry joints it falls off."""
    def built(joint):
        result = analyze(cantilever(joint), {"type": "construction", "stages": [["pier"], ["arm"]],
                                             "max_stage_duration": 0.2}).to_dict()
        arm = next(b for b in result["blocks"] if b["id"] == "arm")
        return result, arm["position"][2] - 0.3

    wet, drop = built(MORTAR)
    assert abs(drop) < 1e-6
    arm_joint = [j for j in wet["interfaces"] if set(j["blocks"]) == {"pier", "arm"}][0]
    assert arm_joint["bond"] == "intact"
    _, dry_drop = built({"law": "coulomb", "friction": 0.7})
    assert dry_drop < -0.1


def test_a_broken_joint_carries_no_tension():
    """The arm, overloaded, tears off: from the step its bond breaks on, its contacts push only. Until then a
    contact whose bond holds tension is closed (stick or slip), never open."""
    model = Model.from_dict(cantilever(MORTAR, tip_load=2000.0))
    mech = model.mechanics
    state = State.initial(mech)
    settings = StepSettings(time_step=1e-3, wrench=mech.dead_wrench)
    broken_before = set()          # keys of the contacts whose bond was broken when the step began
    checked = 0                    # contacts checked while their bond was broken
    held_tension = 0               # contacts whose holding bond carried tension
    for _ in range(150):
        outcome = step(model, state, settings)
        keys = contact_keys(outcome.contacts, mech.n_blocks)
        was_broken = np.array([key in broken_before for key in keys.tolist()], bool)
        assert np.all(outcome.impulse[was_broken, 0] >= -1e-9 * np.abs(outcome.impulse[:, 0]).max())
        checked += int(was_broken.sum())
        holding = np.isin(outcome.bonds.states(model), ["intact", "damaged"])
        held_tension += int((holding & (outcome.impulse[:, 0] < 0.0)).sum())
        assert not np.any(step_contact_states(outcome)[holding] == "open")
        broken_before = set(keys[(outcome.bonds.states(model) == "broken")].tolist())
    assert checked > 0, "the overloaded arm should have torn off and touched with broken bonds"
    assert held_tension > 0


# --- path dependence (seed 004 sec. 5.1) ----------------------------------------------------------

#: A block so thin that shearing it through the glue on its top puts almost no moment on the joint.
THIN = 0.002


def dissipated(displacement, force):
    """J/m^2 dissipated by the joint: the work put in, -sum F . dx, less what its secant spring stores at
    the end, -F . delta / 2 (a damaged joint unloads along its secant to the origin)."""
    work = (-np.sum(0.5 * (force[1:] + force[:-1]) * np.diff(displacement, axis=0))
            - np.dot(force[0], displacement[0]) / 2)
    stored = -np.dot(force[-1], displacement[-1]) / 2
    return (work - stored) / AREA


def path_energies(mortar, opening, slip, speed=1e-4, h=1e-3):
    """Dissipated energies of path 1 (open, then slide) and path 2 (slide, then open) to the same end point."""
    n_open, n_slip = int(round(opening / (speed * h))), int(round(slip / (speed * h)))
    up, along = np.array([0.0, 0.0, speed]), np.array([speed, 0.0, 0.0])
    energies = []
    for path in (np.array([up] * n_open + [along] * n_slip), np.array([along] * n_slip + [up] * n_open)):
        displacement, force, outcome = drive_path(two_block_model(mortar, height=THIN), path, h)
        assert set(mortar_states(outcome)) == {"damaged"}
        energies.append(dissipated(displacement, force))
    return energies


def test_paths_to_one_end_point_dissipate_alike_when_the_modes_are_alike():
    """Seed 004 sec. 5.1 (figs. 15-16): with J_II / J_I = 1 the two paths dissipate the same energy. With
    both modes the same law the two paths mirror each other."""
    alike = dict(MORTAR, mode_II=dict(MODE_I))
    first, second = path_energies(alike, 2e-5, 2e-5)
    assert 0.0 < first < MODE_I["energy"]
    assert second == pytest.approx(first, rel=0.02)


def test_paths_dissipate_differently_when_mode_ii_is_far_tougher():
    """Seed 004 sec. 5.1: the law is path dependent, markedly so for J_II / J_I far from 1 (Tables 1-2: 43)."""
    first, second = path_energies(MORTAR, 2e-5, 2e-5)
    assert first > 0.0 and second > 0.0
    assert abs(first - second) > 0.1 * max(first, second)


def tougher_mode_ii(ratio):
    """Seed 004 sec. 5.1's study: mode II is mode I with J_II / J_I = ratio (its ultimate opening scaled alike)."""
    return dict(MORTAR, mode_II=dict(MODE_I, energy=ratio * MODE_I["energy"],
                                     ultimate_opening=ratio * MODE_I["ultimate_opening"]))


def angle_path_energy(mortar, alpha, path, speed=2.5e-4, h=1e-3):
    """J/m^2 dissipated on path 1 (open, then slide) or 2 (slide, then open) to the end point at loading angle
    alpha (degrees from the slip axis, fig. 14), twice mode I's ultimate opening from the origin."""
    reach, angle = 2.0 * MODE_I["ultimate_opening"], np.radians(alpha)
    n_open, n_slip = int(round(reach * np.sin(angle) / (speed * h))), int(round(reach * np.cos(angle) / (speed * h)))
    up, along = [(0.0, 0.0, speed)] * n_open, [(speed, 0.0, 0.0)] * n_slip
    velocities = np.array(up + along if path == 1 else along + up)
    displacement, force, _ = drive_path(two_block_model(mortar, height=THIN), velocities, h)
    return dissipated(displacement, force)


def test_path_1_dissipates_j_i_at_every_angle_when_j_ii_equals_j_i_and_more_at_low_angles_otherwise():
    """Seed 004 sec. 5.1, figs. 15-16, to an end point past failure: with J_II / J_I = 1 the dissipated energy
    is J at every loading angle and on both paths; with J_II / J_I = 4 path 1 dissipates more at a low angle,
    and from about 30 degrees "there is no more difference ... because the interface fails in Mode I" (path 1a
    breaks it), while path 2 dissipates far more (the path dependence). Within 2 % (the step resolves the
    curve to about 1 %)."""
    j_one = MODE_I["energy"]
    alike = tougher_mode_ii(1.0)
    for alpha in (15.0, 75.0):
        assert angle_path_energy(alike, alpha, 1) == pytest.approx(j_one, rel=0.02)
        assert angle_path_energy(alike, alpha, 2) == pytest.approx(j_one, rel=0.02)
    tough = tougher_mode_ii(4.0)
    assert angle_path_energy(tough, 15.0, 1) > 1.15 * j_one
    at_45 = angle_path_energy(tough, 45.0, 1)
    assert at_45 == pytest.approx(j_one, rel=0.02)
    assert angle_path_energy(tough, 45.0, 2) > 2.0 * at_45


def energy_release(mortar, path, h=1e-3):
    """Along a path of actuator velocities: the dissipated energy (J/m^2, `dissipated`) and the integral of the
    energy release rate over the damage, sum over contacts of int Y dD with Y = a (K_I <delta_n>^2 +
    K_II delta_t^2) / 2 and D = 1 - d (J/m^2): the damage form in which seed 004 writes eq. 18-21."""
    model = Model.from_dict(two_block_model(mortar, height=THIN))
    mech = model.mechanics
    state = State.initial(mech)
    actuator, block = model.block_ids.index("actuator"), model.block_ids.index("block")
    start = state.position[block].copy()
    stiffness = mortar["mode_I"]["stiffness"], mortar["mode_II"]["stiffness"]
    displacement, force, release, before = [], [], 0.0, None
    for velocity in path:
        prescribed = np.zeros((mech.n_blocks, 6))
        prescribed[actuator, :3] = velocity
        outcome = step(model, state, StepSettings(time_step=h, wrench=mech.dead_wrench,
                                                  solver=SolverSettings(tolerance=1e-10, max_iterations=20000),
                                                  support_velocity=prescribed))
        displacement.append(state.position[block] - start)
        force.append(joint_force(model, outcome, h))
        bonds = outcome.bonds
        mine = (bonds.law == 0) & bonds.mortar
        damage = 1.0 - bonds.secant_factor(model)[mine]
        slip = np.linalg.norm(bonds.rows[mine, SLIP], axis=1)
        rate = 0.5 * bonds.area[mine] * (stiffness[0] * max(displacement[-1][2], 0.0) ** 2 + stiffness[1] * slip ** 2)
        if before is not None:
            release += np.sum(0.5 * (rate + before[0]) * (damage - before[1]))
        before = rate, damage
    return dissipated(np.array(displacement), np.array(force)), release / AREA


@pytest.mark.parametrize("mortar", [dict(MORTAR, mode_II=dict(MODE_I)), MORTAR], ids=["alike modes", "tables 1-2"])
def test_the_energy_each_path_dissipates_is_the_damage_release(mortar):
    """Seed 004 eq. 18-21 write the energy of each path as released by the damage, Y dD. In the secant damage
    model the work less the stored energy is exactly int Y dD: both paths, both parameter sets, within 2 %."""
    speed, h, reach = 1e-4, 1e-3, 2e-5
    steps = int(round(reach / (speed * h)))
    up, along = [(0.0, 0.0, speed)] * steps, [(speed, 0.0, 0.0)] * steps
    for path in (np.array(up + along), np.array(along + up)):
        work_less_stored, release = energy_release(mortar, path, h)
        assert release == pytest.approx(work_less_stored, rel=0.02)
