"""``GET /v1/examples`` lists the model generators; ``GET /v1/examples/{name}?param=value`` builds one."""
from flask import Blueprint, request

from extrados.engine.generators import GENERATORS, TooManyBlocks, block_budget
from extrados.server.errors import ApiError
from extrados.server.routes import json_response, services

blueprint = Blueprint("examples", __name__)


@blueprint.get("/v1/examples")
def list_examples():
    return {"examples": [generator.to_dict() for generator in GENERATORS.values()]}


@blueprint.get("/v1/examples/<name>")
def build_example(name):
    generator = GENERATORS.get(name)
    if generator is None:
        raise ApiError(404, f"no example named {name!r} (available: {', '.join(GENERATORS)})", path="name")
    params = {}
    for key, value in request.args.items(multi=False):
        if key == "token":
            continue
        try:
            params.update(generator.convert({key: value}))
        except ValueError as exc:
            raise ApiError(422, str(exc), path=f"query.{key}", code="invalid_parameter") from exc
    max_blocks = services().config.max_blocks
    try:
        with block_budget(max_blocks):
            doc = generator.function(**params)
        return json_response(doc)
    except TooManyBlocks as exc:
        raise ApiError(413, f"{exc}, more than this service's limit (raise --max-blocks)",
                       code="too_many_blocks") from exc
    except (ValueError, ArithmeticError) as exc:
        # json_response's ValueError too: parameters so large that coordinates overflow
        raise ApiError(422, f"these parameters give no valid model: {exc}", code="invalid_parameter") from exc
