"""The batch spec: read, checked against batch_schema.json (the owner of its fields and defaults), defaults filled.

A schema error becomes a ModelError at the field (``vary[1].grid.count``); this module adds only
the checks that span several fields.
"""
import json
from functools import cache
from importlib import resources
from pathlib import Path

import jsonschema

from extrados.engine.analysis.request import request_document, request_fields
from extrados.engine.errors import ModelError
from extrados.engine.io.schema import check_finite, first_error, schema_error, with_defaults

#: Outputs that read named blocks (outputs.blocks).
BLOCK_OUTPUTS = ("max_rotation", "theta_max_over_alpha", "max_displacement")


@cache
def _schema_text():
    return resources.files("extrados.batch").joinpath("batch_schema.json").read_text()


def batch_schema():
    """The batch spec's schema (a fresh dict)."""
    return json.loads(_schema_text())


def load_spec(spec):
    """The checked batch spec with its defaults, and the folder its relative record paths start from.

    Parameters
    ----------
    spec : dict, str or Path
        The spec, or the path of its JSON file.

    Returns
    -------
    spec : dict
        The spec with the schema's defaults filled in.
    folder : Path
        The spec file's folder, or the working folder for a dict.

    Raises
    ------
    ModelError
        A file that cannot be read, or a field that is wrong, at its path; the analysis request is
        checked against its schema here (``analysis.duration``), not once per case.
    """
    folder = Path.cwd()
    if not isinstance(spec, dict):
        path = Path(spec)
        try:
            spec = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ModelError(f"cannot read the batch spec {path}: {exc}") from exc
        folder = path.resolve().parent
    check_finite(spec)
    schema = batch_schema()
    error = first_error(jsonschema.Draft202012Validator(schema), spec)
    if error is not None:
        raise schema_error(error)
    filled = with_defaults(spec, schema, schema)
    request_fields(filled["analysis"], request_document(filled["analysis"])["type"])
    _check_cross_fields(filled)
    return filled, folder


def _check_cross_fields(spec):
    """Refuse what the schema cannot see: a list of values of several kinds, parameters without a
    generator, block outputs without blocks, free rocking or ground motions outside a dynamic analysis, a zero
    rocking axis, ground motions without records."""
    for index, dimension in enumerate(spec["vary"]):
        _check_one_kind(dimension.get("list", ()), f"vary[{index}].list")
        if "rows" in dimension:
            _check_rows(dimension["parameters"], dimension["rows"], f"vary[{index}].rows")
        field = next((name for name in ("parameter", "parameters") if name in dimension), None)
        if field is not None and "generator" not in spec:
            raise ModelError("varies a generator parameter, but the spec has a model document, not a generator",
                             path=f"vary[{index}].{field}")
    outputs = spec["outputs"]
    for name in BLOCK_OUTPUTS:
        if name in outputs["names"] and not outputs["blocks"]:
            raise ModelError(f"{name} needs the ids of the blocks it reads", path="outputs.blocks")
    if "free_rocking" in outputs:
        if spec["analysis"].get("type") != "dynamic":
            raise ModelError("free_rocking reads the frames of a dynamic analysis", path="analysis.type")
        if not any(outputs["free_rocking"]["axis"]):
            raise ModelError("the rocking axis is zero; give a direction", path="outputs.free_rocking.axis")
    motions = spec.get("ground_motions")
    if motions is not None:
        if spec["analysis"].get("type") != "dynamic":
            raise ModelError("ground motions need a dynamic analysis", path="analysis.type")
        if not motions["files"] and not motions["records"] and "stochastic" not in motions:
            raise ModelError("no records: give files, records or stochastic", path="ground_motions")


def _check_one_kind(values, path):
    """Refuse a column of ``values`` of several kinds (numbers, strings, booleans)."""
    kinds = {_value_kind(value) for value in values}
    if len(kinds) > 1:
        raise ModelError(f"mixes {' and '.join(sorted(kinds))}; a dimension is one column of the table: "
                         "give values of one kind", path=path)


def _check_rows(parameters, rows, path):
    """Refuse rows that do not give one value per parameter, or a parameter's column of several kinds."""
    for index, row in enumerate(rows):
        if len(row) != len(parameters):
            raise ModelError(f"has {len(row)} values for the {len(parameters)} parameters {parameters}",
                             path=f"{path}[{index}]")
    for column, parameter in enumerate(parameters):
        _check_one_kind([row[column] for row in rows], f"{path} ({parameter})")


def _value_kind(value):
    """'booleans', 'numbers' or 'strings': the kind of a listed value (bool before int, its subclass)."""
    if isinstance(value, bool):
        return "booleans"
    return "strings" if isinstance(value, str) else "numbers"
