"""``POST /v1/survey``: a survey of stones' faces becomes a model document (seed 002; `extrados survey` over HTTP).

The body holds the survey's rows inline, as the CLI's JSON files hold them: ``points`` (rows ``stone, x, y, z``
and an optional ``corner`` rank), ``stones`` (the stone table: ``stone``, ``type`` and the other entity fields,
``depth``, ``survey``, ``station_x/y/z``), ``depths`` ({stone type: m}), and the options of
engine.survey.survey_to_model: ``viewpoint`` or ``into_wall``, ``outline``, ``joint_gaps``, ``gap_tolerance``.
The answer is ``{"model", "report"}``; what the survey cannot become is a 422 naming its row or stone.
"""
from flask import Blueprint

from extrados.engine.errors import ModelError
from extrados.engine.io import strict_json
from extrados.engine.survey import survey_to_model
from extrados.engine.survey.text_readers import list_rows, points_from_rows, stone_table_from_rows
from extrados.server.errors import ApiError
from extrados.server.payload import check_model_size, checked_object, json_body
from extrados.server.routes import json_response, services
from extrados.server.routes.analyses import answer_within_limit

blueprint = Blueprint("survey", __name__)
SURVEY_FIELDS = ("points", "stones", "depths", "viewpoint", "into_wall", "outline", "joint_gaps", "gap_tolerance")
OPTION_FIELDS = ("viewpoint", "into_wall", "outline", "joint_gaps", "gap_tolerance")


@blueprint.post("/v1/survey")
def create_survey():
    return answer_within_limit(survey_within, "while the survey became blocks", "send fewer points")


def survey_within(deadline):
    body = survey_envelope(json_body())
    options = {field: body[field] for field in OPTION_FIELDS if body.get(field) is not None}
    try:
        stones = points_from_rows(list_rows(body["points"], "points"), "points")
        table = stone_table_from_rows(list_rows(body.get("stones", []), "stones"), "stones")
        document, report = survey_to_model(stones, table, body.get("depths", {}), **options)
    except ModelError as error:   # SurveyError is one
        raise ApiError(422, error.message, path=error.path, block=error.block, code="invalid_survey") from error
    except (TypeError, ValueError) as error:   # an option of the wrong type: survey_to_model's own arguments
        raise ApiError(422, f"a survey option cannot be used: {error}", code="invalid_survey") from error
    check_model_size(document, services().config)
    try:
        return json_response({"model": document, "report": report.to_dict()})
    except (strict_json.NonFiniteNumber, strict_json.UnwritableValue) as error:
        raise ApiError(422, f"the survey's model cannot be written as JSON: {error}", code="invalid_survey") from error


def survey_envelope(body):
    """The body, checked for its shape: an object with a ``points`` list, known fields of the right kinds; 400 else."""
    checked_object(body, SURVEY_FIELDS, '{"points": [...], "stones": [...], "depths": {...}}')
    if not isinstance(body.get("points"), list):
        raise ApiError(400, "points must be a list of rows {stone, x, y, z}", path="points")
    for field, kind, words in (("stones", list, "a list of rows {stone, type, ...}"),
                               ("depths", dict, "an object {stone type: depth in m}")):
        if field in body and not isinstance(body[field], kind):
            raise ApiError(400, f"{field} must be {words}", path=field)
    for field in ("viewpoint", "into_wall"):
        value = body.get(field)
        if value is not None and not (isinstance(value, list) and len(value) == 3
                                      and all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in value)):
            raise ApiError(400, f"{field} must be three numbers [x, y, z]", path=field)
    return body
