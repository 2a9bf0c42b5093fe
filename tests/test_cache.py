"""AnalysisCache: hits and misses, agreement with uncached analyses, errors, warm starts, cancellation, threads.

Agreement. A warm-started static solve ends at another equilibrium force field than a cold one
where the structure is statically indeterminate (self-stress: the split of a joint's force
between its corners, and for an arch between its joints): the verdict, the load factor and the
support reactions agree within the solver's tolerance, the joint resultants within
SELF_STRESS_RELATIVE of the largest. A cached result is a function of its own document: the
same document gives the same result whatever the cache analysed before, in any thread.

Also here, because they are what makes result writing and model building fast: the vectorised
joint admissibility against the per-joint reading, the batched block checks against the per-block
ones.
"""
import copy
import json
import threading

import numpy as np
import pytest

from extrados import ModelError, analyze, generators
from extrados.engine.analysis.cache import AnalysisCache
from extrados.engine.collision.detect import Contacts
from extrados.engine.errors import AnalysisCancelled
from extrados.engine.generators.arch import arch_point_load
from extrados.engine.geometry.polyhedron import (
    GeometryError, prevalidated_blocks, validated_block,
)
from extrados.engine.post.interfaces import interface_resultants
from extrados.engine.post.joints import read_joint, joint_admissibility, plane_basis

#: Reactions are statically determinate here (one support): the solver's relative accuracy.
REACTION_RELATIVE = 1e-5
#: Joint resultants of a cold and a warm-started solve differ by a self-stress state; measured
#: up to 7e-3 of the largest resultant on these models.
SELF_STRESS_RELATIVE = 2e-2
EXACT = 1e-12


def arch_doc(load=0.0, angle_deg=20.0, density=2000.0):
    """A 12-voussoir arch (t/R = 0.15) that stands, with a live point load of ``load`` N."""
    doc = generators.generate("arch", voussoirs=12, thickness=0.15, density=density)
    doc["loads"] = [arch_point_load(1.0, 0.15, 12, angle_deg, load)] if load else []
    return doc


def wall_doc(push=0.0):
    """A 4 x 4 running-bond wall with a live horizontal point load of ``push`` N on a top block."""
    doc = generators.generate("wall", courses=4, blocks_per_course=4)
    doc["loads"] = [{"kind": "point", "block": "c3b1", "point": [0.0, 0.0, 0.7], "force": [push, 0.0, 0.0],
                     "live": True}]
    return doc


def column(result, field, key):
    return np.array([entry[key] for entry in result.to_dict()[field]])


def without_timings(result):
    doc = json.loads(json.dumps(result.to_dict()))
    doc["solver"].pop("seconds")
    doc.get("load_factor_report", {}).get("limit_analysis_details", {}).pop("seconds", None)
    return doc


def assert_agree(cached, uncached):
    assert cached.stable == uncached.stable
    assert cached.solver["converged"] and uncached.solver["converged"]
    reactions = column(uncached, "reactions", "force")
    np.testing.assert_allclose(column(cached, "reactions", "force"), reactions,
                               atol=REACTION_RELATIVE * np.abs(reactions).max())
    joints = column(uncached, "interfaces", "force")
    np.testing.assert_allclose(column(cached, "interfaces", "force"), joints,
                               atol=SELF_STRESS_RELATIVE * np.abs(joints).max())


