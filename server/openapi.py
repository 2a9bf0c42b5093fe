"""The OpenAPI 3.1 document of the service, built from the engine's own JSON schemas.

The model document schema (engine/io/model_schema.json) and the analysis request schema
(engine/io/analysis_schema.json) are the ones that validate requests, as the batch spec schema
(extrados/batch/batch_schema.json) validates batches, the result document schema
(engine/io/result_schema.json) the one the engine's results satisfy; here their ``$defs`` are
lifted into ``components/schemas`` (``Model_…``, ``Analysis_…``, ``Batch_…``, ``Result_…``) with their
references rewritten, so one source describes and checks every request and every result.
"""

import extrados
from extrados.batch.spec import batch_schema
from extrados.engine.io.schema import analysis_schema, model_schema, result_schema
from extrados.engine.generators import GENERATORS


def lifted(schema, prefix):
    """(root schema, {component name: schema}) with ``#/$defs/X`` rewritten to components."""
    defs = schema.pop("$defs", {})
    for key in ("$schema", "$id"):
        schema.pop(key, None)

    def rewrite(node):
        if isinstance(node, dict):
            return {key: (f"#/components/schemas/{prefix}_{value.split('/')[-1]}"
                          if key == "$ref" and isinstance(value, str) and value.startswith("#/$defs/")
                          else rewrite(value)) for key, value in node.items()}
        if isinstance(node, list):
            return [rewrite(item) for item in node]
        return node

    return rewrite(schema), {f"{prefix}_{name}": rewrite(body) for name, body in defs.items()}


def ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


ERROR = {
    "type": "object", "required": ["error"],
    "properties": {"error": {"type": "object", "required": ["message", "code"], "properties": {
        "message": {"type": "string", "description": "what is wrong, in words a user can act on"},
        "path": {"type": ["string", "null"], "description": "the field, e.g. model.blocks[3].faces"},
        "block": {"type": ["string", "null"], "description": "the block id concerned"},
        "code": {"type": "string", "description": "machine-readable kind, e.g. invalid_model, too_many_blocks"}}}}}

JOB = {
    "type": "object", "required": ["id", "state", "progress", "url"],
    "properties": {
        "id": {"type": "string"}, "state": {"enum": ["queued", "running", "done", "failed", "cancelled"]},
        "analysis": {"type": "string"}, "blocks": {"type": "integer"},
        "progress": {"type": "number", "minimum": 0, "maximum": 1},
        "created": {"type": ["string", "null"]}, "started": {"type": ["string", "null"]},
        "finished": {"type": ["string", "null"]}, "seconds": {"type": "number"},
        "url": {"type": "string"}, "result_url": {"type": ["string", "null"]}, "expired": {"type": "boolean"},
        "cancel_requested": {"type": "boolean"}, "error": {"type": "object"}}}

BATCH = {
    "allOf": [ref("Job"), {
        "type": "object", "required": ["cases", "done", "failed", "table_url", "csv_url", "job_url"],
        "properties": {
            "cases": {"type": ["integer", "null"], "description": "distinct cases of the spec (null once expired)"},
            "done": {"type": ["integer", "null"], "description": "cases computed without error so far"},
            "failed": {"type": ["integer", "null"], "description": "cases computed with an error so far"},
            "table_url": {"type": "string"}, "csv_url": {"type": "string"}, "job_url": {"type": "string"}}}]}

BATCH_TABLE = {"allOf": [ref("BatchJob"), {
    "type": "object", "required": ["rows"],
    "properties": {"rows": {"type": "array", "items": {"type": "object"},
                            "description": "one per finished case, in the spec's order: key, inputs, outputs, "
                                          "error, seconds, run, finished_at (extrados.batch.table)"}}}]}

GENERATOR = {
    "type": "object", "required": ["name", "help", "parameters"],
    "properties": {"name": {"type": "string"}, "help": {"type": "string"},
                   "parameters": {"type": "array", "items": {"type": "object"}}}}


#: What the guards answer on every path (`server.guards`).
GUARD_CODES = (403, 421)


