"""A result document read from a file, checked against its schema, as a `Result`."""
import json
from functools import cache

import jsonschema

from extrados.engine.errors import ModelError
from extrados.engine.io.schema import first_error, result_schema, schema_error
from extrados.engine.result import FORMAT, Result


@cache
def result_validator():
    """The validator of result documents (engine/io/result_schema.json)."""
    return jsonschema.Draft202012Validator(result_schema())


def read_result_file(path):
    """The Result of the result document (JSON) at ``path``.

    Raises
    ------
    ModelError
        When the file cannot be read, is not JSON, is not a result document (format extrados.result/1)
        or breaks the result schema (at the field, e.g. ``blocks[3].stress``); each message names the file.
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
    return Result.from_dict(doc)
