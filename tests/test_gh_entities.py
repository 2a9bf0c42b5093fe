"""Entities in Grasshopper (seed 002 sec. 2.1): Blocks takes each block's entity as JSON text, and Block
Entities gives it back from a result as parallel lists, with the blocks coloured by one level.

The components run with rhino3dm inputs in the stand-in of tests/gh_harness.py against a real service.
"""
import json

import pytest

from extrados_gh import entities
from tests.gh_harness import Component
from tests.server_harness import running_service
from tests.test_gh_components import column_geometry

#: The three stacked blocks c0, c1, c2 of `column_geometry`, bottom to top.
COURSES = ["1", "2", "3"]
ENTITIES = [{"wall": "north", "course": course, "type": "header" if course == "2" else "stretcher",
             "attributes": {"phase": 1, "weathered": course == "3"}} for course in COURSES]


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    with running_service(data_dir=str(tmp_path_factory.mktemp("data"))) as running:
        yield Component("Extrados_Service")(url=running.base)["service"]


def column(entity):
    """The column's blocks with these Entity inputs, on a ground slab (which has no entity)."""
    blocks = Component("Extrados_Blocks")(geometry=column_geometry(), ids=["c"], entity=entity)["blocks"]
    return Component("Extrados_Supports")(blocks=blocks, ground=True)["blocks"]


def analysed(service, entity, **inputs):
    analyze = Component("Extrados_Analyze")
    result = analyze(blocks=column(entity), service=service, **inputs)["result"]
    assert not analyze.errors, analyze.errors
    return result


def test_blocks_take_one_entity_per_block_or_one_for_all():
    per_block = column([json.dumps(e) for e in ENTITIES])
    assert [b.data.get("entity") for b in per_block] == ENTITIES + [None]
    for_all = column(['{"wall": "north"}'])
    assert [b.data.get("entity") for b in for_all] == [{"wall": "north"}] * 3 + [None]
    gaps = column(['{"course": "1"}', None, ""])
    assert [b.data.get("entity") for b in gaps] == [{"course": "1"}, None, None, None]


@pytest.mark.parametrize("entity, error", [
    (["{}", "{}"], "Entity: 2 entities for 3 pieces of geometry (give one per piece, or one for all)"),
    (["{}", "course 2", "{}"], "Entity[1] is not JSON"),
    (["{}", "{}", '["north"]'], 'Entity[2] must be a JSON object such as {"course": "3"}; got ["north"]'),
])
def test_blocks_name_the_entity_item_that_is_not_an_object(entity, error):
    blocks = Component("Extrados_Blocks")
    assert blocks(geometry=column_geometry(), ids=["c"], entity=entity)["blocks"] is None
    assert len(blocks.errors) == 1 and blocks.errors[0].startswith(error), blocks.errors


def test_the_service_names_the_block_of_an_entity_the_schema_refuses(service):
    analyze = Component("Extrados_Analyze")
    analyze(blocks=column(['{"course": "1"}', '{"corse": "2"}', "{}"]), service=service)
    assert len(analyze.errors) == 1 and "blocks[1].entity.corse" in analyze.errors[0], analyze.errors


def test_block_entities_give_the_entities_back_coloured_by_course(service):
    result = analysed(service, [json.dumps(e) for e in ENTITIES])
    component = Component("Extrados_BlockEntities")
    out = component(result=result)
    assert not component.errors and not component.warnings
    assert out["ids"] == ["c0", "c1", "c2", "ground"]
    assert out["wall"] == ["north"] * 3 + ["none"]
    assert out["course"] == COURSES + ["none"] == out["values"]
    assert out["type"] == ["stretcher", "header", "stretcher", "none"]
    assert out["building"] == out["leaf"] == out["stone"] == ["none"] * 4
    assert [json.loads(a) if a else None for a in out["attributes"]] == [e["attributes"] for e in ENTITIES] + [None]
    assert out["levels"] == ["wall", "course", "type", "attributes.phase", "attributes.weathered"]
    assert out["legend"] == COURSES + ["none"]
    assert out["legend_colours"] == [entities.value_colour(k) for k in range(3)] + [entities.NONE_COLOUR]
    assert out["colours"] == out["legend_colours"] and len(set(out["colours"])) == 4
    assert len(out["meshes"]) == 4 and all(mesh.IsClosed for mesh in out["meshes"])
    assert component.message == "course: 4 values"

    by_weathering = component(result=result, level="attributes.weathered")
    assert by_weathering["values"] == ["false", "false", "true", "none"]
    assert by_weathering["legend"] == ["false", "true", "none"]
    component(result=result, level="corse")
    assert component.errors == ["Level 'corse' is not a level of these blocks; they have wall, course, type, "
                                "attributes.phase, attributes.weathered"]


def test_block_entities_warn_when_no_block_has_one(service):
    component = Component("Extrados_BlockEntities")
    out = component(result=analysed(service, None))
    assert out["values"] == ["none"] * 4 and out["legend"] == ["none"] and out["levels"] == []
    assert component.warnings == ["no block has an entity: give Blocks an Entity input, or a model whose blocks "
                                  "have one"]


def test_values_sort_naturally_and_every_value_gets_its_own_colour():
    assert entities.level_values(["10", "none", "2", "c10", "c9", "1"]) == ["1", "2", "10", "c9", "c10", "none"]
    colours = [entities.value_colour(k) for k in range(200)]
    assert len(set(colours)) == len(colours) and entities.NONE_COLOUR not in colours
    # the first hue is red: HSL (0, 0.7, 0.55) is rgb(221, 60, 60)
    assert colours[0] == (221, 60, 60)
