"""Rhino's Hops component against the service (server/routes/hops.py, server/hops), over HTTP.

No Rhino here: the requests are built as Hops builds them (McNeel's compute.rhino3d, src/hops/RemoteDefinition.cs):
GET of the function's address for its description, then POST /solve with ``pointer`` "hops/<name>", one data
tree per input whose items carry their type and their data as JSON text, geometry as RhinoCommon's ToJSON
writes it, here rhino3dm's ``Encode`` (the same archive). The service runs under waitress (tests/server_harness.py).
"""
import json

import pytest
import rhino3dm

from extrados import analyze
from extrados.engine.generators import box, generate
from tests.server_harness import running_service
from tests.test_gh_conversions import rhino_mesh

#: Joint resultants from the Hops function and from `analyze` of the generator's document agree to this fraction
#: of the arch's weight: the same blocks, rebuilt from meshes (vertex order and face merging may differ), solved to
#: the static tolerance.
FORCE_AGREEMENT = 1e-4


def item(kind, data):
    """One item of a Hops data tree: its type and its data as JSON text."""
    return {"type": kind, "data": json.dumps(data)}


def geometry_item(geometry):
    kind = {"Mesh": "Rhino.Geometry.Mesh", "Brep": "Rhino.Geometry.Brep", "Extrusion": "Rhino.Geometry.Extrusion"}
    return item(kind[type(geometry).__name__], geometry.Encode())


def tree(name, items):
    return {"ParamName": name, "InnerTree": {"{0}": items}}


def solve_body(pointer, trees, units="Meters", tolerance=0.001):
    """A solve request as Hops sends it (Resthopper's Schema)."""
    return {"absolutetolerance": tolerance, "angletolerance": 1.0, "modelunits": units, "dataversion": 8,
            "algo": None, "pointer": pointer, "cachesolve": False, "recursionlevel": 0, "values": trees,
            "warnings": [], "errors": []}


def arch_trees(document, scale=1.0):
    """Blocks, Supports, Friction and Density of a generated arch, its geometry times ``scale``."""
    blocks = [b for b in document["blocks"] if not b["support"]]
    supports = [b for b in document["blocks"] if b["support"]]
    return [tree("Blocks", [geometry_item(rhino_mesh(b["vertices"], b["faces"], scale)) for b in blocks]),
            tree("Supports", [geometry_item(rhino_mesh(b["vertices"], b["faces"], scale)) for b in supports]),
            tree("Friction", [item("System.Double", document["joints"]["dry"]["friction"])]),
            tree("Density", [item("System.Double", document["materials"]["stone"]["density"])])]


def output(answer, name):
    """The decoded items of one output of a solve answer."""
    for values in answer["values"]:
        if values["ParamName"] == name:
            return [json.loads(i["data"]) for branch in values["InnerTree"].values() for i in branch]
    raise KeyError(name)


def xyz(point):
    return [point["X"], point["Y"], point["Z"]]


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    with running_service(data_dir=str(tmp_path_factory.mktemp("hops"))) as client:
        yield client


@pytest.fixture(scope="module")
def arch():
    return generate("arch", voussoirs=8)


@pytest.fixture(scope="module")
def arch_answer(service, arch):
    status, answer, _ = service.post("/solve", solve_body("hops/analyze", arch_trees(arch)))
    assert status == 200, answer
    return answer


def test_the_address_a_user_types_describes_the_function(service):
    status, description, headers = service.get("/hops/analyze")
    assert status == 200 and "json" in headers["Content-Type"]
    inputs = {p["Name"]: p for p in description["Inputs"]}
    assert list(inputs)[:2] == ["Blocks", "Supports"]
    assert inputs["Blocks"]["ParamType"] == "Geometry" and inputs["Blocks"]["AtMost"] > 1
    assert inputs["Friction"]["Default"] == 0.6 and inputs["Friction"]["AtMost"] == 1
    assert {p["Name"] for p in description["Outputs"]} >= {"Stable", "ThrustLines", "Resultants", "Forces", "Report"}
    status, listed, _ = service.get("/hops")
    assert status == 200 and {d["Name"] for d in listed} == {"analyze", "load_factor"}