# --- hits and misses --------------------------------------------------------------------------
def test_new_loads_gravity_or_density_hit_and_changed_blocks_miss():
    cache = AnalysisCache()
    cache.analyze(arch_doc(100.0))
    cache.analyze(arch_doc(150.0, angle_deg=-10.0))
    tilted = arch_doc(100.0)
    tilted["gravity"] = [0.5, 0.0, -9.81]
    cache.analyze(tilted)
    assert cache.stats() == {"hits": 2, "misses": 1, "entries": 1, "max_models": 16}
    shifted = arch_doc(100.0)
    shifted["blocks"][3]["vertices"] = [[x, y + 0.01, z] for x, y, z in shifted["blocks"][3]["vertices"]]
    assert cache.analyze(shifted).solver["warm_start"]
    warped = arch_doc(100.0)
    warped["blocks"][3]["vertices"][0][2] += 1e-4
    with pytest.raises(ModelError, match="not planar"):      # a new geometry is checked
        cache.analyze(warped)
    assert cache.stats() == {"hits": 2, "misses": 3, "entries": 2, "max_models": 16}
    # masses are density times the cached volumes: another density reuses the geometry, and weighs more
    heavy = cache.analyze(arch_doc(100.0, density=3000.0))
    assert cache.stats() == {"hits": 3, "misses": 3, "entries": 2, "max_models": 16}
    total = column(analyze(arch_doc(100.0, density=3000.0)), "reactions", "force").sum(axis=0)
    np.testing.assert_allclose(column(heavy, "reactions", "force").sum(axis=0), total,
                               atol=REACTION_RELATIVE * np.abs(total).max())


def test_least_recently_used_geometry_goes_first():
    cache = AnalysisCache(max_models=2)
    for doc in (arch_doc(), wall_doc(), arch_doc(50.0), generators.generate("column", blocks=3)):
        cache.analyze(doc)
    assert cache.stats()["entries"] == 2
    cache.analyze(arch_doc())     # the arch was used after the wall: it stays
    assert cache.stats()["hits"] == 2
    cache.analyze(wall_doc())
    assert cache.stats()["misses"] == 4


# --- agreement with the uncached analysis -----------------------------------------------------
@pytest.mark.parametrize("make, loads", [(arch_doc, (0.0, 100.0, 300.0)), (wall_doc, (0.0, 40.0, 120.0))])
def test_cached_static_results_agree_with_uncached(make, loads):
    cache = AnalysisCache()
    for load in loads:
        doc = make(load)
        assert_agree(cache.analyze(doc), analyze(doc))


@pytest.mark.parametrize("make, load", [(arch_doc, 100.0), (wall_doc, 200.0)])
def test_cached_load_factor_agrees_with_uncached(make, load):
    cache = AnalysisCache()
    cache.analyze(make(0.5 * load))
    request = {"type": "load_factor", "tolerance": 0.01}
    cached, uncached = cache.analyze(make(load), request), analyze(make(load), request)
    assert cached.solver["warm_start"]
    assert cached.load_factor == pytest.approx(uncached.load_factor, rel=request["tolerance"])
    assert_agree(cached, uncached)


def test_dynamic_analyses_go_through_the_cache_unchanged_and_documents_stay_untouched():
    cache = AnalysisCache()
    cache.analyze(arch_doc(100.0))
    doc = arch_doc(200.0)
    before = copy.deepcopy(doc)
    request = {"type": "dynamic", "duration": 0.01, "time_step": 1e-3}
    assert without_timings(cache.analyze(doc, request)) == without_timings(analyze(doc, request))
    assert doc == before and cache.stats()["hits"] == 1


def test_result_depends_on_its_own_document_only():
    fresh, used = AnalysisCache(), AnalysisCache()
    for load in (500.0, 20.0, 300.0):
        used.analyze(arch_doc(load))
    assert without_timings(used.analyze(arch_doc(100.0))) == without_timings(fresh.analyze(arch_doc(100.0)))