def error_responses(*codes):
    words = {400: "malformed request (not JSON, not the expected envelope)", 401: "missing or wrong token",
             403: "sent by a page of another origin (not named by --cors-origin)", 404: "no such resource", 409: "not possible in the job's state", 410: "the result has expired",
             413: "too large (body size or block count)", 415: "not application/json",
             422: "invalid model or request (field path in error.path), or past the compute time limit",
             421: "a Host the service does not answer to (not loopback, the bound address or an --allowed-host)",
             429: "the job queue is full", 503: "the data directory cannot be used, or other large requests are being checked", 507: "the data directory's disk is full"}
    return {str(code): {"description": words[code], "content": {"application/json": {"schema": ref("Error")}}}
            for code in (*codes, *GUARD_CODES)}


def json_content(schema):
    return {"application/json": {"schema": schema}}


def job_id_parameter():
    return {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}


def paths():
    example_names = list(GENERATORS)
    return {
        "/health": {"get": {"summary": "Is the service up", "security": [], "responses": {"200": {
            "description": "up; engine: the warm-up of the engine's compiled kernels (state off, warming, ready or "
                           "failed; while warming, progress, the fraction of the kernels to compile compiled; "
                           "seconds it took)",
            "content": json_content({"type": "object", "required": ["status", "engine"], "properties": {
                "engine": {"type": "object", "required": ["state"], "properties": {
                    "state": {"enum": ["off", "warming", "ready", "failed"]}, "seconds": {"type": "number"},
                    "progress": {"type": "number", "minimum": 0, "maximum": 1},
                    "error": {"type": "string"}}}}})}}}},
        "/v1/analyses": {"post": {
            "summary": "Analyse a model: static and load_factor answer at once, dynamic and construction as jobs",
            "parameters": [{"name": "async", "in": "query", "required": False, "schema": {"enum": ["true", "false"]},
                            "description": "run any analysis as a job"}],
            "requestBody": {"required": True, "content": json_content(ref("AnalysisRequest"))},
            "responses": {"200": {"description": "the result document", "content": json_content(ref("Result"))},
                          "202": {"description": "queued as a job", "headers": {"Location": {"schema": {"type": "string"}}},
                                  "content": json_content({"type": "object", "required": ["id", "url"]})},
                          **error_responses(400, 401, 413, 415, 422, 429, 503, 507)}}},
        "/v1/jobs": {"get": {"summary": "The latest jobs", "parameters": [
            {"name": "state", "in": "query", "required": False, "schema": {"enum": list(JOB["properties"]["state"]["enum"])}}],
            "responses": {"200": {"description": "jobs, newest first", "content": json_content(
                {"type": "object", "required": ["jobs"], "properties": {"jobs": {"type": "array", "items": ref("Job")}}})},
                **error_responses(401, 422, 503)}}},
        "/v1/jobs/{id}": {
            "get": {"summary": "A job's state and progress", "parameters": [job_id_parameter()],
                    "responses": {"200": {"description": "the job", "content": json_content(ref("Job"))},
                                  **error_responses(401, 404, 503)}},
            "delete": {"summary": "Cancel a job", "parameters": [job_id_parameter()],
                       "responses": {"202": {"description": "cancelling", "content": json_content(ref("Job"))},
                                     **error_responses(401, 404, 409, 503)}}},
        "/v1/jobs/{id}/result": {"get": {"summary": "A finished job's result document", "parameters": [job_id_parameter()],
                                         "responses": {"200": {"description": "the result", "content": json_content(ref("Result"))},
                                                       **error_responses(401, 404, 409, 410, 503)}}},
        "/v1/jobs/{id}/result.npz": {"get": {
            "summary": "A finished dynamic job's frames and histories asked as \"npz\" (engine.io.sidecar)",
            "parameters": [job_id_parameter()],
            "responses": {"200": {"description": "the npz sidecar",
                                  "content": {"application/octet-stream": {"schema": {"type": "string",
                                                                                      "format": "binary"}}}},
                          **error_responses(401, 404, 409, 410, 503)}}},
        **batch_paths(),
        **hops_paths(),
        "/v1/survey": {"post": {
            "summary": "A survey of stones' faces as a model document (seed 002; extrados survey)",
            "requestBody": {"required": True, "content": json_content({
                "type": "object", "required": ["points"], "additionalProperties": False, "properties": {
                    "points": {"type": "array", "items": {"type": "object"}},
                    "stones": {"type": "array", "items": {"type": "object"}},
                    "depths": {"type": "object"}, "viewpoint": {"type": "array", "items": {"type": "number"}},
                    "into_wall": {"type": "array", "items": {"type": "number"}},
                    "outline": {"enum": ["hull", "quad"]}, "joint_gaps": {"enum": ["close", "open"]},
                    "gap_tolerance": {"type": "number"}}})},
            "responses": {"200": {"description": "the model document and how each stone became a block",
                                  "content": json_content({"type": "object", "required": ["model", "report"],
                                                           "properties": {"model": ref("Model")}})},
                          **error_responses(400, 401, 413, 415, 422, 503)}}},
        "/v1/exports/vtk": {"post": {
            "summary": "A model and its result as VTK files for ParaView (extrados export --format vtk), zipped",
            "requestBody": {"required": True, "content": json_content({
                "type": "object", "required": ["model", "result"], "additionalProperties": False,
                "properties": {"model": ref("Model"), "result": ref("Result")}})},
            "responses": {"200": {"description": "a zip of the .pvd collection, its .vtu files and the entity names",
                                  "content": {"application/zip": {"schema": {"type": "string", "format": "binary"}}}},
                          **error_responses(400, 401, 413, 415, 422, 503)}}},
        "/v1/examples": {"get": {"summary": "The model generators and their parameters", "responses": {
            "200": {"description": "generators", "content": json_content(
                {"type": "object", "required": ["examples"], "properties": {"examples": {"type": "array", "items": ref("Generator")}}})},
            **error_responses(401)}}},
        "/v1/examples/{name}": {"get": {
            "summary": "A generated model document; generator parameters as query parameters",
            "parameters": [{"name": "name", "in": "path", "required": True, "schema": {"enum": example_names}}],
            "responses": {"200": {"description": "a model document", "content": json_content(ref("Model"))},
                          **error_responses(401, 404, 413, 422)}}},
    }