def test_an_arch_from_rhino_meshes_has_the_forces_of_analyze(arch, arch_answer):
    reference = analyze(arch).to_dict()
    weight = sum(abs(r["force"][2]) for r in reference["reactions"]) if reference.get("reactions") else None
    assert output(arch_answer, "Stable") == [reference["stable"]] == [True]
    ours = sorted((tuple(xyz(c)), tuple(xyz(f))) for c, f in zip(output(arch_answer, "Centres"),
                                                                 output(arch_answer, "Forces")))
    theirs = sorted((tuple(i["centre"]), tuple(i["force"])) for i in reference["interfaces"])
    assert len(ours) == len(theirs) == 9
    scale = weight or max(abs(c) for _, f in theirs for c in f)
    for (centre, force), (centre_ref, force_ref) in zip(ours, theirs):
        assert centre == pytest.approx(centre_ref, abs=1e-6)
        assert force == pytest.approx(force_ref, abs=FORCE_AGREEMENT * scale)
    lines = output(arch_answer, "ThrustLines")
    assert len(lines) == 1 and rhino3dm.CommonObject.Decode(lines[0]).PointCount == len(reference["thrust_lines"][0]
                                                                                          ["points"])
    assert "stands" in output(arch_answer, "Report")[0] and "converged" in output(arch_answer, "Report")[0]


def test_the_drawn_resultants_are_the_forces_times_the_scale(service, arch):
    trees = arch_trees(arch) + [tree("ForceScale", [item("System.Double", 0.5)])]   # 0.5 m per kN
    status, answer, _ = service.post("/solve", solve_body("hops/analyze", trees))
    assert status == 200
    for line, centre, force in zip(output(answer, "Resultants"), output(answer, "Centres"), output(answer, "Forces")):
        assert xyz(line["From"]) == pytest.approx(xyz(centre))
        drawn = [b - a for a, b in zip(xyz(line["From"]), xyz(line["To"]))]
        assert drawn == pytest.approx([0.5e-3 * f for f in xyz(force)], rel=1e-9, abs=1e-12)


def test_the_same_arch_in_millimetres_gives_the_same_forces_and_geometry_in_millimetres(service, arch, arch_answer):
    status, answer, _ = service.post("/solve", solve_body("hops/analyze", arch_trees(arch, 1000.0), "Millimeters"))
    assert status == 200, answer
    assert output(answer, "Stable") == output(arch_answer, "Stable")
    forces_m = [xyz(f) for f in output(arch_answer, "Forces")]
    scale = max(abs(c) for f in forces_m for c in f)
    for f_mm, f_m in zip(output(answer, "Forces"), forces_m):
        assert xyz(f_mm) == pytest.approx(f_m, abs=FORCE_AGREEMENT * scale)
    for c_mm, c_m in zip(output(answer, "Centres"), output(arch_answer, "Centres")):
        assert xyz(c_mm) == pytest.approx([1000.0 * c for c in xyz(c_m)], abs=1e-3)


def test_a_post_to_the_function_address_and_a_brep_ground_work_too(service):
    """A block on a ground slab: a Brep box block, an Extrusion block and Ground; its one joint carries its weight."""
    block = rhino3dm.Brep.CreateFromBox(rhino3dm.Box(rhino3dm.BoundingBox(0.0, 0.0, 0.0, 1.0, 0.5, 0.5)))
    top = rhino3dm.Extrusion.CreateBoxExtrusion(rhino3dm.Box(rhino3dm.BoundingBox(0.0, 0.0, 0.5, 1.0, 0.5, 1.0)),
                                                True)
    trees = [tree("Blocks", [geometry_item(block), geometry_item(top)]),
             tree("Ground", [item("System.Boolean", True)]), tree("Density", [item("System.Double", 2000.0)])]
    status, answer, _ = service.post("/hops/analyze", solve_body("hops/analyze", trees))
    assert status == 200, answer
    assert output(answer, "Stable") == [True]
    vertical = sorted(-xyz(f)[2] if xyz(f)[2] < 0 else xyz(f)[2] for f in output(answer, "Forces"))
    weight = 2000.0 * 0.25 * 9.81     # each block 1 x 0.5 x 0.5 m
    assert vertical == pytest.approx([weight, 2.0 * weight], rel=1e-6)


