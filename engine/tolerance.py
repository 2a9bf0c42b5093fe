"""One tolerance object for the whole engine, every value saying what it guards; beside it the
solver's defaults, which a model's settings may override.

Change a value here, never inline a bare number in code.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Tolerance:
    #: Relative length below which two points or planes are the same (times block size): a face
    #: narrower than this times the block size has zero area, a block thinner has zero volume.
    geometric_relative: float = 1e-9
    #: Absolute length (m) below which coordinates are the same; 1 nm is far below any stone
    #: tolerance, and a block smaller than it is refused (its inertia rho L^5 would underflow).
    length: float = 1e-9
    #: Cosine margin for "parallel" faces/normals (about 0.08 degrees).
    parallel_cosine: float = 1.0 - 1e-6
    #: A face is non-planar / a block non-convex when a vertex is off a plane by more than this times block size.
    convexity_relative: float = 1e-6
    #: A block given by points (engine.geometry.hull): hull triangles whose corners lie within this
    #: times the points' size of one plane are one face. A tenth of convexity_relative, so that a
    #: merged face is planar to the check of engine.geometry.polyhedron whatever plane it fits.
    hull_coplanar_relative: float = 1e-7
    #: A body read from a CAD or mesh file (engine.io.cad.bodies) is drawn to this times its largest
    #: coordinate: float32 (STL, glTF) keeps 6e-8 of it, an OBJ written with 6 decimals 5e-7 at 1 m.
    #: Its hull's triangles within that of one plane are one face, its corners are then put on the
    #: faces' planes (engine.geometry.face_planes), and it is convex when its hull keeps within that
    #: of it (or within convexity_relative times its size, when more): a 0.4 m stone 100 m from the
    #: origin, 0.1 mm.
    import_rounding_relative: float = 1e-6
    #: ... and when its volume is within this times (that distance / its size) of its hull's: a
    #: vertex moved by d off a face changes a cube of side L by 6 d / L of its volume; ten leaves room
    #: for slender stones, a hollow is more.
    hull_volume_per_distance: float = 10.0
    #: SAT prefers a face axis over an edge axis unless the edge separates by more than this (m).
    sat_face_bias: float = 1e-6
    #: SAT prefers the reference face on body A unless B's face separates by more than this (m).
    sat_reference_bias: float = 1e-7
    #: Smallest contact-patch area (m^2) treated as a polygon rather than a line/point.
    patch_area: float = 1e-12
    #: A normal impulse below this fraction of the largest is an open contact.
    open_contact_relative: float = 1e-9
    #: A tangential force within this fraction of mu*N is sliding (on the cone surface).
    slip_relative: float = 1e-4
    #: A closed contact belongs to the strong network (seed 001) when its normal force exceeds the
    #: mean of the closed contacts by more than this fraction of it: ten times the relative accuracy
    #: of a static solve (1e-7), so equal forces (a symmetric joint) do not split at random.
    network_mean_relative: float = 1e-6
    #: Static verdict: the structure stands when the largest point velocity after one
    #: static step (h = 1 s) is below this fraction of the load scale g*h; ten times the
    #: velocity noise of an iterative solve at relative residual 1e-7.
    static_velocity_relative: float = 1e-5
    #: Above this fraction of g*h the structure certainly moves; in between, a settle run decides.
    static_velocity_borderline: float = 1e-3
    #: Kinematic stopping criterion of seed 001 (max velocity, m/s).
    kinematic_velocity: float = 1e-6
    #: Decimals of the frames and histories a result document writes (engine.result): times to 1 ns, far
    #: below any time step; positions to 1e-6 m, far below a stone's dressing; unit quaternions to 1e-7,
    #: a rotation of 2e-7 rad (0.2 um over a metre); velocities to 1e-7 m/s and rad/s, ten times finer
    #: than the kinematic stop. Verdicts, events and strains are computed from the unrounded arrays.
    frame_time_decimals: int = 9
    frame_position_decimals: int = 6
    frame_orientation_decimals: int = 7
    frame_velocity_decimals: int = 7
    #: Velocity (m/s) that scales the CCP residual when the right-hand side r is smaller (an unloaded problem).
    residual_velocity_floor: float = 1e-12
    #: Corners of one contact patch closer than this times the smaller block's diameter are one
    #: point: nearly coincident faces would otherwise clip to sliver edges (8 corners, not 4).
    contact_merge_relative: float = 1e-4
    #: Event "sliding": tangential relative speed (m/s) above which a contact on its cone is sliding.
    event_speed: float = 1e-3
    #: Energy impact law (engine.contact.impact_energy): a contact that closes within a step at an
    #: approach speed above this (m/s) is an impact; below it, a block settling or creeping (a pivot
    #: held by the compliance sinks at about 1e-4 m/s) is not. 1 mm/s is the sliding event's speed.
    impact_speed: float = 1e-3
    #: Event "uplift": opening (m) of a contact of an initial joint; 0.1 mm is visible rocking.
    event_gap: float = 1e-4
    #: A touching pair reuses the feature its separating-axis test chose (engine.collision.coherence)
    #: while its relative rotation since the test stays below this angle (rad) ...
    sat_reuse_angle: float = 1e-6
    #: A record file's times are evenly spaced when every step is within this fraction of the mean step:
    #: files print times to 6-7 significant digits, so rounding alone stays far below it.
    record_step_relative: float = 1e-6
    #: A baseline-corrected record ends at rest: its final ground velocity (m/s) is below this, the
    #: kinematic stop of seed 001 (the correction is exact to round-off, ~1e-15 m/s a sample).
    baseline_velocity: float = 1e-6
    #: ... and its final ground displacement (m) is below this, the precision of the frames' positions.
    baseline_displacement: float = 1e-6
    #: ... and its relative translation below this times the smaller block's radius. Together they
    #: move the separations the test compares by at most 1e-6 (r_A + r_B + |x_B - x_A|), 1 um for
    #: two 0.4 m bricks, the order of sat_face_bias: a reused feature differs from the test's
    #: choice only in such near ties. A wall at rest creeps by nanometres a step and seldom
    #: runs the test again.
    sat_reuse_translation_relative: float = 1e-6
    #: Broad-phase fat boxes reach this times the envelope beyond the envelope boxes; the sweep
    #: runs again only when a block leaves its fat box. Only speed depends on it, not the pairs.
    broad_phase_margin_relative: float = 1.0
    #: A contact with a new feature id takes over the impulse and tangential stretch of the nearest
    #: vanished contact of the same block pair within this fraction of the smaller block diameter
    #: (engine.contact.history.gather_history): a corner moves |v| h per step, 1 mm at 1 m/s and h = 1 ms,
    #: while the corners of one joint polygon lie a joint's width apart.
    history_match_relative: float = 0.01
    #: A contact of a mortar joint (engine.contact.bonds) is bonded when the run starts with its gap
    #: below this (m): faces drawn touching, to a drawing's tolerance; the uplift event's 0.1 mm.
    bond_gap: float = 1e-4
    #: The friction of holding bonds (engine.contact.mortar.solve_with_bonds, first step) has converged
    #: when no contact's strength changed by more than this fraction of the largest between two solves.
    bond_friction_relative: float = 1e-4
    #: Smallest secant stiffness K / K0 of a damaged cohesive bond (engine.contact.bonds): a bond that
    #: soft is about to break, and a compliance a million times K0's would only slow the solver.
    secant_floor: float = 1e-6
    #: Load factor: an LP optimum within this fraction of max_factor has reached it (HiGHS's
    #: feasibility tolerance is 1e-7, a hundred times smaller).
    load_factor_relative: float = 1e-5
    #: Load factor bisection: a bracket narrower than this times max_factor ends the search even
    #: when the relative tolerance cannot be met (a factor of zero: the dead loads are at collapse).
    load_factor_floor_relative: float = 1e-6
    #: Mechanism of a failing static solve: a contact point opens, or a joint slides, when its
    #: relative velocity exceeds this fraction of the largest point speed; two orders above the
    #: velocity noise of a solve at relative residual 1e-7 even close to collapse.
    mechanism_velocity_relative: float = 1e-2
    #: Stress averages per course (seed 001 Table I): block centres within this fraction of the
    #: median block height above a layer's lowest centre are one layer; half a course keeps
    #: neighbouring courses apart yet gathers a course drawn a few mm out of level.
    layer_band_relative: float = 0.5
    #: Strain cells (seed 001 eq. 14-17): the block centroids span an in-plane wall when their
    #: spread off their best-fit plane is below this fraction of their spread in it (1 mm over
    #: 1 m: a wall drawn with centroids a little out of line is still a wall).
    wall_plane_relative: float = 1e-3
    #: A Delaunay triangle of block centroids thinner than this fraction of the median triangle
    #: area is a sliver of collinear centroids (a straight hull edge): its gradient is noise, left out.
    strain_cell_area_relative: float = 1e-6
    #: Default compliance (engine.scaled_defaults): the regularisation E = c / h^2 of seed 000
    #: eq. 43 at the static step (h = 1 s) times the heaviest movable block's mass m (c m, in s^2)
    #: stays at least this. Far below it E no longer selects one force solution within the solver's
    #: reach: an arch of 3 mm voussoirs (E m = 2e-15) ended unconverged after 5000 iterations. The
    #: 0.16 kg blocks of the mortar tests (E m = 1.6e-11) keep the schema's 1e-10 m/N.
    regularisation_mass_low: float = 1e-11
    #: ... and at most this: a closed contact sinks at E gamma, and a stack of ten blocks of mass m on
    #: four corners then sinks at E m 55 / 4 g h = 3.4e-6 g h at its top, below static_velocity_relative.
    #: A 20 m cube (E m = 1.6e-3 with c = 1e-10 m/N) was reported unstable.
    regularisation_mass_high: float = 2.5e-7
    #: Default envelope: at most this fraction of the median movable block's radius (the largest
    #: vertex distance from its centre), so that blocks of a few mm do not touch blocks beyond their neighbours.
    envelope_radius_fraction: float = 0.1
    #: Fragility fit (engine.post.fragility): the dispersion beta is searched down to this. Levels that
    #: separate collapse from survival have no finite maximum of the likelihood (beta -> 0); their fit
    #: takes this and says so (``separated``), a curve steeper than any record-to-record scatter.
    fragility_dispersion_low: float = 1e-3
    #: ... and up to this: beta = 10 makes P(collapse) rise from 0.16 to 0.84 over a factor e^20 of
    #: intensity, flatter than any fragility a study reports (0.2 to 0.8).
    fragility_dispersion_high: float = 10.0
    #: ... and the median theta between the lowest level divided by this and the highest times this: a
    #: sample with no collapse (or no survival) at some level pushes theta beyond the levels without bound.
    fragility_median_reach: float = 10.0
    #: HHT step (engine.dynamics.hht): Newton has converged when every block's force residual is below
    #: this times m g and its moment residual below this times m g R. A Winkler joint of k_n = 5e8 N/m^3
    #: carries the weight at a few 1e-5 m of penetration; 1e-8 m g leaves the penetration exact to 1e-13 m.
    hht_residual: float = 1e-8
    #: ... the largest number of Newton iterations before the step is halved (seed 003 sec. 3.2).
    hht_iterations: int = 25
    #: ... the most halvings of a Newton correction that raises the residual (backtracking line search);
    hht_backtracks: int = 4
    #: ... and the most halvings of one step (2^-6: a 10 ms step down to 0.16 ms).
    hht_halvings: int = 6
    #: ... a Newton correction below this times the block radius (and rad) has reached round-off;
    hht_increment: float = 1e-14
    #: ... and then the step counts as converged when the residual is below this (m g), the round-off of
    #: a contact force k_n A d that is 1e6 times the weight.
    hht_stagnant_residual: float = 1e-6
    #: ... and the most contact detections of one step: the joints of the predicted end of the step, then
    #: of the converged end while it touches other pairs (a block that lands within the step).
    hht_detections: int = 3
    #: ... a converged end within this fraction of the envelope from the predicted end touches the pairs
    #: detected there: every corner that comes within reach was within the envelope of the prediction.
    hht_redetect_fraction: float = 0.5
    #: ... the HHT step detects its joints within this fraction of the median movable block radius (or
    #: the model's envelope when larger): the Winkler forces are exact at any gap, so a wide envelope
    #: costs only the pairs it adds, and it lets a block rock many steps between two detections (a
    #: 4.2 m block at 10 ms moved past half the 5 mm envelope at 3 steps in 4).
    hht_envelope_radius_fraction: float = 0.05


TOL = Tolerance()


@dataclass(frozen=True)
class SolverDefaults:
    """The solver a model's ``settings`` leave out: which one, its iteration cap and its relative
    CCP residual per analysis type (the model schema states solver and max_iterations from here)."""

    #: APGD (or Newton on a static solve), with a retry by the interior-point solver of a solve left
    #: unconverged, static or a run's step (engine.solvers.auto)
    solver: str = "auto"
    max_iterations: int = 5000
    #: A static solve: the verdict compares velocities of about 1e-5 g h
    #: (Tolerance.static_velocity_relative), so the solve must be ten times more precise than that.
    static_tolerance: float = 1e-7
    #: Every step of a dynamic run, and of the settle run that decides a borderline static verdict
    #: (engine.analysis.static): velocity errors of 1e-5 g h per step, far below what a run of
    #: thousands of steps can show (a wall drifts < 0.1 mm in 10 s).
    dynamic_tolerance: float = 1e-5
    #: Every step of a construction run: its final forces are read like a static analysis's.
    construction_tolerance: float = 1e-7

    def tolerance(self, analysis):
        """The default relative residual of an analysis type (load_factor solves as static)."""
        return {"static": self.static_tolerance, "load_factor": self.static_tolerance,
                "dynamic": self.dynamic_tolerance, "construction": self.construction_tolerance}[analysis]

    def tolerance_description(self):
        """What the model schema says of ``settings.tolerance``."""
        return (f"relative CCP residual; default {self.static_tolerance:g} for static and load_factor analyses, "
                f"{self.dynamic_tolerance:g} for dynamic, {self.construction_tolerance:g} for construction")


SOLVER_DEFAULTS = SolverDefaults()