#: Rhino's Hops component (server/routes/hops.py): a function's description, a solve request and its answer in
#: the Hops schema (McNeel's Resthopper), whose errors Hops shows on the component.
HOPS_FUNCTION = {"type": "object", "required": ["Name", "Description", "Inputs", "Outputs"], "properties": {
    "Name": {"type": "string"}, "Description": {"type": "string"},
    "Inputs": {"type": "array", "items": {"type": "object", "required": ["Name", "ParamType", "AtLeast", "AtMost"]}},
    "Outputs": {"type": "array", "items": {"type": "object", "required": ["Name", "ParamType"]}}}}
HOPS_SOLVE = {"type": "object", "description": "pointer (hops/<name>), values (one data tree per input: ParamName, "
                                               "InnerTree {path: [{type, data}]}), modelunits, absolutetolerance",
              "properties": {"pointer": {"type": "string"}, "values": {"type": "array"},
                             "modelunits": {"type": "string"}, "absolutetolerance": {"type": "number"}}}
HOPS_ANSWER = {"type": "object", "required": ["values", "errors"], "properties": {
    "values": {"type": "array"}, "errors": {"type": "array", "items": {"type": "string"}},
    "warnings": {"type": "array", "items": {"type": "string"}}}}


def hops_responses():
    """A Hops solve's answers: 200 with the outputs, 4xx with its errors (guards' and size refusals in the
    service's error envelope)."""
    either = {"anyOf": [ref("HopsAnswer"), ref("Error")]}
    refusals = {str(code): {"description": "refused; errors says why (a guard's refusal: the error envelope)",
                            "content": json_content(either)} for code in (400, 401, 404, 413, 415, 422, 503)}
    return {"200": {"description": "the outputs, one data tree each", "content": json_content(ref("HopsAnswer"))},
            **refusals, **error_responses()}