def test_load_factor_of_the_arch_under_a_horizontal_acceleration(service, arch):
    trees = arch_trees(arch) + [tree("Acceleration", [item("Rhino.Geometry.Vector3d", {"X": 9.81, "Y": 0.0,
                                                                                        "Z": 0.0})])]
    status, answer, _ = service.post("/solve", solve_body("hops/load_factor", trees))
    assert status == 200, answer
    document = dict(arch, loads=[{"kind": "body_acceleration", "blocks": "all", "acceleration": [9.81, 0.0, 0.0],
                                  "live": True}])
    reference = analyze(document, "load_factor").to_dict()["load_factor_report"]
    assert output(answer, "Status") == [reference["status"]] == ["collapse"]
    assert output(answer, "LoadFactor")[0] == pytest.approx(reference["nscd"], rel=reference["tolerance"])
    assert len(output(answer, "Hinges")) == len(reference["mechanism"]["hinges"]) >= 3


@pytest.mark.parametrize("case, status, words", [
    ("open mesh", 422, "Blocks[0]"),
    ("unknown function", 404, "no Hops function 'crack'"),
    ("no pointer", 400, "pointer"),
    ("not JSON", 400, "malformed JSON"),
    ("NaN friction", 422, "input Friction, item 0"),
    ("unknown units", 422, "modelunits 'Furlongs'"),
    ("units not a name", 422, "modelunits ['Meters']"),
    ("no support", 422, "no block is a support"),
    ("load on no block", 422, "LoadPoints[0]"),
    ("unknown input", 422, "no input 'Mortar'"),
    ("a curve as a block", 422, "a closed Brep, Extrusion or Mesh"),
])
def test_bad_requests_get_an_error_hops_shows_and_no_traceback(service, arch, case, status, words):
    trees = arch_trees(arch)
    pointer, raw = "hops/analyze", None
    if case == "open mesh":
        vertices, faces = box((0.0, 1.0), (0.0, 1.0), (0.0, 1.0))
        trees[0] = tree("Blocks", [geometry_item(rhino_mesh(vertices, faces[1:]))])
    elif case == "unknown function":
        pointer = "hops/crack"
    elif case == "no pointer":
        pointer = None
    elif case == "not JSON":
        raw = b'{"pointer": "hops/analyze", "values": ['
    elif case == "NaN friction":
        trees[2] = tree("Friction", [{"type": "System.Double", "data": "NaN"}])
    elif case == "no support":
        trees = trees[:1]
    elif case == "load on no block":
        trees += [tree("LoadPoints", [item("Rhino.Geometry.Point3d", {"X": 50.0, "Y": 0.0, "Z": 0.0})]),
                  tree("LoadForces", [item("Rhino.Geometry.Vector3d", {"X": 0.0, "Y": 0.0, "Z": -1e3})])]
    elif case == "unknown input":
        trees += [tree("Mortar", [item("System.Double", 1.0)])]
    elif case == "a curve as a block":
        curve = rhino3dm.LineCurve(rhino3dm.Point3d(0.0, 0.0, 0.0), rhino3dm.Point3d(1.0, 0.0, 0.0))
        trees[0] = tree("Blocks", [item("Rhino.Geometry.LineCurve", curve.Encode())])
    units = {"unknown units": "Furlongs", "units not a name": ["Meters"]}.get(case, "Meters")
    body = solve_body(pointer, trees, units)
    got, answer, _ = service.call("POST", "/solve", body=None if raw else body, raw=raw)
    assert got == status, answer
    assert answer["values"] == [] and len(answer["errors"]) == 1
    assert words in answer["errors"][0] and "Traceback" not in answer["errors"][0]


def test_the_rhino_compute_key_header_carries_the_token(tmp_path):
    with running_service(data_dir=str(tmp_path), token="s3cret") as client:
        status, _, _ = client.get("/hops/analyze")
        assert status == 401
        status, description, _ = client.get("/hops/analyze", headers={"RhinoComputeKey": "s3cret"})
        assert status == 200 and description["Name"] == "analyze"
