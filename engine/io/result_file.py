"""A result document read from a file, checked against its schema, as a `Result` (with the frames and histories
of its npz sidecar, engine.io.sidecar, where its request sent them there)."""
import json
from functools import cache

import jsonschema

from extrados.engine.errors import ModelError
from extrados.engine.io.schema import first_error, result_schema, schema_error
from extrados.engine.io.sidecar import read_sidecar, sidecar_path, wants_sidecar
from extrados.engine.result import FORMAT, Result


@cache
def result_validator():
    """The validator of result documents (engine/io/result_schema.json)."""
    return jsonschema.Draft202012Validator(result_schema())


def read_result_file(path):
    """The Result of the result document (JSON) at ``path``, and of its sidecar beside it (`sidecar_path`)
    where its "output" says "npz".

    Raises
    ------
    ModelError
        When the file cannot be read, is not JSON, is not a result document (format extrados.result/1)
        or breaks the result schema (at the field, e.g. ``blocks[3].stress``), each message naming the file;
        and at ``output`` when its sidecar is missing or another result's.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            doc = json.load(handle)
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelError(f"cannot read result file: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ModelError(f"{path} is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except (RecursionError, ValueError) as exc:
        raise ModelError(f"{path} is not JSON a result can be read from: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ModelError(f"{path} is not a result document (format {FORMAT!r})", path="format")
    error = first_error(result_validator(), doc)
    if error is not None:
        raise ModelError(f"{path} is not a valid result document: {schema_error(error)}")
    result = Result.from_dict(doc)
    return read_sidecar(result, sidecar_path(path)) if wants_sidecar(result) else result
