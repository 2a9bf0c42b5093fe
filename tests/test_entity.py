"""A block's architectural entity (seed 002 sec. 2.1): the model keeps it, every result gives it back
per block, and a bad one is refused at its field path by the model, the command line and the service."""
import json
import subprocess
import sys

import jsonschema
import pytest

from blocks import box_block, document, ground
from extrados import Model, ModelError, Result, analyze
from extrados.engine.io.schema import result_schema
from server_harness import running_service

LOWER = {"building": "Tour Saint-Laurent", "wall": "west", "leaf": "outer", "course": "12", "stone": "W12-3",
         "type": "stretcher", "attributes": {"mason_mark": "cross", "phase": 2, "weathered": True}}
UPPER = {"type": "header"}
LATERAL = {"kind": "body_acceleration", "blocks": "all", "acceleration": [1.0, 0.0, 0.0], "live": True}
ANALYSES = {"static": {"type": "static"}, "load_factor": {"type": "load_factor"},
            "dynamic": {"type": "dynamic", "duration": 0.01, "time_step": 1e-3},
            "construction": {"type": "construction", "stages": "courses", "max_stage_duration": 0.02}}


def column(lower=LOWER, upper=UPPER):
    """Two stacked 0.4 m stones on a ground support; the ground has no entity."""
    blocks = [ground(), box_block("lower", (-0.2, -0.2, 0.0), (0.2, 0.2, 0.4)),
              box_block("upper", (-0.2, -0.2, 0.4), (0.2, 0.2, 0.8))]
    for block, entity in zip(blocks[1:], (lower, upper)):
        block["entity"] = entity
    return document(blocks, loads=[LATERAL])


@pytest.mark.parametrize("kind", ANALYSES)
def test_every_result_gives_each_block_its_entity(kind):
    result = analyze(Model.from_dict(column()), ANALYSES[kind]).to_dict()
    assert result["analysis"] == kind
    assert [block["entity"] for block in result["blocks"]] == [None, LOWER, UPPER]
    assert list(jsonschema.Draft202012Validator(result_schema()).iter_errors(result)) == []
    assert Result.from_dict(result).to_dict() == result


def test_the_model_keeps_the_entity_and_shares_it_with_no_result():
    model = Model.from_dict(column())
    assert [block.get("entity") for block in model.to_dict()["blocks"]] == [None, LOWER, UPPER]
    result = analyze(model, ANALYSES["static"]).to_dict()
    result["blocks"][1]["entity"]["attributes"]["phase"] = 3
    assert model.to_dict()["blocks"][1]["entity"] == LOWER
    built = Model()
    built.add_block(vertices=column()["blocks"][1]["vertices"], faces=column()["blocks"][1]["faces"], entity=UPPER)
    assert built.to_dict()["blocks"][0]["entity"] == UPPER


BAD = [
    (dict(LOWER, foo="bar"), "blocks[1].entity.foo", "unknown field 'foo'"),
    ({"attributes": {"marks": ["cross", "star"]}}, "blocks[1].entity.attributes.marks", "is not of type"),
    ({"attributes": {"plan": {"x": 1}}}, "blocks[1].entity.attributes.plan", "is not of type"),
    ({"course": 12}, "blocks[1].entity.course", "is not of type 'string'"),
    ({"attributes": {"phase": 1e16}}, "blocks[1].entity.attributes.phase", "greater than the maximum"),
]


@pytest.mark.parametrize("entity, path, message", BAD)
def test_a_bad_entity_is_refused_at_its_field_path(entity, path, message):
    with pytest.raises(ModelError) as error:
        Model.from_dict(column(lower=entity))
    assert error.value.path == path and message in str(error.value)
    with pytest.raises(ModelError) as error:
        Model().add_block(vertices=column()["blocks"][1]["vertices"], faces=column()["blocks"][1]["faces"],
                          entity=entity)
    assert error.value.path == path.replace("blocks[1]", "blocks[0]")


def test_the_command_line_refuses_a_bad_entity_with_exit_2(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(column(lower=BAD[0][0])))
    done = subprocess.run([sys.executable, "-m", "extrados", "analyze", str(path)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 2 and "blocks[1].entity.foo" in done.stderr and "Traceback" not in done.stderr


def test_the_service_echoes_entities_and_refuses_a_bad_one(tmp_path):
    with running_service(data_dir=str(tmp_path)) as client:
        status, body, _ = client.post("/v1/analyses", {"model": column(), "analysis": {"type": "static"}})
        assert status == 200 and [block["entity"] for block in body["blocks"]] == [None, LOWER, UPPER]
        status, body, _ = client.post("/v1/analyses", {"model": column(lower=BAD[1][0]),
                                                       "analysis": {"type": "static"}})
        assert 400 <= status < 500 and body["error"]["path"] == "model.blocks[1].entity.attributes.marks"
