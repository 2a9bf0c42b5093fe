"""engine.io.schema.SchemaValidator: jsonschema_rs decides that a document is valid, jsonschema words the error of
one that is not. The fast validator must never pass what jsonschema refuses: checked on every generator's
document and on mutations of one that break a type, a range, a required field or an unknown name, in the model
and in each analysis type's request.
"""
import copy

import pytest

from extrados import ModelError, generators
from extrados.engine.analysis import request as request_module
from extrados.engine.io import model_document
from extrados.engine.io.schema import first_error


def both_verdicts(validator, document):
    """(jsonschema_rs says valid, jsonschema finds no error)."""
    return validator.fast.is_valid(document), next(validator.full.iter_errors(document), None) is None


@pytest.mark.parametrize("name", sorted(generators.GENERATORS))
def test_every_generators_document_is_valid_to_both(name):
    document = generators.generate(name)
    assert both_verdicts(model_document._VALIDATOR, document) == (True, True)
    for block in document["blocks"][:3]:
        assert both_verdicts(model_document._BLOCK_VALIDATOR, block) == (True, True)


def set_at(document, path, value):
    """A copy of ``document`` with ``value`` at ``path`` (keys and indices); value DELETE removes the key."""
    changed = copy.deepcopy(document)
    node = changed
    for key in path[:-1]:
        node = node[key]
    if value is DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return changed


DELETE = object()
MODEL_MUTATIONS = {
    "unknown top-level field": (("colour",), "red"),
    "gravity of two components": (("gravity",), [0.0, -9.81]),
    "density below its minimum": (("materials", "stone", "density"), -1.0),
    "friction as text": (("joints", "dry", "friction"), "0.6"),
    "unknown setting": (("settings", "speed"), 2),
    "unknown joint law": (("joints", "dry", "law"), "glue"),
    "iteration cap not an integer": (("settings", "max_iterations"), 1.5),
    "iteration cap a boolean": (("settings", "max_iterations"), True),
    "block without an id": (("blocks", 1, "id"), DELETE),
    "block with an unknown field": (("blocks", 1, "colour"), "red"),
    "vertex of two coordinates": (("blocks", 1, "vertices", 0), [0.0, 1.0]),
    "support as text": (("blocks", 1, "support"), "yes"),
}


@pytest.mark.parametrize("mutation", sorted(MODEL_MUTATIONS))
def test_a_broken_model_document_is_refused_by_both(mutation):
    document = generators.generate("arch", voussoirs=6)
    document.setdefault("settings", {})["max_iterations"] = 100
    path, value = MODEL_MUTATIONS[mutation]
    broken = set_at(document, path, value)
    assert both_verdicts(model_document._VALIDATOR, broken) == (False, False)
    with pytest.raises(ModelError):
        model_document.validate_schema(broken)


REQUEST_MUTATIONS = {
    "static": [({"type": "static", "speed": 2}), ({"type": "static", "settle": "yes"})],
    "load_factor": [({"type": "load_factor", "max_factor": -1.0}), ({"type": "load_factor", "direction": [1, 0]})],
    "dynamic": [({"type": "dynamic", "duration": -1.0}), ({"type": "dynamic", "duration": 1.0, "time_step": "1"})],
    "construction": [({"type": "construction", "stages": "sometimes"}), ({"type": "construction", "stages": [[]]})],
}


@pytest.mark.parametrize("kind", request_module.ANALYSIS_TYPES)
def test_a_broken_request_is_refused_by_both(kind):
    validator = request_module._VALIDATORS[kind]
    for broken in REQUEST_MUTATIONS[kind]:
        assert both_verdicts(validator, broken) == (False, False), broken
        assert first_error(validator, broken) is not None
