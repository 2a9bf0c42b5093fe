"""``POST /v1/exports/vtk``: a model and its result as the VTK files ParaView opens, in a zip.

The body is ``{"model": …, "result": …}``, the documents the viewer holds after a run (a result whose frames went
to an npz sidecar cannot be exported here: `extrados export` reads the sidecar beside the file). The files are
those of `extrados export --format vtk` (engine.exchange.vtk_export): a .pvd collection of one .vtu per frame,
the contacts and the deformable blocks' tetrahedra of the last frame, and the entity names.
"""
import io
import tempfile
import zipfile
from pathlib import Path

from flask import Blueprint, Response

from extrados.engine.errors import ModelError
from extrados.engine.exchange.result_file import result_of_document
from extrados.engine.exchange.vtk_export import write_vtk
from extrados.engine.io.sidecar import wants_sidecar
from extrados.server.errors import ApiError, model_error
from extrados.server.payload import check_model_size, checked_object, json_body
from extrados.server.routes import services
from extrados.server.routes.analyses import answer_within_limit

blueprint = Blueprint("exports", __name__)
EXPORT_FIELDS = ("model", "result")


@blueprint.post("/v1/exports/vtk")
def export_vtk():
    return answer_within_limit(vtk_within, "while the VTK files were written", "export fewer frames")


def vtk_within(deadline):
    model_doc, result_doc = export_envelope(json_body())
    try:
        model, _ = services().cache.model(model_doc)
    except ModelError as error:
        raise model_error(error) from error
    try:
        result = result_of_document(result_doc, "the result")
    except ModelError as error:
        raise model_error(error, prefix="result") from error
    if wants_sidecar(result):
        raise ApiError(422, "this result's frames are in its npz sidecar, which the service does not keep with it: "
                            "export it with `extrados export RESULT.json --model MODEL.json --format vtk`",
                       path="result.output", code="invalid_request")
    with tempfile.TemporaryDirectory(prefix="extrados-vtk-") as folder:
        try:
            write_vtk(model, result, folder)
        except ModelError as error:
            raise model_error(error, prefix="result") from error
        archive = io.BytesIO()
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
            for path in sorted(Path(folder).iterdir()):
                zipped.write(path, path.name)
    return Response(archive.getvalue(), mimetype="application/zip",
                    headers={"Content-Disposition": 'attachment; filename="extrados-vtk.zip"'})


def export_envelope(body):
    """(model document, result document) of ``{"model": …, "result": …}``; 400 for another shape."""
    checked_object(body, EXPORT_FIELDS, '{"model": {...}, "result": {...}}')
    for field in EXPORT_FIELDS:
        if not isinstance(body.get(field), dict):
            raise ApiError(400, f"{field} must be a JSON object (a {field} document)", path=field)
    check_model_size(body["model"], services().config)
    return body["model"], body["result"]