def test_model_errors_keep_their_paths_on_a_cached_geometry():
    cache = AnalysisCache()
    cache.analyze(arch_doc(100.0))

    def errors(doc, analysis=None):
        with pytest.raises(ModelError) as cached:
            cache.analyze(doc, analysis)
        with pytest.raises(ModelError) as uncached:
            analyze(copy.deepcopy(doc), analysis)
        assert cached.value.to_dict() == uncached.value.to_dict()
        return cached.value

    unknown = arch_doc(100.0)
    unknown["loads"][0]["block"] = "v99"
    assert errors(unknown).path == "loads[0].block"
    bad_force = arch_doc(100.0)
    bad_force["loads"][0]["force"] = [0.0, 1.0]
    assert errors(bad_force).path == "loads[0].force"
    nan_gravity = arch_doc(100.0)
    nan_gravity["gravity"] = [0.0, 0.0, float("nan")]
    assert errors(nan_gravity).path == "gravity[2]"
    extra = arch_doc(100.0)
    extra["blocks"][2]["colour"] = "red"
    assert errors(extra).path == "blocks[2].colour"
    assert errors(arch_doc(100.0), {"type": "load_factor", "tolerance": 2.0}).path == "analysis.tolerance"
    assert errors(arch_doc(), "load_factor").path == "loads"
    assert cache.stats() == {"hits": 5, "misses": 2, "entries": 1, "max_models": 16}   # bad blocks: a miss, not kept


# --- warm starts, cancellation, threads -------------------------------------------------------
def apgd_wall_doc(push):
    """``wall_doc`` solved by APGD, which starts from the impulses it is offered (``auto`` runs Newton from zero
    on this wall, engine.solvers.auto)."""
    doc = wall_doc(push)
    doc.setdefault("settings", {})["solver"] = "apgd"
    return doc


def test_a_repeated_geometry_is_warm_started_in_fewer_iterations():
    cache = AnalysisCache()
    assert cache.model(apgd_wall_doc(40.0))[1] is None          # model() never solves for a start
    cache.analyze(apgd_wall_doc(40.0))
    assert cache.model(apgd_wall_doc(60.0))[1].impulse is not None
    doc = apgd_wall_doc(60.0)
    warm, cold = cache.analyze(doc), analyze(doc)
    assert warm.solver["warm_start"] and not cold.solver["warm_start"]
    assert warm.solver["name"] == cold.solver["name"] == "apgd"
    assert warm.solver["iterations"] < cold.solver["iterations"]


def test_cancel_stops_a_load_factor_analysis_between_solves():
    checks = []

    def cancel_at_third_check():
        checks.append(1)
        return len(checks) >= 3

    cache = AnalysisCache()
    with pytest.raises(AnalysisCancelled, match=r"load_factor analysis cancelled after .* s"):
        cache.analyze(arch_doc(100.0), "load_factor", cancel=cancel_at_third_check)
    assert len(checks) == 3
    with pytest.raises(AnalysisCancelled, match="static analysis"):
        analyze(arch_doc(100.0), "static", cancel=lambda: True)
    assert cache.analyze(arch_doc(100.0), "load_factor", cancel=lambda: False).load_factor > 0