def hops_paths():
    """The paths of Rhino's Hops component (`server.routes.hops`)."""
    name = {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
    solve = {"requestBody": {"required": True, "content": json_content(ref("HopsSolve"))},
             "responses": hops_responses()}
    return {
        "/hops": {"get": {"summary": "The Hops functions (Rhino's Hops component: type /hops/<name> into it)",
                          "responses": {"200": {"description": "their descriptions", "content": json_content(
                              {"type": "array", "items": ref("HopsFunction")})}, **error_responses(401)}}},
        "/hops/{name}": {
            "get": {"summary": "A Hops function's description (what Hops reads from the address typed into it)",
                    "parameters": [name],
                    "responses": {"200": {"description": "its inputs and outputs",
                                          "content": json_content(ref("HopsFunction"))},
                                  **error_responses(401, 404)}},
            "post": {"summary": "Run a Hops function", "parameters": [name], **solve}},
        "/solve": {"post": {"summary": "Run the Hops function a solve request's pointer names (where Hops sends it)",
                            **solve}},
    }


def batch_paths():
    """The paths of ``/v1/batches`` (`server.routes.batches`)."""
    batch = json_content(ref("BatchJob"))
    return {
        "/v1/batches": {"post": {
            "summary": "Run a batch of analyses (a spec: a base model, an analysis, what varies) as a job; the spec is "
                       "checked at once and may not name record files (give records inline or stochastic)",
            "requestBody": {"required": True, "content": json_content(ref("Batch"))},
            "responses": {"202": {"description": "queued as a job", "content": batch,
                                  "headers": {"Location": {"schema": {"type": "string"}}}},
                          **error_responses(400, 401, 413, 415, 422, 429, 503, 507)}}},
        "/v1/batches/{id}": {
            "get": {"summary": "A batch's state and cases done and failed", "parameters": [job_id_parameter()],
                    "responses": {"200": {"description": "the batch", "content": batch},
                                  **error_responses(401, 404, 503)}},
            "delete": {"summary": "Cancel a batch (its finished cases stay in the table)",
                       "parameters": [job_id_parameter()],
                       "responses": {"202": {"description": "cancelling", "content": batch},
                                     **error_responses(401, 404, 409, 503)}}},
        "/v1/batches/{id}/table": {"get": {
            "summary": "The rows of the cases finished so far (while the batch runs too), as JSON or CSV",
            "parameters": [job_id_parameter(), {"name": "format", "in": "query", "required": False,
                                                "schema": {"enum": ["json", "csv"]},
                                                "description": "csv, or Accept: text/csv (default json)"}],
            "responses": {"200": {"description": "the table", "content": {
                **json_content(ref("BatchTable")), "text/csv": {"schema": {"type": "string"}}}},
                **error_responses(401, 404, 410, 422, 503)}}},
    }


def openapi_document(token_required=False):
    """The OpenAPI 3.1 document (a dict); with ``token_required`` every path but /health declares
    the bearer token."""
    model_root, model_defs = lifted(model_schema(), "Model")
    analysis_root, analysis_defs = lifted(analysis_schema(), "Analysis")
    result_root, result_defs = lifted(result_schema(), "Result")
    batch_root, batch_defs = lifted(batch_schema(), "Batch")
    schemas = {"Model": model_root, **model_defs, "Analysis": analysis_root, **analysis_defs,
               "AnalysisRequest": {"type": "object", "additionalProperties": False, "required": ["model"],
                                   "properties": {"model": ref("Model"), "analysis": ref("Analysis")}},
               "Result": result_root, **result_defs, "Batch": batch_root, **batch_defs, "Job": JOB,
               "BatchJob": BATCH, "BatchTable": BATCH_TABLE, "Error": ERROR, "Generator": GENERATOR,
               "HopsFunction": HOPS_FUNCTION, "HopsSolve": HOPS_SOLVE, "HopsAnswer": HOPS_ANSWER}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Extrados", "version": extrados.__version__,
                 "description": "Non-Smooth Contact Dynamics analysis of masonry built of rigid blocks. "
                                "Errors are JSON {\"error\": {message, path, block, code}}."},
        "servers": [{"url": "/"}],
        "components": {"schemas": schemas, "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}}},
        "security": [{"token": []}] if token_required else [],
        "paths": paths(),
    }
