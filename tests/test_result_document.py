"""The result document (format extrados.result/1) of every analysis type: `Result.from_dict` reads it
back to the same document, it satisfies its published schema (engine/io/result_schema.json, also in
the service's OpenAPI document), and models and results round-trip through COMPAS JSON."""
import json

import compas
import jsonschema
import pytest
import referencing
import referencing.jsonschema

from extrados import Model, ModelError, Result, analyze, generators
from extrados.engine.analysis.cache import AnalysisCache
from extrados.engine.io import strict_json
from extrados.engine.io.schema import result_schema
from extrados.engine.post.thrust import effective_thrust_line_of_result
from extrados.server.openapi import openapi_document
from tests.test_mortar import MORTAR, cantilever

VALIDATOR = jsonschema.Draft202012Validator(result_schema())
RING = [f"v{k}" for k in range(8)]


def arch(**parameters):
    return generators.generate("arch", voussoirs=8, friction=0.8, **parameters)


def shaken_wall():
    """A wall of three courses in a plane (its result has a strain report) on a shaking ground."""
    doc = generators.generate("wall", courses=3, blocks_per_course=3)
    doc["support_motion"] = {"kind": "sine", "direction": [1, 0, 0], "frequency": 4.0, "amplitude": 0.3 * 9.81}
    return doc


def deformable_wall():
    """A wall of two courses of deformable blocks (linear tetrahedra): its result has the "deformable" fields."""
    doc = generators.generate("wall", courses=2, blocks_per_course=2)
    doc["materials"]["stone"]["deformable"] = {"E": 1e9, "nu": 0.2, "element": "tet4"}
    return doc


#: One analysis of each type, and what their documents must show between them: conventional thrust
#: lines (drawn and not), bonds of mortar joints, null readings of open joints, strain and networks.
CASES = {
    "static, named chain, conventional lines": (arch(), {"type": "static", "thrust_line": {
        "chain": RING, "conventional": True}}),
    "static, failing, lines that do not exist": (arch(load_fraction=0.1, load_angle_deg=30.0), {
        "type": "static", "thrust_line": {"conventional": True}}),
    "load_factor, conventional lines": (arch(load_fraction=0.1, load_angle_deg=30.0), {
        "type": "load_factor", "thrust_line": {"conventional": True}}),
    "dynamic, strain and network history": (shaken_wall(), {"type": "dynamic", "duration": 0.05, "time_step": 1e-3,
                                                            "output_interval": 0.01}),
    "dynamic, frames only": (shaken_wall(), {"type": "dynamic", "duration": 0.02, "time_step": 1e-3,
                                             "output_interval": 0.01, "histories": "none"}),
    "dynamic, histories only, frames to the sidecar": (shaken_wall(), {
        "type": "dynamic", "duration": 0.02, "time_step": 1e-3, "output_interval": 0.01, "frames": "npz"}),
    "construction by courses": (generators.generate("wall", courses=3, blocks_per_course=2), {
        "type": "construction", "stages": "courses", "max_stage_duration": 0.1}),
    "static, mortar joints": (cantilever(MORTAR), {"type": "static"}),
    "dynamic, mortar joints": (cantilever(MORTAR, tip_load=2000.0), {"type": "dynamic", "duration": 0.01,
                                                                      "time_step": 1e-3}),
    "construction, mortar joints": (cantilever(MORTAR), {"type": "construction", "stages": [["pier"], ["arm"]],
                                                         "max_stage_duration": 0.05}),
    "static, deformable blocks": (deformable_wall(), {"type": "static"}),
    "dynamic, deformable blocks": (deformable_wall(), {"type": "dynamic", "duration": 0.01, "time_step": 1e-3}),
    "construction, deformable blocks": (deformable_wall(), {"type": "construction", "stages": "courses",
                                                            "max_stage_duration": 0.02}),
}


@pytest.fixture(scope="module")
def results():
    return {name: analyze(Model.from_dict(doc), analysis) for name, (doc, analysis) in CASES.items()}


@pytest.fixture(scope="module")
def documents(results):
    """The results' documents as a client reads them: strict JSON (no NaN or infinity)."""
    return {name: json.loads(strict_json.dumps(result.to_dict())) for name, result in results.items()}


def test_the_cases_write_every_kind_of_field(documents):
    docs = list(documents.values())
    assert {doc["analysis"] for doc in docs} == {"static", "load_factor", "dynamic", "construction"}
    lines = [line for doc in docs for line in doc["thrust_lines"]]
    assert {line["name"] for line in lines} == {"effective", "minimum_thrust", "maximum_thrust", "limit"}
    assert any("error" in line for line in lines) and any("thrust" in line for line in lines)
    assert {doc["analysis"] for doc in docs if any("bond" in c for c in doc["contacts"])} == {
        "static", "dynamic", "construction"}
    assert any(joint["eccentricity"] is None for doc in docs for joint in doc["interfaces"])
    assert any(contact["network"] is None for doc in docs for contact in doc["contacts"])
    dynamic = [doc for doc in docs if doc["analysis"] == "dynamic"]
    assert any(doc["strain"] is not None for doc in dynamic) and any(doc["strain"] is None for doc in dynamic)
    assert all(len(doc["network_history"]["t"]) == len(doc["histories"].get("t", doc["frames"])) - 1
               for doc in dynamic)
    assert {(doc["output"]["frames"], doc["output"]["histories"]) for doc in dynamic} >= {
        ("json", "json"), ("json", "none"), ("npz", "json")}
    assert any(doc["frames"] == [] and doc["histories"] for doc in dynamic)
    assert any(doc["frames"] and doc["histories"] == {} for doc in dynamic)


