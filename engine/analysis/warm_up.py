"""Compiling the engine's kernels ahead of an analysis, by analysing a small column.

After an install the first analysis compiles every kernel (engine.kernel_cache), 40-80 s on a small
machine. The command line compiles them first, with a message and a bar of kernels compiled, when
some are missing from the cache; the service does it in the background as it starts
(server/warmup.py). The analysis that follows loads them; compilation it still needs (a kernel for
types the column did not use) stays out of its solver times all the same (engine.compilation).
"""
from extrados.engine.compilation import compiled_kernels
from extrados.engine.kernel_cache import engine_kernels, is_cached, kernel_name

#: Kernels the warm-up leaves to the first analysis that needs them (whose solver times leave the
#: compilation out all the same): the parallel ones, for problems of more than
#: engine.solvers.problem.PART_CONTACTS contacts; those of the solvers a model must name (pgs,
#: jacobi, reference); the power of moving supports. (The cone projections' Jacobians are compiled by the
#: column's static solve, which ``auto`` gives the Newton solver, engine.solvers.newton.)
ON_DEMAND = frozenset({
    "solvers.cone.project_parallel", "solvers.delassus.body_velocity_parallel", "solvers.delassus.delassus_parallel",
    "solvers.residual.natural_residual_parallel",
    "solvers.pgs.gauss_seidel_sweep", "solvers.pgs.gauss_seidel_iterate", "solvers.jacobi.body_stiffness_kernel",
    "solvers.delassus.diagonal_blocks_kernel", "solvers.cone.project_cones", "post.energy.support_power_kernel"})


def warm_up_requests():
    """(model document, analysis request) pairs that between them call every kernel of the engine but ON_DEMAND."""
    from extrados.engine import generators
    from extrados.engine.generators.panel import cohesive_joint

    column = generators.generate("column", blocks=3)
    top = next(b for b in column["blocks"] if b["id"] == "b2")
    live = dict(column, loads=[{"kind": "point", "block": "b2", "point": top["vertices"][0],
                                "force": [1.0, 0.0, 0.0], "live": True}])
    # seed 004's Table 4 mortar, set 1
    mortared = dict(column, joints={"mortar": cohesive_joint(1, 0.8, 1e12)}, default_joint="mortar")
    # seed 003's Winkler joints, for the HHT integrator
    winkler = dict(column, joints={"dry": dict(column["joints"]["dry"], normal_stiffness=5e8)})
    # a wall whose Newton matrix has a wide band: the static solve factorises it by blocks
    # (engine.solvers.block_cholesky)
    wall = generators.generate("wall", courses=8, blocks_per_course=12)
    # deformable blocks (engine.deformable): the condensed flexibility's product (engine.solvers.flexible_problem),
    # mortared, their joints cut into contact points (engine.deformable.joint_points): the points' Voronoi areas
    # (engine.contact.tributary)
    width = min(max(v[k] for v in top["vertices"]) - min(v[k] for v in top["vertices"]) for k in range(3))
    elastic = {"E": 1e9, "nu": 0.2, "element": "tet4", "contact_spacing": 0.5 * width}
    deformable = dict(mortared, materials={"stone": dict(column["materials"]["stone"], deformable=elastic)})
    return [(column, "static"),
            (deformable, "static"),
            (wall, "static"),
            (column, {"type": "dynamic", "duration": 0.003, "time_step": 0.001}),
            (winkler, {"type": "dynamic", "integrator": "hht", "duration": 0.003, "time_step": 0.001}),
            (live, {"type": "load_factor"}),
            (mortared, "static")]


def kernels_to_compile():
    """The kernels the warm-up reaches that the disk cache does not hold: what a first run compiles."""
    return [kernel for kernel in engine_kernels() if kernel_name(kernel) not in ON_DEMAND and not is_cached(kernel)]


def compile_kernels(progress=None):
    """Compile the kernels missing from the cache (`kernels_to_compile`; load the others) by running
    `warm_up_requests`.

    Parameters
    ----------
    progress : callable(fraction), optional
        Called after each missing kernel is compiled, with the fraction of them compiled (0-1).

    Returns
    -------
    int
        How many kernels were missing from the cache.
    """
    from extrados.engine.analysis.run import analyze

    cold = set(kernels_to_compile())
    compiled = set()

    def count(kernel):
        if kernel in cold:
            compiled.add(kernel)
            if progress is not None:
                progress(len(compiled) / len(cold))

    with compiled_kernels(count):
        for model, analysis in warm_up_requests():
            analyze(model, analysis)
    return len(cold)