def test_threads_hammering_the_cache_get_the_sequential_results():
    docs = [arch_doc(load) for load in (0.0, 100.0, 200.0)] + [wall_doc(push) for push in (20.0, 80.0)]
    expected = [without_timings(AnalysisCache().analyze(doc)) for doc in docs]
    cache = AnalysisCache()
    got, failures = {}, []

    def worker(offset):
        try:
            for k in range(len(docs)):
                index = (k + offset) % len(docs)
                got[offset, index] = without_timings(cache.analyze(docs[index]))
        except Exception as error:  # reported by the main thread
            failures.append(error)

    threads = [threading.Thread(target=worker, args=(offset,)) for offset in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
    assert len(got) == 4 * len(docs)
    for (_, index), result in got.items():
        assert result == expected[index]
    assert cache.stats()["entries"] == 2


# --- the vectorised parts of building and writing ----------------------------------------------
def synthetic_joints(rng):
    """Joints of every kind: polygons of 3-6 corners, segments, points, collinear and repeated corners."""
    shapes = []
    for count in (3, 4, 4, 5, 6):
        angle = np.sort(rng.uniform(0.0, 2.0 * np.pi, count))
        shapes.append(np.stack([0.3 * np.cos(angle), 0.2 * np.sin(angle)], axis=1))
    shapes += [np.array([[0.0, 0.0], [0.4, 0.1]]), np.array([[0.1, 0.2]]),
               np.array([[0.0, 0.0], [0.2, 0.0], [0.5, 0.0]]),                      # collinear
               np.array([[0.0, 0.0], [0.3, 0.0], [0.3, 0.0], [0.3, 0.2], [0.0, 0.2]]),  # repeated corner
               np.array([[0.0, 0.0], [0.3, 0.0], [0.15, 0.1], [0.3, 0.2], [0.0, 0.2]])]  # reflex corner
    points, normals, starts = [], [], [0]
    for shape in shapes:
        normal = rng.normal(size=3)
        normal /= np.linalg.norm(normal)
        u, v = plane_basis(normal)
        origin = rng.uniform(-2.0, 2.0, 3)
        points.append(origin + shape[:, :1] * u + shape[:, 1:] * v)
        normals.append(np.tile(normal, (len(shape), 1)))
        starts.append(starts[-1] + len(shape))
    return np.concatenate(points), np.concatenate(normals), np.array(starts)


def test_vectorised_joint_admissibility_reads_every_joint_as_the_per_joint_reference():
    rng = np.random.default_rng(7)
    point, normal, starts = synthetic_joints(rng)
    n = len(point)
    frame = np.stack([normal, *plane_basis(normal)], axis=1)            # rows n, u, v
    force = normal * rng.uniform(0.0, 100.0, n)[:, None] + rng.normal(scale=5.0, size=(n, 3))
    pair = np.repeat(np.arange(len(starts) - 1), np.diff(starts))
    contacts = Contacts(body_a=pair, body_b=pair + 1, point=point, normal=normal, gap=np.zeros(n),
                        feature_id=np.arange(n), pair=pair, pair_start=starts, n_candidate_pairs=len(starts) - 1)
    joints = interface_resultants(contacts, frame, force)
    admissible = joint_admissibility(joints, point, np.full(n, 0.6))
    for k in range(len(starts) - 1):
        centroid, eccentricity, in_polygon, in_kernel, kernel = read_joint(
            point[starts[k]:starts[k + 1]], joints.normal[k], joints.centre[k])
        np.testing.assert_allclose(admissible.centroid[k], centroid, atol=EXACT)
        np.testing.assert_allclose(admissible.eccentricity_vector[k], eccentricity, atol=EXACT)
        assert (admissible.in_polygon[k], admissible.in_kernel[k]) == (in_polygon, in_kernel)
        np.testing.assert_allclose(admissible.kernel[admissible.kernel_start[k]:admissible.kernel_start[k + 1]],
                                   kernel, atol=EXACT)


def test_batched_block_checks_pass_only_what_the_per_block_checks_pass_and_agree_on_it():
    rng = np.random.default_rng(3)
    base = generators.generate("arch", voussoirs=6)["blocks"]
    for trial in range(120):
        blocks = copy.deepcopy(base)
        block = blocks[rng.integers(len(blocks))]
        kind = trial % 5
        if kind == 0:       # a corner moved by 10 nm to 1 cm: within or beyond the planarity tolerance
            block["vertices"][rng.integers(8)][rng.integers(3)] += rng.normal() * 10 ** rng.uniform(-8, -2)
        elif kind == 1:     # an open mesh
            block["faces"].pop(rng.integers(len(block["faces"])))
        elif kind == 2:     # a repeated corner
            block["faces"][0][0] = block["faces"][0][1]
        elif kind == 3:     # an unused vertex
            block["vertices"].append([0.0, 0.0, 0.0])
        pairs = [(b["vertices"], b["faces"]) for b in blocks]
        for (vertices, faces), batched in zip(pairs, prevalidated_blocks(pairs)):
            try:
                expected = validated_block(vertices, faces)
            except GeometryError:
                expected = None
            if batched is not None:
                assert expected is not None
                np.testing.assert_array_equal(batched[0], expected[0])
                assert batched[1] == expected[1]
            elif kind == 4:     # nothing was changed: the batch passes every block
                pytest.fail("the batch refused a good block")