@pytest.mark.parametrize("name", CASES)
def test_a_result_document_reads_back_to_itself(documents, name):
    doc = documents[name]
    assert Result.from_dict(doc).to_dict() == doc


@pytest.mark.parametrize("name", CASES)
def test_a_result_document_satisfies_its_schema(documents, name):
    assert [error.message for error in VALIDATOR.iter_errors(documents[name])] == []


def test_the_read_result_gives_the_thrust_line_of_the_analysed_one(results, documents):
    name = "static, named chain, conventional lines"
    analysed, read = results[name], Result.from_dict(documents[name])
    assert effective_thrust_line_of_result(read).centre.tolist() == \
        effective_thrust_line_of_result(analysed).centre.tolist()
    assert read.interfaces.polygon_start.tolist() == analysed.interfaces.polygon_start.tolist()


def test_the_schema_refuses_what_no_analysis_writes(documents):
    static = documents["static, named chain, conventional lines"]
    dynamic = documents["dynamic, strain and network history"]
    wrong = [
        {key: value for key, value in static.items() if key != "interfaces"},           # a field missing
        dict(static, stable="yes"),                                                     # a wrong type
        dict(static, surprise=1),                                                       # an unknown field
        dict(static, energy=dynamic["energy"]),                                         # a field of another type
        {key: value for key, value in dynamic.items() if key != "network_history"},     # a dynamic report missing
        dict(static, blocks=[dict(static["blocks"][0], position=[0.0, None, 0.0])]),    # null where never written
        dict(static, contacts=[dict(static["contacts"][0], bond="intact")]),            # a bond without its damage
    ]
    assert [VALIDATOR.is_valid(doc) for doc in wrong] == [False] * len(wrong)


def test_the_openapi_document_publishes_the_result_schema(documents):
    spec = openapi_document()
    registry = referencing.Registry().with_resource("urn:spec", referencing.Resource.from_contents(
        spec, default_specification=referencing.jsonschema.DRAFT202012))
    validator = jsonschema.Draft202012Validator({"$ref": "urn:spec#/components/schemas/Result"}, registry=registry)
    for doc in documents.values():
        assert validator.is_valid(doc)
    assert not validator.is_valid(dict(documents["construction by courses"], construction=None))
    for path in ("/v1/analyses", "/v1/jobs/{id}/result"):
        response = spec["paths"][path]["post" if path == "/v1/analyses" else "get"]["responses"]["200"]
        assert response["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Result"}


def test_a_result_shares_no_array_with_its_model_or_the_cache():
    """The arrays of a Result are its own: writing into them leaves the model, and the cache's contacts at
    rest that the next analysis of the geometry starts from, as they were."""
    model = Model.from_dict(arch())
    position0, support = model.mechanics.position0.copy(), model.mechanics.is_support.copy()
    result = analyze(model)
    result.blocks.position[...], result.blocks.support[...] = 0.0, True
    assert (model.mechanics.position0 == position0).all() and (model.mechanics.is_support == support).all()
    cache = AnalysisCache()
    first = cache.analyze(arch())
    written = first.to_dict()
    for array in (first.contacts.point, first.contacts.gap, first.contacts.body_a, first.contacts.body_b,
                  first.interfaces.polygon_start):
        array[...] = 0
    assert cache.analyze(arch()).to_dict()["interfaces"] == written["interfaces"]


def test_a_document_of_another_format_is_refused():
    with pytest.raises(ModelError) as error:
        Result.from_dict(arch())
    assert error.value.path == "format"


# --- COMPAS ---------------------------------------------------------------------------------------------

def test_a_model_round_trips_through_compas_json(tmp_path):
    model = Model.from_dict(cantilever(MORTAR))
    text = compas.json_dumps(model)
    assert json.loads(text)["dtype"] == "extrados.engine.model/Model"
    path = str(tmp_path / "model.json")
    compas.json_dump(model, path)
    for loaded in (compas.json_loads(text), compas.json_load(path)):
        assert isinstance(loaded, Model) and loaded.to_dict() == model.to_dict()


@pytest.mark.parametrize("name", CASES)
def test_a_result_round_trips_through_compas_json(results, documents, name, tmp_path):
    path = str(tmp_path / "result.json")
    compas.json_dump(results[name], path)
    loaded = compas.json_load(path)
    assert isinstance(loaded, Result) and loaded.to_dict() == documents[name]
    assert compas.json_loads(compas.json_dumps(loaded)).to_dict() == documents[name]
