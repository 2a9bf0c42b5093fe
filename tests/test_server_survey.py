"""``POST /v1/survey`` over HTTP (real waitress service): a noise-free synthetic survey of a two-leaf wall's outer
facing gives its blocks back (seed 002), and what the survey cannot become is refused at its row."""
import numpy as np
import pytest

from extrados.engine.generators import generate
from extrados.engine.survey.synthetic import synthetic_survey
from tests.server_harness import running_service

VIEWPOINT = [1.0, -10.0, 0.5]


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    with running_service(data_dir=str(tmp_path_factory.mktemp("survey"))) as client:
        yield client


def outer_leaf():
    document = generate("two_leaf_wall", courses=2)
    return [block for block in document["blocks"] if block.get("entity", {}).get("leaf") == "outer"]


def survey_body(blocks, points_per_stone=120):
    """The rows of a noise-free synthetic survey of ``blocks`` seen from VIEWPOINT, as the route takes them."""
    stones, table = synthetic_survey(blocks, VIEWPOINT, points_per_stone, 0.0, np.random.default_rng(5))
    points = [{"stone": stone.stone, "x": x, "y": y, "z": z} for stone in stones for x, y, z in stone.points.tolist()]
    rows = []
    for stone, info in table.items():
        row = {"stone": stone, "depth": info.depth}
        row.update({key: value for key, value in info.entity.items() if key != "attributes"})
        rows.append(row)
    return {"points": points, "stones": rows, "depths": {}, "viewpoint": VIEWPOINT}


def corners(block):
    return sorted(map(tuple, np.round(block["vertices"], 9)))


def test_a_noise_free_survey_gives_the_blocks_back(service):
    blocks = outer_leaf()
    status, answer, _ = service.post("/v1/survey", survey_body(blocks))
    assert status == 200, answer
    rebuilt = answer["model"]["blocks"]
    assert [b["id"] for b in rebuilt] == [b["id"] for b in blocks]
    for block, original in zip(rebuilt, blocks):
        assert corners(block) == corners(original) and block["entity"] == original["entity"]
    assert len(answer["report"]["stones"]) == len(blocks) and answer["report"]["overlaps"] == []


@pytest.mark.parametrize("case, status, where", [
    ("no points", 400, "points"), ("a point without z", 422, "points, item 3"),
    ("no depth", 422, "stone"), ("unknown field", 400, "colour")])
def test_a_survey_that_cannot_become_blocks_is_refused_at_its_row(service, case, status, where):
    body = survey_body(outer_leaf()[:2], points_per_stone=20)
    if case == "no points":
        del body["points"]
    elif case == "a point without z":
        del body["points"][3]["z"]
    elif case == "no depth":
        del body["stones"][1]["depth"]
    else:
        body["colour"] = "red"
    got, answer, _ = service.post("/v1/survey", body)
    assert got == status, answer
    assert where in (answer["error"]["path"] or "") + answer["error"]["message"]
